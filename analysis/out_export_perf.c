/* out_export_perf.c — metrics.json in the schema of perf's pmu-events metrics (an array of objects
 * with MetricName, MetricExpr, MetricGroup, ScaleUnit, BriefDescription); duration_time is the
 * elapsed time in seconds inside perf's metric expressions. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_export.h"

void out_decimal(char *buf, size_t len, double x)
{
	char *end;

	/* fixed notation, which every tool's formula parser reads, to 12 places: a config's scale of
	   1/65536 printed to 6 was 1.7 % off, and one below 5e-7 printed as a division by 0 */
	snprintf(buf, len, "%.12f", x);
	end = buf + strlen(buf) - 1;
	while (end > buf && *end == '0')
		*end-- = '\0';
	if (*end == '.')
		*end = '\0';
}

/* perf's metric expressions read '@' as '/' and need '\\' before '-', ',' and '='
   (tools/perf/util/expr.l). */
static void perf_escape(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (*s == '/') {
			buf[n++] = '@';
			continue;
		}
		if (*s == '-' || *s == ',' || *s == '=')
			buf[n++] = '\\';
		buf[n++] = *s;
	}
	buf[n] = '\0';
}

/* perf's event modifier letters (tools/perf/util/parse-events.l of perf 6.1: modifier_event
   [ukhpPGHSDIWeb]+) */
#define PERF_MODIFIERS "ukhpPGHSDIWeb"

/* Where the modifiers of perf's spelling ev begin, its end where it has none: after a PMU's closing '/'
   (cpu_core/.../p), or after the last ':' of a name without one where perf's modifier letters alone follow
   (page-faults:u). A ':' followed by anything else belongs to the name, as in a tracepoint's
   sched:sched_switch; perf's lexer reads a suffix of modifier letters alone as modifiers too (perf 6.1:
   'sched:u' is an event syntax error, 'sched:sched_switch:k' counts the kernel). */
static const char *perf_modifiers(const char *ev)
{
	const char *slash = strrchr(ev, '/'), *colon = strrchr(ev, ':');

	if (slash)
		return slash + 1;
	if (colon && colon[1] && !colon[1 + strspn(colon + 1, PERF_MODIFIERS)])
		return colon + 1;
	return ev + strlen(ev);
}

/* perf's name of the event with the modifier of the privilege level it was validated in, where that was
   one alone (out_metric_one_level): cpu/.../u, or l1d.replacement:u. Without it perf counts user and kernel
   wherever it may, and the validated scale need not hold. A name kept as it was counted (out_perf_event
   spells no name of its own for a PMU other than cpu, nor for a perf name) may carry modifiers already: a u
   or k there made the domain, and perf rejects a second modifier list ('page-faults:u:u' and
   'msr/tsc/p:u' are event syntax errors to perf 6.1); other modifiers take the level's letter among them
   ('msr/tsc/pu', 'page-faults:Su', which perf 6.1 parses). */
static void perf_event_in_domain(const struct out_metric *x, char *ev, size_t len)
{
	const char *why, *domain = out_metric_one_level(x), *mods;
	size_t l;

	out_perf_event(x, ev, len, &why);
	mods = perf_modifiers(ev);
	if (!domain || strpbrk(mods, "uk"))
		return;
	l = strlen(ev);
	snprintf(ev + l, len - l, "%s%c", !*mods && !strchr(ev, '/') ? ":" : "", domain[0]);
}

static json_t *metric(const struct out_metric *x, const char *name, const char *expr, const char *group,
		      const char *unit, const char *brief)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s}", "BriefDescription", brief, "MetricExpr", expr,
			      "MetricGroup", group, "MetricName", name, "ScaleUnit", unit);

	/* an uncore event counts once per package (upstream's data-fabric metrics, e.g.
	   amdzen3/recommended.json, say so with PerPkg); DF events cannot share a group with others */
	if (!strcmp(x->scope, "socket"))
		json_object_set_new(o, "PerPkg", json_string("1"));
	if (!strncmp(x->event, "amd_df", 6))
		json_object_set_new(o, "MetricConstraint", json_string("NO_GROUP_EVENTS"));
	return o;
}

/* "ev / 1 * 64 / 1000000000": the metric's count in its unit, before the division by time. */
static void formula(const struct out_metric *x, const char *ev, char *buf, size_t len)
{
	char scale[32], div[32];

	out_decimal(scale, sizeof scale, x->scale);
	out_decimal(div, sizeof div, x->divisor);
	if (x->bytes > 0)
		snprintf(buf, len, "%s / %s * %.0f / %s", ev, scale, x->bytes, div);
	else
		snprintf(buf, len, "%s / %s / %s", ev, scale, div);
}

int out_export_perf(FILE *f, const struct out_metric *m, const unsigned *usable, unsigned n)
{
	json_t *arr = json_array();
	int rc;

	for (unsigned i = 0; i < n; i++) {
		const struct out_metric *x = &m[usable[i]];
		char plain[512], ev[1024], expr[1200], brief[1400 + PATH_MAX], unit[48], name[160];
		perf_event_in_domain(x, plain, sizeof plain);
		perf_escape(plain, ev, sizeof ev);
		formula(x, ev, expr, sizeof expr);
		strncat(expr, " / duration_time", sizeof expr - strlen(expr) - 1);
		snprintf(unit, sizeof unit, "1%s", x->unit);
		snprintf(brief, sizeof brief, "%s [%s]. %s", x->what, x->unit, x->evidence);
		json_array_append_new(arr, metric(x, x->name, expr, x->group, unit, brief));
		if (!(x->peak_rate > 0))
			continue;
		snprintf(name, sizeof name, "%s_of_peak", x->name);
		snprintf(expr, sizeof expr, "%s / duration_time / %.0f", ev, x->peak_rate);
		snprintf(brief, sizeof brief,
			 "%s as a share of the highest rate pmucheck measured for it "
			 "(%s: %.0f Mevents/s; the 100 %% reference of Molka et al. Tables 2/3). %s",
			 x->event, x->peak_where, x->peak_rate / 1e6, x->evidence);
		json_array_append_new(arr, metric(x, name, expr, "pmucheck_peak_use", "100%", brief));
	}
	rc = json_dumpf(arr, f, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(arr);
	return rc ? -1 : 0;
}

/* perf reads metrics JSON only when it is built into perf (pmu-events), so each metric also gets a
   command line an unmodified perf runs, with the formula to apply to its count. */
int out_export_perf_stat(FILE *f, const struct out_metric *m, const unsigned *usable, unsigned n)
{
	fputs("# pmucheck: the validated events as perf stat command lines. perf loads a metrics JSON only\n"
	      "# when built with it (tools/perf/pmu-events), so metrics.json is for a perf build; these run\n"
	      "# with any perf. Replace ./app with your program; apply the formula to the count perf prints\n"
	      "# (seconds: perf's \"seconds time elapsed\"); where perf scales an event (a sysfs\n"
	      "# alias with a .scale, printed in its unit), the formula divides the scale out again.\n",
	      f);
	for (unsigned i = 0; i < n; i++) {
		const struct out_metric *x = &m[usable[i]];
		char ev[512], expr[1024], count[64] = "count";
		const char *scaled = strstr(x->encoding, ",scale=");
		double s = scaled ? strtod(scaled + 7, NULL) : 1;
		perf_event_in_domain(x, ev, sizeof ev);
		/* perf stat prints a sysfs alias's count times its .scale (in its .unit); the event was
		   validated, and its formula is, on the count itself (harness/counters/ctr_spec.c) */
		if (s > 0 && s != 1)
			snprintf(count, sizeof count, "(count / %.17g)", s);
		formula(x, count, expr, sizeof expr);
		fprintf(f, "\n# %s [%s] = %s / seconds\n# %s\n# %s\nperf stat -e '%s'%s -- ./app\n", x->name,
			x->unit, expr, x->what, x->evidence, ev,
			!strcmp(x->scope, "socket") ? " -a --per-socket" : "");
	}
	return ferror(f) ? -1 : 0;
}
