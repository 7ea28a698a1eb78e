/* cfg_evcheck — are the event names in config files real? For each file given:
 *
 *   PAPI names  must resolve in libpfm4's table of their PMU ("pmu::EVENT:UMASK", or the [arch] pmu
 *               when the name has no prefix). Inactive PMUs are searched too (LIBPFM_ENCODE_INACTIVE,
 *               libpfm(3)), so a Haswell config is checked on any machine. A '*' box number is checked
 *               as box 0.
 *   perf specs  must use only the x86 sysfs format terms with values (event=, umask=, ...); a sysfs
 *               alias (uncore_imc/cas_count_read/) is known only to a machine that has the PMU.
 *
 * A name that no table here can confirm must carry `unverified = reason`. Prints one TAP line per file
 * and the offending events as comments; exits 1 when any file fails.
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
	snprintf(summary, len, "%u events: %u in libpfm4's tables, %u perf encodings, %u unverified",
		 c.nevents, libpfm, perf, unverified);
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
