/* test_levels.c — plateaus of a latency-vs-size curve, and where they disagree with reported caches. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "levels.h"

/* A machine reporting L1 48 KiB, L2 1 MiB, L3 32 MiB. */
static void reported(struct topo *t)
{
	memset(t, 0, sizeof *t);
	t->ncaches = 3;
	t->caches[0] = (struct topo_cache){.level = 1, .size = 48 << 10, .npus = 1};
	t->caches[1] = (struct topo_cache){.level = 2, .size = 1 << 20, .npus = 1};
	t->caches[2] = (struct topo_cache){.level = 3, .size = 32 << 20, .npus = 2};
	t->smt = 1;
}

/* Latencies of a machine whose levels end at l1, l2, l3 bytes (1, 3.3, 12, 120 ns), with a transition
   point of intermediate latency right after each boundary, on a 2^(1/4) grid from 4 KiB to 128 MiB. */
static void curve(struct levels_probe *p, uint64_t l1, uint64_t l2, uint64_t l3)
{
	memset(p, 0, sizeof *p);
	for (int i = 0; p->npoints < LEVELS_MAX_POINTS; i++) {
		uint64_t s = (uint64_t)(4096.0 * pow(2.0, i / 4.0));
		double ns = s <= l1 ? 1.0 : s <= l2 ? 3.3 : s <= l3 ? 12.0 : 120.0;
		if (s > (128u << 20))
			break;
		if (p->npoints && p->ns[p->npoints - 1] < ns && ns / p->ns[p->npoints - 1] > 2)
			ns = sqrt(ns * p->ns[p->npoints - 1]); /* partly in the level below */
		p->size[p->npoints] = s;
		p->ns[p->npoints++] = ns;
	}
}

static void test_agreeing_levels_are_left_alone(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_int_equal(p.ndisagreements, 0);
	levels_apply(&p, &t);
	for (int l = 0; l < 3; l++)
		assert_int_equal(t.caches[l].measured, 0);
	assert_true(p.plateau[3].ns > 100);
}

/* A guest that can use only about 6 MiB of a reported 32 MiB L3. */
static void test_short_l3_is_measured_and_reported(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 6 << 20);
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0], "L3: hwloc reports 32768 KiB"));
	levels_apply(&p, &t);
	assert_int_equal(t.caches[0].measured, 0);
	assert_int_equal(t.caches[1].measured, 0);
	assert_true(t.caches[2].measured <= 6 << 20 && t.caches[2].measured > 4 << 20);
	/* the sweep then sees the measured L3 */
	assert_int_equal(topo_cache_share(&t, 3, 1), t.caches[2].measured);
	assert_int_equal(topo_cache_share(&t, 3, 2), t.caches[2].measured / 2);
}

/* Two levels with the same latency cannot be told apart: keep the reported sizes and say why. */
static void test_unseparable_levels_keep_reported_sizes(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	for (int i = 0; i < p.npoints; i++)
		if (p.ns[i] > 2 && p.ns[i] < 20)
			p.ns[i] = 3.3; /* L3 as fast as L2 */
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 3);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0], "keeping the reported sizes"));
	levels_apply(&p, &t);
	assert_int_equal(t.caches[2].measured, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agreeing_levels_are_left_alone),
		cmocka_unit_test(test_short_l3_is_measured_and_reported),
		cmocka_unit_test(test_unseparable_levels_keep_reported_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
