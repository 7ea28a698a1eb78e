/* test_topo_sockets.c — the sockets whose uncore sees a run's traffic, on hwloc's synthetic two-socket
 * machine (4 cores x 2 PUs and one NUMA node per socket): local, remote and interleaved memory, and
 * threads on both sockets; and the reported cache share apart from the measured one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "topo_synthetic.h"

static int setup(void **state)
{
	(void)state;
	return topo_synthetic_load("package:2 numa:1 l3:1 l2:4 l1d:1 core:1 pu:2");
}

static const char *uses(const int *cpus, const int *nodes, int n)
{
	static char buf[128];
	struct topo_socket_use u[TOPO_MAX_SOCKETS];
	int k = topo_sockets_used(&t, cpus, nodes, n, u);

	topo_format_sockets(u, k, buf, sizeof buf);
	return buf;
}

static void test_local_memory_is_one_socket(void **state)
{
	const int cpus[] = {0, 2}, nodes[] = {0, 0};

	(void)state;
	assert_int_equal(t.sockets, 2);
	assert_string_equal(uses(cpus, nodes, 2), "0:threads+memory");
}

/* Remote placement: the memory controllers that see the lines are the other socket's. */
static void test_remote_memory_counts_the_remote_socket(void **state)
{
	const int cpus[] = {0}, nodes[] = {1};
	struct topo_socket_use u[TOPO_MAX_SOCKETS];

	(void)state;
	assert_string_equal(uses(cpus, nodes, 1), "0:threads;1:memory");
	assert_int_equal(topo_sockets_used(&t, cpus, nodes, 1, u), 2);
	assert_int_equal(u[1].cpu, 8); /* the first PU of package 1 */
}

static void test_threads_on_both_sockets_and_interleaved_memory(void **state)
{
	const int cpus[] = {0, 8}, local[] = {0, 1}, inter[] = {-1, -1};

	(void)state;
	assert_string_equal(uses(cpus, local, 2), "0:threads+memory;1:threads+memory");
	assert_string_equal(uses(cpus, inter, 1), "0:threads+memory;1:memory");
}

/* machine.json levels.reported is hwloc's share even where the probe measured a smaller level (the sweeps
   use the measured one). */
static void test_reported_share_ignores_the_measured_size(void **state)
{
	int l3 = t.ncaches;

	(void)state;
	assert_true(l3 >= 1);
	t.caches[l3 - 1].measured = t.caches[l3 - 1].size / 8;
	assert_int_equal(topo_reported_share(&t, l3, 1), t.caches[l3 - 1].size);
	assert_int_equal(topo_cache_share(&t, l3, 1), t.caches[l3 - 1].size / 8);
	/* 4 cores share it: each of 4 threads gets a quarter of the reported size */
	assert_int_equal(topo_reported_share(&t, l3, 4), t.caches[l3 - 1].size / 4);
	t.caches[l3 - 1].measured = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local_memory_is_one_socket),
		cmocka_unit_test(test_remote_memory_counts_the_remote_socket),
		cmocka_unit_test(test_threads_on_both_sockets_and_interleaved_memory),
		cmocka_unit_test(test_reported_share_ignores_the_measured_size),
	};
	return cmocka_run_group_tests(tests, setup, topo_synthetic_free);
}
