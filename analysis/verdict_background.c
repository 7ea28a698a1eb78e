/* verdict_background.c — the part of an uncore count that grows with time, not with the kernel's work.
 *
 * An uncore counter sees the whole socket: other cores and the OS add traffic at some rate B (events
 * per second), so count = s x q + B x t. A streaming point moves its lines fast and carries 1-3 % of
 * background, a pointer chase or a long NOP delay 10-25 %. Divided by q: ratio = s + B x (t / q), a
 * line in the time per unit of work. Each bucket's resistant line (Tukey: the medians of its slowest
 * and fastest thirds) gives a B that a minority of odd points cannot move; the candidates are their
 * median and their smallest positive value (a bucket whose slow points also carry prefetched lines
 * shows more than the background). verdict.c keeps a candidate only where it makes the event hold
 * better. */
#include <math.h>
#include <stdlib.h>

#include "fit.h"
#include "stats.h"
#include "verdict_int.h"

struct xy {
	double x, y;
};

static int cmp_x(const void *a, const void *b)
{
	double x = ((const struct xy *)a)->x, y = ((const struct xy *)b)->x;

	return (x > y) - (x < y);
}

/* The median of x (want_y 0) or y (1) over the first third of v[0..n) (upper 0) or the last (1). */
static double third_median(const struct xy *v, size_t n, int upper, int want_y, double *tmp)
{
	size_t third = n / 3;

	for (size_t i = 0; i < third; i++) {
		const struct xy *p = &v[upper ? n - 1 - i : i];
		tmp[i] = want_y ? p->y : p->x;
	}
	return stats_median_select(tmp, third);
}

/* The resistant-line slope of y against x over v[0..n) (sorted by x here); NAN when the slow third is
   not clearly slower than the fast one. */
static double resistant_slope(struct xy *v, size_t n, double *tmp)
{
	double xl, xu;

	qsort(v, n, sizeof *v, cmp_x);
	xl = third_median(v, n, 0, 0, tmp);
	xu = third_median(v, n, 1, 0, tmp);
	if (!(xu > 2 * xl))
		return NAN;
	return (third_median(v, n, 1, 1, tmp) - third_median(v, n, 0, 1, tmp)) / (xu - xl);
}

int verdict_background(const struct samples *S, double *cand)
{
	double slopes[NBUCKET], lowest = INFINITY;
	struct xy *v = malloc((S->n + 1) * sizeof *v);
	int ns = 0, nc = 0;

	if (!v)
		return 0;
	for (int b = 0; b < NBUCKET; b++) {
		size_t n = 0;
		double sl;
		for (size_t i = S->start[b]; i < S->start[b + 1]; i++)
			if (S->pred[i] > 0 && S->s[i].t > 0)
				v[n++] = (struct xy){S->s[i].t / S->pred[i], S->s[i].y / S->pred[i]};
		if (n < 6)
			continue;
		sl = resistant_slope(v, n, S->tmp2);
		if (isnan(sl))
			continue;
		slopes[ns++] = sl;
		if (sl > 0)
			lowest = fmin(lowest, sl);
	}
	free(v);
	if (ns) {
		double med = stats_median(slopes, (size_t)ns);
		if (med > 0)
			cand[nc++] = med;
	}
	if (isfinite(lowest) && (!nc || lowest < cand[0]))
		cand[nc++] = lowest;
	return nc;
}
