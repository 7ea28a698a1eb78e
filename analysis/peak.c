/* peak.c — peak rates per level and access type. A point's time is min(2R call) - min(R call) over its
 * repetitions, or min(R call) where shorter (agg.h, common/stats.h), not the minimum of the differences:
 * that would pick exactly the repetitions whose shorter call was preempted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peak.h"
#include "stats.h"

int peak_access(const struct agg_point *p)
{
	return p->access != KA_NONE ? (int)p->access : -1;
}

/* A point in a row of the table: of a level, of an access type. */
static int placed(const struct agg_point *p)
{
	return p->level != LV_EXCLUDED && p->level != LV_ANY && peak_access(p) >= 0;
}

static int usable(const struct agg_point *p)
{
	return placed(p) && isfinite(p->seconds);
}

/* The group of a placed point (peak.h peak_table): its level's, or its placement's for other DRAM; -1 for
   none. */
static int group_of(const struct peak_table *t, const struct agg_point *p)
{
	if (!placed(p))
		return -1;
	if (p->level != LV_DRAM_OTHER)
		return (int)p->level;
	for (unsigned g = LV_DRAM_OTHER; g < t->n; g++)
		if (t->g[g].placement == p->placement)
			return (int)g;
	return -1;
}

/* The point's row of the table; NULL for a point of none. */
static struct peak *row_of(struct peak_table *t, const struct agg_point *p)
{
	int g = group_of(t, p), ac = peak_access(p);

	return g >= 0 && ac >= 0 ? &t->g[g].row[ac] : NULL;
}

const char *peak_group_name(const struct peak_group *g, char *buf, size_t len)
{
	if (g->level != LV_DRAM_OTHER)
		snprintf(buf, len, "%s", point_level_name(g->level));
	else
		snprintf(buf, len, "DRAM %s", g->placement);
	return buf;
}

int peak_level_known(const char *name)
{
	for (int l = 0; l < LV_DRAM_OTHER; l++)
		if (!strcmp(name, point_level_name((enum point_level)l)))
			return 1;
	/* the placements of raw.csv's `placement` other than local and remote */
	if (!strncmp(name, "DRAM node:", 10))
		return name[10] && strspn(name + 10, "0123456789") == strlen(name + 10);
	return !strcmp(name, "DRAM interleave");
}

/* Whether two points are visits of one (`run --revisits` measures a plan point again with its parameters:
   harness/run/revisit.h). The texts are interned (agg.h), so equal texts are one pointer; the prefetch
   state's text, as pf is one value for every partial state (off:NAME). */
static int same_point(const struct agg_point *a, const struct agg_point *b)
{
	return a->variant == b->variant && a->placement == b->placement && a->prefetch == b->prefetch &&
		a->bytes == b->bytes && a->arg == b->arg && a->width == b->width &&
		a->threads == b->threads && a->level == b->level;
}

/* Whether a latency point without a time is counted apart from the rest of its visits: not where another
   visit of it has a time or an earlier one was counted (a latency row counts sizes: latency below). */
static int another_visit_counts(const struct agg *a, uint32_t i)
{
	for (uint32_t j = 0; j < a->npoints; j++)
		if (j != i && (j < i || isfinite(a->points[j].seconds)) &&
		    same_point(&a->points[j], &a->points[i]))
			return 1;
	return 0;
}

/* The points of the rows that have no time (agg.h: seconds INFINITY; a latency row's points are its
   one-thread chases, each size once however often visited): they give no figure, but the row stays and
   counts them, so that a level whose points were all disturbed that badly is not dropped from the table. A
   noisy one (faster than any core, without calls to bound it) is one of the noisy points left out. */
static void untimed(const struct agg *a, struct peak_table *t)
{
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		struct peak *pk;
		if (!placed(p) || isfinite(p->seconds) ||
		    (peak_access(p) == KA_LATENCY && (p->threads != 1 || another_visit_counts(a, i))))
			continue;
		pk = row_of(t, p);
		pk->present = 1;
		if (p->noisy)
			pk->left_out++;
		else
			pk->untimed++;
	}
}

/* The quantities an indicator for this row may count (bit per enum raw_quantity). */
static unsigned relevant(int level, int access)
{
	unsigned lr = 1u << RQ_lines_read, lw = 1u << RQ_lines_written;
	unsigned ld = 1u << RQ_loads, st = 1u << RQ_stores;

	switch (access) {
	case KA_READ:
		return level == LV_L1 ? ld : lr;
	case KA_WRITE:
		return level == LV_L1 ? st : lw | lr;
	case KA_NT_WRITE:
		return level == LV_L1 ? st : lw;
	case KA_COPY:
	case KA_NT_COPY:
	case KA_TRIAD:
	case KA_NT_TRIAD:
		return level == LV_L1 ? ld | st : lr | lw;
	default:
		return (1u << RQ_chase_accesses) | ld | (level == LV_L1 ? 0 : lr);
	}
}

/* The cores of one socket, which a row's "all cores" is (Molka's Table 3); no limit where machine.json
   does not say. */
static int64_t socket_cores(const struct agg *a)
{
	return a->m.sockets > 0 && a->m.cores > 0 ? a->m.cores / a->m.sockets : INT64_MAX;
}

/* Which figure of its row a point can give: 0 one core, 1 all cores (a latency row has none), -1 neither. */
static int figure_of(const struct peak *pk, const struct agg_point *p)
{
	return p->threads == 1 ? 0 : p->threads == pk->threads_all ? 1 : -1;
}

/* Highest rates of event ev on the points of this row's figures, rate[0] on its one-thread points and
   rate[1] on those of its all-thread figure (figure_of), each apart: one rate over both set a 2-thread
   rate, 1562 M/s L2 lines, beside the paper's per-core 1546 in the report's per-core table, where one core
   reached 781. Only in the groups (level x prefetch state) where its verdict v holds, and no noisy point
   without calls to bound its time (an older file's), whose time a preemption may have shortened: either
   let the rate read faster than the row's own bandwidth (twice it, with such a noisy point's time halved;
   1.5x with DRAM counted half again with the prefetchers on, which the verdict had left out). */
static void row_rate(const struct agg *a, const struct peak_table *t, const struct verdict *v, uint32_t ev,
		     int group, int access, double rate[2])
{
	const struct agg_event *e = &a->events[ev];
	const struct peak *pk = &t->g[group].row[access];

	rate[0] = rate[1] = 0;
	for (uint32_t k = 0; k < e->ncells; k++) {
		const struct agg_cell *c = &a->cells[e->cells[k]];
		const struct agg_point *p = &a->points[c->point];
		int fig;
		if (usable(p) && group_of(t, p) == group && peak_access(p) == access &&
		    (fig = figure_of(pk, p)) >= 0 && !(p->noisy && !p->bounded) &&
		    (v->groups & VERDICT_GROUP(p->level, p->pf)))
			rate[fig] = fmax(rate[fig], c->rate);
	}
}

/* Exact beats approximate; then the event that holds at fewer levels (it singles this level out,
   as Molka's indicators do); then the higher rate, of either figure's points. */
static void choose_indicator(const struct agg *a, const struct peak_table *t, const struct verdict *v,
			     int group, int access, struct peak *pk)
{
	int best_levels = 0, level = t->g[group].level;
	double best_rate = 0;

	pk->indicator = -1;
	for (uint32_t i = 0; i < a->nevents; i++) {
		int nlev;
		double rate[2];
		if ((v[i].cls != VC_EXACT && v[i].cls != VC_APPROXIMATE) || v[i].quantity < 0 ||
		    !(v[i].levels & (1u << level)) || !(relevant(level, access) & (1u << v[i].quantity)))
			continue;
		row_rate(a, t, &v[i], i, group, access, rate);
		if (fmax(rate[0], rate[1]) <= 0)
			continue;
		nlev = __builtin_popcount(v[i].levels);
		if (pk->indicator >= 0) {
			const struct verdict *b = &v[pk->indicator];
			if (v[i].cls != b->cls            ? v[i].cls > b->cls
				    : nlev != best_levels ? nlev > best_levels
							  : fmax(rate[0], rate[1]) <= best_rate)
				continue;
		}
		pk->indicator = (int)i;
		pk->indicator_one = rate[0];
		pk->indicator_all = rate[1];
		best_rate = fmax(rate[0], rate[1]);
		best_levels = nlev;
	}
}

static int bandwidth_point(const struct agg_point *p)
{
	return usable(p) && peak_access(p) != KA_LATENCY;
}

/* One point's bandwidth into its row. */
static void add_bandwidth(struct peak *pk, const struct agg_point *p, int fig)
{
	double gbps = (p->v[RQ_bytes_loaded] + p->v[RQ_bytes_stored]) / p->seconds / 1e9;
	double bpt = p->level == LV_L1 && p->width > 0 ? (double)p->width : KERN_LINE;

	pk->present = 1;
	pk->points++;
	pk->noisy += p->noisy;
	pk->r_call += p->r_call;
	pk->ports += p->past_ports;
	pk->ports_clock += p->ports_clock;
	if (fig == 0 && gbps > pk->gbps_one) {
		pk->from_one = p->noisy;
		pk->gbps_one = gbps;
		pk->transfers_one = gbps * 1e9 / bpt;
		pk->bpt_one = bpt;
	}
	if (fig == 0 && p->core_ghz > 0 && gbps > pk->bpc_gbps_one) {
		pk->bpc_gbps_one = gbps;
		pk->bpc_one = gbps / p->core_ghz;
	}
	if (fig == 1 && gbps > pk->gbps_all) {
		pk->from_all = p->noisy;
		pk->paths_all = p->path_ratio;
		pk->gbps_all = gbps;
		pk->transfers_all = gbps * 1e9 / bpt;
		pk->bpt_all = bpt;
	}
	if (fig == 1 && p->core_ghz > 0 && gbps > pk->bpc_gbps_all) {
		pk->bpc_gbps_all = gbps;
		pk->bpc_all = gbps / p->core_ghz / (double)p->threads;
	}
}

static int bandwidth(const struct agg *a, struct peak_table *t)
{
	/* "all cores" means all cores of one socket; runs across sockets are left out */
	int64_t per_socket = socket_cores(a);
	unsigned(*clean)[KA_COUNT][2] = calloc(t->n, sizeof *clean);

	if (!clean)
		return -1;
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		struct peak *pk;
		if (!bandwidth_point(p))
			continue;
		pk = row_of(t, p);
		if (p->threads > 1 && p->threads <= per_socket && p->threads > pk->threads_all)
			pk->threads_all = (int)p->threads;
	}
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		int fig;
		if (bandwidth_point(p) && !p->noisy && (fig = figure_of(row_of(t, p), p)) >= 0)
			clean[group_of(t, p)][peak_access(p)][fig]++;
	}
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		struct peak *pk;
		int fig;
		if (!bandwidth_point(p))
			continue;
		pk = row_of(t, p);
		if ((fig = figure_of(pk, p)) < 0)
			continue;
		if (p->noisy && !p->bounded && clean[group_of(t, p)][peak_access(p)][fig])
			pk->left_out++;
		else
			add_bandwidth(pk, p, fig);
	}
	for (unsigned g = 0; g < t->n; g++)
		for (int ac = 0; ac < KA_COUNT; ac++) {
			struct peak *pk = &t->g[g].row[ac];
			pk->paths_shared = pk->paths_all > 0 &&
				pk->paths_all < a->m.path.shared_below * a->m.path.threads;
		}
	free(clean);
	return 0;
}

static int latency_point(const struct peak_table *t, const struct agg_point *p, int group)
{
	return usable(p) && peak_access(p) == KA_LATENCY && group_of(t, p) == group && p->threads == 1 &&
		p->v[RQ_chase_accesses] > 0;
}

/* A latency point's time per access, ns. */
static double chase_ns(const struct agg_point *p)
{
	return p->seconds * 1e9 / p->v[RQ_chase_accesses];
}

/* The level probe's times that stand for the point, at the sizes level_probe_from allows (machine.json
   levels.latency_curve; level_probe_fold), ns 0 where it has none or cannot stand for the point
   (level_probe_stands_for). */
static struct level_probe_bound probe_bound(const struct agg *a, const struct agg_point *p)
{
	struct level_probe_bound b = {0, 0, 0};
	enum level l = point_level_common(p->level);
	double below = 0, from;

	if (!level_probe_stands_for(!strcmp(p->placement, "local"),
				    p->pf == PF_ON || p->pf == PF_UNCONTROLLED, p->thp_share))
		return b;
	if (l == LEVEL_L2 || l == LEVEL_L3)
		below = point_level_clear_of(&a->m, (enum level)(l - 1));
	from = level_probe_from(l, (double)p->bytes, below);
	for (unsigned i = 0; i < a->m.nlatency; i++)
		b = level_probe_fold(from, a->m.latency[i].bytes, a->m.latency[i].t, b);
	return b;
}

/* A latency point's figure and its cycles (*cyc, 0 where it has no clock): the faster of its own time and
   the level probe's (probe_bound; level_probe_figure says why; *probed set where the probe's). */
static double latency_figure(const struct agg *a, const struct agg_point *p, double *cyc, int *probed)
{
	return level_probe_figure(chase_ns(p), probe_bound(a, p), p->core_ghz, a->m.core_ghz, cyc, probed);
}

/* Latency per access of the single-thread plain chase: median over the level's clean points, or over
   its noisy ones (at their bound, where they have one) when it has no clean one: a median of clean and
   bounded times would lean to the bounds; in cycles over the points that have a clock. Each point's figure
   is the faster of its own and the level probe's (latency_figure), and of a point visited more than once
   (run --revisits) the fastest visit's: each visit's time is one interference can only stretch (a noisy
   one's the bound of its shortest call; one without that bound, of an older file, wins only where every
   visit is one), and the point is noisy only where every visit was. So a size counts once in the median,
   however often it was measured. A point of a cache level that took DRAM-like time, at its fastest visit
   (level_latency_dram_like), is left out and counted: the row never gives a DRAM latency as a cache
   level's. */
static int latency(const struct agg *a, struct peak_table *t)
{
	struct figure {
		const struct agg_point *p;
		double ns, cyc;
		int noisy, unbounded, probed, r_call;
	} *f = malloc((a->npoints + 1) * sizeof *f);
	double *ns = malloc((a->npoints + 1) * sizeof *ns), *cyc = malloc((a->npoints + 1) * sizeof *cyc);
	int rc = -1;

	if (!f || !ns || !cyc)
		goto out;
	for (unsigned g = 0; g < t->n; g++) {
		enum point_level l = t->g[g].level;
		struct peak *pk = &t->g[g].row[KA_LATENCY];
		size_t m = 0, n = 0, nc = 0;
		int clean = 0;
		for (uint32_t i = 0; i < a->npoints; i++) {
			const struct agg_point *p = &a->points[i];
			struct figure v = {p, 0, 0, p->noisy, p->noisy && !p->bounded, 0, 0};
			size_t k = 0;
			if (!latency_point(t, p, (int)g))
				continue;
			pk->present = 1;
			v.ns = latency_figure(a, p, &v.cyc, &v.probed);
			v.r_call = p->r_call && !v.probed;
			while (k < m && !same_point(f[k].p, p))
				k++;
			if (k == m)
				f[m++] = v;
			else {
				int faster = v.unbounded != f[k].unbounded ? !v.unbounded : v.ns < f[k].ns;
				v.noisy &= f[k].noisy;
				if (faster)
					f[k] = v;
				else
					f[k].noisy = v.noisy;
			}
		}
		for (size_t k = 0; k < m; k++) {
			if (level_latency_dram_like(point_level_common(l), f[k].ns)) {
				pk->dram_like++;
				pk->dram_like_ns = fmax(pk->dram_like_ns, f[k].ns);
				f[k].ns = 0;
			} else
				clean |= !f[k].noisy;
		}
		for (size_t k = 0; k < m; k++) {
			if (!(f[k].ns > 0))
				continue;
			if (f[k].noisy && clean) {
				pk->left_out++;
				continue;
			}
			pk->noisy += f[k].noisy;
			pk->probed += f[k].probed;
			pk->r_call += f[k].r_call;
			ns[n++] = f[k].ns;
			if (f[k].cyc > 0)
				cyc[nc++] = f[k].cyc;
		}
		if (!n)
			continue;
		pk->points = (unsigned)n;
		pk->from_one = pk->noisy > 0;
		pk->latency_ns = stats_median(ns, n);
		pk->latency_cycles = stats_median(cyc, nc);
		pk->transfers_one = 1e9 / pk->latency_ns;
		pk->bpt_one = KERN_LINE;
	}
	rc = 0;
out:
	free(f);
	free(ns);
	free(cyc);
	return rc;
}

const char *const peak_noisy_which[PEAK_NOISY_COUNT] = {"1-core figure", "all-cores figure", "both figures"};

/* A noisy row says which figure is a noisy point's: one "noisy" for both left a reader (and merge) taking
   a clean one-core figure for a disturbed one where the all-cores point was. */
void peak_quality(const struct peak *pk, char *buf, size_t len)
{
	int n = 0;

	if (pk->dram_like && !pk->points)
		n = snprintf(buf, len, "DRAM-like (%u of %u points, up to %.0f ns): not this level's latency",
			     pk->dram_like, pk->dram_like, pk->dram_like_ns);
	else if (!pk->points && !pk->dram_like && (pk->untimed || pk->left_out))
		n = snprintf(
			buf, len,
			"no time (%u of %u points: no positive differenced time, or faster than any core)",
			pk->untimed + pk->left_out, pk->untimed + pk->left_out);
	else if (pk->from_one || pk->from_all)
		n = snprintf(buf, len, "noisy (%s; %u of %u points disturbed)",
			     peak_noisy_which[pk->from_one && pk->from_all ? PEAK_NOISY_BOTH
						      : pk->from_one       ? PEAK_NOISY_ONE
									   : PEAK_NOISY_ALL],
			     pk->noisy, pk->points);
	else if (pk->noisy)
		n = snprintf(buf, len, "ok (%u of %u points disturbed, slower than the figure)", pk->noisy,
			     pk->points);
	else if (pk->left_out)
		n = snprintf(buf, len, "ok (%u noisy point%s left out)", pk->left_out,
			     pk->left_out == 1 ? "" : "s");
	else
		n = snprintf(buf, len, "ok");
	if (pk->dram_like && pk->points && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; %u DRAM-like point%s left out", pk->dram_like,
			      pk->dram_like == 1 ? "" : "s");
	if (pk->untimed && (pk->points || pk->dram_like) && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; %u without a time left out", pk->untimed);
	if (pk->probed && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; %u of %u at the level probe's time", pk->probed,
			      pk->points);
	if (pk->r_call && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; %u of %u at their R call", pk->r_call, pk->points);
	if (pk->ports && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      "; %u of %u past the core's L1 ports at their clock, at their bound", pk->ports,
			      pk->points);
	if (pk->ports_clock && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " (%u even so: no clock, no figure in cycles)",
			      pk->ports_clock);
	if (pk->paths_all > 0 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %d threads' stores %s (%.2fx one thread's)",
			 pk->threads_all,
			 pk->paths_shared ? "shared paths to memory" : "had paths of their own",
			 pk->paths_all);
}

void peak_table_free(struct peak_table *t)
{
	free(t->g);
	t->g = NULL;
	t->n = 0;
}

/* The groups of the table: every level up to remote DRAM, then each other DRAM placement a placed point
   has. */
static int groups(const struct agg *a, struct peak_table *t)
{
	t->n = LV_DRAM_OTHER;
	if (!(t->g = calloc(t->n, sizeof *t->g)))
		return -1;
	for (unsigned g = 0; g < t->n; g++)
		t->g[g].level = (enum point_level)g;
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		struct peak_group *more;
		if (!placed(p) || group_of(t, p) >= 0)
			continue;
		if (!(more = realloc(t->g, (t->n + 1) * sizeof *t->g))) {
			peak_table_free(t);
			return -1;
		}
		t->g = more;
		t->g[t->n++] = (struct peak_group){.level = LV_DRAM_OTHER, .placement = p->placement};
	}
	return 0;
}

int peak_compute(const struct agg *a, const struct verdict *verdicts, struct peak_table *t)
{
	if (groups(a, t))
		return -1;
	untimed(a, t);
	if (bandwidth(a, t) || latency(a, t)) {
		peak_table_free(t);
		return -1;
	}
	for (unsigned g = 0; g < t->n; g++)
		for (int ac = 0; ac < KA_COUNT; ac++)
			if (t->g[g].row[ac].present)
				choose_indicator(a, t, verdicts, (int)g, ac, &t->g[g].row[ac]);
			else
				t->g[g].row[ac].indicator = -1;
	return 0;
}
