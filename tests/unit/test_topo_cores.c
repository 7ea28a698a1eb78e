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

/* hwloc's synthetic topology `synthetic` restricted to the PUs `online`, changed by edit where not NULL
   (given arg), written to XML and loaded from it by topo_load, as a machine's would be. */
static void load_restricted(struct topo *t, const char *synthetic, const char *online,
			    void (*edit)(hwloc_topology_t, const int *), const int *arg)
{
	char path[] = "/tmp/pmucheck-topo-XXXXXX.xml";
	hwloc_topology_t h;
	hwloc_bitmap_t keep = hwloc_bitmap_alloc();
	struct err e;
	int fd = mkstemps(path, 4);

	assert_true(fd >= 0 && keep);
	close(fd);
	assert_int_equal(hwloc_topology_init(&h), 0);
	assert_int_equal(hwloc_topology_set_synthetic(h, synthetic), 0);
	assert_int_equal(hwloc_topology_load(h), 0);
	assert_int_equal(hwloc_bitmap_list_sscanf(keep, online), 0);
	assert_int_equal(hwloc_topology_restrict(h, keep, 0), 0);
	if (edit)
		edit(h, arg);
	assert_int_equal(hwloc_topology_export_xml(h, path, 0), 0);
	hwloc_topology_destroy(h);
	hwloc_bitmap_free(keep);
	setenv("HWLOC_XMLFILE", path, 1);
	assert_int_equal(topo_load(t, &e), 0);
	unsetenv("HWLOC_XMLFILE");
	unlink(path);
}

static void assert_default_cpus(const struct topo *t, const char *want)
{
	char got[64];
	int cpus[TOPO_MAX_CPUS], n = topo_default_cpus(t, cpus, TOPO_MAX_CPUS);

	topo_format_cpus(cpus, n, ',', got, sizeof got);
	assert_string_equal(got, want);
}

/* Cores of two PUs beside cores of one, as on a hybrid CPU (Alder Lake's P- and E-cores) or where a
   sibling is offline: hwloc's synthetic topology of four 2-PU cores, each with its own L1 and L2, restricted
   to PUs 0-4,6 (cores 2 and 3 keep one PU). A thread per core has its core's whole L1 and L2 however many
   PUs the core has; PUs over cores (6 / 4 = 1) made each 2-PU core's L1 two cores' and gave two threads
   16 of its 32 KiB. */
static void test_uneven_pus_per_core(void **state)
{
	struct topo t;

	(void)state;
	load_restricted(&t, "pack:1 l3:1 l2:4 l1d:1 core:1 pu:2", "0-4,6", NULL, NULL);
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

/* The E-cores of hybrid_default_cpus: arg[0] smaller L2s, arg[1] CPU kinds registered. */
static void make_e_cores(hwloc_topology_t h, const int *arg)
{
	hwloc_bitmap_t p = hwloc_bitmap_alloc(), e_cores = hwloc_bitmap_alloc();
	hwloc_obj_t l2 = NULL;

	assert_true(p && e_cores);
	while ((l2 = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_L2CACHE, l2)))
		if (arg[0] && l2->logical_index >= 2)
			l2->attr->cache.size = 512 << 10;
	assert_int_equal(hwloc_bitmap_list_sscanf(p, "0-3"), 0);
	assert_int_equal(hwloc_bitmap_list_sscanf(e_cores, "4,6,8,10"), 0);
	assert_true(!arg[1] ||
		    (hwloc_cpukinds_register(h, e_cores, 0, 0, NULL, 0) == 0 &&
		     hwloc_cpukinds_register(h, p, 1, 0, NULL, 0) == 0));
	hwloc_bitmap_free(p);
	hwloc_bitmap_free(e_cores);
}

/* A hybrid CPU (Alder Lake's kind: P-cores of 2 PUs with a 1.25 MiB L2 each, E-cores of 1 PU with a 2 MiB
   L2 per four) as hwloc describes it: hwloc's synthetic topology of six 2-PU cores with their own L2,
   restricted to both PUs of cores 0-1 and one of cores 2-5, whose L2 is made smaller, and two CPU kinds
   registered (hwloc_cpukinds_register, as its Linux backend does from the core types). The default CPUs
   are the cores of the first usable PU's kind: the plan sizes every thread's cache points from that PU's
   caches, which an E-core's L2 is not (a P-core's L2 point would run from L3 there). Either tells them
   apart: the kinds alone (Meteor Lake's E-cores have an L2 as large as a P-core's), or the L2 sizes alone
   (a hwloc that registers no kinds). CPUs of both kinds are told apart from the first's (topo_unlike_first),
   for the warning a run gives about such --cpus. */
static void test_hybrid_default_cpus_one_kind(void **state)
{
	static const int cases[][2] = {{1, 1}, {0, 1}, {1, 0}};
	struct topo t;
	char list[32];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		load_restricted(&t, "pack:1 l3:1 l2:6(size=1310720) l1d:1 core:1 pu:2", "0-4,6,8,10",
				make_e_cores, cases[i]);
		assert_int_equal(t.cores, 6);
		assert_int_equal(t.caches[1].size, 1310720); /* the first PU's: a P-core's */
		assert_default_cpus(&t, "0,2");
		assert_int_equal(topo_unlike_first(&t, (const int[]){0, 2, 4, 6}, 4, list, sizeof list), 2);
		assert_string_equal(list, "4,6");
		/* a list too long for the message's room: cut after a whole CPU, never inside a number */
		assert_int_equal(topo_unlike_first(&t, (const int[]){0, 4, 6, 8, 10}, 5, list, 8), 4);
		assert_string_equal(list, "4,6,...");
		assert_int_equal(topo_unlike_first(&t, (const int[]){0, 4, 6, 8, 10}, 5, list, 9), 4);
		assert_string_equal(list, "4,6,8,10");
		assert_int_equal(topo_unlike_first(&t, (const int[]){4, 6, 8}, 3, list, sizeof list), 0);
		assert_string_equal(list, "");
		assert_int_equal(topo_unlike_first(&t, (const int[]){0, 2}, 2, list, sizeof list), 0);
		topo_free(&t);
	}
}

/* Two L3s of two cores each, one core offline (restricted away): "0-2" keeps the second L3's, "0,2-3" the
   first's. Either way every core left is a default CPU: the caches are as large, and a core offline is
   not another kind of core (with the first L3's short a core, excluding the other L3s would have run on
   one L3 of a socket). */
static void test_default_cpus_with_a_core_offline(void **state)
{
	static const char *const cases[][2] = {{"0-2", "0,1,2"}, {"0,2-3", "0,2,3"}};
	struct topo t;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		load_restricted(&t, "pack:1 l3:2 l2:2 l1d:1 core:1 pu:1", cases[i][0], NULL, NULL);
		assert_default_cpus(&t, cases[i][1]);
		topo_free(&t);
	}
}

/* raw.csv's cpus and mem_nodes columns: TOPO_LIST_CHARS holds the widest point's list whole, so that no
   list ends cut inside a number (the run's 512 and 256 characters cut a 192-thread point's). */
static void test_widest_list_fits(void **state)
{
	static int cpus[TOPO_MAX_CPUS];
	static char list[TOPO_LIST_CHARS];
	size_t want = TOPO_MAX_CPUS - 1; /* the separators */

	(void)state;
	for (int i = 0; i < TOPO_MAX_CPUS; i++) {
		cpus[i] = i;
		want += (size_t)snprintf(NULL, 0, "%d", i);
	}
	topo_format_cpus(cpus, TOPO_MAX_CPUS, ';', list, sizeof list);
	assert_int_equal(strlen(list), want);
	assert_string_equal(list + want - 10, ";1022;1023");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smt_siblings_share_a_core),
		cmocka_unit_test(test_one_pu_per_core),
		cmocka_unit_test(test_uneven_pus_per_core),
		cmocka_unit_test(test_hybrid_default_cpus_one_kind),
		cmocka_unit_test(test_default_cpus_with_a_core_offline),
		cmocka_unit_test(test_widest_list_fits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
