/* test_discover_sde.c — `pmucheck discover` end to end on any machine, with PAPI's software-defined events
 * standing in for hardware ones: a kernel family registered here (sdeloop) calls the SDE test library's
 * loop, whose counters are exact (EXACT, BYTES), exact at a simple scale (HALF, DOUBLE), constant per
 * call (CALLS: differencing cancels it) and deliberately wrong (SKEW, 7 of 8). The command runs as the
 * CLI runs it (its registered function), then the test reads what it wrote: the verdicts, the discovered
 * config (which must load, and state EXACT's hypothesis but not SKEW's as exact) and the report section.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cfg.h"
#include "cli.h"
#include "kern.h"
#include "sde/sdetest.h"

#define SDE(name) "sde:::" SDETEST_LIB "::" name

/* One call: n = bytes / 8 x reps loop iterations, each one 8-byte store (sdetest.c). The sizes are not
   powers of two apart: the run doubles R until a call lasts --min-time, which for sizes 4k, 8k, 16k gave
   every point the same R x n, and no fit. */
static uint64_t sdeloop(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg)
{
	(void)buf, (void)arg;
	return sdetest_loop(bytes / 8 * reps);
}

static const struct kern_variant sdeloop_variants[] = {
	{"sdeloop.one", 8, KISA_BASE, 0, sdeloop, KA_NONE, NULL}};

static void sdeloop_volumes(const struct kern_variant *v, const struct kern_params *p,
			    struct kern_volumes *out)
{
	(void)v;
	*out = (struct kern_volumes){0};
	/* stores only: a bytes_stored volume proportional to it would tie with it (and win, as the more
	   specific quantity), EXACT then reading "bytes_stored x 1/8" */
	out->stores = p->bytes / 8 * p->reps;
}

static const struct kern_family sdeloop_family = {
	.name = "sdeloop",
	.summary = "test only: the SDE test library's loop",
	.variants = sdeloop_variants,
	.nvariants = 1,
	.granule = 64,
	.arrays = 1,
	.policy = {.sweep = KS_EVERY_LEVEL, .single_thread = 1, .plots = KP_EV_SIZE},
	.volumes = sdeloop_volumes,
};
KERN_REGISTER(sdeloop_family);

static char top[64], dir[256]; /* the test's temporary directory, and the results directory in it */

static int setup(void **state)
{
	(void)state;
	sdetest_register();
	snprintf(top, sizeof top, "/tmp/pmucheck-disc-sde-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(dir, sizeof dir, "%s/run", top);
	return 0;
}

static int teardown(void **state)
{
	char cmd[sizeof top + 16];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	return system(cmd);
}

static char *slurp(const char *name)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc((size_t)n + 1, 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* The events.csv line of an event: its class is the sixth field, after the domain (PAPI's SDE counts
   no privilege level: "all") and box_of (empty). */
static void assert_class(const char *csv, const char *event, const char *cls)
{
	char want[256];

	snprintf(want, sizeof want, "\n%s,papi,thread,all,,%s,", event, cls);
	if (!strstr(csv, want))
		fail_msg("%s is not '%s' in events.csv:\n%s", event, cls, csv);
}

static void test_discover_judges_sde_events_and_writes_a_config_that_loads(void **state)
{
	const struct cli_command *cmd = cli_command_find("discover");
	char *argv[] = {"discover",
			"--no-libpfm",
			"--no-sysfs",
			"--add-events",
			SDE("EXACT") "," SDE("HALF") "," SDE("DOUBLE") "," SDE("BYTES") "," SDE(
				"CALLS") "," SDE("SKEW"),
			"--kernels",
			"sdeloop",
			"--sizes",
			"4k,12k,20k",
			"--reported-levels",
			"--no-progress",
			"--min-time",
			"5",
			"--reps",
			"8",
			"--out",
			dir,
			NULL};
	char *csv, *ini, *md, path[512];
	const struct cfg_event *ev;
	struct cfg c;
	struct err e;

	(void)state;
	assert_non_null(cmd);
	assert_int_equal(cmd->fn((int)(sizeof argv / sizeof argv[0]) - 1, argv), 0);
	csv = slurp("events.csv");
	assert_class(csv, SDE("EXACT"), "exact,stores,1");
	assert_class(csv, SDE("BYTES"), "exact,stores,8");
	assert_class(csv, SDE("DOUBLE"), "exact,stores,2");
	assert_class(csv, SDE("HALF"), "exact,stores,1/2");
	assert_class(csv, SDE("SKEW"), "undercounts");
	assert_class(csv, SDE("CALLS"), "unrelated");
	/* the config loads, states EXACT and SKEW's measured relation, and not CALLS */
	snprintf(path, sizeof path, "%s/discovered.ini", dir);
	assert_int_equal(cfg_load(path, &c, &e), 0);
	ev = cfg_event_find(&c, SDE("EXACT"));
	assert_non_null(ev);
	assert_string_equal(ev->spec, SDE("EXACT"));
	assert_int_equal(ev->quantity, CFG_Q_stores);
	assert_true(ev->scale == 1.0);
	assert_non_null(ev->source);
	assert_non_null(strstr(ev->source, "--add-events"));
	assert_null(cfg_event_find(&c, SDE("CALLS")));
	ev = cfg_event_find(&c, SDE("SKEW"));
	assert_non_null(ev);
	assert_non_null(strstr(ev->note, "undercounts"));
	cfg_free(&c);
	ini = slurp("discovered.ini");
	assert_non_null(strstr(ini, "; " SDE("CALLS") ": "));
	md = slurp("report.md");
	assert_non_null(strstr(md, "## Discovered"));
	assert_non_null(strstr(md, "undercounts"));
	free(csv), free(ini), free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_discover_judges_sde_events_and_writes_a_config_that_loads),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
