/* verdict_eval.c — how well count = scale * predictor holds, per level x prefetch group: median
 * ratio, spread, the simple scale most groups agree on, R^2, and whether prefetching hides counts. */
#include <math.h>
#include <string.h>

#include "fit.h"
#include "stats.h"
#include "thresholds.h"
#include "verdict_int.h"

/* Ratios of bucket b into tmp; returns how many (samples with pred > 0 only). */
static size_t bucket_ratios(const struct samples *S, int b, double *tmp)
{
	size_t k = 0;

	for (size_t i = S->start[b]; i < S->start[b + 1]; i++)
		if (S->pred[i] > 0)
			tmp[k++] = S->s[i].y / S->pred[i];
	return k;
}

/* A group holds when its ratios sit close to the scale: median and spread both within the
   approximate error (a mixture of kernels that only averages out to a simple value does not). */
static int holds(double median, double spread, double s)
{
	return s > 0 && median > 0 && fabs(median / s - 1) <= THR_APPROX_ERROR && spread <= THR_APPROX_ERROR;
}

/* The scale held by the most samples; ties go to the scale prefetch-off groups hold (the truth
   without prefetch traffic), then to the scale nearest 1. */
static double choose_scale(const struct eval *ev, const double *bs, const size_t *bn)
{
	double best = 0, best_score = 0;
	int best_off = 0;

	for (unsigned k = 0; k < fit_nsimple; k++) {
		double s = fit_simple_values[k], score = 0;
		int off = 0;
		for (int b = 0; b < NBUCKET; b++) {
			if (!ev->evaluated[b] || bs[b] != s)
				continue;
			score += (double)bn[b];
			off |= bucket_pf(b) == PF_OFF;
		}
		if (score <= 0)
			continue;
		if (score > best_score || (score == best_score && off > best_off) ||
		    (score == best_score && off == best_off && fabs(log(s)) < fabs(log(best)))) {
			best = s;
			best_score = score;
			best_off = off;
		}
	}
	return best;
}

static void fit_buckets(const struct samples *S, unsigned long mask, double *a, double *b, double *r2)
{
	struct fit_line f = {0};

	for (int k = 0; k < NBUCKET; k++)
		if (mask & (1ul << k))
			for (size_t i = S->start[k]; i < S->start[k + 1]; i++)
				fit_line_add(&f, S->pred[i], S->s[i].y);
	fit_line_solve(&f, a, b, r2);
}

/* A level where prefetch off holds and prefetch on counts less: the event misses prefetched lines. */
static int prefetch_blind(const struct eval *ev)
{
	for (int l = 0; l < LV_COUNT; l++) {
		int off = l * PF_COUNT + PF_OFF, on = l * PF_COUNT + PF_ON;
		if ((ev->held & (1ul << off)) && ev->evaluated[on] && !(ev->held & (1ul << on)) &&
		    ev->median[on] < ev->s * (1 - THR_APPROX_ERROR))
			return 1;
	}
	return 0;
}

void verdict_evaluate(const struct samples *S, double forced, struct eval *ev)
{
	double bs[NBUCKET] = {0}, p10[NBUCKET], p90[NBUCKET];
	size_t bn[NBUCKET] = {0}, k = 0;
	uint32_t last = UINT32_MAX;

	memset(ev, 0, sizeof *ev);
	for (int b = 0; b < NBUCKET; b++) {
		bn[b] = bucket_ratios(S, b, S->tmp);
		if (!bn[b])
			continue;
		ev->evaluated[b] = 1;
		ev->median[b] = stats_median(S->tmp, bn[b]); /* sorts, for the quantiles below */
		p10[b] = fit_quantile_sorted(S->tmp, bn[b], 0.1);
		p90[b] = fit_quantile_sorted(S->tmp, bn[b], 0.9);
		bs[b] = forced > 0 ? forced : fit_nearest_simple(ev->median[b]);
		if (!holds(ev->median[b], (p90[b] - p10[b]) / 2 / ev->median[b], bs[b]))
			bs[b] = 0;
	}
	fit_buckets(S, ~0ul, &ev->global_slope, &ev->intercept, &ev->global_r2);
	ev->s = forced > 0 ? forced : choose_scale(ev, bs, bn);
	for (int b = 0; b < NBUCKET; b++) {
		if (!ev->evaluated[b] || bs[b] != ev->s || ev->s <= 0)
			continue;
		ev->held |= 1ul << b;
		ev->held_samples += bn[b];
		ev->error = fmax(ev->error, fabs(ev->median[b] / ev->s - 1));
		ev->spread = fmax(ev->spread, (p90[b] - p10[b]) / 2 / ev->median[b]);
		k += bucket_ratios(S, b, S->tmp + k);
		for (size_t i = S->start[b]; i < S->start[b + 1]; i++) {
			if (S->s[i].point != last)
				ev->points++;
			last = S->s[i].point;
		}
	}
	if (!ev->held)
		return;
	ev->measured = stats_median(S->tmp, k);
	fit_buckets(S, ev->held, &ev->slope, &ev->intercept, &ev->r2);
	ev->prefetch_blind = prefetch_blind(ev);
}
