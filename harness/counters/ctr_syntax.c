/* ctr_syntax.c — the grammar of ctr_syntax.h: structure only; which terms and aliases a PMU knows is
 * read from its sysfs directory by ctr_spec.c, on a machine that has it. */
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctr_syntax.h"

static const struct ctr_named_event named_events[] = {
	{"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	{"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	{"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
	{"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
	{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
	{"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
	{"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
	{"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
	{"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	{"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	{"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
	{"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	{"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
	{"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
	{"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
};

static size_t span_name(const char *s, const char *more)
{
	size_t n = 0;

	if (!islower((unsigned char)s[0]))
		return 0;
	while (islower((unsigned char)s[n]) || isdigit((unsigned char)s[n]) || (s[n] && strchr(more, s[n])))
		n++;
	return n;
}

int ctr_syntax_number(const char *spec, const char *term, const char *text, unsigned long long *v,
		      struct err *e)
{
	char *end;

	if (!*text || !isdigit((unsigned char)*text))
		return err_set(e, E_USAGE, "event '%s': term '%s' needs a number, not '%s'", spec, term,
			       text);
	errno = 0;
	*v = strtoull(text, &end, 0);
	if (errno || *end)
		return err_set(e, E_USAGE, "event '%s': term '%s' needs a number, not '%s'", spec, term,
			       text);
	return 0;
}

/* Each term: a name, then nothing or "=" and a number. */
static int check_terms(const char *spec, const char *terms, struct err *e)
{
	const char *t = terms;

	if (!*t)
		return err_set(e, E_USAGE, "event '%s': no terms between the '/'", spec);
	for (;;) {
		size_t len = strcspn(t, ","), n = span_name(t, "_.-");
		char name[CTR_SYNTAX_NAME_MAX], value[CTR_SYNTAX_TERMS_MAX];
		unsigned long long v;
		int rc;

		if (!len)
			return err_set(e, E_USAGE, "event '%s': empty term", spec);
		if (!n || n >= sizeof name || (n < len && t[n] != '='))
			return err_set(e, E_USAGE,
				       "event '%s': term '%.*s' is not name[=number] (names: a-z, "
				       "0-9, '_', '.', '-')",
				       spec, (int)len, t);
		memcpy(name, t, n);
		name[n] = '\0';
		if (n < len) {
			snprintf(value, sizeof value, "%.*s", (int)(len - n - 1), t + n + 1);
			if ((rc = ctr_syntax_number(spec, name, value, &v, e)))
				return rc;
		}
		if (!t[len])
			return 0;
		t += len + 1;
	}
}

static int parse_modifiers(const char *spec, const char *m, struct ctr_syntax *s, struct err *e)
{
	for (; *m; m++) {
		if (*m == 'u')
			s->user = true;
		else if (*m == 'k')
			s->kernel = true;
		else if (strchr("hGHpP", *m))
			return err_set(e, E_USAGE,
				       "event '%s': modifier '%c' is not supported (pmucheck counts; "
				       "h, G, H split hypervisor, guest and host, p and P are for sampling): "
				       "use u, k or none",
				       spec, *m);
		else
			return err_set(e, E_USAGE,
				       "event '%s': unknown modifier '%c' after the closing '/' "
				       "(u, k)",
				       spec, *m);
	}
	return 0;
}

int ctr_syntax_parse(const char *spec, bool wildcard, struct ctr_syntax *s, struct err *e)
{
	const char *open = strchr(spec, '/'), *close = open ? strchr(open + 1, '/') : NULL;
	size_t plen = open ? (size_t)(open - spec) : 0, n;

	memset(s, 0, sizeof *s);
	if (!open || !close)
		return err_set(e, E_USAGE,
			       "event '%s': perf syntax is pmu/term=value,.../ (missing the "
			       "closing '/')",
			       spec);
	if (strchr(close + 1, '/'))
		return err_set(e, E_USAGE,
			       "event '%s': perf syntax is pmu/term=value,.../ (one pair of "
			       "'/')",
			       spec);
	if (!plen)
		return err_set(e, E_USAGE, "event '%s': missing PMU name before '/'", spec);
	n = span_name(spec, "_");
	if (wildcard && n < plen && spec[n] == '*')
		n++;
	if (n != plen || plen >= sizeof s->pmu)
		return err_set(e, E_USAGE, "event '%s': PMU name '%.*s' is not [a-z][a-z0-9_]*%s", spec,
			       (int)plen, spec, wildcard ? " (with '*' for every box)" : "");
	if ((size_t)(close - open - 1) >= sizeof s->terms)
		return err_set(e, E_USAGE, "event '%s': terms longer than %d characters", spec,
			       CTR_SYNTAX_TERMS_MAX - 1);
	memcpy(s->pmu, spec, plen);
	memcpy(s->terms, open + 1, (size_t)(close - open - 1));
	if (check_terms(spec, s->terms, e))
		return E_USAGE;
	return parse_modifiers(spec, close + 1, s, e);
}

const struct ctr_named_event *ctr_syntax_named(const char *spec)
{
	for (size_t i = 0; i < sizeof named_events / sizeof named_events[0]; i++)
		if (!strcmp(spec, named_events[i].name))
			return &named_events[i];
	return NULL;
}

const char *ctr_perf_named_event(unsigned i)
{
	return i < sizeof named_events / sizeof named_events[0] ? named_events[i].name : NULL;
}
