#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Hoare's partition of v[0..n) (n > 16) around the median of its first, middle and last values: on
   return v[0..j] <= v[j+1..n); returns j. */
static size_t partition(double *v, size_t n)
{
	double a = v[0], b = v[n / 2], c = v[n - 1], p, t;
	size_t i = 0, j = n - 1;

	p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
	for (;;) {
		while (v[i] < p)
			i++;
		while (v[j] > p)
			j--;
		if (i >= j)
			return j;
		t = v[i], v[i] = v[j], v[j] = t;
		i++, j--;
	}
}

/* Quicksort (median of three, insertion sort below 16) inlined on doubles: the analysis sorts every
   group's ratios for every quantity, and qsort's comparison calls were a third of its time. NANs must
   not be in v. */
void stats_sort(double *v, size_t n)
{
	while (n > 16) {
		size_t j = partition(v, n);
		/* recurse into the smaller side, loop on the larger: log n stack */
		if (j + 1 < n - j - 1) {
			stats_sort(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			stats_sort(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t k = i;
		for (; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
}

double stats_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	stats_sort(v, n);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Hoare's selection (FIND): goes on in the part of each partition that holds k only; v[0..k) <= v[k] <=
   v[k+1..n) on return. */
static double select_kth(double *v, size_t n, size_t k)
{
	while (n > 16) {
		size_t j = partition(v, n);
		if (k <= j) {
			n = j + 1;
		} else {
			v += j + 1;
			k -= j + 1;
			n -= j + 1;
		}
	}
	stats_sort(v, n);
	return v[k];
}

double stats_median_select(double *v, size_t n)
{
	double hi, lo;

	if (n == 0)
		return 0;
	hi = select_kth(v, n, n / 2);
	if (n % 2)
		return hi;
	lo = v[0];
	for (size_t i = 1; i < n / 2; i++)
		lo = v[i] > lo ? v[i] : lo;
	return 0.5 * (lo + hi);
}

double stats_median_positive(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > 0)
			v[k++] = v[i];
	return stats_median(v, k);
}

double stats_max_positive(const double *v, size_t n)
{
	double max = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	return max;
}

double stats_thread_share(double all_median, int threads, double one_median)
{
	if (threads <= 0 || !(one_median > 0) || !(all_median > 0))
		return 0;
	return all_median / (threads * one_median);
}

double stats_mean_positive(const double *v, int n)
{
	double sum = 0;
	int k = 0;

	for (int i = 0; i < n; i++)
		if (v[i] > 0) {
			sum += v[i];
			k++;
		}
	return k ? sum / k : 0;
}

/* Keeps v as *first where it is the smallest positive value so far (0 = none). */
static void keep_smallest(double v, double *first)
{
	if (v > 0 && (*first <= 0 || v < *first))
		*first = v;
}

/* Keeps v among the two smallest positive values (*first <= *second; 0 = none). */
static void keep_two_smallest(double v, double *first, double *second)
{
	if (!(v > 0))
		return;
	if (*first <= 0 || v < *first) {
		*second = *first;
		*first = v;
	} else if (*second <= 0 || v < *second) {
		*second = v;
	}
}

void stats_mindiff_add(struct stats_mindiff *m, double lo, double hi)
{
	keep_two_smallest(lo, &m->lo, &m->lo2);
	keep_two_smallest(hi, &m->hi, &m->hi2);
}

/* Keeps the skew of a span that is the shortest of its length so far (*shortest before it is added): the
   span less its own call, or `unknown` where the span has none (0). */
static void keep_skew(double span, double own, double shortest, double unknown, double *skew)
{
	if (span > 0 && (shortest <= 0 || span < shortest))
		*skew = own > 0 ? span - own : unknown;
}

/* A span without its own call has a skew anywhere from none to all of it. stats_mindiff_mismatch counts
   twice the R span's skew less the 2R span's: taken as none, an R span's would hide a difference short by
   all of its skew, and a point could be confirmed too fast. So an unknown skew is the one that holds the
   estimate furthest from confirmed: an R span's the whole span (the point repeats, and ends noisy at its
   bound unless a shorter R span with its own call comes), a 2R span's none. A run never meets it (its
   every span has its threads' own calls). */
void stats_mindiff_add_spans(struct stats_mindiff *m, double lo, double hi, double own_lo, double own_hi)
{
	keep_skew(lo, own_lo, m->lo, lo, &m->lo_skew);
	keep_skew(hi, own_hi, m->hi, 0, &m->hi_skew);
	stats_mindiff_add(m, lo, hi);
	keep_smallest(own_lo, &m->own_lo);
	keep_smallest(own_hi, &m->own_hi);
}

double stats_mindiff(const struct stats_mindiff *m)
{
	double d = m->hi - m->lo;

	if (!(m->lo > 0 && m->hi > 0 && d > 0))
		return 0;
	return m->by_size ? d : fmin(d, m->lo);
}

int stats_mindiff_r_call(const struct stats_mindiff *m)
{
	double d = stats_mindiff(m);

	return d > 0 && d < m->hi - m->lo;
}

double stats_mindiff_spread(const struct stats_mindiff *m)
{
	double d = stats_mindiff(m);

	if (!(d > 0) || m->lo2 <= 0)
		return INFINITY;
	if (stats_mindiff_r_call(m)) /* the 2R calls only said they were longer */
		return (m->lo2 - m->lo) / d;
	return m->hi2 > 0 ? fmax(m->lo2 - m->lo, m->hi2 - m->hi) / d : INFINITY;
}

double stats_mindiff_mismatch(const struct stats_mindiff *m)
{
	double d = stats_mindiff(m);

	if (!(d > 0))
		return INFINITY;
	if (m->by_size)
		return 0;
	if (m->spans) { /* the skew is in both spans; their longest thread's own calls have none */
		double own = m->own_lo > 0 && m->own_hi > 0 ? 2 * m->own_lo - m->own_hi : 0;
		double spans = stats_mindiff_r_call(m)
			? m->hi - 2 * m->lo              /* past the R span standing in */
			: 2 * (m->lo_skew - m->hi_skew); /* short by the skew */
		return fmax(fmax(spans, 0), own) / d;
	}
	return (2 * m->lo - m->hi) / d;
}

double stats_mindiff_bound(const struct stats_mindiff *m)
{
	return m->lo > 0 && m->hi > 0 ? fmin(m->lo, m->hi / 2) : 0;
}

double stats_decile(const double *sorted, size_t n, int k)
{
	return sorted[(n - 1) * (size_t)k / 10];
}

struct stats_spread stats_spread(const double *v, size_t n)
{
	struct stats_spread s = {0};
	double *c;

	if (!n || !(c = malloc(n * sizeof *c)))
		return s;
	memcpy(c, v, n * sizeof *c);
	stats_sort(c, n);
	s.n = n;
	s.best = c[n - 1];
	s.p10 = stats_decile(c, n, 1);
	s.median = stats_median(c, n);
	free(c);
	return s;
}

int stats_push(double **v, int *n, int *cap, double x)
{
	if (*n == *cap) {
		int room = *cap ? 2 * *cap : 64;
		double *g = realloc(*v, (size_t)room * sizeof *g);
		if (!g)
			return -1;
		*v = g;
		*cap = room;
	}
	(*v)[(*n)++] = x;
	return 0;
}
