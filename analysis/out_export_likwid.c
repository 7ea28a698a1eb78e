/* out_export_likwid.c — a LIKWID performance group file (groups/<arch>/<NAME>.txt): SHORT, the
 * EVENTSET (counter register, event), METRICS ("name [unit]  formula" over counters, time and
 * inverseClock) and LONG (the formulas with event names, then free text after "-"). */
#include <stdio.h>
#include <string.h>

#include "out_export.h"

int out_export_likwid_group(FILE *f, const struct out_metric *m)
{
	char ev[256], scale[32], formula[256], ctr[32];
	const char *why, *cls = "PMC";

	if (!out_likwid_name(m, ev, sizeof ev, &cls, &why))
		return -1;
	/* the first counter of its class: core PMC0, data fabric DFC0, L3 CPMC0, memory MBOX0C0 */
	snprintf(ctr, sizeof ctr, "%s%s", cls, !strcmp(cls, "MBOX") ? "0C0" : "0");
	out_decimal(scale, sizeof scale, m->scale);
	if (m->bytes > 0)
		snprintf(formula, sizeof formula, "%s/%s*%.0f/time",
			 m->divisor == 1e9 ? "1.0E-09" : "1.0E-06", scale, m->bytes);
	else
		snprintf(formula, sizeof formula, "1.0E-06/%s/time", scale);
	fprintf(f, "SHORT %s (validated by pmucheck)\n\n", m->what);
	fprintf(f, "EVENTSET\n%s  %s\n\n", ctr, ev);
	fprintf(f, "METRICS\nRuntime (RDTSC) [s]  time\n%s [%s]  %s*%s\n", m->name, m->unit, ctr, formula);
	if (m->peak_rate > 0)
		fprintf(f, "%s of peak [%%]  100*%s/time/%.0f\n", m->name, ctr, m->peak_rate);
	fprintf(f, "\nLONG\nFormulas:\n%s [%s] = %s*%s\n", m->name, m->unit, ev, formula);
	if (m->peak_rate > 0)
		fprintf(f, "%s of peak [%%] = 100*%s/time/%.0f (the highest rate measured, %s)\n", m->name,
			ev, m->peak_rate, m->peak_where);
	fprintf(f, "-\n%s.\n%s.\n", m->what, m->evidence);
	return ferror(f) ? -1 : 0;
}
