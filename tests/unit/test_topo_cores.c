/* test_topo_cores.c — whether a run's CPUs are cores of their own (topo_distinct_cores), on hwloc's
 * synthetic topologies (HWLOC_SYNTHETIC) rather than this machine's: one socket of two cores with two PUs
 * each, where PUs 0 and 1 are one core's, and one of two cores with one PU each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "topo.h"

static void load(struct topo *t, const char *synthetic)
{
	struct err e;

	setenv("HWLOC_SYNTHETIC", synthetic, 1);
	assert_int_equal(topo_load(t, &e), 0);
	unsetenv("HWLOC_SYNTHETIC");
}

static void test_smt_siblings_share_a_core(void **state)
{
	struct topo t;
	const int siblings[2] = {0, 1}, apart[2] = {0, 2}, three[3] = {0, 2, 3};

	(void)state;
	load(&t, "pack:1 core:2 pu:2");
	assert_int_equal(t.smt, 2);
	assert_false(topo_distinct_cores(&t, siblings, 2));
	assert_true(topo_distinct_cores(&t, apart, 2));
	assert_false(topo_distinct_cores(&t, three, 3)); /* 2 and 3 are the second core's */
	assert_true(topo_distinct_cores(&t, siblings, 1));
	topo_free(&t);
}

static void test_one_pu_per_core(void **state)
{
	struct topo t;
	const int both[2] = {0, 1};

	(void)state;
	load(&t, "pack:1 core:2 pu:1");
	assert_true(topo_distinct_cores(&t, both, 2));
	topo_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smt_siblings_share_a_core),
		cmocka_unit_test(test_one_pu_per_core),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
