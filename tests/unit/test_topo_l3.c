/* test_topo_l3.c — where per-L3 uncore PMUs (AMD's amd_l3, one per CCX) must open: one CPU of the run per
 * L3 it runs under, on hwloc's synthetic machine of 2 packages x 2 L3 domains x 2 cores x 2 PUs (PUs 0-3
 * and 4-7 under package 0's two L3s, 8-11 and 12-15 under package 1's); and a socket's uncore opens on a
 * CPU of the run there, so a per-L3 PMU counts the L3 the threads use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "topo_synthetic.h"

static int setup(void **state)
{
	(void)state;
	return topo_synthetic_load("package:2 numa:1 l3:2 l2:2 l1d:1 core:1 pu:2");
}

/* Threads on PUs 1, 2 (one L3), 5 (the other L3 of package 0) and 13 (package 1): three L3s, each named
   by its first thread's CPU. */
static void test_one_cpu_per_l3_the_threads_use(void **state)
{
	const int cpus[] = {1, 2, 5, 13};
	int out[TOPO_MAX_L3_DOMAINS];

	(void)state;
	assert_int_equal(topo_l3_cpus(&t, cpus, 4, out, TOPO_MAX_L3_DOMAINS), 3);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 5);
	assert_int_equal(out[2], 13);
	assert_int_equal(topo_l3_cpus(&t, cpus, 4, out, 2), 2); /* at most max */
}

/* One thread on PU 6 (package 0's second L3), memory on node 1: package 0 opens on PU 6, not its first PU
   0 (whose L3 the run never touches); package 1, memory only, on its first PU 8. */
static void test_a_socket_opens_on_a_cpu_of_the_run(void **state)
{
	const int cpus[] = {6}, nodes[] = {1};
	struct topo_socket_use u[TOPO_MAX_SOCKETS];

	(void)state;
	assert_int_equal(topo_sockets_used(&t, cpus, nodes, 1, u), 2);
	assert_int_equal(u[0].cpu, 6);
	assert_int_equal(u[1].cpu, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cpu_per_l3_the_threads_use),
		cmocka_unit_test(test_a_socket_opens_on_a_cpu_of_the_run),
	};
	return cmocka_run_group_tests(tests, setup, topo_synthetic_free);
}
