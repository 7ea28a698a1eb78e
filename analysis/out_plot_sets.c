/* out_plot_sets.c — which figures the data supports, and their points:
 *   bw_<family>        bandwidth vs buffer size per variant, threads, prefetch state (load/store/triad)
 *   ev_<event>         events per known quantity vs buffer size, prefetchers on vs off (Molka Fig. 3-6)
 *   nopread_bw         bandwidth vs NOP delay (Helm Fig. 3/4)
 *   splitread_time     time per load vs line offset; splitread_ev_<event> events per load (Larysch Fig. 4)
 *   chase_latency      latency vs buffer size for chase plain / indep / dep
 *   chase_ev_<event>   cycles per load an event reports vs measured (Molka Fig. 7/8)
 *   level_probe        the run's latency sweep that located the level limits
 * Sizes on x are per-thread footprints (bytes x arrays), the quantity the levels are assigned by. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_plot_sets.h"
#include "thresholds.h"

static const char *const level_keys[] = {"L1", "L2", "L3"};

static double footprint(const struct agg_point *p)
{
	return (double)p->bytes * (double)(p->arrays > 0 ? p->arrays : 1);
}

static double gbps(const struct agg_point *p)
{
	return p->seconds > 0 ? (p->v[RQ_bytes_loaded] + p->v[RQ_bytes_stored]) / p->seconds / 1e9 : NAN;
}

/* Per access of one thread: the slowest thread's time over its share of the accesses. */
static double ns_per(const struct agg_point *p, double quantity)
{
	return quantity > 0 && p->seconds > 0 ? p->seconds * 1e9 / (quantity / (double)p->threads) : NAN;
}

static struct out_plot *new_figure(struct out_figures *f, const char *name)
{
	struct out_plot *p;

	if (f->n == f->cap) {
		unsigned cap = f->cap ? 2 * f->cap : 16;
		p = realloc(f->p, cap * sizeof *p);
		if (!p)
			return NULL;
		f->p = p;
		f->cap = cap;
	}
	p = &f->p[f->n++];
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	/* file names: letters, digits, '_', '-', '.' only */
	for (char *c = p->name; *c; c++)
		if (!(('a' <= *c && *c <= 'z') || ('A' <= *c && *c <= 'Z') || ('0' <= *c && *c <= '9') ||
		      *c == '-' || *c == '.'))
			*c = '_';
	for (unsigned i = 0; i + 1 < f->n; i++)
		if (strcmp(f->p[i].name, p->name) == 0)
			snprintf(p->name + strlen(p->name), sizeof p->name - strlen(p->name), "_%u", f->n);
	return p;
}

/* Drops the last figure when it has nothing to draw (or only zeros, for event figures). */
static void keep_if_drawable(struct out_figures *f, int zeros_are_empty)
{
	struct out_plot *p = &f->p[f->n - 1];
	int nonzero = 0;

	for (unsigned i = 0; i < p->ns && !nonzero; i++)
		for (size_t j = 0; j < p->s[i].n; j++)
			nonzero |= !p->s[i].dashed && p->s[i].y[j] != 0 && isfinite(p->s[i].y[j]);
	if (out_plot_points(p) && (nonzero || !zeros_are_empty))
		return;
	out_plot_free(p);
	f->n--;
}

static void mark_levels(const struct out_rdata *d, struct out_plot *p)
{
	char label[64];

	for (int i = 0; i < 3; i++) {
		json_t *rep = out_json_path(d->machine, "levels.reported");
		json_t *meas = out_json_path(d->machine, "levels.measured");
		double r = json_number_value(json_object_get(rep, level_keys[i]));
		double m = json_number_value(json_object_get(meas, level_keys[i]));
		snprintf(label, sizeof label, "%s %.0f KiB", level_keys[i], r / 1024);
		out_plot_mark(p, r, label, 0);
		if (m > 0 && fabs(m - r) > 0.01 * r) {
			snprintf(label, sizeof label, "%s measured %.0f KiB", level_keys[i], m / 1024);
			out_plot_mark(p, m, label, 1);
		}
	}
}

/* "load.avx, 2 threads, prefetch off" (what: variant, family or nothing) */
static void series_name(char *buf, size_t len, const struct agg_point *p, const char *what)
{
	snprintf(buf, len, "%s%s%lld thread%s, prefetch %s%s%s", what, *what ? ", " : "", (long long)p->threads, p->threads == 1 ? "" : "s", p->prefetch,
		 strcmp(p->placement, "local") ? ", " : "", strcmp(p->placement, "local") ? p->placement : "");
}

static int add(struct out_plot *pl, const char *series, double x, double y, int dashed)
{
	struct out_series *s = out_plot_series(pl, series);

	if (!s)
		return -1;
	s->dashed = dashed;
	return out_series_add(s, x, y);
}

static int bandwidth(const struct out_rdata *d, struct out_figures *f, const char *family)
{
	const struct agg *a = &d->a;
	struct out_plot *pl;
	char name[64], s[200];

	snprintf(name, sizeof name, "bw_%s", family);
	if (!(pl = new_figure(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s: bandwidth vs buffer size", family);
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size per thread (bytes x arrays)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "bandwidth [GB/s, 10^9 B/s]");
	snprintf(pl->caption, sizeof pl->caption, "%s kernels: bytes loaded + stored per second over all "
		 "threads, fastest repetition. Grey dashed lines: reported cache sizes; red dotted lines: "
		 "level limits measured by the latency probe (when they differ).", family);
	pl->logx = pl->xbytes = 1;
	mark_levels(d, pl);
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!p->used || strcmp(p->kernel, family))
			continue;
		series_name(s, sizeof s, p, p->variant);
		if (add(pl, s, footprint(p), gbps(p), 0))
			return -1;
	}
	keep_if_drawable(f, 0);
	return 0;
}

/* The volume an event is drawn against: its verdict's quantity when that is a single volume,
   else lines read (the papers' "events per cache line"). */
static int event_quantity(const struct out_rdata *d, const char *event)
{
	const char *q = json_string_value(json_object_get(out_event_verdict(d, event), "quantity"));

	for (int i = 0; q && i < RQ_COUNT; i++)
		if (strcmp(q, raw_quantity_names[i]) == 0)
			return i;
	return RQ_lines_read;
}

static double cell_median(const struct agg_cell *c)
{
	double tmp[c->n ? c->n : 1];

	memcpy(tmp, c->counts, c->n * sizeof *tmp);
	return out_median(tmp, c->n);
}

static int sweep_kernel(const char *k)
{
	return !strcmp(k, "load") || !strcmp(k, "store") || !strcmp(k, "triad") || !strcmp(k, "chase") ||
	       !strcmp(k, "touch");
}

static int events_per_quantity(const struct out_rdata *d, struct out_figures *f, uint32_t ev)
{
	const struct agg *a = &d->a;
	const struct agg_event *e = &a->events[ev];
	int q = event_quantity(d, e->name);
	struct out_plot *pl;
	char name[160], s[240];

	snprintf(name, sizeof name, "ev_%s", e->name);
	if (!(pl = new_figure(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s per %s vs buffer size", e->name, raw_quantity_names[q]);
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size per thread (bytes x arrays)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "events per %s (median of repetitions)",
		 raw_quantity_names[q]);
	snprintf(pl->caption, sizeof pl->caption, "%s divided by the known %s of each kernel (median over "
		 "the family's variants), per family and prefetcher state (a constant line at a simple value is what a trustworthy event "
		 "draws). Lines: reported (grey) and measured (red) cache limits.", e->name,
		 raw_quantity_names[q]);
	pl->logx = pl->xbytes = 1;
	mark_levels(d, pl);
	for (uint32_t c = 0; c < e->ncells; c++) {
		const struct agg_cell *cell = &a->cells[e->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		if (!sweep_kernel(p->kernel) || !(p->v[q] > 0))
			continue;
		series_name(s, sizeof s, p, p->kernel);
		if (add(pl, s, footprint(p), cell_median(cell) / p->v[q], 0))
			return -1;
	}
	out_plot_collapse(pl);
	keep_if_drawable(f, 1);
	return 0;
}

static int has_kernel(const struct agg *a, const char *family)
{
	for (uint32_t i = 0; i < a->npoints; i++)
		if (a->points[i].used && strcmp(a->points[i].kernel, family) == 0)
			return 1;
	return 0;
}

static void level_series(char *buf, size_t len, const struct agg_point *p)
{
	char rest[160];

	series_name(rest, sizeof rest, p, "");
	snprintf(buf, len, "%s, %.0f KiB, %s", p->level >= 0 ? level_names[p->level] : "at a level boundary",
		 footprint(p) / 1024, rest);
}

static int nopread(const struct out_rdata *d, struct out_figures *f)
{
	const struct agg *a = &d->a;
	struct out_plot *pl = new_figure(f, "nopread_bw");
	char s[240];

	if (!pl)
		return -1;
	snprintf(pl->title, sizeof pl->title, "nopread: bandwidth vs NOP delay");
	snprintf(pl->xlabel, sizeof pl->xlabel, "delay D [NOPs after each group of 4 loads]");
	snprintf(pl->ylabel, sizeof pl->ylabel, "bandwidth [GB/s, lines read x 64 B / s]");
	snprintf(pl->caption, sizeof pl->caption, "Four read streams, one load per line, then D NOPs "
		 "(Helm & Taura, Fig. 3/4): the delay throttles the demand bandwidth. Bandwidth counts whole "
		 "lines, since each load brings in one.");
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!p->used || strcmp(p->kernel, "nopread") || !(p->seconds > 0))
			continue;
		level_series(s, sizeof s, p);
		if (add(pl, s, (double)p->arg, p->v[RQ_lines_read] * 64 / p->seconds / 1e9, 0))
			return -1;
	}
	keep_if_drawable(f, 0);
	return 0;
}

static int splitread_time(const struct out_rdata *d, struct out_figures *f)
{
	const struct agg *a = &d->a;
	struct out_plot *pl = new_figure(f, "splitread_time");
	char s[240];

	if (!pl)
		return -1;
	snprintf(pl->title, sizeof pl->title, "splitread: time per load vs offset in the line");
	snprintf(pl->xlabel, sizeof pl->xlabel, "offset of the 8-byte load in its 64-byte line [bytes]");
	snprintf(pl->ylabel, sizeof pl->ylabel, "time per load [ns]");
	snprintf(pl->caption, sizeof pl->caption, "One 8-byte load per line at offset o: from o = 57 on "
		 "every load spans two lines (Larysch, Fig. 4).");
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!p->used || strcmp(p->kernel, "splitread"))
			continue;
		level_series(s, sizeof s, p);
		if (add(pl, s, (double)p->arg, ns_per(p, p->v[RQ_loads]), 0))
			return -1;
	}
	keep_if_drawable(f, 0);
	return 0;
}

/* Events per load against the offset, with the known split loads per load as the reference. */
static int splitread_event(const struct out_rdata *d, struct out_figures *f, uint32_t ev)
{
	const struct agg *a = &d->a;
	const struct agg_event *e = &a->events[ev];
	struct out_plot *pl;
	char name[160], s[240];

	snprintf(name, sizeof name, "splitread_ev_%s", e->name);
	if (!(pl = new_figure(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s per load vs offset (splitread)", e->name);
	snprintf(pl->xlabel, sizeof pl->xlabel, "offset of the 8-byte load in its 64-byte line [bytes]");
	snprintf(pl->ylabel, sizeof pl->ylabel, "events per load");
	snprintf(pl->caption, sizeof pl->caption, "%s per load at each offset (Larysch, Fig. 4); the "
		 "dashed line is the known number of split loads per load.", e->name);
	for (uint32_t c = 0; c < e->ncells; c++) {
		const struct agg_cell *cell = &a->cells[e->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		if (strcmp(p->kernel, "splitread") || !(p->v[RQ_loads] > 0))
			continue;
		level_series(s, sizeof s, p);
		if (add(pl, s, (double)p->arg, cell_median(cell) / p->v[RQ_loads], 0) ||
		    add(pl, "known: split loads per load", (double)p->arg,
			p->v[RQ_split_loads] / p->v[RQ_loads], 1))
			return -1;
	}
	keep_if_drawable(f, 1);
	return 0;
}

static void chase_series(char *buf, size_t len, const struct agg_point *p, const char *what)
{
	const char *kind = strchr(p->variant, '.') ? strchr(p->variant, '.') + 1 : p->variant;

	if (p->arg)
		snprintf(buf, len, "%s%s K=%lld, prefetch %s", what, kind, (long long)p->arg, p->prefetch);
	else
		snprintf(buf, len, "%s%s, prefetch %s", what, kind, p->prefetch);
}

static int chase_latency(const struct out_rdata *d, struct out_figures *f)
{
	const struct agg *a = &d->a;
	struct out_plot *pl = new_figure(f, "chase_latency");
	char s[240];

	if (!pl)
		return -1;
	snprintf(pl->title, sizeof pl->title, "pointer chase: time per access vs buffer size (1 thread)");
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size (bytes)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "time per dependent load [ns]");
	snprintf(pl->caption, sizeof pl->caption, "Latency per level: plain chase, with K independent "
		 "multiplies (hidden in the load's shadow) and K dependent ones (added to every access).");
	pl->logx = pl->xbytes = pl->logy = 1;
	mark_levels(d, pl);
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!p->used || strcmp(p->kernel, "chase") || p->threads != 1)
			continue;
		chase_series(s, sizeof s, p, "");
		if (add(pl, s, footprint(p), ns_per(p, p->v[RQ_chase_accesses]), 0))
			return -1;
	}
	keep_if_drawable(f, 0);
	return 0;
}

/* Cycles per load an event reports, next to the measured core cycles per load (Molka Fig. 7/8). */
static int chase_event(const struct out_rdata *d, struct out_figures *f, uint32_t ev)
{
	const struct agg *a = &d->a;
	const struct agg_event *e = &a->events[ev];
	struct out_plot *pl;
	char name[160], s[240];

	snprintf(name, sizeof name, "chase_ev_%s", e->name);
	if (!(pl = new_figure(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s per dependent load (pointer chase)", e->name);
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size (bytes)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "events (cycles) per load");
	snprintf(pl->caption, sizeof pl->caption, "%s per load for the plain chase and with independent "
		 "or dependent multiplies; dashed: measured core cycles per load. A memory-stall event "
		 "follows the plain curve for both multiply variants (Molka et al., Fig. 7/8).", e->name);
	pl->logx = pl->xbytes = 1;
	mark_levels(d, pl);
	for (uint32_t c = 0; c < e->ncells; c++) {
		const struct agg_cell *cell = &a->cells[e->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		double per = p->v[RQ_chase_accesses] / (double)p->threads;
		if (strcmp(p->kernel, "chase") || !(per > 0))
			continue;
		chase_series(s, sizeof s, p, "");
		if (add(pl, s, footprint(p), cell_median(cell) / p->v[RQ_chase_accesses], 0))
			return -1;
		chase_series(s, sizeof s, p, "measured cycles: ");
		if (add(pl, s, footprint(p), p->seconds * p->core_ghz * 1e9 / per, 1))
			return -1;
	}
	keep_if_drawable(f, 1);
	return 0;
}

static int level_probe(const struct out_rdata *d, struct out_figures *f)
{
	json_t *curve = out_json_path(d->machine, "levels.latency_curve"), *pt;
	struct out_plot *pl;
	size_t i;

	if (!json_array_size(curve))
		return 0;
	if (!(pl = new_figure(f, "level_probe")))
		return -1;
	snprintf(pl->title, sizeof pl->title, "level probe: pointer-chase latency vs buffer size");
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size (bytes)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "latency [ns]");
	snprintf(pl->caption, sizeof pl->caption, "The latency sweep `run` made to find where each cache "
		 "level really ends (machine.json levels.latency_curve); its plateaus give the measured "
		 "limits.");
	pl->logx = pl->xbytes = pl->logy = 1;
	mark_levels(d, pl);
	json_array_foreach(curve, i, pt)
		if (add(pl, "latency per access", json_number_value(json_array_get(pt, 0)),
			json_number_value(json_array_get(pt, 1)), 0))
			return -1;
	keep_if_drawable(f, 0);
	return 0;
}

static int event_seen_in(const struct agg *a, const struct agg_event *e, const char *family)
{
	for (uint32_t c = 0; c < e->ncells; c++)
		if (strcmp(a->points[a->cells[e->cells[c]].point].kernel, family) == 0)
			return 1;
	return 0;
}

static void not_drawn(struct out_figures *f, const char *what)
{
	size_t n = strlen(f->not_drawn);

	snprintf(f->not_drawn + n, sizeof f->not_drawn - n, "%s%s", n ? "\n" : "", what);
}

static int event_figures(const struct out_rdata *d, struct out_figures *f)
{
	const struct agg *a = &d->a;
	unsigned before = f->n;

	for (uint32_t ev = 0; ev < a->nevents; ev++) {
		const struct agg_event *e = &a->events[ev];
		if (!e->ncells)
			continue;
		if (events_per_quantity(d, f, ev) ||
		    (event_seen_in(a, e, "splitread") && splitread_event(d, f, ev)) ||
		    (event_seen_in(a, e, "chase") && chase_event(d, f, ev)))
			return -1;
	}
	if (f->n == before)
		not_drawn(f, "Events per cache line, per load and per dependent load: no event has a "
			     "non-zero count (events not measured here are listed above).");
	return 0;
}

int out_figures_build(const struct out_rdata *d, struct out_figures *f, struct err *e)
{
	static const char *const bw[] = {"load", "store", "triad"};
	const struct agg *a = &d->a;
	int rc = 0;

	memset(f, 0, sizeof *f);
	for (unsigned i = 0; i < sizeof bw / sizeof bw[0] && !rc; i++)
		rc = has_kernel(a, bw[i]) ? bandwidth(d, f, bw[i]) : 0;
	if (!rc && has_kernel(a, "nopread"))
		rc = nopread(d, f);
	if (!rc && has_kernel(a, "splitread"))
		rc = splitread_time(d, f);
	if (!rc && has_kernel(a, "chase"))
		rc = chase_latency(d, f);
	if (!rc)
		rc = event_figures(d, f);
	if (!rc)
		rc = level_probe(d, f);
	if (rc) {
		out_figures_free(f);
		return err_set(e, E_RUNTIME, "figures: out of memory");
	}
	if (has_kernel(a, "nopread"))
		not_drawn(f, "Latency vs bandwidth (Helm Fig. 8-11): needs a validated load-latency event "
			     "pair (pending-miss cycles and L1 misses) counted with nopread; pmucheck "
			     "does not derive it from time alone.");
	return 0;
}

void out_figures_free(struct out_figures *f)
{
	for (unsigned i = 0; i < f->n; i++)
		out_plot_free(&f->p[i]);
	free(f->p);
	f->p = NULL;
	f->n = f->cap = 0;
}
