/* stats.h — the one home of the statistics harness and analysis take of repetitions, clock samples and
   points. The run's summary and the analysis's peaks must give the same figure from the same
   repetitions, so neither writes its own median. */
#ifndef PMUCHECK_STATS_H
#define PMUCHECK_STATS_H

#include <stddef.h>

/* qsort comparator for doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);

/* The mean of the positive values of v[0..n) (a failed measurement is 0); 0 when there are none. */
double stats_mean_positive(const double *v, int n);

/* Sorts v[0..n) in place and returns its median; 0 when n is 0. For even n it is the mean of the two
   middle values, as numpy and R take it: the upper or lower middle alone would make the figure depend on
   which side of the middle a single disturbed repetition falls, and an even --reps gave a summary and a
   peaks.md that disagreed when the harness took one middle and the analysis the mean. */
double stats_median(double *v, size_t n);

/* The median (as stats_median) of the positive values of v[0..n), which it moves to the front of v in
   sorted order; 0 when there are none. A differenced time <= 0 (noise on a tiny point) or a clock of 0 (no
   accepted sample) is no value at all, not a small one. */
double stats_median_positive(double *v, size_t n);

#endif
