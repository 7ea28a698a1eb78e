/* box_share.h — how the count of a config's box wildcard (uncore_imc_*: the sum over the memory
 * channels, agg.h box_of) divides among its boxes, per level: the imbalance the sum hides. A box's
 * share at a point is its count (median of the repetitions) over the sum of every box's at that point;
 * per level, the median, smallest and largest share over the points where every box was counted. */
#ifndef PMUCHECK_BOX_SHARE_H
#define PMUCHECK_BOX_SHARE_H

#include "agg.h"

struct box_share {
	uint32_t sum, box; /* event indices: the summed row and one of its boxes */
	enum point_level level;
	unsigned points;      /* points of the level with a count > 0 summed over the boxes, all counted */
	double share, lo, hi; /* median, smallest and largest share of the box over those points */
};

/* Calls fn for each summed row s of a, in order, with its boxes box[0..nb), in raw.csv's order, and
   their shares at every point: share[k * a->npoints + p] for box[k], NAN where a box has no count there
   or the boxes counted nothing; stops at fn's first nonzero return and returns it. E_RUNTIME: out
   of memory. */
typedef int (*box_sum_fn)(void *ctx, uint32_t s, const uint32_t *box, unsigned nb, const double *share,
			  struct err *e);
int box_each_sum(const struct agg *a, box_sum_fn fn, void *ctx, struct err *e);

/* The number box row `box` has where summed row `sum`'s name has '*' ("uncore_imc_3/..." -> "3"). */
void box_number(const struct agg *a, uint32_t sum, uint32_t box, char *buf, size_t len);

/* One entry per summed row x level x box, boxes in raw.csv's order, levels in enum order (levels no
   point counted are left out). *out is NULL when n is 0; free() it. E_RUNTIME: out of memory. */
int box_shares(const struct agg *a, struct box_share **out, unsigned *n, struct err *e);

/* Of the entries [0, n) of one summed row and level: the largest share over the mean share (1 / the
   boxes), and over the smallest share (INFINITY when a box counted nothing). */
void box_imbalance(const struct box_share *s, unsigned n, double *max_over_mean, double *max_over_min);

#endif
