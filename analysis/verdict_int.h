/* verdict_int.h — shared by the verdict files only: the points of one event grouped by level and
 * prefetch state, and how well a predictor explains them (verdict_eval.c), the background that grows
 * with time (verdict_background.c), and the sums found by non-negative least squares (verdict_sum.c). */
#ifndef PMUCHECK_VERDICT_INT_H
#define PMUCHECK_VERDICT_INT_H

#include "verdict.h"

#define NBUCKET (LV_COUNT * PF_COUNT) /* groups: level x prefetch state, numbered as VERDICT_GROUP's bits */

static inline int bucket_level(int b)
{
	return b / PF_COUNT;
}

static inline int bucket_pf(int b)
{
	return b % PF_COUNT;
}

/* One point of the event: the median count of its repetitions (one disturbed repetition moves no
   verdict) and its time, for the background. */
struct sample {
	double y;
	double t; /* the point's time in seconds; 0 when it has none (no background for it) */
	uint32_t point;
};

/* The points of one event, ordered by bucket; start[b] .. start[b + 1] is bucket b. */
struct samples {
	struct sample *s;
	size_t n;
	size_t start[NBUCKET + 1];
	double *pred; /* the predictor under test, one per sample */
	double *tmp, *tmp2;
	int socket; /* the event's scope is a socket (an uncore counter), not a thread */
};

/* How well count - background * t = scale * pred holds, per bucket and overall. A bucket is
   *consistent* when its ratios agree (spread within THR_APPROX_ERROR) and *holds* when they also sit
   within THR_APPROX_ERROR of the scale. */
struct eval {
	double s;           /* the scale held (0: none) */
	double background;  /* events per second subtracted from every count */
	double bg_share;    /* the largest share of a held point's count the background explains */
	unsigned long held; /* bucket masks */
	unsigned long consistent;
	/* the buckets judged (held ones, else the consistent ones on the side of the scale most points lie
	   on) and the consistent ones on the other side, which count the other way */
	unsigned long judged, opposite;
	double direction_scale; /* where none holds: the scale its direction is judged against (0: none) */
	size_t held_samples, consistent_samples;
	double median[NBUCKET];
	int evaluated[NBUCKET];
	/* split buckets (more than THR_OUTLIER_SHARE of their points off the median, judged whole): how
	   many points lie off, of how many; split_off 0 when the bucket is not split */
	unsigned split_off[NBUCKET], split_of[NBUCKET];
	/* groups where the predictor is 0 at every point, so that no ratio judges them, and the event counts
	   there what it does not explain (verdict_eval.c zero_groups): how many such points, of how many */
	unsigned long unexplained;
	unsigned zero_off[NBUCKET], zero_of[NBUCKET];
	double error, spread, r2, slope, intercept, measured;
	double global_r2;  /* over every point where the predictor is not 0 ... */
	unsigned global_n; /* ... of which there are this many */
	unsigned outliers; /* points of the judged buckets left out as a minority off the median */
	int prefetch_blind;
	unsigned points;
};

/* Evaluates S->pred as predictor with the given background (events/s); forced > 0 fixes the scale (a
   fitted sum has scale 1); hyp > 0 is the config's expected scale, a simple value besides the
   physical ones. */
void verdict_evaluate(const struct samples *S, double forced, double hyp, double background, struct eval *ev);

/* Candidate backgrounds (events per second, > 0) for S->pred: the per-second offset that the slow
   points of each bucket show over its fast points. Returns how many (at most 2). */
int verdict_background(const struct samples *S, double *cand);

/* Finds the sum of quantities that best explains the counts, writes it to v->decomposition and sets
   S->pred to it. Returns how many distinct quantities it uses (0: none found). */
int verdict_sum(const struct agg *a, struct samples *S, struct verdict *v);

#endif
