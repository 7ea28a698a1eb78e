/* out_plot_boxes.c — boxes_<event>: for a box wildcard's sum (uncore_imc_*: the memory channels), each
 * box's share of the sum against the buffer size, beside the even split: the imbalance boxes.md gives
 * per level, point by point (box_share.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box_share.h"
#include "out_plot_fig.h"

static int one_sum(const struct out_rdata *d, struct out_figures *f, uint32_t sum, const uint32_t *box,
		   unsigned nb, const double *share)
{
	const struct agg *a = &d->a;
	struct out_plot *pl;
	char name[160], s[64];

	snprintf(name, sizeof name, "boxes_%s", a->events[sum].name);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s: each box's share of the sum vs buffer size",
		 a->events[sum].name);
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size per thread (bytes x arrays)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "share of the sum over the %u boxes (%%)", nb);
	snprintf(
		pl->caption, sizeof pl->caption,
		"Each box's count (median of the repetitions) over the sum of the %u boxes' counts at the "
		"same point, median over the kernels at a size; the dashed line is the even split (%.3g %%). "
		"The sum is the event the verdict judges; boxes.md gives the shares per level.",
		nb, 100.0 / nb);
	pl->logx = pl->xbytes = 1;
	out_fig_mark_levels(d, pl);
	for (uint32_t p = 0; p < a->npoints; p++) {
		const struct agg_point *pt = &a->points[p];
		double x = out_fig_footprint(pt);
		if (!(share[p] >= 0)) /* NAN: a box not counted here */
			continue;
		for (unsigned k = 0; k < nb; k++) {
			char num[16];
			box_number(a, sum, box[k], num, sizeof num);
			snprintf(s, sizeof s, "box %s", num);
			if (out_fig_add(pl, s, x, share[k * a->npoints + p] * 100, 0, pt->noisy))
				return -1;
		}
		if (out_fig_add(pl, "even split", x, 100.0 / nb, 1, 0))
			return -1;
	}
	out_plot_collapse(pl);
	out_fig_keep(f, 1);
	return 0;
}

struct fig_ctx {
	const struct out_rdata *d;
	struct out_figures *f;
};

static int fig_of(void *ctx, uint32_t s, const uint32_t *box, unsigned nb, const double *share, struct err *e)
{
	struct fig_ctx *c = ctx;

	(void)e;
	return one_sum(c->d, c->f, s, box, nb, share) ? -1 : 0;
}

int out_fig_boxes(const struct out_rdata *d, struct out_figures *f)
{
	struct fig_ctx c = {d, f};
	struct err e;

	return box_each_sum(&d->a, fig_of, &c, &e) ? -1 : 0;
}
