/* box_share.c — each box's share of a box wildcard's sum, per level (box_share.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "box_share.h"
#include "stats.h"

/* The median count of every point for event ev into med[npoints] (NAN where it has none). */
static void point_medians(const struct agg *a, uint32_t ev, double *med, double *tmp)
{
	const struct agg_event *e = &a->events[ev];

	for (uint32_t p = 0; p < a->npoints; p++)
		med[p] = NAN;
	for (uint32_t k = 0; k < e->ncells; k++) {
		const struct agg_cell *c = &a->cells[e->cells[k]];
		if (!c->n)
			continue;
		memcpy(tmp, c->counts, c->n * sizeof *tmp);
		med[c->point] = stats_median_select(tmp, c->n);
	}
}

static uint32_t max_cell_n(const struct agg *a)
{
	uint32_t n = 1;

	for (uint32_t i = 0; i < a->ncells; i++)
		n = a->cells[i].n > n ? a->cells[i].n : n;
	return n;
}

/* Appends the entries of one summed row s whose boxes are box[0..nb), their medians med[b * npoints]. */
static int add_sum(const struct agg *a, uint32_t s, const uint32_t *box, unsigned nb, const double *med,
		   double *shares, struct box_share **out, unsigned *n)
{
	for (int l = 0; l < LV_COUNT; l++) {
		struct box_share *grown;
		unsigned np = 0;

		/* shares[b * npoints + k]: box b's share at the level's k-th complete point */
		for (uint32_t p = 0; p < a->npoints; p++) {
			double total = 0;
			unsigned b;
			if (a->points[p].level != (enum point_level)l)
				continue;
			for (b = 0; b < nb && isfinite(med[b * a->npoints + p]); b++)
				total += med[b * a->npoints + p];
			if (b < nb || !(total > 0))
				continue;
			for (b = 0; b < nb; b++)
				shares[b * a->npoints + np] = med[b * a->npoints + p] / total;
			np++;
		}
		if (!np)
			continue;
		if (!(grown = realloc(*out, (*n + nb) * sizeof **out)))
			return -1;
		*out = grown;
		for (unsigned b = 0; b < nb; b++) {
			double *v = &shares[b * a->npoints], mid = stats_median(v, np); /* sorts v */
			grown[(*n)++] = (struct box_share){s,    box[b],   (enum point_level)l, np, mid,
							   v[0], v[np - 1]};
		}
	}
	return 0;
}

int box_shares(const struct agg *a, struct box_share **out, unsigned *n, struct err *e)
{
	uint32_t *box = malloc((a->nevents + 1) * sizeof *box);
	double *med = NULL, *shares = NULL, *tmp = malloc(max_cell_n(a) * sizeof *tmp);

	*out = NULL;
	*n = 0;
	if (!box || !tmp)
		goto oom;
	for (uint32_t s = 0; s < a->nevents; s++) {
		unsigned nb = 0;
		if (!a->events[s].nboxes)
			continue;
		for (uint32_t b = 0; b < a->nevents; b++)
			if (a->events[b].box_of == (int32_t)s)
				box[nb++] = b;
		free(med);
		free(shares);
		med = malloc((size_t)nb * (a->npoints + 1) * sizeof *med);
		shares = malloc((size_t)nb * (a->npoints + 1) * sizeof *shares);
		if (!med || !shares)
			goto oom;
		for (unsigned b = 0; b < nb; b++)
			point_medians(a, box[b], &med[b * a->npoints], tmp);
		if (add_sum(a, s, box, nb, med, shares, out, n))
			goto oom;
	}
	free(box);
	free(med);
	free(shares);
	free(tmp);
	return 0;
oom:
	free(box);
	free(med);
	free(shares);
	free(tmp);
	free(*out);
	*out = NULL;
	*n = 0;
	return err_set(e, E_RUNTIME, "out of memory computing the boxes' shares");
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
