/* fuzz_spec — libFuzzer target for the event-spec parser (built with ASan and UBSan by mk/fuzz.mk).
 *
 * Every input, up to its first NUL, is given as one spec to
 *   ctr_perf_parse(<fake sysfs>)  perf syntax (what ctr_perf_syntax accepts) against a PMU tree made here at start-up, so that format
 *                                 terms (split bit ranges, config1/config2, a 64-bit term), aliases with
 *                                 .scale and .unit, and absent-but-known PMUs are all reachable;
 *   ctr_resolve()                 the real path: this machine's sysfs, then PAPI for other names;
 * and as an --events list to ctr_split_list and ctr_resolve_list, as `pmucheck run` does.
 * Each must give 0, or E_USAGE / E_RUNTIME with a
 * message; a usage error must name the event (the list). Anything else aborts, so libFuzzer keeps
 * the input.
 * Seeds: tests/fuzz/seeds-spec/ and the spec lines of the configs (mk/fuzz.mk extracts them);
 * tokens: tests/fuzz/spec.dict. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctr_int.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64];

/* The fake tree: what test_ctr_spec.c uses, plus the corners a parser can trip over. */
static const char *const tree[][2] = {
	{"cpu/type", "4"},
	{"cpu/format/event", "config:0-7,32-35"},
	{"cpu/format/umask", "config:8-15"},
	{"cpu/format/edge", "config:18"},
	{"cpu/format/inv", "config:23"},
	{"cpu/format/cmask", "config:24-31"},
	{"cpu/format/offcore_rsp", "config1:0-63"},
	{"cpu/format/ldlat", "config2:0-15"},
	{"cpu/format/bad", "nofield"},
	{"cpu/format/weird", "config3:0-7"},
	{"cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3"},
	{"cpu/events/br-retired", "event=0xc4"},
	{"cpu/events/loop", "loop"},
	{"cpu/events/empty", ""},
	{"uncore_imc_0/type", "17"},
	{"uncore_imc_0/cpumask", "0"},
	{"uncore_imc_0/format/event", "config:0-7"},
	{"uncore_imc_0/format/umask", "config:8-15"},
	{"uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03"},
	{"uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5"},
	{"uncore_imc_0/events/cas_count_read.unit", "MiB"},
	{"uncore_imc_0/events/odd", "event=0x04,umask=0x03"},
	{"uncore_imc_0/events/odd.scale", "not-a-number"},
	{"uncore_imc_0/events/odd.unit", "a unit far longer than the sixteen bytes it gets"},
	{"amd_df/type", "11"},
	{"amd_df/format/event", "config:0-7,32-35,59-60"},
	{"amd_df/format/umask", "config:8-15,24-27"},
	{"software/type", "1"},
	{"notype/format/event", "config:0-7"},
};

static int put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	/* mkdir -p of the parent directories, one component at a time */
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", text);
	return fclose(f);
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "fuzz_spec: could not remove %s\n", root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(root, sizeof root, "%s/pmucheck-fuzz-sysfs.XXXXXX", "/tmp");
	if (!mkdtemp(root))
		abort();
	for (size_t i = 0; i < sizeof tree / sizeof tree[0]; i++)
		if (put(tree[i][0], tree[i][1]))
			abort();
	atexit(remove_tree);
	return 0;
}

/* A usage error names the event: "event '<spec>..." (long specs by their first 40 characters). */
static void check_usage_message(const char *spec, const struct err *e)
{
	char want[64];

	if (!*spec) {
		if (strcmp(e->msg, "empty event name"))
			abort();
		return;
	}
	snprintf(want, sizeof want, "event '%.40s", spec);
	if (strncmp(e->msg, want, strlen(want)))
		abort();
}

static void check(const char *spec, int rc, const struct ctr_event *ev, const struct err *e)
{
	if (!memchr(e->msg, '\0', sizeof e->msg))
		abort();
	if (rc == 0) {
		/* A resolved event is countable, or says why not. */
		if (ev->status != CTR_OK && !*ev->reason)
			abort();
		return;
	}
	if (rc != E_USAGE && rc != E_RUNTIME)
		abort();
	if (!*e->msg)
		abort();
	if (rc == E_USAGE)
		check_usage_message(spec, e);
}

/* The list path: split, then resolve every spec; each slot keeps its spec, a bad one its error. */
static void check_list(const char *list)
{
	static struct ctr_event evs[CTR_SPEC_MAX];
	struct err e = {""};
	unsigned n;
	char **specs;
	int rc = ctr_split_list(list, &specs, &n, &e);

	if (rc) {
		if (rc != E_USAGE || strncmp(e.msg, "event list '", 12))
			abort();
		return;
	}
	if (n > sizeof evs / sizeof evs[0]) /* more commas than a spec has bytes: impossible */
		abort();
	rc = ctr_resolve_list((const char *const *)specs, n, evs, &e);
	if (rc && ((rc != E_USAGE && rc != E_RUNTIME) || !*e.msg))
		abort();
	for (unsigned i = 0; i < n; i++)
		if (strncmp(evs[i].spec, specs[i], sizeof evs[i].spec - 1) ||
		    (evs[i].status != CTR_OK && !*evs[i].reason))
			abort();
	free(specs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ctr_event ev;
	char spec[2 * CTR_SPEC_MAX];
	struct err e;
	int rc;

	if (size >= sizeof spec) /* twice the limit is long enough to test the limit */
		size = sizeof spec - 1;
	memcpy(spec, data, size);
	spec[size] = '\0';

	/* ctr_resolve zeroes the event and copies the spec before ctr_perf_parse, and gives it perf syntax
	   only: do the same. */
	memset(&ev, 0, sizeof ev);
	if (strlen(spec) < sizeof ev.spec && ctr_perf_syntax(spec)) {
		strcpy(ev.spec, spec);
		e.msg[0] = '\0';
		rc = ctr_perf_parse(root, spec, &ev, &e);
		check(spec, rc, &ev, &e);
	}
	e.msg[0] = '\0';
	rc = ctr_resolve(spec, &ev, &e);
	check(spec, rc, &ev, &e);
	check_list(spec);
	return 0;
}
