/* verdict_int.h — shared by the verdict files only: the samples of one event grouped by level and
 * prefetch state, and how well a predictor explains them (verdict_eval.c), and the sums found by
 * non-negative least squares (verdict_sum.c). */
#ifndef PMUCHECK_VERDICT_INT_H
#define PMUCHECK_VERDICT_INT_H

#include "verdict.h"

#define NBUCKET (LV_COUNT * PF_COUNT) /* groups: level x prefetch state */

static inline int bucket_level(int b)
{
	return b / PF_COUNT;
}

static inline int bucket_pf(int b)
{
	return b % PF_COUNT;
}

struct sample {
	double y;
	uint32_t point;
	uint8_t bucket;
};

/* The samples of one event, ordered by bucket; start[b] .. start[b + 1] is bucket b. */
struct samples {
	struct sample *s;
	size_t n;
	size_t start[NBUCKET + 1];
	double *pred; /* the predictor under test, one per sample */
	double *tmp;
};

/* How well count = scale * pred holds, per bucket and overall. */
struct eval {
	double s;
	unsigned long held; /* bucket mask */
	size_t held_samples;
	double median[NBUCKET];
	int evaluated[NBUCKET];
	double error, spread, r2, slope, intercept, measured;
	double global_r2, global_slope;
	int prefetch_blind;
	unsigned points;
};

/* Evaluates S->pred as predictor; forced > 0 fixes the scale (a fitted sum has scale 1). */
void verdict_evaluate(const struct samples *S, double forced, struct eval *ev);

/* Finds the sum of quantities that best explains the counts, writes it to v->decomposition and sets
   S->pred to it. Returns how many distinct quantities it uses (0: none found). */
int verdict_sum(const struct agg *a, struct samples *S, struct verdict *v);

#endif
