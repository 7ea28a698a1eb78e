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

#include "agg.h"
#include "tools/rawgen.h"

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
	struct gen_point p = {.model = GEN_LOAD,
			      .kernel = "load",
			      .variant = "load.avx512",
			      .access = "read",
			      .plots = GEN_BW,
			      .traits = "",
			      .prefetch = "on",
			      .placement = "local",
			      .width = 64,
			      .arrays = 1,
			      .threads = 1,
			      .bytes = 16 << 10,
			      .reps = 8,
			      .level = 0,
			      .seconds = 1e-3,
			      .rep_ghz = rep_ghz};
	char dir[64], path[128];
	struct agg a = {0};
	struct err e;
	uint64_t rng = 1;
	double ghz;
	FILE *f;

	strcpy(dir, "/tmp/pmucheck-aggclock.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/machine.json", dir);
	assert_non_null(f = fopen(path, "w"));
	gen_machine(f, 0);
	fclose(f);
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	assert_non_null(f = fopen(path, "w"));
	gen_header(f);
	gen_volumes(&p);
	for (unsigned r = 0; r < REPS; r++)
		gen_rows(f, &p, r, ev, 1, &rng, NULL);
	fclose(f);
	snprintf(path, sizeof path, "%s/machine.json", dir);
	assert_int_equal(machine_read(path, &a.m, &e), 0);
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	assert_int_equal(agg_read(&a, path, &e), 0);
	assert_int_equal(a.npoints, 1);
	ghz = a.points[0].core_ghz;
	agg_free(&a);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
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
