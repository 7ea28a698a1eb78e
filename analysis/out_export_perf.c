/* out_export_perf.c — metrics.json in the schema of perf's pmu-events metrics (an array of objects
 * with MetricName, MetricExpr, MetricGroup, ScaleUnit, BriefDescription); duration_time is the
 * elapsed time in seconds inside perf's metric expressions. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "out_export.h"

void out_decimal(char *buf, size_t len, double x)
{
	char *end;

	snprintf(buf, len, "%.6f", x);
	end = buf + strlen(buf) - 1;
	while (end > buf && *end == '0')
		*end-- = '\0';
	if (*end == '.')
		*end = '\0';
}

static json_t *metric(const char *name, const char *expr, const char *group, const char *unit,
		      const char *brief)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:s}", "BriefDescription", brief, "MetricExpr", expr,
			 "MetricGroup", group, "MetricName", name, "ScaleUnit", unit);
}

int out_export_perf(FILE *f, const struct out_metric *m, const unsigned *usable, unsigned n)
{
	json_t *arr = json_array();
	int rc;

	for (unsigned i = 0; i < n; i++) {
		const struct out_metric *x = &m[usable[i]];
		char ev[512], expr[1024], brief[1200], scale[32], div[32], unit[48], name[160];
		const char *why;
		out_perf_name(x, ev, sizeof ev, &why);
		out_decimal(scale, sizeof scale, x->scale);
		out_decimal(div, sizeof div, x->divisor);
		if (x->bytes > 0)
			snprintf(expr, sizeof expr, "%s / %s * %.0f / %s / duration_time", ev, scale,
				 x->bytes, div);
		else
			snprintf(expr, sizeof expr, "%s / %s / %s / duration_time", ev, scale, div);
		snprintf(unit, sizeof unit, "1%s", x->unit);
		snprintf(brief, sizeof brief, "%s [%s]. %s", x->what, x->unit, x->evidence);
		json_array_append_new(arr, metric(x->name, expr, x->group, unit, brief));
		if (!(x->peak_rate > 0))
			continue;
		snprintf(name, sizeof name, "%s_of_peak", x->name);
		snprintf(expr, sizeof expr, "%s / duration_time / %.0f", ev, x->peak_rate);
		snprintf(brief, sizeof brief,
			 "%s as a share of the highest rate pmucheck measured for it "
			 "(%s: %.0f Mevents/s; the 100 %% reference of Molka et al. Tables 2/3). %s",
			 x->event, x->peak_where, x->peak_rate / 1e6, x->evidence);
		json_array_append_new(arr, metric(name, expr, "pmucheck_peak_use", "100%", brief));
	}
	rc = json_dumpf(arr, f, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(arr);
	return rc ? -1 : 0;
}
