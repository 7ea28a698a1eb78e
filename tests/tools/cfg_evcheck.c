/* cfg_evcheck — are the event names in config files real? For each file given:
 *
 *   PAPI names  must resolve in libpfm4's table of their PMU ("pmu::EVENT:UMASK", or the [arch] pmu
 *               when the name has no prefix). Inactive PMUs are searched too (LIBPFM_ENCODE_INACTIVE,
 *               libpfm(3)), so a Haswell config is checked on any machine. A '*' box number is checked
 *               as box 0.
 *   perf specs  must use only the x86 sysfs format terms with values (event=, umask=, ...); a sysfs
 *               alias (uncore_imc/cas_count_read/) is known only to a machine that has the PMU.
 *
 * A name that no table here can confirm must carry `unverified = reason`.
 *
 *   [export]    every core entry (perf's and LIKWID's names by encoding) must be the encoding of an event
 *               of the file, as libpfm4 or the perf spec programs the counter, or the instructions event
 *               0xc0/0x00 (PAPI_TOT_INS, which every run counts): a name for an encoding the file never
 *               counts is a typo or a stale entry.
 *
 * Prints one TAP line per file and the offending events as comments; exits 1 when any file fails.
 */
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

static int pmu_known(const char *name)
{
	pfm_pmu_info_t pi;

	for (int p = 0; p < PFM_PMU_MAX; p++) {
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && pi.name && !strcmp(pi.name, name))
			return 1;
	}
	return 0;
}

/* 1 when libpfm4 encodes the name; *why gets libpfm4's reason otherwise. */
static int papi_known(const struct cfg_arch *a, const char *spec, const char **why)
{
	char name[512], *star;
	pfm_pmu_encode_arg_t arg;
	int rc;

	if (!strstr(spec, "::") && !a->pmu) {
		*why = "no pmu:: prefix and no [arch] pmu";
		return 0;
	}
	if (strstr(spec, "::"))
		snprintf(name, sizeof name, "%s", spec);
	else
		snprintf(name, sizeof name, "%s::%s", a->pmu, spec);
	star = strchr(name, '*');
	if (star && star < strstr(name, "::"))
		*star = '0';
	memset(&arg, 0, sizeof arg);
	arg.size = sizeof arg;
	rc = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_NONE, &arg);
	free(arg.codes);
	*why = pfm_strerror(rc);
	return rc == PFM_SUCCESS;
}

static int perf_known(const char *spec, const char **why)
{
	const char *p = strchr(spec, '/');

	if (cfg_perf_symbolic(spec))
		return 1;
	for (p++; *p && *p != '/'; p += *p == ',') {
		size_t n = strcspn(p, "=,/");

		if (p[n] != '=') {
			*why = "a sysfs alias, known only where that PMU exists";
			return 0;
		}
		if (!cfg_perf_term_known(p, n)) {
			*why = "a term that is no x86 sysfs format name";
			return 0;
		}
		p += n + strcspn(p + n, ",/");
	}
	return 1;
}

/* An event's core encoding: libpfm4's for a PAPI name of the core PMU, the terms of a cpu/.../ perf spec;
   0, or -1 for any other (uncore, generic, an inverted or edge-triggered count). */
static int event_hw(const struct cfg_arch *a, const struct cfg_event *ev, struct export_hw *h)
{
	memset(h, 0, sizeof *h);
	if (ev->backend == CFG_PAPI) {
		char name[512];
		pfm_pmu_encode_arg_t arg;
		int ok;

		if (strstr(ev->spec, "::") || !a->pmu)
			return -1; /* another PMU's (uncore, perf::) */
		snprintf(name, sizeof name, "%s::%s", a->pmu, ev->spec);
		memset(&arg, 0, sizeof arg);
		arg.size = sizeof arg;
		if (pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_NONE, &arg) != PFM_SUCCESS)
			return -1;
		ok = arg.count >= 1;
		if (ok)
			export_hw_of(arg.codes[0], arg.count > 1 ? arg.codes[1] : 0, h);
		free(arg.codes);
		return ok && !h->inv && !h->edge ? 0 : -1;
	}
	if (strncmp(ev->spec, "cpu/", 4))
		return -1;
	for (const char *p = ev->spec + 4; *p && *p != '/'; p += *p == ',') {
		size_t n = strcspn(p, "=,/");
		unsigned long long v = p[n] == '=' ? strtoull(p + n + 1, NULL, 0) : 1;

		if ((n == 3 && !strncmp(p, "inv", 3)) || (n == 4 && !strncmp(p, "edge", 4)))
			return -1;
		if (n == 5 && !strncmp(p, "event", 5))
			h->event = (unsigned)v;
		else if (n == 5 && !strncmp(p, "umask", 5))
			h->umask = (unsigned)v;
		else if (n == 5 && !strncmp(p, "cmask", 5))
			h->cmask = (unsigned)v;
		else if ((n == 11 && !strncmp(p, "offcore_rsp", 11)) || (n == 7 && !strncmp(p, "config1", 7)))
			h->offcore = v;
		p += n + strcspn(p + n, ",/");
	}
	return 0;
}

/* Every [export] core entry names an encoding an event of c counts (or instructions); the failures. */
static int check_export(const char *path, const struct cfg *c)
{
	int fails = 0;

	for (unsigned i = 0; i < c->exports.ncore; i++) {
		const struct export_core_name *x = &c->exports.core[i];
		int found = x->event == 0xc0 && !x->umask && !x->cmask && !x->offcore;
		struct export_hw h;

		for (unsigned k = 0; k < c->nevents && !found; k++)
			found = !event_hw(&c->arch, &c->events[k], &h) && h.event == x->event &&
				h.umask == x->umask && h.cmask == x->cmask && h.offcore == x->offcore;
		if (!found) {
			printf("# %s: [export] core 0x%x/0x%x/%u/0x%llx (%s, %s): no event of the file "
			       "counts it\n",
			       path, x->event, x->umask, x->cmask, x->offcore, x->perf ? x->perf : "-",
			       x->likwid ? x->likwid : "-");
			fails++;
		}
	}
	return fails;
}

/* Returns the number of failures; prints them as TAP comments. */
static int check_file(const char *path, char *summary, size_t len)
{
	struct cfg c;
	struct err e;
	unsigned libpfm = 0, perf = 0, unverified = 0;
	int fails = 0;

	if (cfg_load(path, &c, &e)) {
		printf("# %s\n", e.msg);
		snprintf(summary, len, "does not load");
		return 1;
	}
	if (c.has_arch && c.arch.pmu && !pmu_known(c.arch.pmu)) {
		printf("# %s:%u: pmu '%s' is not a libpfm4 PMU\n", path, c.arch.line, c.arch.pmu);
		fails++;
	}
	for (unsigned i = 0; i < c.nevents; i++) {
		const struct cfg_event *ev = &c.events[i];
		const char *why = "";
		int known = ev->backend == CFG_PAPI ? papi_known(&c.arch, ev->spec, &why)
						    : perf_known(ev->spec, &why);

		if (known && ev->backend == CFG_PAPI)
			libpfm++;
		else if (known)
			perf++;
		else if (ev->unverified)
			unverified++;
		if (!known && !ev->unverified) {
			printf("# %s:%u: event %s: '%s': %s, and no 'unverified = reason'\n", path, ev->line,
			       ev->name, ev->spec, why);
			fails++;
		}
		if (known && ev->unverified)
			printf("# note %s:%u: event %s resolves; is 'unverified' stale?\n", path, ev->line,
			       ev->name);
	}
	fails += check_export(path, &c);
	snprintf(summary, len,
		 "%u events: %u in libpfm4's tables, %u perf encodings, %u unverified; %u export names",
		 c.nevents, libpfm, perf, unverified, c.exports.ncore + c.exports.nuncore);
	cfg_free(&c);
	return fails;
}

int main(int argc, char **argv)
{
	int bad = 0, rc;

	if (argc < 2) {
		fprintf(stderr, "usage: cfg_evcheck FILE.ini...\n");
		return 2;
	}
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	rc = pfm_initialize();
	if (rc != PFM_SUCCESS) {
		fprintf(stderr, "cfg_evcheck: pfm_initialize: %s\n", pfm_strerror(rc));
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		char summary[256];
		int fails = check_file(argv[i], summary, sizeof summary);

		printf("%s - event names of %s: %s\n", fails ? "not ok" : "ok", argv[i], summary);
		bad |= fails != 0;
	}
	pfm_terminate();
	return bad;
}
