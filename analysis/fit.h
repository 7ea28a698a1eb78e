/* fit.h — the statistics behind the verdicts: quantiles, linear fits with R^2, non-negative least
 * squares, and the "simple values" an event's scale is rounded to. Pure functions, no I/O. */
#ifndef PMUCHECK_FIT_H
#define PMUCHECK_FIT_H

#include <stddef.h>

/* Quantile q (0..1) with linear interpolation of v[0..n), sorted ascending (several quantiles, one
   sort); NAN when n == 0. */
double fit_quantile_sorted(const double *v, size_t n, double q);

/* Accumulates the sums of a least-squares line y = a*x + b. */
struct fit_line {
	double n, sx, sy, sxx, sxy, syy;
};

void fit_line_add(struct fit_line *f, double x, double y);
/* Slope a, intercept b and R^2 of the accumulated points. Returns 0, or -1 when x never varies
   (a, b, r2 are then NAN). When y never varies (x does), R^2 is 0: x explains none of it. */
int fit_line_solve(const struct fit_line *f, double *a, double *b, double *r2);

/* The simple scales an event may have (fit.c says where each comes from): 1/16 .. 16 in powers of two,
   1/12, 1/6, 1/3, 3, 6, 9, 12. */
extern const double fit_simple_values[];
extern const unsigned fit_nsimple;

/* The simple value nearest to x in relative terms (|x/s - 1| smallest); 0 when x <= 0. */
double fit_nearest_simple(double x);
/* The same over the simple values and `also` (> 0: the config's expected scale, which wins ties). */
double fit_nearest_simple_or(double x, double also);
/* Writes s as "1", "1/2", "3" into buf. */
void fit_format_scale(double s, char *buf, size_t len);

/* Non-negative least squares from the normal equations: minimises |A x - y|^2 subject to x >= 0,
 * given G = A^T A (m x m, row-major) and h = A^T y (Lawson-Hanson active set). m <= FIT_NNLS_MAX.
 * Returns 0, or -1 when the system is degenerate. */
#define FIT_NNLS_MAX 32
int fit_nnls(const double *G, const double *h, unsigned m, double *x);

#endif
