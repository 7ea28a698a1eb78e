/* test_core_clock.c — the core clock estimator on made-up chain timings (no hardware), and its bounds from
 * a fake sysfs tree and a made-up CPUID. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "clock.h"
#include "core_clock.h"

#define TSC_HZ 2.5e9
#define ITERS 2000u   /* N: 128000 adds, 40 µs at 3.2 GHz */
#define OVERHEAD 150u /* ticks of call, lfence and rdtsc around every run */

static const struct clock_bounds wide = {0.2, 7.0, "test", CLOCK_MAX_FROM_PHYSICAL};

/* TSC ticks of an undisturbed run of iters iterations at ghz. */
static uint64_t ticks_at(double ghz, uint64_t iters)
{
	return (uint64_t)((double)kern_clock_chain_adds(iters) / (ghz * 1e9) * TSC_HZ) + OVERHEAD;
}

/* A sample at ghz whose runs are all undisturbed but for a little jitter. */
static struct clock_runs clean_runs(double ghz)
{
	struct clock_runs r = {.iters = ITERS, .tries = CLOCK_TRIES};

	for (int i = 0; i < CLOCK_TRIES; i++) {
		r.n[i] = ticks_at(ghz, ITERS) + 7 * (uint64_t)i;
		r.n2[i] = ticks_at(ghz, 2 * ITERS) + 5 * (uint64_t)(CLOCK_TRIES - i);
	}
	return r;
}

/* The sample is rejected, gives no clock, and says why (a word of the reason), of the kind a run counts. */
static void assert_rejected(const struct clock_runs *r, const struct clock_bounds *b, const char *why,
			    enum clock_reject kind)
{
	enum clock_reject got = CLOCK_REJECTS;
	struct err e;
	double ghz = -1;

	assert_int_equal(clock_estimate(r, TSC_HZ, b, &ghz, &got, &e), E_RUNTIME);
	assert_true(ghz == 0);
	assert_non_null(strstr(e.msg, why));
	assert_int_equal(got, kind);
}

static void test_undisturbed_sample_gives_the_clock(void **state)
{
	struct clock_runs r = clean_runs(3.2);
	struct err e;
	double ghz;

	(void)state;
	assert_int_equal(clock_estimate(&r, TSC_HZ, &wide, &ghz, NULL, &e), 0);
	assert_true(ghz > 3.2 * 0.999 && ghz < 3.2 * 1.001);
}

/* Preemption only adds time: one clean run of each length is enough, whatever the others suffered. */
static void test_shortest_run_of_each_length_survives_preemption(void **state)
{
	struct clock_runs r = clean_runs(3.2);
	struct err e;
	double ghz;

	(void)state;
	for (int i = 0; i < CLOCK_TRIES - 1; i++) {
		r.n[i] += 90000; /* a 36 µs time slice of another tenant */
		r.n2[i + 1] += 250000;
	}
	assert_int_equal(clock_estimate(&r, TSC_HZ, &wide, &ghz, NULL, &e), 0);
	assert_true(ghz > 3.2 * 0.999 && ghz < 3.2 * 1.001);
}

/* The Zen 3 VM's 17.4 GHz: every N run of the sample was stretched, so min(2N) - min(N) shrank to a
   fifth. The difference alone says 17.4 GHz; the 2N runs alone say 3.2 GHz, so the sample is rejected. */
static void test_sample_whose_n_runs_were_all_preempted_is_rejected_not_17_ghz(void **state)
{
	struct clock_runs r = clean_runs(3.2);
	uint64_t stretched = ticks_at(3.2, 2 * ITERS) -
		(uint64_t)(kern_clock_chain_adds(ITERS) / 17.4e9 * TSC_HZ);
	double naive;

	(void)state;
	for (int i = 0; i < CLOCK_TRIES; i++)
		r.n[i] = stretched + (uint64_t)i;
	naive = kern_clock_chain_adds(ITERS) / ((double)(r.n2[CLOCK_TRIES - 1] - r.n[0]) / TSC_HZ) * 1e-9;
	assert_true(naive > 17 && naive < 18); /* what the difference of minima alone would have recorded */
	assert_rejected(&r, &wide, "disturbed", CLOCK_REJECT_DISTURBED);
}

/* The mirror case: every 2N run stretched makes the clock sink (the 1.23 GHz beside 3.2). */
static void test_sample_whose_2n_runs_were_all_preempted_is_rejected(void **state)
{
	struct clock_runs r = clean_runs(3.2);

	(void)state;
	for (int i = 0; i < CLOCK_TRIES; i++)
		r.n2[i] += 100000;
	assert_rejected(&r, &wide, "disturbed", CLOCK_REJECT_DISTURBED);
}

/* A consistent sample can still be impossible: a whole sample slowed or sped alike (or a wrong TSC
   rate) must stay within what the CPU can do. */
static void test_consistent_sample_above_the_cpu_maximum_is_rejected(void **state)
{
	const struct clock_bounds zen3 = {0.2, 3.7, "cpuinfo_max_freq", CLOCK_MAX_FROM_CPUFREQ};
	struct clock_runs over = clean_runs(4.5), near = clean_runs(3.7 * 1.01);
	struct err e;
	double ghz = -1;

	(void)state;
	assert_rejected(&over, &zen3, "maximum", CLOCK_REJECT_ABOVE_MAX);
	/* within the estimate's own uncertainty of the maximum: kept */
	assert_int_equal(clock_estimate(&near, TSC_HZ, &zen3, &ghz, NULL, &e), 0);
	assert_true(ghz > 3.7);
}

static void test_consistent_sample_below_the_floor_is_rejected(void **state)
{
	struct clock_runs r = clean_runs(0.1);

	(void)state;
	assert_rejected(&r, &wide, "floor", CLOCK_REJECT_BELOW_FLOOR);
}

static void test_2n_chain_no_longer_than_n_is_rejected(void **state)
{
	struct clock_runs r = clean_runs(3.2);

	(void)state;
	for (int i = 0; i < CLOCK_TRIES; i++)
		r.n[i] = r.n2[i] + 1;
	assert_rejected(&r, &wide, "no longer", CLOCK_REJECT_DISTURBED);
}

/* A fake sysfs tree under a temporary directory: cpuN/cpufreq/{cpuinfo_max_freq,scaling_driver}. */
static void fake_cpufreq(const char *root, int cpu, const char *khz, const char *driver)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "mkdir -p %s/devices/system/cpu/cpu%d/cpufreq", root, cpu);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", root, cpu);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", khz);
	fclose(f);
	snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/cpufreq/scaling_driver", root, cpu);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", driver);
	fclose(f);
}

static char *fake_root(void)
{
	char tmpl[] = "/tmp/pmucheck-clock.XXXXXX";
	char *dir = mkdtemp(tmpl);

	assert_non_null(dir);
	return strdup(dir);
}

static void remove_tree(char *root)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

static const struct cpuid_info amd = {.vendor = "AuthenticAMD", .family = 0x19, .model = 0x01};

static void test_bound_is_the_largest_cpuinfo_max_freq(void **state)
{
	char *root = fake_root();
	struct clock_bounds b;

	(void)state;
	fake_cpufreq(root, 0, "3700000", "amd-pstate-epp");
	fake_cpufreq(root, 1, "4150000", "amd-pstate-epp");
	fake_cpufreq(root, 2, "garbage", "amd-pstate-epp");
	clock_bounds_read(root, &amd, 0, "", &b);
	assert_true(b.max_ghz > 4.149 && b.max_ghz < 4.151);
	assert_non_null(strstr(b.source, "cpuinfo_max_freq"));
	assert_true(b.min_ghz > 0 && b.min_ghz < 1);
	remove_tree(root);
}

/* acpi-cpufreq may report only the highest non-boost P-state: no bound; Intel's CPUID leaf 0x16 is. */
static void test_acpi_cpufreq_maximum_is_no_bound(void **state)
{
	char *root = fake_root();
	struct cpuid_info intel = {.vendor = "GenuineIntel", .family = 6, .model = 0x55, .max_mhz = 4000};
	struct clock_bounds b;

	(void)state;
	fake_cpufreq(root, 0, "3350000", "acpi-cpufreq");
	clock_bounds_read(root, &intel, 0, "", &b);
	assert_true(b.max_ghz == 4.0);
	assert_non_null(strstr(b.source, "0x16"));
	clock_bounds_read(root, &amd, 0, "", &b);
	assert_true(b.max_ghz == 7.0);
	remove_tree(root);
}

/* A VM without cpufreq (this project's development machines): the physical bound, which the 17.4 GHz
   of the Zen 3 VM still exceeds. */
static void test_without_cpufreq_the_physical_bound_holds(void **state)
{
	char *root = fake_root();
	struct clock_bounds b;

	(void)state;
	clock_bounds_read(root, &amd, 0, "", &b);
	assert_true(b.max_ghz >= 6.2 && b.max_ghz < 17.4 / (1 + CLOCK_AGREE));
	remove_tree(root);
}

/* Where neither cpufreq nor CPUID leaf 0x16 gives a maximum (an AMD KVM guest), the config's highest stock
   clock of the architecture does, named by its file; cpufreq and leaf 0x16 still come first. */
static void test_config_maximum_bounds_a_guest_without_cpufreq(void **state)
{
	char *root = fake_root();
	struct cpuid_info intel = {.vendor = "GenuineIntel", .family = 6, .model = 0x55, .max_mhz = 4000};
	struct clock_bounds b;
	enum clock_reject why = CLOCK_REJECTS;
	struct err e;

	(void)state;
	clock_bounds_read(root, &amd, 5.0, "/opt/pmucheck/configs/zen3.ini", &b);
	assert_true(b.max_ghz == 5.0);
	assert_string_equal(b.source, "zen3.ini max_ghz (the highest stock clock of its CPUs)");
	assert_int_equal(clock_bounds_check(5.0 * (1 + CLOCK_AGREE / 2), &b, NULL, &e), 0);
	assert_int_not_equal(clock_bounds_check(6.0, &b, &why, &e), 0); /* within the 7 GHz physical bound */
	assert_int_equal(why, CLOCK_REJECT_ABOVE_MAX);
	clock_bounds_read(root, &intel, 5.0, "skx.ini", &b);
	assert_true(b.max_ghz == 4.0);
	fake_cpufreq(root, 0, "4150000", "amd-pstate-epp");
	clock_bounds_read(root, &amd, 5.0, "zen3.ini", &b);
	assert_true(b.max_ghz > 4.149 && b.max_ghz < 4.151);
	remove_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_undisturbed_sample_gives_the_clock),
		cmocka_unit_test(test_shortest_run_of_each_length_survives_preemption),
		cmocka_unit_test(test_sample_whose_n_runs_were_all_preempted_is_rejected_not_17_ghz),
		cmocka_unit_test(test_sample_whose_2n_runs_were_all_preempted_is_rejected),
		cmocka_unit_test(test_consistent_sample_above_the_cpu_maximum_is_rejected),
		cmocka_unit_test(test_config_maximum_bounds_a_guest_without_cpufreq),
		cmocka_unit_test(test_consistent_sample_below_the_floor_is_rejected),
		cmocka_unit_test(test_2n_chain_no_longer_than_n_is_rejected),
		cmocka_unit_test(test_bound_is_the_largest_cpuinfo_max_freq),
		cmocka_unit_test(test_acpi_cpufreq_maximum_is_no_bound),
		cmocka_unit_test(test_without_cpufreq_the_physical_bound_holds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
