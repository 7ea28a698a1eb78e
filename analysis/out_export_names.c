/* out_export_names.c — how perf, LIKWID and PAPI spell an event pmucheck counted. Only spellings
 * that follow from the name itself are produced; anything else is left out with the reason, never
 * guessed. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "out_export.h"

static int has_only(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

/* perf's metric expressions read '@' as '/' and need '\' before '-', ',' and '='
   (tools/perf/util/expr.l). */
static const char *perf_escape(const char *s, char *buf, size_t len)
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
	return buf;
}

const char *out_perf_name(const struct out_metric *m, char *buf, size_t len, const char **why)
{
	char name[256];

	if (!strcmp(m->backend, "perf"))
		return perf_escape(m->event, buf, len);
	if (!strncmp(m->event, "perf::", 6) && has_only(m->event + 6, "-_")) {
		/* libpfm4's perf::PAGE-FAULTS is perf's page-faults */
		size_t i;
		for (i = 0; m->event[6 + i] && i + 1 < sizeof name; i++)
			name[i] = (char)tolower((unsigned char)m->event[6 + i]);
		name[i] = '\0';
		return perf_escape(name, buf, len);
	}
	if (strstr(m->event, "::") || !has_only(m->event, "_:.")) {
		*why = "a PAPI name of a PMU other than the core (pmu::event) has no perf spelling "
		       "pmucheck can derive";
		return NULL;
	}
	/* libpfm4's EVENT:UMASK is the vendor's EVENT.UMASK, the name perf's JSON events use */
	snprintf(name, sizeof name, "%s", m->event);
	for (char *c = name; *c; c++)
		if (*c == ':')
			*c = '.';
	return perf_escape(name, buf, len);
}

const char *out_likwid_name(const struct out_metric *m, char *buf, size_t len, const char **why)
{
	if (strcmp(m->backend, "papi") || !strncmp(m->event, "perf::", 6)) {
		*why = "LIKWID counts hardware events by its own names; perf syntax and software events "
		       "have none";
		return NULL;
	}
	if (strcmp(m->scope, "thread") || strstr(m->event, "::")) {
		*why = "uncore events need the architecture's LIKWID box counters (MBOX, CBOX, DFC), "
		       "which pmucheck does not derive";
		return NULL;
	}
	if (!has_only(m->event, "_:")) {
		*why = "the event name has characters LIKWID names do not";
		return NULL;
	}
	/* libpfm4's EVENT:UMASK is LIKWID's EVENT_UMASK */
	snprintf(buf, len, "%s", m->event);
	for (char *c = buf; *c; c++)
		*c = *c == ':' ? '_' : (char)toupper((unsigned char)*c);
	return buf;
}

const char *out_papi_name(const struct out_metric *m, char *buf, size_t len, const char **why)
{
	if (!strcmp(m->backend, "papi")) {
		snprintf(buf, len, "%s", m->event);
		return buf;
	}
	if (!has_only(m->event, "-_")) {
		*why = "perf PMU syntax (pmu/event=.../) has no PAPI name";
		return NULL;
	}
	/* perf's software and generic events are libpfm4's perf::NAME */
	snprintf(buf, len, "perf::%s", m->event);
	for (char *c = buf + 6; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	return buf;
}
