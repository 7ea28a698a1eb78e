/* box_share.c — each box's share of a box wildcard's sum, per point and per level (box_share.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box_share.h"
#include "stats.h"

/* The boxes of summed row sum into box[] (room for a->nevents); their number. */
static unsigned box_list(const struct agg *a, uint32_t sum, uint32_t *box)
{
	unsigned nb = 0;

	for (uint32_t b = 0; b < a->nevents; b++)
		if (a->events[b].box_of == (int32_t)sum)
			box[nb++] = b;
	return nb;
}

/* Each box's median count at every point over the boxes' sum there (box_each_sum's share[]). */
static void box_point_shares(const struct agg *a, const uint32_t *box, unsigned nb, double *share)
{
	for (size_t i = 0; i < (size_t)nb * a->npoints; i++)
		share[i] = NAN;
	/* first each box's median count per point */
	for (unsigned k = 0; k < nb; k++) {
		const struct agg_event *ev = &a->events[box[k]];
		for (uint32_t c = 0; c < ev->ncells; c++) {
			const struct agg_cell *cell = &a->cells[ev->cells[c]];
			share[k * a->npoints + cell->point] = cell->median; /* NAN without a count */
		}
	}
	/* then over their sum, where every box counted */
	for (uint32_t p = 0; p < a->npoints; p++) {
		double total = 0;
		for (unsigned k = 0; k < nb; k++)
			total += share[k * a->npoints + p]; /* NAN when a box has no count here */
		for (unsigned k = 0; k < nb; k++)
			share[k * a->npoints + p] = total > 0 ? share[k * a->npoints + p] / total : NAN;
	}
}

/* Appends the entries of one summed row s (boxes box[0..nb), shares as box_point_shares gave them);
   v is scratch of a->npoints. */
static int add_sum(const struct agg *a, uint32_t s, const uint32_t *box, unsigned nb, const double *share,
		   double *v, struct box_share **out, unsigned *n)
{
	for (int l = 0; l < LV_COUNT; l++) {
		struct box_share *grown;
		unsigned np = 0;

		for (uint32_t p = 0; p < a->npoints; p++)
			np += a->points[p].level == (enum point_level)l && isfinite(share[p]);
		if (!np)
			continue;
		if (!(grown = realloc(*out, (*n + nb) * sizeof **out)))
			return -1;
		*out = grown;
		for (unsigned k = 0; k < nb; k++) {
			double mid;
			np = 0;
			for (uint32_t p = 0; p < a->npoints; p++)
				if (a->points[p].level == (enum point_level)l &&
				    isfinite(share[k * a->npoints + p]))
					v[np++] = share[k * a->npoints + p];
			mid = stats_median(v, np); /* sorts v */
			grown[(*n)++] = (struct box_share){s,    box[k],   (enum point_level)l, np, mid,
							   v[0], v[np - 1]};
		}
	}
	return 0;
}

int box_each_sum(const struct agg *a, box_sum_fn fn, void *ctx, struct err *e)
{
	uint32_t *box = malloc((a->nevents + 1) * sizeof *box);
	double *share = NULL;
	int rc = box ? 0 : err_set(e, E_RUNTIME, "out of memory computing the boxes' shares");

	for (uint32_t s = 0; s < a->nevents && !rc; s++) {
		unsigned nb;
		if (!a->events[s].nboxes)
			continue;
		nb = box_list(a, s, box);
		free(share);
		if (!(share = malloc(((size_t)nb * a->npoints + 1) * sizeof *share)))
			rc = err_set(e, E_RUNTIME, "out of memory computing the boxes' shares");
		else {
			box_point_shares(a, box, nb, share);
			rc = fn(ctx, s, box, nb, share, e);
		}
	}
	free(box);
	free(share);
	return rc;
}

void box_number(const struct agg *a, uint32_t sum, uint32_t box, char *buf, size_t len)
{
	const char *wild = a->events[sum].name, *star = strchr(wild, '*');
	const char *name = a->events[box].name + (star ? star - wild : 0);

	snprintf(buf, len, "%.*s", (int)strspn(name, "0123456789"), name);
}

struct shares_ctx {
	const struct agg *a;
	double *v; /* room for a->npoints values */
	struct box_share **out;
	unsigned *n;
};

static int add_sum_of(void *ctx, uint32_t s, const uint32_t *box, unsigned nb, const double *share,
		      struct err *e)
{
	struct shares_ctx *c = ctx;

	if (add_sum(c->a, s, box, nb, share, c->v, c->out, c->n))
		return err_set(e, E_RUNTIME, "out of memory computing the boxes' shares");
	return 0;
}

int box_shares(const struct agg *a, struct box_share **out, unsigned *n, struct err *e)
{
	struct shares_ctx c = {a, malloc((a->npoints + 1) * sizeof *c.v), out, n};
	int rc;

	*out = NULL;
	*n = 0;
	rc = c.v ? box_each_sum(a, add_sum_of, &c, e)
		 : err_set(e, E_RUNTIME, "out of memory computing the boxes' shares");
	free(c.v);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void box_imbalance(const struct box_share *s, unsigned n, double *max_over_mean, double *max_over_min)
{
	double hi = 0, lo = INFINITY;

	for (unsigned i = 0; i < n; i++) {
		hi = fmax(hi, s[i].share);
		lo = fmin(lo, s[i].share);
	}
	*max_over_mean = n ? hi * n : NAN;
	*max_over_min = lo > 0 ? hi / lo : INFINITY;
}
