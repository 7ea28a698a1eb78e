/* stats.h — the statistics the harness takes of its repetitions and clock samples. */
#ifndef PMUCHECK_STATS_H
#define PMUCHECK_STATS_H

/* qsort comparator for doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);

/* The mean of the positive values of v[0..n) (a failed measurement is 0); 0 when there are none. */
double stats_mean_positive(const double *v, int n);

/* Sorts v[0..n) in place and returns its median (mean of the middle two for even n); 0 when n is 0. */
double stats_median(double *v, int n);

#endif
