/* latency_curve.c — see latency_curve.h. */
#include "latency_curve.h"

int latency_curve_point(const json_t *pt, double *bytes, double *ns)
{
	*bytes = json_number_value(json_array_get(pt, 0));
	*ns = json_number_value(json_array_get(pt, 1));
	return *bytes > 0 && *ns > 0;
}
