/* out_export_names.c — how perf, LIKWID and PAPI name an event pmucheck counted: from its encoding
 * (event code, umask, ...) looked up in the tools' own names as the architecture's config lists them
 * (configs/<arch>.ini [export], common/export_names.h), or perf's raw syntax for that encoding. Nothing is
 * derived from the spelling of a vendor name; what a tool cannot count is left out with the reason. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoding_field.h"
#include "export_names.h"
#include "out_export.h"

/* Why a PAPI event other than perf::'s software and generic ones has no name in another tool. */
static const char NO_PAPI_ENCODING[] = "no hardware encoding was recorded for this PAPI event (an uncore "
				       "PMU, a derived preset, or results written before pmucheck recorded "
				       "them): count it in perf syntax to export it";

/* "pmu=cpu,type=4,config=0x5f44" or "papi=0x4000...,component=perf_event,config=0x129": 0 and *hw
   (export_hw_of) when encoding (raw.csv's spelling) programs a core counter; -1 otherwise. */
static int hw_decode(const char *encoding, struct export_hw *hw)
{
	const char *c = strstr(encoding, "config=");
	const char *c1 = strstr(encoding, "config1=");
	const char *pmu = strstr(encoding, "pmu=");

	memset(hw, 0, sizeof *hw);
	if (!c || (c > encoding && c[-1] != ','))
		return -1;
	if (pmu && strncmp(pmu, "pmu=cpu,", 8))
		return -1; /* an uncore PMU: its own layout */
	if (!pmu && !strstr(encoding, "type=4,") && !strstr(encoding, "component=perf_event"))
		return -1; /* a generic or software event */
	export_hw_of(strtoull(c + 7, NULL, 0), c1 ? strtoull(c1 + 8, NULL, 0) : 0, hw);
	return 0;
}

/* The names of the core event m counts, or NULL: an inverted or edge-triggered count is another event,
   which no list names. */
static const struct export_core_name *core_names(const struct out_metric *m, const struct export_hw *hw)
{
	if (hw->inv || hw->edge)
		return NULL;
	return export_core_lookup(m->names, hw->event, hw->umask, hw->cmask, hw->offcore);
}

static int has_only(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

/* perf's raw syntax for a core event: the terms of the cpu PMU's sysfs format (Intel and AMD). */
static const char *perf_raw(const struct export_hw *hw, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "cpu/event=0x%x", hw->event);

	if (hw->umask && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",umask=0x%x", hw->umask);
	if (hw->cmask && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",cmask=0x%x", hw->cmask);
	if (hw->inv && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",inv=1");
	if (hw->edge && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",edge=1");
	if (hw->offcore && n < len)
		n += (size_t)snprintf(buf + n, len - n, ",offcore_rsp=0x%llx", hw->offcore);
	if (n < len)
		snprintf(buf + n, len - n, "/");
	return buf;
}

/* "amd_df/event=0x07,umask=0x38/" -> pmu "amd_df", event, umask; "uncore_imc_*" -> "uncore_imc". */
static int uncore_terms(const char *spec, char *pmu, size_t plen, unsigned *event, unsigned *umask)
{
	const char *slash = strchr(spec, '/'), *t;
	size_t n;

	if (!slash)
		return -1;
	n = (size_t)(slash - spec);
	if (n >= 2 && spec[n - 1] == '*' && spec[n - 2] == '_')
		n -= 2;
	snprintf(pmu, plen, "%.*s", (int)n, spec);
	*event = *umask = 0;
	if ((t = strstr(slash, "event=")))
		*event = (unsigned)strtoul(t + 6, NULL, 0);
	if ((t = strstr(slash, "umask=")))
		*umask = (unsigned)strtoul(t + 6, NULL, 0);
	return strstr(slash, "event=") ? 0 : -1;
}

/* perf's syntax for an uncore event given by its libpfm4 name (raw.csv's encoding ends ",via=libpfm4:NAME",
   harness ctr_spec.c): perf parses no libpfm4 name, but takes the PMU and the config fields libpfm4
   resolved ("amd_l3/config=0xff04/"). -1 where the encoding names no PMU or config: a sum over boxes
   ("sum of N boxes") records no config of its own. */
static int perf_pfm_uncore(const char *encoding, char *buf, size_t len)
{
	static const char *const fields[] = {"config=", "config1=", "config2="};
	const char *pmu = strstr(encoding, "pmu=");
	size_t n;

	if (!pmu || !strstr(encoding, ",config="))
		return -1;
	n = (size_t)snprintf(buf, len, "%.*s/", (int)strcspn(pmu + 4, ","), pmu + 4);
	for (unsigned i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const char *f = strstr(encoding, fields[i]);
		if (f && f[-1] == ',' && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", i ? "," : "", (int)strcspn(f, ","),
					      f);
	}
	if (n < len)
		snprintf(buf + n, len - n, "/");
	return 0;
}

static int has_flag(const char *encoding, const char *flag)
{
	const char *end = encoding_field(encoding, flag);

	return end && (!*end || *end == ',');
}

const char *out_metric_domain(const struct out_metric *m)
{
	static const char *const levels[] = {"user", "kernel", "user+kernel", "all"};
	const char *d = encoding_field(m->encoding, "domain=");

	if (d) {
		for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
			size_t n = strlen(levels[i]);
			if (!strncmp(d, levels[i], n) && (!d[n] || d[n] == ','))
				return levels[i];
		}
		return NULL;
	}
	/* an uncore PMU sees no privilege level (its driver refuses the exclude bits), whenever it was counted */
	if (!strcmp(m->scope, "socket"))
		return "all";
	/* Results from before a9f8de8 recorded domain=: the perf backend noted the bit it set, exclude_kernel
	   where the process could not count the kernel (ctr_perf.c's probe, since 3b0c714) or for :u,
	   exclude_user for :k (ctr_spec.c, since bd6b59c). Without either nothing says which level perf or
	   PAPI counted, and no export claims one. */
	if (has_flag(m->encoding, "exclude_kernel"))
		return "user";
	if (has_flag(m->encoding, "exclude_user"))
		return "kernel";
	return NULL;
}

const char *out_metric_one_level(const struct out_metric *m)
{
	const char *d = out_metric_domain(m);

	return d && (!strcmp(d, "user") || !strcmp(d, "kernel")) ? d : NULL;
}

const char *out_perf_event(const struct out_metric *m, char *buf, size_t len, const char **why)
{
	const struct export_core_name *n;
	struct export_hw hw;

	if (!hw_decode(m->encoding, &hw)) {
		if ((n = core_names(m, &hw)) && n->perf)
			snprintf(buf, len, "%s", n->perf);
		else
			perf_raw(&hw, buf, len);
		return buf;
	}
	/* Before any other libpfm4 name: its perf:: names contain "::" too. */
	if (!strncmp(m->event, "perf::", 6)) {
		size_t i;

		/* libpfm4's perf::PAGE-FAULTS is perf's page-faults; its PERF_COUNT_SW_PAGE_FAULTS spelling
		   and a modifier (perf::CYCLES:u) are not perf's */
		if (!has_only(m->event + 6, "-")) {
			*why = "a libpfm4 perf:: name in its PERF_COUNT_* spelling or with a modifier, which "
			       "perf does not parse: count perf's own name (page-faults) to export it";
			return NULL;
		}
		for (i = 0; m->event[6 + i] && i + 1 < len; i++)
			buf[i] = (char)tolower((unsigned char)m->event[6 + i]);
		buf[i] = '\0';
		return buf;
	}
	if (strstr(m->event, "::")) {
		/* a libpfm4 name, counted through perf (an uncore PMU) or PAPI */
		if (!perf_pfm_uncore(m->encoding, buf, len))
			return buf;
		*why = "a libpfm4 uncore name summed over its boxes (or recorded without its encoding): perf "
		       "parses no libpfm4 name, and the sum has no one encoding; count it in perf syntax "
		       "(PMU_*/event=...,umask=.../) to export it";
		return NULL;
	}
	if (!strcmp(m->backend, "perf")) {
		const char *box = strstr(m->event, "_*/");
		/* perf counts every box of a PMU given by its name without the number */
		if (box)
			snprintf(buf, len, "%.*s%s", (int)(box - m->event), m->event, box + 2);
		else
			snprintf(buf, len, "%s", m->event);
		return buf;
	}
	*why = NO_PAPI_ENCODING;
	return NULL;
}

const char *out_likwid_name(const struct out_metric *m, char *buf, size_t len, const char **cls,
			    unsigned *units, const char **why)
{
	const struct export_core_name *n;
	const struct export_uncore_name *u;
	const char *domain;
	char pmu[64];
	unsigned event, umask;
	struct export_hw hw;
	int hw_bad, libpfm;

	*units = 0;
	hw_bad = hw_decode(m->encoding, &hw);
	libpfm = strstr(m->event, "::") && strncmp(m->event, "perf::", 6) != 0;
	/* Before the architecture's table: no table names a software event, so that is the reason a user
	   can act on wherever LIKWID has no names for the CPU either. */
	if (hw_bad && !strchr(m->event, '/') && !libpfm) {
		*why = strcmp(m->backend, "papi") || !strncmp(m->event, "perf::", 6)
			? "LIKWID counts hardware events only; software and generic events have no LIKWID "
			  "name"
			: NO_PAPI_ENCODING;
		return NULL;
	}
	if (!m->names || !m->names->likwid_dir) {
		*why = "no LIKWID names for this architecture: its config (configs/<arch>.ini) has no "
		       "[export] likwid_groups";
		return NULL;
	}
	if (!hw_bad) {
		if (!(n = core_names(m, &hw)) || !n->likwid) {
			*why = "LIKWID's event list for this architecture has no event with this encoding";
			return NULL;
		}
		/* LIKWID counts user mode, with its KERNEL option user and kernel mode (out_export_likwid.c),
		   never the kernel alone: the group would count another level than the one validated */
		if ((domain = out_metric_domain(m)) && !strcmp(domain, "kernel")) {
			*why = "validated counting kernel mode alone, which LIKWID cannot count (it counts "
			       "user mode, with its KERNEL option user and kernel mode)";
			return NULL;
		}
		snprintf(buf, len, "%s", n->likwid);
		*cls = "PMC";
		return buf;
	}
	if (!strcmp(m->backend, "perf") && strchr(m->event, '/') &&
	    !uncore_terms(m->event, pmu, sizeof pmu, &event, &umask) &&
	    (u = export_uncore_lookup(m->names, pmu, event, umask))) {
		snprintf(buf, len, "%s", u->likwid);
		*cls = u->lclass;
		*units = u->lunits;
		return buf;
	}
	*why = libpfm
		? "LIKWID's uncore names are looked up by perf's syntax (PMU/event=...,umask=.../), and "
		  "this is a libpfm4 name: count it in perf syntax to export it"
		: "LIKWID's event list for this architecture has no event with this encoding";
	return NULL;
}

const char *out_papi_name(const struct out_metric *m, char *buf, size_t len, const char **why)
{
	if (!strncmp(m->encoding, "sum of ", 7) || strstr(m->event, "*::")) {
		*why = "a sum over an uncore PMU's boxes: PAPI has no one name for it (each box is its own "
		       "native event)";
		return NULL;
	}
	if (!strcmp(m->scope, "socket")) {
		/* PAPI's papi_preset.c (check_native_events, PAPI 7) takes a user event's native events from
		   component 0 alone, perf_event; an uncore PMU's are perf_event_uncore's, and PAPI drops the
		   event without a word */
		*why = "an uncore event: PAPI's user events take only its first component's (perf_event's) "
		       "native events, and uncore events are perf_event_uncore's";
		return NULL;
	}
	if (!strcmp(m->backend, "papi")) {
		/* a preset is exported as the native event it stands for, when the run recorded it */
		const char *native = strstr(m->encoding, "native=");
		if (native) {
			snprintf(buf, len, "%.*s", (int)strcspn(native + 7, ","), native + 7);
			return buf;
		}
		/* A preset the run recorded no native event for is a sum or difference of several
		   (harness ctr_papi.c hw_encoding): named in a user event, PAPI 7's papi_preset.c takes its
		   native events without its formula, and the event reads the first of them alone. */
		if (!strncmp(m->event, "PAPI_", 5)) {
			*why = "a PAPI preset derived from several native events: a user event naming it "
			       "would "
			       "count the first of them alone";
			return NULL;
		}
		snprintf(buf, len, "%s", m->event);
		return buf;
	}
	if (strstr(m->event, "::")) {
		/* a libpfm4 name counted through perf: PAPI's perf_event components take libpfm4's names */
		snprintf(buf, len, "%s", m->event);
		return buf;
	}
	if (!has_only(m->event, "-_")) {
		/* a PMU's term syntax, a perf alias (l1d.replacement), a modifier (:u): not libpfm4's perf::NAME */
		*why = strchr(m->event, '/')
			? "perf PMU syntax (pmu/event=.../) has no PAPI name"
			: "a perf alias or modified name, which PAPI does not take as perf::NAME";
		return NULL;
	}
	/* perf's software and generic events are libpfm4's perf::NAME */
	snprintf(buf, len, "perf::%s", m->event);
	for (char *c = buf + 6; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	return buf;
}
