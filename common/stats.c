#include <stdlib.h>

#include "stats.h"

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, stats_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double stats_median_positive(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > 0)
			v[k++] = v[i];
	return stats_median(v, k);
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

void stats_mindiff_add(struct stats_mindiff *m, double lo, double hi)
{
	if (lo > 0 && (m->lo <= 0 || lo < m->lo))
		m->lo = lo;
	if (hi > 0 && (m->hi <= 0 || hi < m->hi))
		m->hi = hi;
}

double stats_mindiff(const struct stats_mindiff *m)
{
	double d = m->hi - m->lo;

	return m->lo > 0 && m->hi > 0 && d > 0 ? d : 0;
}
