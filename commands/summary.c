#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "noisy_why.h"
#include "run.h"
#include "run_record.h"
#include "stats.h"
#include "summary.h"

#define CELL 21 /* column width: "1.2* / 123.4*", "12.34 ns 45.6 cyc*" */

/* A point measured before the interruption a resumed run continues: no result in res. */
static int earlier(const struct summary_probe *sp, int i)
{
	return sp && i < sp->done_before;
}

/* Whether a point is of its level's cells: not on a level boundary, and at DRAM only with local memory,
   as the peaks' DRAM row is (analysis/peak.c gives remote DRAM, and each other placement, rows of their own):
   a remote chase's 141 ns made a local DRAM latency of 91 ns read 116. */
static int in_cells(const struct summary_probe *sp, const struct plan_point *pt)
{
	return !pt->boundary &&
		(pt->level != LEVEL_DRAM || !sp || !sp->opts ||
		 sp->opts->places[pt->place].kind == BUF_LOCAL);
}

/* A one-thread latency point of level in its cell: the points a level's latency cell is of. */
static int level_latency_point(const struct summary_probe *sp, const struct plan_point *pt, int level)
{
	return pt->var->access == KA_LATENCY && pt->threads == 1 && pt->level == level && in_cells(sp, pt);
}

/* Access types measured as a bandwidth (the others: latency, faults, none). */
static int is_bandwidth(enum kern_access a)
{
	return a != KA_NONE && a != KA_LATENCY && a != KA_FAULT;
}

/* The level probe's times that stand for the point, at the sizes level_probe_from allows (level_probe_fold),
   ns 0 where it has none or cannot stand for the point (level_probe_stands_for). plan_clear_of numbers the
   caches from 1, so the level below pt->level is its enum value. */
static struct level_probe_bound probe_bound(const struct summary_probe *sp, const struct plan_point *pt,
					    const struct run_point_result *res)
{
	const struct plan_opts *o = sp ? sp->opts : NULL;
	struct level_probe_bound b = {0, 0, 0};
	double below = 0, from;

	if (!o || !sp->probe ||
	    !level_probe_stands_for(o->places[pt->place].kind == BUF_LOCAL,
				    !strcmp(o->pf_states[pt->pf], "on") ||
					    !strcmp(o->pf_states[pt->pf], "uncontrolled"),
				    res->thp_share))
		return b;
	if (sp->topo && pt->level > LEVEL_L1 && pt->level < LEVEL_DRAM)
		below = (double)plan_clear_of(sp->topo, (int)pt->level, 1);
	from = level_probe_from(pt->level, (double)pt->bytes, below);
	for (int i = 0; i < sp->probe->npoints; i++)
		b = level_probe_fold(from, (double)sp->probe->size[i],
				     (struct level_probe_time){sp->probe->ns[i], sp->probe->cycles[i]}, b);
	return b;
}

/* A latency point as all its visits measured it (the plan's, res[i], and the revisits of it, rv): the
   fastest, each a time interference can only stretch (a noisy one's the bound of its shortest call), and
   noisy only where every visit was; as the analysis takes them (analysis/peak.c latency). */
static struct run_point_result visits(const struct run_point_result *res, const struct summary_revisits *rv,
				      int i)
{
	struct run_point_result b = res[i];
	int clean = b.ns > 0 && !b.noisy_why;

	for (int k = 0; rv && k < rv->n; k++) {
		const struct run_point_result *r = &rv->res[k];
		if (rv->of[k] != i || !(r->ns > 0))
			continue;
		clean |= !r->noisy_why;
		if (!(b.ns > 0) || r->ns < b.ns)
			b = *r;
	}
	if (clean)
		b.noisy_why = 0;
	return b;
}

/* Median of the pointer-chase latencies (access type latency) measured in a level, one thread, over its
   clean points or, when it has none, its noisy ones (*noisy = 1); each point at the faster of its own time
   and the level probe's (probe_bound; counted in *probed), the probe's in its own cycles (common/level.h:
   level_probe_figure says why), and at its fastest visit (visits); cycles over the points with a clock (*cyc
   = 0 when none). A cache level's DRAM-like points (level_latency_dram_like) are left out and counted in
   *dram_like: they measured DRAM, not the level. A point on a level boundary (plan_on_boundary) is in no
   level. */
static int latency(const struct plan *p, const struct run_point_result *res,
		   const struct summary_revisits *rv, const struct summary_probe *sp, int level, double *ns,
		   double *cyc, int *noisy, int *dram_like, int *probed)
{
	double *v = calloc((size_t)p->npoints + 1, sizeof *v), *c = calloc((size_t)p->npoints + 1, sizeof *c);
	int n = 0, nc = 0, found;

	*dram_like = *probed = 0;
	for (int pass = 0; pass < 2 && !n && v && c; pass++) {
		*noisy = pass;
		for (int i = 0; i < p->npoints; i++) {
			const struct plan_point *pt = &p->points[i];
			if (!level_latency_point(sp, pt, level) || earlier(sp, i))
				continue;
			struct run_point_result r = visits(res, rv, i);
			if (r.ns <= 0 || (r.noisy_why != 0) != pass)
				continue;
			int by_probe;
			double cycles,
				fig = level_probe_figure(r.ns, probe_bound(sp, pt, &r), r.core_ghz,
							 sp ? sp->ghz : 0, &cycles, &by_probe);
			if (level_latency_dram_like((enum level)level, fig)) {
				++*dram_like;
				continue;
			}
			*probed += by_probe;
			v[n++] = fig;
			if (cycles > 0)
				c[nc++] = cycles;
		}
	}
	found = n > 0;
	if (!found)
		*noisy = *probed = 0;
	else {
		*ns = stats_median(v, (size_t)n);
		*cyc = stats_median(c, (size_t)nc);
	}
	free(v);
	free(c);
	return found;
}

/* The best bandwidth of a cell ([clean, noisy] points): a noisy point's figure is its bound, never faster
   than the hardware (record_seconds), so it counts beside the clean ones; the cell is marked "*" (*marked
   set) when its best is such a bound. "-" when nothing was measured there (never a 0.0 that was not
   measured). */
static void bandwidth_cell(char *buf, size_t len, const double best[2], int *marked)
{
	int from_noisy = best[1] > best[0];

	if (!(best[0] > 0) && !(best[1] > 0)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%.1f%s", from_noisy ? best[1] : best[0], from_noisy ? "*" : "");
	*marked |= from_noisy;
}

/* Whether a level's latency was measured only before the interruption a resumed run continues. */
static int earlier_latency(const struct plan *p, const struct summary_probe *sp, int level)
{
	for (int i = 0; i < p->npoints; i++)
		if (earlier(sp, i) && level_latency_point(sp, &p->points[i], level))
			return 1;
	return 0;
}

/* The latency cell of a level: ns, and cycles where a clock was measured; "*" from noisy points only; "^"
   (*probe_marked set) where some point's figure is the level probe's; "DRAM-like" (*dram_marked set)
   when its only points took DRAM-like time. */
static void latency_cell(char *buf, size_t len, const struct plan *p, const struct run_point_result *res,
			 const struct summary_revisits *rv, const struct summary_probe *sp, int level,
			 int *marked, int *dram_marked, int *probe_marked)
{
	double ns, cyc;
	int noisy, dram_like, probed;

	if (!latency(p, res, rv, sp, level, &ns, &cyc, &noisy, &dram_like, &probed))
		snprintf(buf, len,
			 dram_like                               ? "DRAM-like"
				 : earlier_latency(p, sp, level) ? "earlier run"
								 : "-");
	else if (cyc > 0)
		snprintf(buf, len, "%.2f ns %.1f cyc%s%s", ns, cyc, noisy ? "*" : "", probed ? "^" : "");
	else
		snprintf(buf, len, "%.2f ns ? cyc%s%s", ns, noisy ? "*" : "", probed ? "^" : "");
	*marked |= noisy;
	*dram_marked |= dram_like > 0;
	*probe_marked |= probed > 0;
}

/* How disturbed the points were: the repetitions they took (budget.h), how many were disturbed
   (record_disturbed), and the spread of their differenced times, median over the points measured now (a
   resumed run's earlier points have no result). A point whose differenced times averaged 0 or less (a
   disturbed R call longer than its 2R call, record_cv) has no spread to take a median of: such points are
   counted instead. So are the clean points whose time is their R call (stats_mindiff_r_call), which a reader
   comparing with 2R - R differences needs to know. */
static void disturbance(FILE *f, const struct plan *p, const struct run_point_result *res,
			const struct clock_bounds *bounds)
{
	double *reps = calloc((size_t)p->npoints + 1, sizeof *reps),
	       *cv = calloc((size_t)p->npoints + 1, sizeof *cv);
	size_t n = 0, ncv = 0, r_call = 0;
	long all = 0, disturbed = 0;
	struct run_clock_tally clock = {0};

	for (int i = 0; reps && cv && i < p->npoints; i++)
		if (res[i].reps > 0) {
			reps[n++] = res[i].reps;
			all += res[i].reps_judged;
			disturbed += res[i].reps_disturbed;
			r_call += res[i].r_call != 0;
			record_clock_tally_add(&clock, &res[i].clock);
			if (isfinite(res[i].cv))
				cv[ncv++] = res[i].cv;
		}
	if (n) {
		if (!all)
			fprintf(f,
				"repetitions per point: median %g, none judged for interference "
				"(fresh-memory points only); spread of their times: ",
				stats_median(reps, n));
		else
			fprintf(f,
				"repetitions per point: median %g, %ld of %ld disturbed (a call more than "
				"%.0f %% past the shortest of its length; fresh-memory points' not judged); "
				"spread of their times: ",
				stats_median(reps, n), disturbed, all, 100 * RECORD_DISTURBED);
		if (!ncv)
			fprintf(f, "none (their differenced times averaged 0 or less)\n");
		else if (ncv < n)
			fprintf(f,
				"median %.1f %% over %zu points "
				"(%zu whose differenced times averaged 0 or less have none)\n",
				100 * stats_median(cv, ncv), ncv, n - ncv);
		else
			fprintf(f, "median %.1f %%\n", 100 * stats_median(cv, ncv));
	}
	if (r_call)
		fprintf(f,
			"%zu clean point%s took %s R call's time, every 2R call being stretched: slower than "
			"an undisturbed 2R - R by the call's fixed cost, never faster\n",
			r_call, r_call == 1 ? "" : "s", r_call == 1 ? "its" : "their");
	if (bounds && clock_config_max_too_low(bounds->max_from, clock.samples, clock.rejected_by))
		fprintf(f,
			"core clock: %lld of %lld samples lay above the %.3g GHz maximum of %s and were "
			"rejected: the cores run faster than the config's CPU, as a guest told of an older "
			"CPU than its host's does, so repetitions lack their clock; a copy of the config "
			"with the host's max_ghz, given to `run --config`, keeps it\n",
			clock.rejected_by[CLOCK_REJECT_ABOVE_MAX], clock.samples, bounds->max_ghz,
			bounds->source);
	free(reps);
	free(cv);
}

/* Whether a bandwidth point's outcome is one of the table's: of its level's cells, and with one thread or
   the cell's most (widest: [access][level], summary_print). */
static int in_table(const struct summary_probe *sp, const struct plan_point *pt,
		    const int widest[KA_COUNT][LEVEL_COUNT])
{
	return in_cells(sp, pt) && (pt->threads == 1 || pt->threads == widest[pt->var->access][pt->level]);
}

/* A bandwidth outcome into its cell's best, clean or noisy ([access][level][threads > 1][noisy]). */
static void into_cell(double best[KA_COUNT][LEVEL_COUNT][2][2], const struct plan_point *pt,
		      const struct run_point_result *r)
{
	double *b = &best[pt->var->access][pt->level][pt->threads > 1][r->noisy_why != 0];

	if (r->gbps > *b)
		*b = r->gbps;
}

/* One row per access type the plan measured as a bandwidth (kern.h, as the peaks), one column per
   level; then the latency row. */
void summary_print(FILE *f, const struct plan *p, const struct run_point_result *res,
		   const struct summary_probe *sp, const struct summary_revisits *rv, const char *dir,
		   int reported_levels, const char *levels_from)
{
	double best[KA_COUNT][LEVEL_COUNT][2][2] = {{{{0}}}}; /* [access][level][threads > 1][noisy] */
	int widest[KA_COUNT][LEVEL_COUNT] = {{0}};            /* a cell's most threads above 1 */
	int fewer = 0;                                        /* a cell's most are not the header's */
	int measured[KA_COUNT] = {0}, maxthreads = 1, noisy = 0, marked = 0, dram_marked = 0,
	    probe_marked = 0, boundary = 0, before = 0, now = 0;
	unsigned char only_before[KA_COUNT][LEVEL_COUNT] = {{0}}; /* a cell with points of the earlier run */
	unsigned why[NW_COUNT] = {0};
	char cell[48], whys[512];

	/* A cell's second figure is its most threads, up to a socket's cores, as the peaks' all-cores figure
	   is (analysis/peak.c): the best of any thread count above 1 put a 2-thread figure under "4 threads"
	   in a run of --threads 1,2,4. */
	for (int i = 0; i < p->npoints; i++) {
		const struct plan_point *pt = &p->points[i];
		int a = pt->var->access, l = pt->level;
		if (is_bandwidth(a) && in_cells(sp, pt) && !earlier(sp, i) && pt->threads > 1 &&
		    (!sp || sp->socket_cores <= 0 || pt->threads <= sp->socket_cores) &&
		    pt->threads > widest[a][l])
			widest[a][l] = pt->threads;
		if (widest[a][l] > maxthreads)
			maxthreads = widest[a][l];
	}
	for (int i = 0; i < p->npoints; i++) {
		const struct plan_point *pt = &p->points[i];
		int a = pt->var->access, l = pt->level;
		/* A point on a level boundary is in no level's cell, bandwidth or latency, as in the
		   analysis (analysis/point_level.c): its figure is the two levels' mix. */
		boundary += pt->boundary && (is_bandwidth(a) || (a == KA_LATENCY && pt->threads == 1));
		if (!is_bandwidth(a))
			continue;
		measured[a] = 1;
		if (!in_table(sp, pt, widest))
			continue;
		if (earlier(sp, i)) {
			only_before[a][l] = 1;
			continue;
		}
		into_cell(best, pt, &res[i]);
	}
	/* a revisit is of its plan point's cell, which the loop above has found a cell of the table (a
	   latency point's revisits count in the latency row: visits) */
	for (int k = 0; rv && k < rv->n; k++) {
		const struct plan_point *pt = &p->points[rv->of[k]];
		if (is_bandwidth(pt->var->access) && in_table(sp, pt, widest))
			into_cell(best, pt, &rv->res[k]);
	}
	/* With one thread only (one CPU, --threads 1) there is no second figure to show. */
	if (maxthreads > 1)
		fprintf(f,
			"\nbest bandwidth in GB/s (10^9 B/s over each point's min(2R) - min(R), or min(R) "
			"where shorter), 1 thread / %d threads; latency of a pointer chase\n",
			maxthreads);
	else
		fprintf(f,
			"\nbest bandwidth in GB/s (10^9 B/s over each point's min(2R) - min(R), or min(R) "
			"where shorter), 1 thread; latency of a pointer chase\n");
	fprintf(f, "%-9s", "access");
	for (int l = 0; l < LEVEL_COUNT; l++)
		fprintf(f, " %*s", CELL, level_name((enum level)l));
	fprintf(f, "\n");
	for (int a = 0; a < KA_COUNT; a++) {
		if (!measured[a])
			continue;
		fprintf(f, "%-9s", kern_access_names[a]);
		for (int l = 0; l < LEVEL_COUNT; l++) {
			const double(*b)[2] = best[a][l];
			char one[20], all[20];
			snprintf(cell, sizeof cell, only_before[a][l] ? "earlier run" : "-");
			if (b[0][0] > 0 || b[0][1] > 0 || b[1][0] > 0 || b[1][1] > 0) {
				bandwidth_cell(one, sizeof one, b[0], &marked);
				bandwidth_cell(all, sizeof all, b[1], &marked);
				if (maxthreads > 1 && widest[a][l] && widest[a][l] != maxthreads) {
					snprintf(cell, sizeof cell, "%s / %s (%d)", one, all, widest[a][l]);
					fewer = 1;
				} else if (maxthreads > 1)
					snprintf(cell, sizeof cell, "%s / %s", one, all);
				else
					snprintf(cell, sizeof cell, "%s", one);
			}
			fprintf(f, " %*s", CELL, cell);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "%-9s", kern_access_names[KA_LATENCY]);
	for (int l = 0; l < LEVEL_COUNT; l++) {
		latency_cell(cell, sizeof cell, p, res, rv, sp, l, &marked, &dram_marked, &probe_marked);
		fprintf(f, " %*s", CELL, cell);
	}
	fprintf(f, "\n");
	for (int i = 0; i < p->npoints; i++) {
		if (earlier(sp, i)) {
			before++;
			continue;
		}
		now++;
		noisy += res[i].noisy_why != 0;
		noisy_why_count(why, res[i].noisy_why);
	}
	noisy_why_format(whys, sizeof whys, why, 0);
	if (noisy)
		fprintf(f,
			"%d of %d points%s stayed noisy (flagged in raw.csv, why in its noisy_why; a point "
			"may have several reasons): %s\n",
			noisy, now, before ? " measured now" : "", whys);
	if (before)
		fprintf(f,
			"%d point%s measured before the interruption this run resumed %s in raw.csv, not in "
			"this table (\"earlier run\" where a cell has only such points): 'pmucheck analyze' "
			"takes them all\n",
			before, before == 1 ? "" : "s", before == 1 ? "is" : "are");
	if (boundary)
		fprintf(f,
			"%d point%s lay within %.0f %% below or %.0f %% above a cache's share (--sizes) and "
			"belong%s to no level: in no cell, as in the analysis\n",
			boundary, boundary == 1 ? "" : "s", LEVEL_BOUNDARY_BELOW * 100,
			LEVEL_BOUNDARY_ABOVE * 100, boundary == 1 ? "s" : "");
	disturbance(f, p, res, sp ? sp->bounds : NULL);
	if (marked)
		fprintf(f,
			"* from a noisy point, at the bound of its shortest call%s: at least this fast "
			"(latency: at most this slow)\n",
			probe_marked ? " (a latency marked ^ too: or at the level probe's time)" : "");
	if (fewer)
		fprintf(f, "(N): the cell's second figure is of N threads, the most it was measured with\n");
	if (probe_marked)
		fprintf(f,
			"^ latency: the level probe's fastest chase at a point's size or larger (in L1 at "
			"any size; in L2 and L3 from twice the level below where the point is larger), "
			"faster than the point's, in the probe's fewest cycles there, at the clock its calls "
			"ran at (where it kept none of the point's level: at the higher of the run's clock "
			"and the point's)\n");
	if (dram_marked)
		fprintf(f,
			"a cache level's chase at %.0f ns or more measured DRAM, not that level (another "
			"tenant in it, or a level smaller than planned): left out\n",
			LEVEL_DRAM_NS);
	if (levels_from)
		fprintf(f,
			"levels as the run in %s had them (its machine.json; not probed again); raw "
			"data: %s/raw.csv\n",
			levels_from, dir);
	else if (reported_levels)
		fprintf(f,
			"levels as reported by hwloc (--reported-levels: not probed); raw data: %s/raw.csv\n",
			dir);
	else
		fprintf(f,
			"levels as measured by the latency probe where it disagreed with the reported sizes; "
			"raw data: %s/raw.csv\n",
			dir);
}
