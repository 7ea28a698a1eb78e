/* agg.c — folds raw rows into per-point and per-(point, event) aggregates while streaming. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agg.h"
#include "encoding_field.h"
#include "noisy_why.h"
#include "num.h"
#include "partial.h"
#include "reading.h"
#include "stats.h"
#include "thresholds.h"

static int grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, (size_t)c * size);
	if (!q)
		return -1;
	memset((char *)q + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
	*p = q;
	*cap = c;
	return 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* The four indexes: how to hash entry i, and whether entry i matches a key. */
static uint64_t point_hash(const struct agg *a, uint32_t i)
{
	return hash_u64((uint64_t)a->points[i].id);
}

static uint64_t event_hash(const struct agg *a, uint32_t i)
{
	return hash_str(a->events[i].name);
}

static uint64_t cell_hash(const struct agg *a, uint32_t i)
{
	return hash_u64((uint64_t)a->cells[i].point << 32 | a->cells[i].event);
}

static uint64_t str_hash(const struct agg *a, uint32_t i)
{
	return hash_str(a->strs[i]);
}

/* Position of the entry matching key, or -1. */
typedef int (*ix_match)(const struct agg *a, uint32_t i, const void *key);

static int64_t ix_find(const struct agg *a, const struct agg_index *ix, uint64_t h, ix_match match,
		       const void *key)
{
	if (!ix->size)
		return -1;
	for (uint32_t s = (uint32_t)h & (ix->size - 1); ix->slot[s]; s = (s + 1) & (ix->size - 1))
		if (match(a, ix->slot[s] - 1, key))
			return ix->slot[s] - 1;
	return -1;
}

static int point_match(const struct agg *a, uint32_t i, const void *key)
{
	return a->points[i].id == *(const int64_t *)key;
}

static int event_match(const struct agg *a, uint32_t i, const void *key)
{
	return strcmp(a->events[i].name, key) == 0;
}

static int cell_match(const struct agg *a, uint32_t i, const void *key)
{
	return ((uint64_t)a->cells[i].point << 32 | a->cells[i].event) == *(const uint64_t *)key;
}

static int str_match(const struct agg *a, uint32_t i, const void *key)
{
	return strcmp(a->strs[i], key) == 0;
}

/* Adds entry n - 1 (just appended); the table stays at most half full. */
static int ix_add(struct agg *a, struct agg_index *ix, uint32_t n,
		  uint64_t (*hash)(const struct agg *, uint32_t))
{
	if (2 * n > ix->size) {
		uint32_t size = ix->size ? 2 * ix->size : 1024;
		uint32_t *slot = calloc(size, sizeof *slot);
		if (!slot)
			return -1;
		free(ix->slot);
		ix->slot = slot;
		ix->size = size;
		for (uint32_t i = 0; i + 1 < n; i++) {
			uint32_t s = (uint32_t)hash(a, i) & (size - 1);
			while (slot[s])
				s = (s + 1) & (size - 1);
			slot[s] = i + 1;
		}
	}
	uint32_t s = (uint32_t)hash(a, n - 1) & (ix->size - 1);
	while (ix->slot[s])
		s = (s + 1) & (ix->size - 1);
	ix->slot[s] = n;
	return 0;
}

/* One copy of each distinct text (kernel, variant, placement and prefetch repeat on every point). */
static const char *intern(struct agg *a, const char *s)
{
	int64_t i = ix_find(a, &a->str_ix, hash_str(s), str_match, s);

	if (i >= 0)
		return a->strs[i];
	if (grow((void **)&a->strs, &a->strs_cap, a->nstrs + 1, sizeof *a->strs) ||
	    !(a->strs[a->nstrs] = strdup(s)))
		return NULL;
	a->nstrs++;
	if (ix_add(a, &a->str_ix, a->nstrs, str_hash))
		return NULL;
	return a->strs[a->nstrs - 1];
}

static char *dup(const char *s)
{
	return strdup(s ? s : "");
}

/* The privilege domain an encoding records (",domain=user+kernel", harness ctr_spec.c), "" when none. */
static void domain_of(const char *encoding, char *out, size_t len)
{
	const char *d = encoding_field(encoding, "domain=");

	snprintf(out, len, "%.*s", d ? (int)strcspn(d, ",") : 0, d ? d : "");
}

static int find_event(struct agg *a, const struct raw_row *row, uint32_t *out)
{
	int64_t i = ix_find(a, &a->event_ix, hash_str(row->event), event_match, row->event);
	const struct machine_hypo *h;
	struct agg_event *ev;

	if (i >= 0) {
		*out = (uint32_t)i;
		return 0;
	}
	if (grow((void **)&a->events, &a->events_cap, a->nevents + 1, sizeof *a->events))
		return -1;
	ev = &a->events[a->nevents++];
	ev->name = dup(row->event);
	ev->backend = dup(row->backend);
	ev->encoding = dup(row->encoding);
	ev->scope = dup(row->scope);
	if (!ev->name || !ev->backend || !ev->encoding || !ev->scope)
		return -1;
	domain_of(ev->encoding, ev->domain, sizeof ev->domain);
	ev->box_of = -1;
	ev->hyp_q = -1;
	/* a volume the config expected breaks ties (its scale, when it gives one, is a simple value
	   besides the physical ones); a cycles hypothesis is for stalls.md */
	if ((h = machine_hypo_find(&a->m, ev->name)) && h->quantity < RQ_COUNT) {
		ev->hyp_q = h->quantity;
		ev->hyp_scale = h->scale;
	}
	*out = a->nevents - 1;
	return ix_add(a, &a->event_ix, a->nevents, event_hash);
}

static int find_cell(struct agg *a, uint32_t point, uint32_t event, struct agg_cell **out)
{
	uint64_t k = (uint64_t)point << 32 | event;
	int64_t i = ix_find(a, &a->cell_ix, hash_u64(k), cell_match, &k);
	struct agg_event *ev = &a->events[event];

	if (i >= 0) {
		*out = &a->cells[i];
		return 0;
	}
	if (grow((void **)&a->cells, &a->cells_cap, a->ncells + 1, sizeof *a->cells) ||
	    grow((void **)&ev->cells, &ev->cap, ev->ncells + 1, sizeof *ev->cells))
		return -1;
	a->cells[a->ncells] = (struct agg_cell){.point = point, .event = event};
	ev->cells[ev->ncells++] = a->ncells;
	*out = &a->cells[a->ncells++];
	return ix_add(a, &a->cell_ix, a->ncells, cell_hash);
}

static int cell_add(struct agg_cell *c, double count)
{
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 8; /* one allocation for the usual 3-8 repetitions */
		double *p = realloc(c->counts, cap * sizeof *p);
		if (!p)
			return -1;
		c->counts = p;
		c->cap = cap;
	}
	c->counts[c->n++] = count;
	return 0;
}

static int point_init(struct agg *a, struct agg_point *p, const struct raw_row *row)
{
	p->id = row->point;
	p->kernel = intern(a, row->kernel);
	p->variant = intern(a, row->variant);
	p->placement = intern(a, row->placement);
	p->prefetch = intern(a, row->prefetch);
	if (!p->kernel || !p->variant || !p->placement || !p->prefetch)
		return -1;
	p->access = row->access;
	p->thp_share = row->thp_share;
	p->plots = row->plots;
	p->traits = row->traits;
	p->width = row->width;
	p->arg = row->arg;
	p->bytes = row->bytes;
	p->arrays = row->arrays;
	p->reps = row->reps;
	p->threads = row->threads;
	p->level = point_level_assign(&a->m, row);
	p->pf = point_level_prefetch(row->prefetch);
	memcpy(p->v, row->v, sizeof p->v);
	for (int q = 0; q < RQ_COUNT; q++)
		if (isnan(p->v[q]))
			a->unknown_q |= 1u << q;
	p->last_rep = -1;
	p->calls = (struct stats_mindiff){.by_size = !strcmp(row->diff, "size")};
	p->sec_per_tick = 0;
	p->nrep_secs = p->nticks = 0;
	p->core_ghz = 0;
	p->first_line = row->line;
	return 0;
}

/* All rows of a point describe the same experiment; a row that disagrees means a corrupt file. */
static int point_same(const struct agg_point *p, const struct raw_row *row)
{
	return strcmp(p->variant, row->variant) == 0 && p->bytes == row->bytes &&
		p->threads == row->threads && p->reps == row->reps && p->arg == row->arg &&
		strcmp(p->prefetch, row->prefetch) == 0 && strcmp(p->placement, row->placement) == 0 &&
		memcmp(p->v, row->v, sizeof p->v) == 0;
}

/* The point of a row, created on its first row; sets *idx. */
static int find_point(struct agg *a, const struct raw_row *row, uint32_t *idx, struct err *e)
{
	/* the rows of a measurement (one per event) come together: most rows belong to the last point */
	int64_t i = a->npoints && a->points[a->last_point].id == row->point
		? a->last_point
		: ix_find(a, &a->point_ix, hash_u64((uint64_t)row->point), point_match, &row->point);
	struct agg_point *p;

	if (i < 0) {
		if (grow((void **)&a->points, &a->points_cap, a->npoints + 1, sizeof *a->points) ||
		    point_init(a, &a->points[a->npoints], row) ||
		    ix_add(a, &a->point_ix, ++a->npoints, point_hash))
			return err_set(e, E_RUNTIME, "%s:%lu: out of memory", a->path, row->line);
		*idx = a->last_point = a->npoints - 1;
		return 0;
	}
	p = &a->points[i];
	/* a run writes each point's rows together (harness run.c: every repetition and group of a point
	   before the next point): a point found again after another one began was written twice or moved,
	   and its rows would be counted twice */
	if ((uint32_t)i != a->last_point)
		return err_set(
			e, E_USAGE,
			"%s:%lu: point %lld again, after point %lld began (each point's rows are together "
			"in a run's raw.csv)",
			a->path, row->line, (long long)row->point, (long long)a->points[a->last_point].id);
	*idx = a->last_point = (uint32_t)i;
	if (!point_same(p, row))
		return err_set(e, E_USAGE, "%s:%lu: point %lld has other parameters than on line %lu",
			       a->path, row->line, (long long)row->point, p->first_line);
	return 0;
}

/* One time per repetition: the rows of a measurement (one per event) repeat it. Every repetition's two
   calls go into the point's time (stats_mindiff), and its clock into the highest; the first AGG_REP_TIMES
   differences are kept only for files from before tsc_lo and tsc_hi. */
static void note_time(struct agg_point *p, const struct raw_row *row)
{
	if (row->group != 0 || row->rep == p->last_rep)
		return;
	p->last_rep = row->rep;
	stats_mindiff_add(&p->calls, (double)row->tsc_lo, (double)row->tsc_hi);
	if (row->tsc != 0 && row->seconds != 0 && p->nticks < AGG_REP_TIMES)
		p->ticks[p->nticks++] = row->seconds / (double)row->tsc;
	if (row->core_ghz > p->core_ghz) /* a repetition without a clock (0) is none, not 0 GHz */
		p->core_ghz = row->core_ghz;
	if (p->nrep_secs == AGG_REP_TIMES)
		return;
	p->rep_secs[p->nrep_secs++] = (float)row->seconds;
}

/* The median of the positive values of v[0..n) (stats_median_positive; the repetitions are kept as
   floats to keep a point small); 0 when there are none. */
static double positive_median(const float *v, unsigned n)
{
	double t[AGG_REP_TIMES];

	for (unsigned i = 0; i < n; i++)
		t[i] = v[i];
	return stats_median_positive(t, n);
}

/* What the point's instructions did, as the limits judge it. */
static struct kern_work work_of(const struct agg_point *p)
{
	return (struct kern_work){p->v[RQ_bytes_loaded], p->v[RQ_bytes_stored], p->v[RQ_loads],
				  p->v[RQ_stores]};
}

/* Whether the point's time moved more bytes, or ran more loads or stores, per core cycle at its clock than
   any core can (kern_impossibly_fast); without any clock (none in the point's repetitions nor the run's), at
   the fastest any core runs (THR_MAX_GHZ): not judged, a time no core reaches at any clock stood as a
   figure. */
static int too_fast(const struct agg_point *p)
{
	const struct kern_work w = work_of(p);

	return kern_impossibly_fast(&w, p->seconds, p->core_ghz > 0 ? p->core_ghz : THR_MAX_GHZ,
				    (double)p->threads);
}

/* Whether the point's time was past the core's ports at its clock (kern_past_ports; not judged without a
   clock or ports). */
static int past_ports(const struct agg_point *p, const struct kern_ports *ports)
{
	const struct kern_work w = work_of(p);

	return kern_past_ports(&w, p->seconds, p->core_ghz, (double)p->threads, ports);
}

/* A point's time and clock from its repetitions': min(2R) - min(R) of the calls, or min(R) where shorter
   (stats_mindiff, as the run's summary takes it), or in files without tsc_lo and tsc_hi the median of the
   differenced times; a time <= 0 is no time at all. A point none of whose repetitions has a clock takes the
   run's (run_ghz, 0 when that is missing too). A point that did more per core cycle than any core can
   (too_fast) was disturbed. A disturbed point with calls takes the bound of its shortest call
   instead (stats_mindiff_bound, as the run does), which no disturbance makes faster, so it still counts;
   without calls it has no such bound, and the peaks take it only where nothing clean is left, unless its time
   is faster than any core: that is no time at all (a 1431 GB/s L1 read, 404 bytes per cycle, once stood in
   peaks.csv and bw_load from an old file whose R calls a disturbance had stretched). A bound still faster
   than any core says its clock read low (a sample can, never high: harness record_ghz), since every call is
   an upper bound of its work: the point keeps its time and has no clock, so no figure in cycles (an L1 read
   whose repetitions all read 0.3 GHz gave 333 bytes per cycle in peaks.csv: analyze_peaks.sh).
   The core's own ports (machine.json config.ports) judge the same way, but not the point: a clean point
   past them takes its bound too, since its difference can run ahead of the hardware (stats.h: by a few
   percent where confirmed) and its bound cannot; and a point whose bound is still past them is no
   disturbance of its time, but a clock that read low, or a core that does more than the config's CPU (a
   guest shown an older model than its host's): it keeps its time, counts and verdicts, and has no clock. */
static void settle_time(struct agg_point *p, double run_ghz, const struct kern_ports *ports)
{
	double t;

	/* A run writes every row's seconds as its tsc over one TSC rate, so the repetitions agree; one edited
	   row must not set the point's rate (the last repetition's did: its seconds over 10^6 made a 27 GB/s
	   read 63 million). The upper median of the first ones: of two, the slower, as an edit can then only
	   make the point look slower. */
	if (p->nticks) {
		stats_sort(p->ticks, p->nticks);
		p->sec_per_tick = p->ticks[p->nticks / 2];
	}
	t = p->calls.lo > 0 ? stats_mindiff(&p->calls) * p->sec_per_tick
			    : positive_median(p->rep_secs, p->nrep_secs);

	p->seconds = t > 0 ? t : INFINITY;
	p->clock_of_run = !(p->core_ghz > 0);
	if (p->clock_of_run) /* the highest repetition's (note_time): harness record_ghz says why */
		p->core_ghz = run_ghz > 0 ? run_ghz : 0;
	if (too_fast(p)) {
		p->noisy = 1;
		p->noisy_why |= 1u << NW_TOO_FAST;
		if (!(p->calls.lo > 0))
			p->seconds = INFINITY;
	}
	p->past_ports = !p->noisy && p->calls.lo > 0 && past_ports(p, ports);
	if (p->calls.lo > 0 && (p->noisy || p->past_ports)) {
		t = stats_mindiff_bound(&p->calls) * p->sec_per_tick;
		p->seconds = t > 0 ? t : INFINITY;
		p->bounded = p->noisy;
		if (too_fast(p))
			p->core_ghz = 0;
	}
	/* even at its bound (a point without calls: at its time) */
	if (past_ports(p, ports)) {
		p->past_ports = p->ports_clock = 1;
		p->core_ghz = 0;
	}
	p->r_call = !p->noisy && !p->past_ports && p->calls.lo > 0 && stats_mindiff_r_call(&p->calls);
}

static int add_row(const struct raw_row *row, void *ctx, struct err *e)
{
	struct agg *a = ctx;
	struct agg_cell *c;
	uint32_t pt = 0, ev;
	enum raw_status status;
	const char *reason;
	int rc;

	if ((rc = find_point(a, row, &pt, e)))
		return rc;
	note_time(&a->points[pt], row);
	if (strcmp(row->flag, "noisy") == 0)
		a->points[pt].noisy = 1;
	a->points[pt].noisy_why |= row->noisy_why;
	if (!*row->event)
		return 0;
	if (find_event(a, row, &ev))
		goto oom;
	status = row->status;
	reason = row->reason;
	/* Never multiplex (README, "Events"): a reading that ran for only part of its time is not used, even
	   when the writer failed to mark it. Times of 0 and 0 are none given; a running time under an enabled
	   time of 0 is no whole reading either. */
	if (status == RS_OK && (row->time_enabled > 0 || row->time_running > 0) &&
	    row->time_running != row->time_enabled) {
		status = RS_MULTIPLEXED;
		reason = "time_running != time_enabled in a row marked ok";
	}
	if (status == RS_OK && (reason = reading_impossible(&a->m, row))) {
		struct agg_event *x = &a->events[ev];
		if (!x->rejected++) {
			x->reject_reason = reason;
			x->reject_line = row->line;
		}
		return 0;
	}
	a->events[ev].rows[status]++;
	if (status != RS_OK) {
		char **r = &a->events[ev].reason[status];
		if (!*r && !(*r = dup(reason)))
			goto oom;
		return 0;
	}
	if (find_cell(a, pt, ev, &c) || cell_add(c, row->count))
		goto oom;
	return 0;
oom:
	return err_set(e, E_RUNTIME, "%s:%lu: out of memory", a->path, row->line);
}

/* Each cell's median count, over its repetitions (one disturbed repetition moves no verdict, share or
   plot, which all take it), and its rate: that median over its point's
   time (settle_time: the time the peaks take). A repetition's own count over its own differenced seconds
   was moved by preemption: a stretched R call shortens 2R - R, and one such row read 5.39e8 page faults/s
   where the point's time gives 9.8e7. The point's time is one no disturbance shortens (a noisy point's
   is its bound), and no single disturbed repetition moves a median count (a socket event counts other
   tenants' traffic too), so interference can make a rate lower, never higher. Returns 0, or -1 when out
   of memory. */
static int settle_cells(struct agg *a)
{
	uint32_t most = 1;
	double *tmp;

	for (uint32_t i = 0; i < a->ncells; i++)
		most = a->cells[i].n > most ? a->cells[i].n : most;
	if (!(tmp = malloc(most * sizeof *tmp)))
		return -1;
	for (uint32_t i = 0; i < a->ncells; i++) {
		struct agg_cell *c = &a->cells[i];
		double t = a->points[c->point].seconds;
		memcpy(tmp, c->counts, c->n * sizeof *tmp);
		c->median = c->n ? stats_median_select(tmp, c->n) : NAN;
		c->rate = c->n && isfinite(t) && t > 0 ? c->median / t : 0;
	}
	free(tmp);
	return 0;
}

/* A sum's boxes: its numbered boxes, or the unit of one box the kernel names without a number, which the
   harness takes where no numbered box exists (boxes.c perf_boxes): "uncore_arb_*" sums "uncore_arb". */
static void link_boxes(struct agg *a)
{
	for (uint32_t s = 0; s < a->nevents; s++) {
		if (strncmp(a->events[s].encoding, "sum of ", 7))
			continue;
		for (uint32_t b = 0; b < a->nevents; b++)
			if (b != s &&
			    (num_wild_match(a->events[s].name, a->events[b].name) ||
			     num_wild_is_unnumbered(a->events[s].name, a->events[b].name))) {
				a->events[b].box_of = (int32_t)s;
				a->events[s].nboxes++;
			}
	}
}

/* A point whose speed probe read slow against the run's best, or the machine's over its recent runs where
   that is higher (noisy_why_slow; judged_against), as the run judges it once it ended (harness
   run_judge_slow): noisy, its time then its shortest call's bound (settle_time). The run judged each point
   against the samples before it only, the first against none. */
static void judge_slow(struct agg_point *p, const struct machine_probe *speed)
{
	if (p->id >= 0 && (uint64_t)p->id < speed->npoint_gbps &&
	    noisy_why_slow(speed->point_gbps[p->id], speed->judged_against)) {
		p->noisy = 1;
		p->noisy_why |= 1u << NW_SLOW;
	}
}

int agg_read(struct agg *a, const char *raw_path, struct err *e)
{
	const char *slash = strrchr(raw_path, '/');
	char dir[4096];
	struct stat st;
	long keep;
	int rc;

	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - raw_path) : 1, slash ? raw_path : ".");
	/* before the read: rows a live run appends meanwhile make the recorded size older, never newer */
	a->raw_bytes = stat(raw_path, &st) ? -1 : (long long)st.st_size;
	a->partial = partial_marked(dir);
	keep = a->partial ? raw_torn_point(raw_path) : -1; /* -1: all of it */

	a->path = raw_path;
	a->torn = keep >= 0;
	rc = raw_read_upto(raw_path, keep, add_row, a, &a->rows, e);
	a->path = NULL;
	for (uint32_t i = 0; i < a->npoints; i++) {
		judge_slow(&a->points[i], &a->m.speed);
		if (a->points[i].id >= 0 && (uint64_t)a->points[i].id < a->m.path.npoint_ratio)
			a->points[i].path_ratio = a->m.path.point_ratio[a->points[i].id];
		settle_time(&a->points[i], a->m.core_ghz, &a->m.ports);
	}
	if (!rc && settle_cells(a))
		rc = err_set(e, E_RUNTIME, "%s: out of memory", raw_path);
	link_boxes(a);
	return rc;
}

void agg_free(struct agg *a)
{
	for (uint32_t i = 0; i < a->ncells; i++)
		free(a->cells[i].counts);
	for (uint32_t i = 0; i < a->nevents; i++) {
		struct agg_event *ev = &a->events[i];
		free(ev->name);
		free(ev->backend);
		free(ev->encoding);
		free(ev->scope);
		free(ev->cells);
		for (int s = 0; s < RS_COUNT; s++)
			free(ev->reason[s]);
	}
	for (uint32_t i = 0; i < a->nstrs; i++)
		free(a->strs[i]);
	free(a->strs);
	free(a->points);
	free(a->events);
	free(a->cells);
	free(a->point_ix.slot);
	free(a->event_ix.slot);
	free(a->cell_ix.slot);
	free(a->str_ix.slot);
	machine_free(&a->m);
	memset(a, 0, sizeof *a);
}
