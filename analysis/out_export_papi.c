/* out_export_papi.c — a PAPI user-events file (papi_events.csv syntax, for PAPI_USER_EVENTS_FILE):
 * "CPU,<pmu>" then "PRESET,NAME,NOT_DERIVED|DERIVED_POSTFIX,[postfix,]EVENT,LDESC,text". PAPI splits
 * every field at commas and its postfix arithmetic knows integers only, so descriptions lose their
 * commas and scales are the nearest simple value (the measured one is in the description). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out_export.h"

static void no_commas(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ',' ? ';' : *s == '"' ? '\'' : *s, f);
}

const char *out_papi_postfix(double s, char *buf, size_t len)
{
	if (fabs(s - 1) < 1e-9)
		return "";
	if (s > 1 && fabs(s - round(s)) < 1e-9)
		snprintf(buf, len, "N0|%.0f|/|", s);
	else if (s < 1 && s > 0 && fabs(1 / s - round(1 / s)) < 1e-9)
		snprintf(buf, len, "N0|%.0f|*|", 1 / s);
	else
		return NULL;
	return buf;
}

int out_export_papi(FILE *f, const struct out_metric *m, const unsigned *usable, unsigned n, const char *pmu,
		    const char *note, const char *left_out)
{
	fprintf(f,
		"# pmucheck: validated events as PAPI user-defined events. Load them with\n"
		"#   export PAPI_USER_EVENTS_FILE=/path/to/%s\n"
		"#   papi_avail -e PMUCHECK_...   papi_command_line PMUCHECK_...\n"
		"# (not as PAPI_CSV_EVENT_FILE: that file replaces PAPI's presets). Each counts the quantity "
		"its\n"
		"# event was validated against: event count / scale, the scale the perf and LIKWID exports\n"
		"# use too. Uncore events are left out: PAPI's user events take only perf_event's native\n"
		"# events (papi_preset.c), not perf_event_uncore's.\n"
		"# A core event was validated counting user and kernel mode unless its description says\n"
		"# \"counted in user mode only\" (or \"privilege level not recorded\": results from before\n"
		"# pmucheck recorded it); PAPI counts user mode alone unless told PAPI_DOM_ALL\n"
		"# (PAPI_set_domain, or PAPI_set_opt with PAPI_DOMAIN).\n"
		"# CPU line: %s\n",
		OUT_PAPI_FILE, note);
	if (*left_out) {
		fputs("# Not exported (PAPI cannot take them):\n#   ", f);
		for (const char *c = left_out; *c; c++)
			if (*c == ';' && c[1] == ' ')
				fputs("\n#  ", f);
			else
				fputc(*c, f);
		fputc('\n', f);
	}
	fprintf(f, "#\nCPU,%s\n", pmu);
	for (unsigned i = 0; i < n; i++) {
		const struct out_metric *x = &m[usable[i]];
		char ev[256], pf[64], name[160];
		const char *why, *op = out_papi_postfix(x->scale, pf, sizeof pf);
		if (!out_papi_name(x, ev, sizeof ev, &why) || !op)
			continue;
		snprintf(name, sizeof name, "PMUCHECK_%s", x->count_name);
		for (char *c = name; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		fprintf(f, "PRESET,%s,%s%s,%s,LDESC,\"", name, *op ? "DERIVED_POSTFIX," : "NOT_DERIVED", op,
			ev);
		fputs("counts ", f);
		no_commas(f, x->quantity);
		fprintf(f, " (event / %g; validated at: ", x->scale);
		no_commas(f, x->levels);
		fputs("). ", f);
		no_commas(f, x->evidence);
		fputs("\"\n", f);
	}
	return ferror(f) ? -1 : 0;
}
