/* stats.h — the order statistics the harness takes of its repetitions. */
#ifndef PMUCHECK_STATS_H
#define PMUCHECK_STATS_H

/* qsort comparator for doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);

/* Sorts v[0..n) in place and returns its median (mean of the middle two for even n); 0 when n is 0. */
double stats_median(double *v, int n);

#endif
