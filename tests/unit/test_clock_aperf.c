/* test_clock_aperf.c — the repetitions' core clock from APERF/MPERF (harness/run/clock_aperf.c): the
 * ratio and its bounds; found only where the msr PMU names both events; and the whole counting path on
 * this machine, with a fake PMU tree whose aperf and mperf are the real msr PMU's tsc event (a KVM guest
 * has only that one): both count TSC ticks, so the clock must come out as the TSC's rate. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "clock_aperf.h"
#include "fake_file.h"
#include "skip_why.h"
#include "tsc.h"

static char root[] = "/tmp/pmucheck-aperf.XXXXXX";
static char only_tsc[300], tsc_as_aperf[300];
static int msr_type = -1; /* the real msr PMU's type, -1 when this machine has none */

static int put(const char *dir, const char *file, const char *text)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return fake_put(path, text);
}

/* A PMU tree with an msr PMU of type `type` whose events are the (name, alias) pairs. */
static int msr_tree(char *pmus, const char *name, const char *type, const char *const *events, int n)
{
	char dir[400], buf[64];

	snprintf(pmus, 300, "%s/%s", root, name);
	snprintf(dir, sizeof dir, "%s/msr", pmus);
	if (mkdir(pmus, 0755) || mkdir(dir, 0755))
		return -1;
	snprintf(buf, sizeof buf, "%s\n", type);
	if (put(dir, "type", buf))
		return -1;
	snprintf(dir, sizeof dir, "%s/msr/format", pmus);
	if (mkdir(dir, 0755) || put(dir, "event", "config:0-63\n"))
		return -1;
	snprintf(dir, sizeof dir, "%s/msr/events", pmus);
	if (mkdir(dir, 0755))
		return -1;
	for (int i = 0; i < n; i++)
		if (put(dir, events[2 * i], events[2 * i + 1]))
			return -1;
	return 0;
}

static int setup(void **state)
{
	static const char *const tsc[] = {"tsc", "event=0x00\n"};
	/* arch/x86/events/msr.c: tsc is event 0x00 */
	static const char *const as_aperf[] = {"tsc",          "event=0x00\n", "aperf",
					       "event=0x00\n", "mperf",        "event=0x00\n"};
	char type[32] = "9";
	FILE *f = fopen(CTR_SYSFS_PMUS "/msr/type", "r");

	(void)state;
	if (f) {
		if (fscanf(f, "%d", &msr_type) != 1)
			msr_type = -1;
		fclose(f);
	}
	if (msr_type >= 0)
		snprintf(type, sizeof type, "%d", msr_type);
	if (!mkdtemp(root))
		return -1;
	return msr_tree(only_tsc, "only_tsc", type, tsc, 1) ||
		msr_tree(tsc_as_aperf, "as_aperf", type, as_aperf, 3);
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

static const struct clock_bounds bounds = {0.2, 7.0, "test", CLOCK_MAX_FROM_PHYSICAL};

/* 2.1 GHz TSC, APERF 3.5e9 against MPERF 2.1e9 ticks: 3.5 GHz. No MPERF count, or a clock above or below
   the bounds: rejected with the reason, never a number. */
static void test_ratio_and_bounds(void **state)
{
	enum clock_reject why = CLOCK_REJECTS;
	struct err e;
	double ghz;

	(void)state;
	assert_int_equal(clock_aperf_ghz(3500000000u, 2100000000u, 2.1e9, &bounds, &ghz, NULL, &e), 0);
	assert_true(fabs(ghz - 3.5) < 1e-9);
	assert_int_equal(clock_aperf_ghz(100, 0, 2.1e9, &bounds, &ghz, &why, &e), E_RUNTIME);
	assert_true(ghz == 0);
	assert_non_null(strstr(e.msg, "MPERF did not count"));
	assert_int_equal(why, CLOCK_REJECT_UNREAD);
	assert_int_equal(clock_aperf_ghz(20, 2, 2.1e9, &bounds, &ghz, &why, &e), E_RUNTIME); /* 21 GHz */
	assert_non_null(strstr(e.msg, "above the CPU's 7 GHz maximum"));
	assert_int_equal(why, CLOCK_REJECT_ABOVE_MAX);
	assert_true(ghz == 0);
	/* APERF 1 against MPERF 21: 0.1 GHz, below the floor */
	ghz = -1;
	assert_int_equal(clock_aperf_ghz(1, 21, 2.1e9, &bounds, &ghz, &why, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "below the 0.2 GHz floor"));
	assert_int_equal(why, CLOCK_REJECT_BELOW_FLOOR);
	assert_true(ghz == 0);
}

/* A guest's msr PMU with only tsc: not found, and the reason names the missing event. */
static void test_msr_pmu_without_aperf_is_not_used(void **state)
{
	struct clock_aperf c;
	char why[CTR_REASON_MAX];

	(void)state;
	assert_int_equal(clock_aperf_find(only_tsc, &c, why, sizeof why), -1);
	assert_non_null(strstr(why, "aperf"));
	assert_int_equal(clock_aperf_find(tsc_as_aperf, &c, why, sizeof why), 0);
	assert_int_equal(c.group.n, 2);
	assert_int_equal(c.group.scope, CTR_SCOPE_THREAD);
	assert_string_equal(c.group.pool, "msr");
}

/* The counting path for real: aperf and mperf both the msr PMU's tsc, opened, started around a spin of
   the calling thread, read: the ratio is 1 and the clock the TSC's. */
static void test_counted_on_this_machine(void **state)
{
	struct clock_aperf c;
	struct ctr_set *set;
	struct ctr_reading rd[2];
	struct err e;
	char why[CTR_REASON_MAX];
	double ghz, tsc_hz = tsc_calibrate_hz(20);
	volatile unsigned long spin = 0;

	(void)state;
	if (msr_type < 0)
		skip_why("this machine has no msr PMU (no /sys/bus/event_source/devices/msr/type)");
	assert_int_equal(clock_aperf_find(tsc_as_aperf, &c, why, sizeof why), 0);
	if (clock_aperf_try(&c, why, sizeof why)) {
		skip_why("the msr PMU's tsc cannot be counted here: %s", why);
	}
	assert_int_equal(ctr_open(&c.group, -1, &set, &e), 0);
	assert_int_equal(ctr_start(set, &e), 0);
	for (unsigned long i = 0; i < 20000000; i++)
		spin += i;
	assert_int_equal(ctr_stop(set, &e), 0);
	assert_int_equal(ctr_read(set, rd, &e), 0);
	ctr_close(set);
	assert_true(rd[0].count > 0);
	assert_int_equal(clock_aperf_reading(rd, tsc_hz, &bounds, &ghz, NULL, &e), 0);
	assert_true(fabs(ghz - tsc_hz * 1e-9) < 0.01 * tsc_hz * 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio_and_bounds),
		cmocka_unit_test(test_msr_pmu_without_aperf_is_not_used),
		cmocka_unit_test(test_counted_on_this_machine),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
