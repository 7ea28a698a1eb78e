/* test_topo_usable.c — the CPUs a run may use (topo.h: usable) and its default CPUs (topo_default_cpus) on
 * hwloc's synthetic topology of two sockets of two cores with two PUs each (PUs 0-3 socket 0, 4-7 socket 1;
 * 0 and 1 one core's). A synthetic machine is not this one, so this process's affinity leaves it whole; the
 * narrowed sets an affinity would give are set by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "topo_synthetic.h"

static int setup(void **state)
{
	(void)state;
	return topo_synthetic_load("pack:2 core:2 pu:2");
}

/* What topo_load would keep had the affinity been `list`. */
static void narrow(const char *list)
{
	hwloc_bitmap_list_sscanf(t.usable, list);
	t.ncpus = 0;
	for (int id = hwloc_bitmap_first(t.usable); id >= 0; id = hwloc_bitmap_next(t.usable, id))
		t.cpus[t.ncpus++] = id;
	t.bound = 1;
}

/* topo_default_cpus gives exactly `want`, its CPUs comma-separated. */
static void assert_default(const char *want)
{
	int cpus[TOPO_MAX_CPUS], n = topo_default_cpus(&t, cpus, TOPO_MAX_CPUS);
	char got[64];

	topo_format_cpus(cpus, n, ',', got, sizeof got);
	assert_string_equal(got, want);
}

static void test_synthetic_is_whole(void **state)
{
	(void)state;
	assert_int_equal(t.ncpus, 8);
	assert_false(t.bound);
	assert_default("0,2");
}

/* The second PU of socket 0's second core, and socket 1: the default is socket 0's, that one PU. */
static void test_core_by_its_usable_pu(void **state)
{
	(void)state;
	narrow("3,5,7");
	assert_default("3");
}

/* Only socket 1: the default is its cores (before, "socket 0 has no usable core"). */
static void test_first_usable_socket(void **state)
{
	(void)state;
	narrow("4-7");
	assert_default("4,6");
}

/* A CPU of the machine outside the affinity, and one the machine lacks, each refused in its own words. */
static void test_cpulist_outside_affinity(void **state)
{
	int cpus[TOPO_MAX_CPUS], n = 0;
	struct err e;

	(void)state;
	narrow("4-7");
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "1", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg,
			       "--cpus: CPU 1 is outside the CPU affinity pmucheck was started with "
			       "(usable CPUs: 4-7;"));
	n = 0;
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "9", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "--cpus: CPU 9 is not in this machine (usable CPUs: 4-7)"));
	n = 0;
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "5-6", cpus, TOPO_MAX_CPUS, &n, &e), 0);
	assert_int_equal(n, 2);
}

/* hwloc's open range over usable CPUs with gaps (a cpuset "0,2,4-5", a CPU offline, taskset): "N-" takes the
   usable CPUs from N on, in order, not every number from N (CPU 1 outside the affinity was an error); an
   explicit range still names a CPU it cannot have, and an open range with no usable CPU from its start is
   refused naming that start. */
static void test_open_range_over_gaps(void **state)
{
	int cpus[TOPO_MAX_CPUS], n = 0;
	char got[64];
	struct err e;

	(void)state;
	narrow("0,2,4-5");
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "0-", cpus, TOPO_MAX_CPUS, &n, &e), 0);
	topo_format_cpus(cpus, n, ',', got, sizeof got);
	assert_string_equal(got, "0,2,4,5");
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "1-", cpus, TOPO_MAX_CPUS, &n, &e), 0);
	topo_format_cpus(cpus, n, ',', got, sizeof got);
	assert_string_equal(got, "2,4,5");
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "0-2", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "CPU 1 is outside the CPU affinity"));
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "6-", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "CPU 6 is outside the CPU affinity"));
}

/* The synthetic machine desc is refused as it loads, its message holding want. */
static void refused(const char *desc, const char *want)
{
	struct err e;

	setenv("HWLOC_SYNTHETIC", desc, 1);
	assert_int_equal(topo_load(&t, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, want));
}

/* The synthetic machine desc loads. */
static void loads(const char *desc)
{
	struct err e;

	topo_free(&t);
	setenv("HWLOC_SYNTHETIC", desc, 1);
	assert_int_equal(topo_load(&t, &e), 0);
}

/* A machine of more usable CPUs than topo.h's list holds is refused, saying how many and the limit, not cut
   to its first TOPO_MAX_CPUS. */
static void test_more_cpus_than_the_limit_is_refused(void **state)
{
	char desc[64], want[96];

	(void)state;
	snprintf(desc, sizeof desc, "pack:2 core:%d pu:1", TOPO_MAX_CPUS / 2 + 1);
	snprintf(want, sizeof want, "hwloc reports %d usable CPUs; pmucheck handles at most %d",
		 TOPO_MAX_CPUS + 2, TOPO_MAX_CPUS);
	refused(desc, want);
	snprintf(desc, sizeof desc, "pack:2 core:%d pu:1", TOPO_MAX_CPUS / 2);
	loads(desc);
	assert_int_equal(t.ncpus, TOPO_MAX_CPUS);
}

/* So is one of more sockets or L3 caches than the uncore lists hold (topo_sockets_used, topo_l3_cpus): their
   uncore counts would be left out of every sum. */
static void test_more_sockets_or_l3s_than_the_limit_are_refused(void **state)
{
	char desc[64], want[96];

	(void)state;
	snprintf(desc, sizeof desc, "pack:%d core:1 pu:1", TOPO_MAX_SOCKETS + 1);
	snprintf(want, sizeof want, "hwloc reports %d sockets; pmucheck handles at most %d",
		 TOPO_MAX_SOCKETS + 1, TOPO_MAX_SOCKETS);
	refused(desc, want);
	snprintf(desc, sizeof desc, "pack:%d core:1 pu:1", TOPO_MAX_SOCKETS);
	loads(desc);
	assert_int_equal(t.sockets, TOPO_MAX_SOCKETS);
	topo_free(&t);
	snprintf(desc, sizeof desc, "pack:1 l3:%d(size=32MiB) core:1 pu:1", TOPO_MAX_L3_DOMAINS + 1);
	snprintf(want, sizeof want, "hwloc reports %d L3 caches; pmucheck handles at most %d",
		 TOPO_MAX_L3_DOMAINS + 1, TOPO_MAX_L3_DOMAINS);
	refused(desc, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_synthetic_is_whole, setup, topo_synthetic_free),
		cmocka_unit_test_setup_teardown(test_core_by_its_usable_pu, setup, topo_synthetic_free),
		cmocka_unit_test_setup_teardown(test_first_usable_socket, setup, topo_synthetic_free),
		cmocka_unit_test_setup_teardown(test_cpulist_outside_affinity, setup, topo_synthetic_free),
		cmocka_unit_test_setup_teardown(test_open_range_over_gaps, setup, topo_synthetic_free),
		cmocka_unit_test_teardown(test_more_cpus_than_the_limit_is_refused, topo_synthetic_free),
		cmocka_unit_test_teardown(test_more_sockets_or_l3s_than_the_limit_are_refused,
					  topo_synthetic_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
