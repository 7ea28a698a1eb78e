/* latency_curve.c — see latency_curve.h. */
#include <math.h>

#include "latency_curve.h"

int latency_curve_point(const json_t *pt, double *bytes, struct level_probe_time *t)
{
	*bytes = json_number_value(json_array_get(pt, 0));
	t->ns = json_number_value(json_array_get(pt, 1));
	t->cycles = fmax(json_number_value(json_array_get(pt, 2)), 0);
	return *bytes > 0 && t->ns > 0;
}
