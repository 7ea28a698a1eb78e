/* test_level_check.c — the check that the last cache level still holds a point's working set: which level
 * it checks, the latency it judges by, the working set it chases for points of several threads, how it
 * counts, its machine.json form, and one real check of the registered chain. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "level_check.h"
#include "tsc.h"

/* L1 48 KiB and L2 1 MiB per core, an L3 of `l3` bytes shared by `l3_cores` cores, no SMT. */
static void caches(struct topo *t, uint64_t l3, unsigned l3_cores)
{
	memset(t, 0, sizeof *t);
	t->ncaches = 3;
	t->caches[0] = (struct topo_cache){.level = 1, .size = 48 << 10, .npus = 1};
	t->caches[1] = (struct topo_cache){.level = 2, .size = 1 << 20, .npus = 1};
	t->caches[2] = (struct topo_cache){.level = 3, .size = l3, .npus = l3_cores};
	t->smt = 1;
}

static void test_checks_the_last_cache_level(void **state)
{
	struct topo t;

	(void)state;
	caches(&t, 32 << 20, 2);
	assert_int_equal(level_check_level(&t), LEVEL_L3);
	t.ncaches = 2;
	assert_int_equal(level_check_level(&t), LEVEL_L2);
	t.ncaches = 4; /* a memory-side fourth level counts as DRAM (plan.h): L3 is the last checked */
	assert_int_equal(level_check_level(&t), LEVEL_L3);
	t.ncaches = 0;
	assert_int_equal(level_check_level(&t), LEVEL_NONE);
}

/* Past where the probe ended the level: the middle of its step to DRAM, never above LEVEL_DRAM_NS (no cache
   is that slow), and LEVEL_DRAM_NS where there is no probe or no step. */
static void test_judges_by_where_the_probe_ended_the_level(void **state)
{
	struct levels_probe p;

	(void)state;
	memset(&p, 0, sizeof p);
	assert_true(level_check_past_ns(NULL) == LEVEL_DRAM_NS);
	assert_true(level_check_past_ns(&p) == LEVEL_DRAM_NS);
	p.step_ns = 48.5;
	assert_true(level_check_past_ns(&p) == 48.5);
	p.step_ns = 67.0; /* a 30 ns L3 and 150 ns DRAM */
	assert_true(level_check_past_ns(&p) == LEVEL_DRAM_NS);
}

/* The threads of a point that share one last-level cache fill it together; threads beyond its cores have
   another. */
static void test_chases_the_working_set_of_the_threads_sharing_the_cache(void **state)
{
	struct topo t;

	(void)state;
	caches(&t, 32 << 20, 2);
	assert_int_equal(level_check_bytes(&t, 3 << 20, 1), 3 << 20);
	assert_int_equal(level_check_bytes(&t, 3 << 20, 2), 6 << 20);
	assert_int_equal(level_check_bytes(&t, 3 << 20, 4), 6 << 20); /* two cores share each L3 */
	t.caches[2].measured = 11863040;                              /* the probe's end changes no sharing */
	assert_int_equal(level_check_bytes(&t, 3 << 20, 2), 6 << 20);
	caches(&t, 32 << 20, 1); /* one L3 per core */
	assert_int_equal(level_check_bytes(&t, 3 << 20, 2), 3 << 20);
}

/* An L3 not inclusive of the L2 holds what each thread keeps past its L2 (common/level_capacity.h): the
   chase of a Skylake-SP socket's 28-thread L3 point of 1.6 MiB each is the L3's 28 x 0.6 MiB beside the
   chasing thread's own 1 MiB of L2, 17.8 MiB, where all 28 x 1.6 MiB (44.8 MiB) would pass the L3 and that
   L2 together and call every such point past the level. */
static void test_a_victim_l3_is_chased_past_the_l2s(void **state)
{
	struct topo t;
	uint64_t each = 1638u << 10;

	(void)state;
	caches(&t, 39424u << 10, 28);
	t.caches[2].inclusion = LEVEL_NOT_INCLUSIVE;
	assert_int_equal(level_check_bytes(&t, each, 28), (1u << 20) + (each - (1u << 20)) * 28);
	assert_int_equal(level_check_bytes(&t, each, 1), each);
	t.caches[2].inclusion = LEVEL_INCLUSIVE;
	assert_int_equal(level_check_bytes(&t, each, 28), each * 28);
}

/* A point is past the level only when its chase before and the one after both were (at the latency or
   slower); past only before, it met a burst. The slowest counts the faster of a point's two chases.
   machine.json says nothing before the first point. */
static void test_counts_points_past_before_and_after(void **state)
{
	struct topo t;
	struct level_check c;
	struct levels_probe p;
	struct err e;
	json_t *j;

	(void)state;
	caches(&t, 32 << 20, 2);
	memset(&p, 0, sizeof p);
	p.step_ns = 48.5;
	assert_int_equal(level_check_init(&c, &t, &p, 8 << 20, 0, 2e9, &e), 0);
	assert_null(level_check_json(&c));
	assert_false(level_check_past(&c, 48.4));
	assert_true(level_check_past(&c, 48.5));
	assert_int_equal(level_check_judge(&c, 6 << 20, 19.7, -1), 0);    /* held: no chase after */
	assert_int_equal(level_check_judge(&c, 6 << 20, 124.8, 36.8), 0); /* a burst */
	assert_int_equal(level_check_judge(&c, 5 << 20, 121.0, 80.5), 1); /* short through the point */
	assert_int_equal(level_check_judge(&c, 4 << 20, 48.5, 48.5), 1);  /* at the latency: past */
	assert_int_equal(level_check_judge(&c, 6 << 20, 48.4, 200.0), 0); /* held as it began */
	assert_int_equal(c.n, 5);
	assert_int_equal(c.past, 2);
	assert_int_equal(c.bursts, 1);
	j = level_check_json(&c);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "level")), "L3");
	assert_string_equal(json_string_value(json_object_get(j, "kernel")), c.v->name);
	assert_int_equal(json_integer_value(json_object_get(j, "points")), 5);
	assert_int_equal(json_integer_value(json_object_get(j, "points_past")), 2);
	assert_int_equal(json_integer_value(json_object_get(j, "points_burst")), 1);
	assert_true(json_real_value(json_object_get(j, "past_ns")) == 48.5);
	assert_string_equal(json_string_value(json_object_get(j, "past_by")), "level probe");
	/* the faster of 121.0 and 80.5: the burst's 124.8 was not the level's */
	assert_true(json_real_value(json_object_get(j, "worst_ns")) == 80.5);
	assert_int_equal(json_integer_value(json_object_get(j, "worst_bytes")), 5 << 20);
	json_decref(j);
	level_check_free(&c);
}

/* One real chase on this machine: a latency is measured, whatever it is; a working set above what the check
   was made for is not chased. */
static void test_real_chase_measures_a_latency(void **state)
{
	struct topo t;
	struct level_check c;
	struct err e;
	double ns;

	(void)state;
	assert_int_equal(topo_load(&t, &e), 0);
	assert_int_equal(level_check_init(&c, &t, NULL, 1 << 20, t.cpus[0], tsc_calibrate_hz(20), &e), 0);
	assert_true(level_check_chase(&c, 2 << 20) == -1);
	ns = level_check_chase(&c, 256 << 10);
	assert_false(c.failed);
	assert_true(ns > 0 && isfinite(ns));
	level_check_free(&c);
	topo_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checks_the_last_cache_level),
		cmocka_unit_test(test_judges_by_where_the_probe_ended_the_level),
		cmocka_unit_test(test_chases_the_working_set_of_the_threads_sharing_the_cache),
		cmocka_unit_test(test_a_victim_l3_is_chased_past_the_l2s),
		cmocka_unit_test(test_counts_points_past_before_and_after),
		cmocka_unit_test(test_real_chase_measures_a_latency),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
