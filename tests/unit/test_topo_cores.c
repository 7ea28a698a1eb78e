/* test_topo_cores.c — whether a run's CPUs are cores of their own (topo_distinct_cores), on hwloc's
 * synthetic topologies (HWLOC_SYNTHETIC) rather than this machine's: one socket of two cores with two PUs
 * each, where PUs 0 and 1 are one core's, and one of two cores with one PU each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

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

/* Cores of two PUs beside cores of one, as on a hybrid CPU (Alder Lake's P- and E-cores) or where a
   sibling is offline: hwloc's synthetic topology of four 2-PU cores, each with its own L1 and L2, restricted
   to PUs 0-4,6 (cores 2 and 3 keep one PU) and loaded back from XML. A thread per core has its core's
   whole L1 and L2 however many PUs the core has; PUs over cores (6 / 4 = 1) made each 2-PU core's L1 two
   cores' and gave two threads 16 of its 32 KiB. */
static void test_uneven_pus_per_core(void **state)
{
	char path[] = "/tmp/pmucheck-topo-XXXXXX.xml";
	hwloc_topology_t h;
	hwloc_bitmap_t keep = hwloc_bitmap_alloc();
	struct topo t;
	struct err e;
	int fd = mkstemps(path, 4);

	(void)state;
	assert_true(fd >= 0 && keep);
	close(fd);
	assert_int_equal(hwloc_topology_init(&h), 0);
	assert_int_equal(hwloc_topology_set_synthetic(h, "pack:1 l3:1 l2:4 l1d:1 core:1 pu:2"), 0);
	assert_int_equal(hwloc_topology_load(h), 0);
	assert_int_equal(hwloc_bitmap_list_sscanf(keep, "0-4,6"), 0);
	assert_int_equal(hwloc_topology_restrict(h, keep, 0), 0);
	assert_int_equal(hwloc_topology_export_xml(h, path, 0), 0);
	hwloc_topology_destroy(h);
	hwloc_bitmap_free(keep);

	setenv("HWLOC_XMLFILE", path, 1);
	assert_int_equal(topo_load(&t, &e), 0);
	unsetenv("HWLOC_XMLFILE");
	unlink(path);
	assert_int_equal(t.cores, 4);
	assert_int_equal(t.pus, 6);
	assert_int_equal(t.smt, 2); /* cores 0 and 1 run two PUs */
	assert_int_equal(t.caches[0].npus, 2);
	/* two threads on cores of their own: each has its core's L1 and L2 */
	assert_int_equal(topo_cache_share(&t, 1, 2), t.caches[0].size);
	assert_int_equal(topo_cache_share(&t, 2, 2), t.caches[1].size);
	/* the L3 of four cores: four threads share it four ways, not six */
	assert_int_equal(topo_cache_share(&t, 3, 8), t.caches[2].size / 4);
	topo_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smt_siblings_share_a_core),
		cmocka_unit_test(test_one_pu_per_core),
		cmocka_unit_test(test_uneven_pus_per_core),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
