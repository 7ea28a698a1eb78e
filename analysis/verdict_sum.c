/* verdict_sum.c — names events that count a sum (loads + stores, lines from L2 + lines from DRAM):
 * forward-stepwise non-negative least squares over the volumes and over lines split by level,
 * coefficients rounded to simple values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fit.h"
#include "thresholds.h"
#include "verdict_int.h"

#define NSPLIT 2 /* lines_read and lines_written, split by level */
/* bytes_* are loads/stores times the width, and lines_demand_read the part of lines_read that loads
   read (on every kernel but store, copy, triad and touch the same column twice): left out */
#define NBASE (RQ_COUNT - 3)
#define NCOL (NBASE + NSPLIT * LV_COUNT)

static const int base_q[NBASE] = {RQ_instructions,  RQ_loads,       RQ_stores,         RQ_lines_read,
				  RQ_lines_written, RQ_split_loads, RQ_chase_accesses, RQ_multiplies,
				  RQ_nops,          RQ_pages};
static const int split_q[NSPLIT] = {RQ_lines_read, RQ_lines_written};

static double column(const struct agg_point *p, int c)
{
	if (c < NBASE)
		return p->v[base_q[c]];
	c -= NBASE;
	return p->level == c % LV_COUNT ? p->v[split_q[c / LV_COUNT]] : 0;
}

static int column_quantity(int c)
{
	return c < NBASE ? base_q[c] : split_q[(c - NBASE) / LV_COUNT];
}

static void column_name(int c, char *buf, size_t len)
{
	if (c < NBASE)
		snprintf(buf, len, "%s", raw_quantity_names[base_q[c]]);
	else
		snprintf(buf, len, "%s@%s", raw_quantity_names[split_q[(c - NBASE) / LV_COUNT]],
			 point_level_name((c - NBASE) % LV_COUNT));
}

/* Weighted normal equations; each sample is scaled by the size of its volumes so that small and
   large points weigh alike (relative least squares). */
static void normal_equations(const struct agg *a, const struct samples *S, int only_off, double *G, double *h,
			     double *yy)
{
	double x[NCOL];

	memset(G, 0, sizeof(double) * NCOL * NCOL);
	memset(h, 0, sizeof(double) * NCOL);
	*yy = 0;
	for (size_t i = 0; i < S->n; i++) {
		const struct agg_point *p = &a->points[S->s[i].point];
		double norm = 0, w;
		if (only_off && p->pf != PF_OFF)
			continue;
		for (int c = 0; c < NCOL; c++) {
			x[c] = column(p, c);
			norm += x[c] * x[c];
		}
		w = norm > 0 ? 1 / norm : 1 / fmax(S->s[i].y * S->s[i].y, 1);
		for (int r = 0; r < NCOL; r++) {
			if (x[r] == 0)
				continue;
			h[r] += w * x[r] * S->s[i].y;
			for (int c = 0; c < NCOL; c++)
				G[r * NCOL + c] += w * x[r] * x[c];
		}
		*yy += w * S->s[i].y * S->s[i].y;
	}
}

/* NNLS restricted to the columns in sel; returns the residual sum of squares. */
static double nnls_subset(const double *G, const double *h, double yy, const int *sel, unsigned n,
			  double *coef)
{
	double g[FIT_NNLS_MAX * FIT_NNLS_MAX], hh[FIT_NNLS_MAX], rss = yy;

	for (unsigned i = 0; i < n; i++) {
		hh[i] = h[sel[i]];
		for (unsigned j = 0; j < n; j++)
			g[i * n + j] = G[sel[i] * NCOL + sel[j]];
	}
	if (fit_nnls(g, hh, n, coef))
		return INFINITY;
	for (unsigned i = 0; i < n; i++) {
		rss -= 2 * coef[i] * hh[i];
		for (unsigned j = 0; j < n; j++)
			rss += coef[i] * g[i * n + j] * coef[j];
	}
	return rss;
}

/* Picks up to THR_NNLS_MAX_TERMS columns; fills sel/coef, returns how many. */
static unsigned stepwise(const double *G, const double *h, double yy, int *sel, double *coef)
{
	double rss = yy, c[FIT_NNLS_MAX];
	unsigned n = 0;

	while (n < THR_NNLS_MAX_TERMS) {
		double best = INFINITY, best_c[FIT_NNLS_MAX];
		int best_col = -1;
		for (int col = 0; col < NCOL; col++) {
			int used = G[col * NCOL + col] <= 0;
			for (unsigned i = 0; i < n && !used; i++)
				used = sel[i] == col;
			if (used)
				continue;
			sel[n] = col;
			double r = nnls_subset(G, h, yy, sel, n + 1, c);
			if (r < best) {
				best = r;
				best_col = col;
				memcpy(best_c, c, sizeof c);
			}
		}
		if (best_col < 0 || best > rss * (1 - THR_NNLS_GAIN))
			break;
		sel[n++] = best_col;
		memcpy(coef, best_c, sizeof best_c);
		rss = best;
		if (rss <= 1e-12 * yy)
			break;
	}
	return n;
}

/* Rounds the terms to simple values, writes the text, sets S->pred to the sum; returns the number
   of distinct quantities it uses. */
int verdict_sum(const struct agg *a, struct samples *S, struct verdict *v)
{
	double G[NCOL * NCOL], h[NCOL], yy, coef[FIT_NNLS_MAX];
	int sel[FIT_NNLS_MAX], kept_sel[FIT_NNLS_MAX], only_off = 0;
	unsigned n, quantities = 0, kept = 0;
	size_t len = 0;

	for (size_t i = 0; i < S->n && !only_off; i++)
		only_off = a->points[S->s[i].point].pf == PF_OFF;
	normal_equations(a, S, only_off, G, h, &yy);
	n = stepwise(G, h, yy, sel, coef);
	memset(S->pred, 0, S->n * sizeof *S->pred);
	v->decomposition[0] = '\0';
	for (unsigned t = 0; t < n; t++) {
		char name[64], sc[16];
		double s = coef[t] >= THR_NNLS_MIN_COEF ? fit_nearest_simple(coef[t]) : 0;
		if (s <= 0)
			continue;
		for (size_t i = 0; i < S->n; i++)
			S->pred[i] += s * column(&a->points[S->s[i].point], sel[t]);
		column_name(sel[t], name, sizeof name);
		fit_format_scale(s, sc, sizeof sc);
		len += (size_t)snprintf(v->decomposition + len, sizeof v->decomposition - len, "%s%s%s%s",
					kept ? " + " : "", s != 1 ? sc : "", s != 1 ? " " : "", name);
		if (len >= sizeof v->decomposition)
			len = sizeof v->decomposition - 1;
		/* level splits of one quantity are still one quantity; a term rounded away above is none */
		int dup = 0;
		for (unsigned u = 0; u < kept; u++)
			dup |= column_quantity(kept_sel[u]) == column_quantity(sel[t]);
		quantities += !dup;
		kept_sel[kept++] = sel[t];
	}
	return kept ? (int)quantities : 0;
}
