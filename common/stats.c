#include <stdlib.h>

#include "stats.h"

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof *v, stats_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
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
