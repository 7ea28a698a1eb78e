/* test_agg_clock.c — a point's core clock as the analysis reads it from raw.csv: the highest of all its
 * repetitions' clocks, the ninth and later included (the run takes all of them too: harness record_ghz),
 * and the run's clock where none of them has one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tools/verdict_fixture.h"

#define REPS 10

static double ev_loads(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **status,
		       const char **reason)
{
	(void)rep, (void)rng, (void)status, (void)reason;
	return p->v[RQ_loads];
}

/* The clock the analysis gives one L1 load point whose REPS repetitions read rep_ghz. */
static double point_clock(const double rep_ghz[REPS])
{
	static const struct gen_event ev[] = {{"LOADS", ev_loads}};
	struct gen_point p = gen_load_point(0, 16 << 10, 0);
	struct fixture *f;
	void *own = NULL;
	double ghz;

	p.rep_ghz = rep_ghz;
	assert_int_equal(fixture_open_points(&own, &p, 1, REPS, ev, 1), 0);
	f = own;
	assert_int_equal(f->a.npoints, 1);
	ghz = f->a.points[0].core_ghz;
	assert_int_equal(fixture_close(&own), 0);
	return ghz;
}

/* A clock sample can read low, never high: the point's clock is its highest, wherever it came. */
static void test_clock_is_the_highest_of_all_repetitions(void **state)
{
	double g[REPS] = {3.2, 3.1, 0, 3.2, 3.3, 3.2, 3.2, 3.2, 3.2, 3.6};

	(void)state;
	assert_true(point_clock(g) == 3.6); /* the tenth repetition's */
	g[9] = 3.2;
	assert_true(point_clock(g) == 3.3);
}

/* Without any accepted sample (0 each) the point takes the run's clock (machine.json clock.core_ghz). */
static void test_no_clock_takes_the_runs(void **state)
{
	const double none[REPS] = {0};

	(void)state;
	assert_true(point_clock(none) == GEN_GHZ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_is_the_highest_of_all_repetitions),
		cmocka_unit_test(test_no_clock_takes_the_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
