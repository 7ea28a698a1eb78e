/* stall.c — cycles per load as stall events report them, against the measured cycles per load. */
#include <math.h>
#include <stdlib.h>

#include "stall.h"
#include "stats.h"
#include "thresholds.h"

/* The pointer-chase points (those that feed the latency figures) by their multiplies. */
static int chase_kind(const struct agg_point *p)
{
	if (!(p->plots & KP_LATENCY) || p->level == LV_EXCLUDED || p->v[RQ_chase_accesses] <= 0)
		return -1;
	return p->traits & KV_MUL_INDEP ? CH_INDEP : p->traits & KV_MUL_DEP ? CH_DEP : CH_PLAIN;
}

static double core_cycles_per_access(const struct agg *a, const struct agg_point *p)
{
	double ghz = p->core_ghz > 0 ? p->core_ghz : a->m.core_ghz;

	return p->seconds * ghz * 1e9 / (p->v[RQ_chase_accesses] / (double)p->threads);
}

/* Whether point p is a chase of (level, kind), clean or (noisy) noisy. */
static int of_chase(const struct agg_point *p, int level, int kind, int noisy)
{
	return (int)p->level == level && chase_kind(p) == kind && !p->noisy == !noisy;
}

/* Whether (level, kind) has only noisy points: then they give its figures, else its clean ones do. */
static int noisy_only(const struct agg *a, int level, int kind)
{
	for (uint32_t i = 0; i < a->npoints; i++)
		if (of_chase(&a->points[i], level, kind, 0))
			return 0;
	return 1;
}

/* Whether point p is one of (level, kind)'s, clean or (noisy) noisy, with k multiplies per access. */
static int of_row(const struct agg_point *p, int level, int kind, int noisy, int64_t k)
{
	return of_chase(p, level, kind, noisy) && p->arg == k;
}

/* The multiplies per access whose points give (level, kind)'s figures: the most any of its points (clean or
   noisy) has, of those where event ev counted (ev NULL: of all). A run with several --args has chases of
   each; a median over two of them would mix two latencies, and the most multiplies tell an event that
   counts execution from a stall event best. An event without a count at the most (its group failed there,
   or a step of a preset left it out) takes the most where it has one, with the measured cycles there: not
   the most of all, where it would have no figure and read as a level without that chase. */
static int64_t most_k(const struct agg *a, const struct agg_event *ev, int level, int kind, int noisy)
{
	int64_t k = -1;

	for (uint32_t i = 0; !ev && i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (of_chase(p, level, kind, noisy) && p->arg > k)
			k = p->arg;
	}
	for (uint32_t c = 0; ev && c < ev->ncells; c++) {
		const struct agg_cell *cell = &a->cells[ev->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		if (cell->n && of_chase(p, level, kind, noisy) && p->arg > k)
			k = p->arg;
	}
	return k;
}

/* Median of the measured cycles per access over the points of (level, kind) with k multiplies. */
static double measured(const struct agg *a, int level, int kind, int noisy, double *tmp, int64_t k)
{
	size_t n = 0;

	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		/* a point without a clock has no cycles: left out, not counted as 0 */
		if (of_row(p, level, kind, noisy, k) && isfinite(p->seconds) && p->core_ghz > 0)
			tmp[n++] = core_cycles_per_access(a, p);
	}
	return n ? stats_median(tmp, n) : NAN;
}

static double reported(const struct agg *a, const struct agg_event *ev, int level, int kind, int noisy,
		       double *tmp, int64_t k)
{
	size_t n = 0;

	for (uint32_t c = 0; c < ev->ncells; c++) {
		const struct agg_cell *cell = &a->cells[ev->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		if (!of_row(p, level, kind, noisy, k))
			continue;
		for (uint32_t r = 0; r < cell->n; r++)
			tmp[n++] = cell->counts[r] / p->v[RQ_chase_accesses];
	}
	return n ? stats_median(tmp, n) : NAN;
}

static void judge(struct stall_row *r)
{
	double plain = r->reported[CH_PLAIN], m = THR_STALL_MATCH;

	r->dep_rises = r->have[CH_DEP] && r->reported[CH_DEP] > plain * (1 + m);
	r->indep_rises = r->have[CH_INDEP] && r->reported[CH_INDEP] > plain * (1 + m);
	r->indep_drops = r->have[CH_INDEP] && r->reported[CH_INDEP] < plain * (1 - m);
	r->memory_only = r->have[CH_DEP] && fabs(r->reported[CH_DEP] / plain - 1) <= m && !r->indep_rises;
	r->matches_latency = fabs(plain / r->measured[CH_PLAIN] - 1) <= m;
}

static size_t cells_total(const struct agg *a)
{
	size_t n = 0;

	for (uint32_t i = 0; i < a->ncells; i++)
		n += a->cells[i].n;
	return n;
}

int stall_compute(const struct agg *a, struct stall_row **rows, unsigned *n)
{
	size_t tmpn = cells_total(a) + a->npoints + 1;
	double *tmp = malloc(tmpn * sizeof *tmp), meas[LV_COUNT][CH_COUNT];
	int64_t k[LV_COUNT][CH_COUNT] = {{0}};
	int noisy[LV_COUNT][CH_COUNT];
	unsigned cap = 0;

	*rows = NULL;
	*n = 0;
	if (!tmp)
		return -1;
	for (int l = 0; l < LV_COUNT; l++)
		for (int c = 0; c < CH_COUNT; c++) {
			noisy[l][c] = noisy_only(a, l, c);
			k[l][c] = most_k(a, NULL, l, c, noisy[l][c]);
			meas[l][c] = measured(a, l, c, noisy[l][c], tmp, k[l][c]);
		}
	for (uint32_t e = 0; e < a->nevents; e++) {
		struct stall_row r[LV_COUNT];
		int levels = 0, stall_like = 1, first = -1;
		for (int l = 0; l < LV_COUNT; l++) {
			r[l] = (struct stall_row){.event = e, .level = l};
			for (int c = 0; c < CH_COUNT; c++) {
				int64_t ke = most_k(a, &a->events[e], l, c, noisy[l][c]);
				if (ke < 0 || ke == k[l][c]) {
					r[l].k[c] = k[l][c];
					r[l].measured[c] = meas[l][c];
				} else {
					r[l].k[c] = ke;
					r[l].measured[c] = measured(a, l, c, noisy[l][c], tmp, ke);
				}
				r[l].reported[c] = reported(a, &a->events[e], l, c, noisy[l][c], tmp,
							    r[l].k[c]);
				r[l].have[c] = !isnan(r[l].reported[c]) && !isnan(r[l].measured[c]);
				r[l].noisy[c] = r[l].have[c] && noisy[l][c];
			}
			if (!r[l].have[CH_PLAIN] || (!r[l].have[CH_INDEP] && !r[l].have[CH_DEP]))
				continue;
			/* stall-like: from the first level where the plain chase shows a good part of its
			   cycles in this event, at every level beyond it too. Levels before it are where
			   the event's definition does not apply (an L1-miss stall event is 0 in L1); a
			   volume event, one per load, shows its fraction in L1 and fades as the latency
			   grows. */
			if (r[l].reported[CH_PLAIN] >= THR_STALL_MIN_FRACTION * r[l].measured[CH_PLAIN]) {
				if (first < 0)
					first = l;
				levels++;
			} else if (first >= 0) {
				stall_like = 0;
			}
		}
		if (!levels || !stall_like)
			continue;
		for (int l = first; l < LV_COUNT; l++) {
			if (!r[l].have[CH_PLAIN] || (!r[l].have[CH_INDEP] && !r[l].have[CH_DEP]))
				continue;
			judge(&r[l]);
			if (*n == cap) {
				struct stall_row *p = realloc(*rows, (cap = cap ? 2 * cap : 16) * sizeof *p);
				if (!p) {
					free(tmp);
					free(*rows);
					*rows = NULL;
					*n = 0;
					return -1;
				}
				*rows = p;
			}
			(*rows)[(*n)++] = r[l];
		}
	}
	free(tmp);
	return 0;
}
