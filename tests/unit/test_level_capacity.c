/* test_level_capacity.c — a thread's capacity in a cache level (common/level_capacity.h), as the plan sizes
 * its points by it and the analysis labels them: a Skylake-SP socket (28 cores, 1 MiB of L2 each, 38.5 MiB
 * of L3) with its L3 not inclusive, as hwloc records it from CPUID, and the same shape taken as inclusive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "level_capacity.h"
#include "machine_read.h"
#include "plan.h"
#include "point_level.h"
#include "topo_synthetic.h"

static int setup(void **state)
{
	(void)state;
	return topo_synthetic_load(
		"pack:2 numa:1 l3:1(size=39424KiB) l2:28(size=1MiB) l1d:1(size=32KiB) core:1 "
		"pu:2");
}

/* The default plan of load.sse (every x86-64 has it) with 1 and 28 threads (the socket's cores) on t. */
static void plan_28(struct plan *p)
{
	struct plan_opts o = {0};
	struct err e;

	o.kernels = "load.sse";
	assert_int_equal(plan_check_opts(&o, &t, &e), 0);
	assert_int_equal(o.threads[1], 28);
	assert_int_equal(plan_build(&o, &t, p, &e), 0);
}

/* The 28-thread point the plan puts in L3, clear of every boundary; NULL where it has none. */
static const struct plan_point *l3_point(const struct plan *p)
{
	for (int i = 0; i < p->npoints; i++)
		if (p->points[i].threads == 28 && p->points[i].level == LEVEL_L3 && !p->points[i].boundary)
			return &p->points[i];
	return NULL;
}

/* What the analysis of the run makes of a 28-thread load point of `bytes` per thread: machine.json's
   topology and levels as the run writes them (topo_json; harness/results/machine.c's levels), read back. */
static enum point_level analysed(uint64_t bytes)
{
	char path[] = "/tmp/pmucheck-capacity.XXXXXX";
	json_t *root = json_pack("{s:i, s:o}", "format", 1, "topology", topo_json(&t));
	json_t *one = json_object(), *all = json_object();
	struct raw_row r = {
		.kernel = "load", .placement = "local", .arrays = 1, .threads = 28, .level = "L3"};
	struct machine m = {0};
	struct err e;
	enum point_level lv;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	for (int l = 1; l <= t.ncaches; l++) {
		char key[8];
		snprintf(key, sizeof key, "L%d", l);
		json_object_set_new(one, key, json_integer((json_int_t)topo_reported_share(&t, l, 1)));
		json_object_set_new(all, key, json_integer((json_int_t)topo_reported_share(&t, l, 28)));
	}
	json_object_set_new(root, "levels",
			    json_pack("{s:o, s:o, s:i}", "reported", one, "reported_all_threads", all,
				      "threads_max", 28));
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
	assert_int_equal(machine_read(path, &m, &e), 0);
	unlink(path);
	r.bytes = (int64_t)bytes;
	lv = point_level_assign(&m, &r);
	machine_free(&m);
	return lv;
}

/* Not inclusive: each thread keeps its 1 MiB of L2 and its 1.375 MiB of L3 together, so 28 threads have an
   L3 point, which the analysis labels L3 too, and the plan names no level without a point. */
static void test_a_victim_l3_has_a_point_with_every_core(void **state)
{
	const struct plan_point *pt;
	struct plan p;

	(void)state;
	t.caches[2].inclusion = LEVEL_NOT_INCLUSIVE;
	plan_28(&p);
	pt = l3_point(&p);
	assert_non_null(pt);
	assert_true(pt->bytes > (1u << 20) * 3 / 2); /* clear of the L2 */
	assert_int_equal(analysed(pt->bytes), LV_L3);
	assert_string_equal(p.no_level, "");
	plan_free(&p);
}

/* The same shape taken as inclusive (hwloc says so, or says nothing: files and topologies without it): a
   thread's 1.375 MiB of L3 is not clear of its 1 MiB L2, so there is no L3 point with 28 threads, the plan
   says so, and the analysis labels no such size L3. */
static void test_an_inclusive_l3_of_that_shape_has_none(void **state)
{
	enum level_inclusion each[] = {LEVEL_INCLUSIVE, LEVEL_INCLUSION_UNKNOWN};
	struct plan p;

	(void)state;
	for (size_t i = 0; i < sizeof each / sizeof *each; i++) {
		t.caches[2].inclusion = each[i];
		plan_28(&p);
		assert_null(l3_point(&p));
		assert_non_null(strstr(p.no_level,
				       "L3 with 28 threads (each thread's part of it, 1408 KiB, is "
				       "not clear of the L2's 1024 KiB below)"));
		assert_int_not_equal(analysed(1673u << 10), LV_L3);
		plan_free(&p);
	}
}

/* The level probe measures one thread's end of a level; in an L3 not inclusive that end is the L2's and the
   L3's together, so one thread's capacity is that end (not the end and the L2 again) and each of N threads
   sharing it keeps the L2 and an N-th of what lies past it. */
static void test_a_measured_victim_l3_holds_the_l2_once(void **state)
{
	struct level_cache c[3] = {
		{48 << 10, 0, 1, LEVEL_INCLUSION_UNKNOWN},
		{1 << 20, 0, 1, LEVEL_NOT_INCLUSIVE}, /* an L2 is filled on every L1 miss: no sum */
		{8 << 20, 1, 8, LEVEL_NOT_INCLUSIVE},
	};

	(void)state;
	assert_true(level_capacity(c, LEVEL_L2, 1) == 1 << 20);
	assert_true(level_capacity(c, LEVEL_L3, 1) == 8 << 20);
	assert_true(level_capacity(c, LEVEL_L3, 8) == (1 << 20) + (7 << 20) / 8);
	assert_true(level_capacity(c, LEVEL_L3, 64) == (1 << 20) + (7 << 20) / 8);
	c[2].measured = 0; /* the reported size is the L3's alone */
	assert_true(level_capacity(c, LEVEL_L3, 1) == 9 << 20);
	c[2].inclusion = LEVEL_INCLUSIVE;
	assert_true(level_capacity(c, LEVEL_L3, 8) == 1 << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_victim_l3_has_a_point_with_every_core),
		cmocka_unit_test(test_an_inclusive_l3_of_that_shape_has_none),
		cmocka_unit_test(test_a_measured_victim_l3_holds_the_l2_once),
	};
	return cmocka_run_group_tests(tests, setup, topo_synthetic_free);
}
