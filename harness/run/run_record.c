#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "run_events.h"
#include "run_record.h"
#include "stats.h"

int record_init(struct point_record *r, int nreps, int npass)
{
	memset(r, 0, sizeof *r);
	r->cap = nreps;
	r->npass = npass;
	r->pass = calloc((size_t)nreps * (size_t)npass, sizeof *r->pass);
	return r->pass ? 0 : -1;
}

void record_free(struct point_record *r)
{
	free(r->pass);
	r->pass = NULL;
}

struct rec_pass *record_pass(struct point_record *r, int rep, int group)
{
	if (rep >= r->nreps)
		r->nreps = rep + 1;
	return &r->pass[rep * r->npass + group];
}

void record_volumes(const struct plan_point *pt, uint64_t span, uint64_t reps, struct kern_volumes *out)
{
	int by_size = pt->fam->flags & KF_DIFF_BY_SIZE;
	struct kern_params lo = {span, by_size ? 1 : reps, pt->arg};
	struct kern_params hi = {by_size ? 2 * span : span, by_size ? 1 : 2 * reps, pt->arg};
	struct kern_volumes vl, vh;

	pt->fam->volumes(pt->var, &lo, &vl);
	pt->fam->volumes(pt->var, &hi, &vh);
#define X(name, presence) out->name = (vh.name - vl.name) * (uint64_t)pt->threads;
	KERN_VOLUME_FIELDS(X)
#undef X
}

void record_begin(struct point_record *r, const struct plan_point *pt, uint64_t span, uint64_t reps)
{
	int fresh = (pt->fam->flags & KF_FRESH_BUFFER) != 0;

	record_volumes(pt, span, fresh ? 1 : reps, &r->v);
	r->reps = fresh ? 1 : reps;
	r->span = span;
	r->by_size = (pt->fam->flags & KF_DIFF_BY_SIZE) != 0;
	r->spans = pt->threads > 1;
	r->nreps = 0;
}

double record_cv(const struct point_record *r)
{
	double sum = 0, sq = 0, mean;

	for (int i = 0; i < r->nreps; i++)
		sum += (double)r->pass[i * r->npass].ticks;
	mean = sum / r->nreps;
	if (r->nreps < 2 || mean <= 0)
		return r->nreps < 2 ? 0 : INFINITY;
	for (int i = 0; i < r->nreps; i++) {
		double d = (double)r->pass[i * r->npass].ticks - mean;
		sq += d * d;
	}
	return sqrt(sq / (r->nreps - 1)) / mean;
}

uint64_t record_longest(const uint64_t *ticks, int n)
{
	uint64_t m = 0;

	for (int i = 0; i < n; i++)
		if (ticks[i] > m)
			m = ticks[i];
	return m;
}

void record_pass_calls(struct rec_pass *p, const uint64_t *start_lo, const uint64_t *lo,
		       const uint64_t *start_hi, const uint64_t *hi, int n)
{
	p->lo = record_span(start_lo, lo, n);
	p->hi = record_span(start_hi, hi, n);
	p->ticks = (int64_t)(p->hi - p->lo); /* signed: on noisy kernels (page faults) the shorter call can
						take longer */
	p->lo_own = record_longest(lo, n);
	p->hi_own = record_longest(hi, n);
	p->apart = record_apart(p->lo, p->lo_own, n) || record_apart(p->hi, p->hi_own, n);
}

uint64_t record_span(const uint64_t *start, const uint64_t *ticks, int n)
{
	uint64_t first = UINT64_MAX, last = 0;

	for (int i = 0; i < n; i++) {
		if (start[i] < first)
			first = start[i];
		if (start[i] + ticks[i] > last)
			last = start[i] + ticks[i];
	}
	return n > 0 ? last - first : 0;
}

int record_apart(uint64_t span, uint64_t longest, int n)
{
	return n > 1 && (double)span > RECORD_APART * (double)longest;
}

int record_threads_apart(const struct point_record *r)
{
	for (int i = 0; i < r->nreps; i++)
		if (!r->pass[i * r->npass].apart)
			return 0;
	return r->nreps > 0;
}

double record_ghz(const struct point_record *r)
{
	double g[256];
	int n = 0;

	for (int i = 0; i < r->nreps && n < 256; i++)
		g[n++] = r->pass[i * r->npass].ghz;
	return stats_max_positive(g, (size_t)n);
}

int record_impossibly_fast(const struct point_record *r, double seconds, double run_ghz, int threads)
{
	const struct kern_work w = {(double)r->v.bytes_loaded, (double)r->v.bytes_stored, (double)r->v.loads,
				    (double)r->v.stores};
	double ghz = record_ghz(r);

	return kern_impossibly_fast(&w, seconds, ghz > 0 ? ghz : run_ghz, threads);
}

struct stats_mindiff record_calls(const struct point_record *r)
{
	struct stats_mindiff m = {.by_size = r->by_size, .spans = r->spans};

	for (int i = 0; i < r->nreps; i++) {
		const struct rec_pass *p = &r->pass[i * r->npass];
		if (r->spans)
			stats_mindiff_add_spans(&m, (double)p->lo, (double)p->hi, (double)p->lo_own,
						(double)p->hi_own);
		else
			stats_mindiff_add(&m, (double)p->lo, (double)p->hi);
	}
	return m;
}

/* A repetition's R call (hi 0) or 2R call (hi 1) as record_disturbed judges it: for several threads their
   longest thread's own, without the start skew. */
static uint64_t own_call(const struct point_record *r, const struct rec_pass *p, int hi)
{
	if (r->spans)
		return hi ? p->hi_own : p->lo_own;
	return hi ? p->hi : p->lo;
}

int record_disturbed(const struct point_record *r)
{
	/* the shortest call of each length, of several threads their longest thread's own */
	struct stats_mindiff m = record_calls(r);
	double lo = r->spans ? m.own_lo : m.lo, hi = r->spans ? m.own_hi : m.hi;
	int n = 0;

	if (r->by_size)
		return 0;
	for (int i = 0; i < r->nreps; i++) {
		const struct rec_pass *p = &r->pass[i * r->npass];
		n += (double)own_call(r, p, 0) > (1 + RECORD_DISTURBED) * lo ||
			(double)own_call(r, p, 1) > (1 + RECORD_DISTURBED) * hi;
	}
	return n;
}

int record_by_chains(const struct point_record *r)
{
	int n = 0;

	for (int i = 0; i < r->nreps; i++) {
		int chains = 0;
		for (int g = 0; g < r->npass; g++)
			chains |= r->pass[i * r->npass + g].clock_chains > 0;
		n += chains;
	}
	return n;
}

struct run_clock_tally record_clock_tally(const struct point_record *r)
{
	struct run_clock_tally t = {0};

	for (int i = 0; i < r->nreps * r->npass; i++) {
		t.samples += r->pass[i].clock_samples;
		for (int k = 0; k < CLOCK_REJECTS; k++)
			t.rejected_by[k] += r->pass[i].clock_rejected_by[k];
	}
	for (int i = 0; i < r->nreps; i++)
		t.reps_without += !(r->pass[i * r->npass].ghz > 0);
	return t;
}

void record_clock_tally_add(struct run_clock_tally *sum, const struct run_clock_tally *t)
{
	sum->samples += t->samples;
	sum->reps_without += t->reps_without;
	for (int k = 0; k < CLOCK_REJECTS; k++)
		sum->rejected_by[k] += t->rejected_by[k];
}

int record_judged(const struct point_record *r)
{
	return r->by_size ? 0 : r->nreps;
}

double record_seconds(const struct point_record *r, double tsc_hz, int disturbed)
{
	struct stats_mindiff m = record_calls(r);

	return (disturbed ? stats_mindiff_bound(&m) : stats_mindiff(&m)) / tsc_hz;
}

/* Bandwidth and latency of a time of the point, into *gbps and *ns; none (0) when it is not positive. Each
   thread chases its own chain, so the latency is the time over one thread's accesses (the volumes are all
   threads'). */
static void rates(double sec, const struct point_record *r, int threads, double *gbps, double *ns)
{
	*gbps = *ns = 0;
	if (!(sec > 0))
		return;
	*gbps = (double)(r->v.bytes_loaded + r->v.bytes_stored) / sec * 1e-9;
	if (r->v.chase_accesses)
		*ns = sec * 1e9 / ((double)r->v.chase_accesses / threads);
}

void record_summarise(struct run_point_result *res, const struct point_record *r, int threads, double tsc_hz,
		      int noisy)
{
	struct stats_mindiff calls = record_calls(r);

	rates(record_seconds(r, tsc_hz, 1), r, threads, &res->bound_gbps, &res->bound_ns);
	res->r_call = !noisy && stats_mindiff_r_call(&calls);
	if (noisy) {
		res->gbps = res->bound_gbps;
		res->ns = res->bound_ns;
	} else {
		rates(record_seconds(r, tsc_hz, 0), r, threads, &res->gbps, &res->ns);
	}
}

/* The part of a row that all its events share. */
static void row_common(const struct run_state *s, int ipt, const struct point_record *r,
		       const struct record_labels *l, unsigned noisy_why, struct raw_out_row *row)
{
	const struct plan_point *pt = &s->plan->points[ipt];

	memset(row, 0, sizeof *row);
	row->point = s->point_base + ipt;
	row->experiment = s->experiment ? s->experiment : "";
	row->kernel = pt->fam->name;
	row->variant = pt->var->name;
	row->access = pt->var->access;
	row->plots = kern_policy(pt->fam, pt->var)->plots;
	row->traits = pt->var->flags;
	row->width = pt->var->width;
	row->arg_name = pt->fam->arg_name ? pt->fam->arg_name : "";
	row->arg = pt->arg;
	row->bytes = pt->bytes;
	row->arrays = pt->fam->arrays;
	row->reps = r->reps;
	row->span = r->span;
	row->diff = (pt->fam->flags & KF_DIFF_BY_SIZE) ? "size" : "reps";
	row->threads = pt->threads;
	row->cpus = l->cpus;
	row->placement = l->placement;
	row->mem_nodes = l->mem_nodes;
	row->prefetch = s->cfg->plan.pf_states[pt->pf];
	row->msr = l->msr;
	row->level = level_name(pt->level);
	row->thp_share = l->thp_share;
	row->flag = noisy_why ? "noisy" : "";
	row->noisy_why = noisy_why;
	row->v = r->v;
	row->status = "ok";
	row->reason = "";
}

void record_clock_note(const struct rec_pass *p, char *buf, size_t len)
{
	int n = 0, rejected = 0;

	for (int k = 0; k < CLOCK_REJECTS; k++)
		rejected += p->clock_rejected_by[k];

	buf[0] = '\0';
	if (p->clock_chains)
		n = snprintf(buf, len,
			     "%d threads clocked by add chains (their APERF/MPERF group did not start)",
			     p->clock_chains);
	if (rejected && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s%d of %d clock samples rejected: %s", n ? "; " : "",
			 rejected, p->clock_samples, p->clock_why);
}

/* The time part of a row: group gi's pass p (its differenced and raw TSC ticks, clock and clock note). */
static void pass_timing(struct raw_out_row *row, int gi, const struct rec_pass *p,
			const struct record_labels *l, char *note, size_t len)
{
	row->group = gi;
	row->tsc = p->ticks;
	row->tsc_lo = p->lo;
	row->tsc_hi = p->hi;
	row->seconds = (double)p->ticks / l->tsc_hz;
	row->core_ghz = p->ghz;
	record_clock_note(p, note, len);
	row->clock_note = note;
}

/* The event's columns, its reading cleared: the row is reused for every event of the pass, and an event
   that has no reading must not keep the one written before it (raw.csv gave a not measured
   cpu/event=0x3c/ the page-faults row's time_enabled and time_running). */
static void event_fields(struct raw_out_row *row, const struct ctr_event *ev, const struct record_labels *l)
{
	row->uncore = ev->scope == CTR_SCOPE_SOCKET && l->uncore ? l->uncore : "";
	row->event = ev->spec;
	row->backend = ctr_backend_name(ev->backend);
	row->encoding = ev->encoding;
	row->scope = ctr_scope_name(ev->scope);
	row->has_count = 0;
	row->count = 0;
	row->time_enabled = row->time_running = 0;
}

#define BOX_SUMS_MAX 32

/* One box wildcard's sum over its boxes in one repetition. */
struct box_sum {
	const struct ctr_event *first; /* its first box */
	unsigned boxes, counted;
	int64_t count;
	/* the longest time a box was enabled, and the most time any box was enabled but not running: each box
	   is a group of its own, counted in a pass of its own that lasts its own time, so the shortest
	   running time beside the longest enabled one would mark every sum multiplexed */
	uint64_t enabled, not_running;
	enum ctr_status status;
	char reason[CTR_REASON_MAX];
};

static struct box_sum *box_sum_of(struct box_sum *sums, unsigned *n, const struct ctr_event *ev)
{
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(sums[i].first->sum_of, ev->sum_of))
			return &sums[i];
	if (*n == BOX_SUMS_MAX)
		return NULL;
	sums[*n] = (struct box_sum){.first = ev, .status = CTR_OK};
	return &sums[(*n)++];
}

/* A box that was not counted makes the sum not a sum: it takes the box's status, naming the box. */
static void box_missing(struct box_sum *b, const struct ctr_event *ev, enum ctr_status st, const char *why)
{
	if (b->status != CTR_OK)
		return;
	b->status = st;
	snprintf(b->reason, sizeof b->reason, "box %.60s: %s", ev->spec, why);
}

/* The rows of the box wildcards in repetition rep: each the sum over every box the machine has. */
static void write_box_sums(struct run_state *s, const struct point_record *r, const struct record_labels *l,
			   int rep, struct raw_out_row *row)
{
	const struct run_events *re = s->events;
	struct box_sum sums[BOX_SUMS_MAX];
	char enc[CTR_ENC_MAX];
	unsigned n = 0;

	for (unsigned i = 0; i < re->nev; i++) {
		struct box_sum *b = re->evs[i].sum_of[0] ? box_sum_of(sums, &n, &re->evs[i]) : NULL;
		if (!b)
			continue;
		b->boxes++;
		if (re->evs[i].status != CTR_OK)
			box_missing(b, &re->evs[i], re->evs[i].status, re->evs[i].reason);
	}
	for (int gi = 0; n && gi < (int)re->plan.ngroups; gi++) {
		const struct ctr_group *grp = &re->plan.groups[gi];
		const struct rec_pass *p = &r->pass[rep * r->npass + gi];
		for (unsigned k = 0; k < grp->n; k++) {
			const struct rec_event *x = &p->ev[k];
			struct box_sum *b = grp->ev[k]->sum_of[0] ? box_sum_of(sums, &n, grp->ev[k]) : NULL;
			if (!b)
				continue;
			if (x->status != CTR_OK || !x->has_count) {
				box_missing(b, grp->ev[k], x->status != CTR_OK ? x->status : CTR_FAILED,
					    x->status != CTR_OK ? x->reason : "no count");
				continue;
			}
			b->count += x->count;
			b->counted++;
			b->enabled = x->time_enabled > b->enabled ? x->time_enabled : b->enabled;
			if (x->time_enabled > x->time_running &&
			    x->time_enabled - x->time_running > b->not_running)
				b->not_running = x->time_enabled - x->time_running;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		struct box_sum *b = &sums[i];
		/* not measured, a sum has no reading, as no event not measured has one (event_fields): the
		   times of the boxes that were counted are not its own */
		if (b->status == CTR_NOT_MEASURED)
			b->enabled = b->not_running = 0;
		boxes_sum_encoding(b->first, b->boxes, enc, sizeof enc);
		row->event = b->first->sum_of;
		row->backend = ctr_backend_name(b->first->backend);
		row->encoding = enc;
		row->scope = ctr_scope_name(b->first->scope);
		row->uncore = b->first->scope == CTR_SCOPE_SOCKET && l->uncore ? l->uncore : "";
		row->has_count = b->status == CTR_OK && b->counted == b->boxes;
		row->count = b->count;
		row->time_enabled = b->enabled;
		row->time_running = b->enabled - (b->not_running < b->enabled ? b->not_running : b->enabled);
		row->status = ctr_status_name(b->status);
		row->reason = b->reason;
		raw_write(s->raw, row);
	}
}

void record_write(struct run_state *s, int ipt, const struct point_record *r, const struct record_labels *l,
		  unsigned noisy_why)
{
	const struct run_events *re = s->events;
	const struct ctr_plan *cp = re && re->plan.ngroups ? &re->plan : NULL;
	struct raw_out_row row;
	char note[256];

	for (int rep = 0; rep < r->nreps; rep++)
		for (int gi = 0; gi < r->npass; gi++) {
			const struct rec_pass *p = &r->pass[rep * r->npass + gi];
			const struct ctr_group *grp = cp ? &cp->groups[gi] : NULL;

			row_common(s, ipt, r, l, noisy_why, &row);
			row.rep = rep;
			pass_timing(&row, gi, p, l, note, sizeof note);
			if (!grp)
				raw_write(s->raw, &row);
			for (unsigned k = 0; grp && k < grp->n; k++) {
				const struct rec_event *ev = &p->ev[k];
				event_fields(&row, grp->ev[k], l);
				row.has_count = ev->has_count;
				row.count = ev->count;
				row.time_enabled = ev->time_enabled;
				row.time_running = ev->time_running;
				row.status = ctr_status_name(ev->status);
				row.reason = ev->reason;
				raw_write(s->raw, &row);
			}
			/* Events that are not counted get their rows beside the first group's. */
			for (unsigned i = 0; gi == 0 && re && i < re->nev; i++) {
				if (re->evs[i].status == CTR_OK)
					continue;
				event_fields(&row, &re->evs[i], l);
				row.status = ctr_status_name(re->evs[i].status);
				row.reason = re->evs[i].reason;
				raw_write(s->raw, &row);
			}
			/* after the last group: the box sums, with group 0's time; also without any group, when
			   no box could be counted here: the sums are then not measured, naming a box and why */
			if (re && gi == r->npass - 1) {
				pass_timing(&row, 0, &r->pass[rep * r->npass], l, note, sizeof note);
				write_box_sums(s, r, l, rep, &row);
			}
		}
}
