/* test_path_probe.c — the run's path probe (harness/run/path_probe.h): which points it is timed before
 * (those that reach memory: DRAM, or non-temporal stores at any size); its figures from the ratios (best,
 * median, the low tenth, and the samples below 0.75 of `threads`, where the threads shared paths) and
 * their machine.json form, on ratios set here; and real samples by two threads, which must give a positive
 * ratio whatever the machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <omp.h>

#include "path_probe.h"
#include "tsc.h"

static struct plan_point at(const char *variant, enum level level)
{
	struct plan_point p = {0};

	p.var = kern_variant_find(variant, &p.fam);
	assert_non_null(p.var);
	p.level = level;
	p.threads = 2;
	return p;
}

static int reaches(const char *variant, enum level level)
{
	struct plan_point p = at(variant, level);

	return path_probe_point(&p);
}

/* DRAM points of every access reach memory, non-temporal stores at every size; a cache level's other
   points do not. */
static void test_points_that_reach_memory(void **state)
{
	(void)state;
	assert_true(reaches("load.gpr", LEVEL_DRAM));
	assert_true(reaches("chase.plain", LEVEL_DRAM));
	assert_true(reaches("store.sse.nt", LEVEL_L1));
	assert_true(reaches("copy.avx.nt", LEVEL_L2));
	assert_true(reaches("triad.sse.nt", LEVEL_L3));
	assert_false(reaches("load.gpr", LEVEL_L1));
	assert_false(reaches("store.avx", LEVEL_L2));
	assert_false(reaches("triad.avx", LEVEL_L3));
}

/* Two threads: 1.0x one thread's (the Zen 3 guest's shared path) at 8 samples, 1.9x at 2, 1.49x just below
   0.75 of 2 and 1.5 at it: 9 of 12 shared; the figures of the ratios in sorted order, the samples in run
   order. */
static void test_figures_of_ratios(void **state)
{
	struct path_probe pp = {0};
	struct path_probe_figures f;
	json_t *j;

	(void)state;
	pp.all.threads = 2;
	pp.one.v = kern_variant_for_plot(KP_PATH_PROBE, &pp.one.f);
	assert_non_null(pp.one.v);
	assert_string_equal(pp.one.v->name, "store.sse.nt");
	pp.one.bytes = PATH_PROBE_BYTES;
	assert_null(path_probe_json(&pp)); /* no sample: nothing recorded, not zeros */
	for (int i = 0; i < 8; i++)
		path_probe_keep(&pp, 22, 22);
	path_probe_keep(&pp, 22, 41.8);
	path_probe_keep(&pp, 20, 38);
	path_probe_keep(&pp, 20, 29.8);
	path_probe_keep(&pp, 20, 30);
	assert_int_equal(pp.n, 12);
	assert_true(pp.ratio[9] == 1.9 && pp.ratio[10] == 29.8 / 20);
	f = path_probe_figures(&pp);
	assert_int_equal(f.n, 12);
	assert_int_equal(f.shared, 9);
	assert_true(f.best == 1.9);
	assert_true(f.median == 1);
	assert_true(f.p10 == 1);
	j = path_probe_json(&pp);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "kernel")), "store.sse.nt");
	assert_int_equal(json_integer_value(json_object_get(j, "points")), 12);
	assert_int_equal(json_integer_value(json_object_get(j, "points_shared")), 9);
	assert_int_equal(json_integer_value(json_object_get(j, "threads")), 2);
	assert_true(json_integer_value(json_object_get(j, "bytes")) == PATH_PROBE_BYTES);
	assert_true(json_real_value(json_object_get(j, "ratio_best")) == 1.9);
	assert_true(json_real_value(json_object_get(j, "shared_below")) == 0.75);
	json_decref(j);
	path_probe_free(&pp);
	assert_null(pp.ratio);
}

/* Two threads time their stores together after one thread's, twice: a ratio per sample, positive, each of
   the latest samples' ratio and returned to the master; the first threaded sample, which first touched the
   slices, taken back. */
static void test_real_samples_by_two_threads(void **state)
{
	struct path_probe pp;
	struct err e;
	double got[2][2]; /* per sample, per thread: what path_probe_sample returned */

	(void)state;
	assert_int_equal(path_probe_init(&pp, 2, tsc_calibrate_hz(20), &e), 0);
	assert_true(pp.one.bytes == PATH_PROBE_BYTES && pp.all.bytes == 2 * PATH_PROBE_BYTES);
	omp_set_dynamic(0);
	for (int k = 0; k < 2; k++) {
#pragma omp parallel num_threads(2)
		got[k][omp_get_thread_num()] = path_probe_sample(&pp, omp_get_thread_num());
	}
	assert_int_equal(pp.n, 2);
	assert_int_equal(pp.one.n, 2);
	assert_int_equal(pp.all.n, 2);
	assert_true(pp.ratio[0] > 0 && pp.ratio[1] > 0);
	assert_true(pp.ratio[1] == pp.all.gbps[1] / pp.one.gbps[1]);
	/* the master (thread 0) gets the ratio it kept, the other thread 0 */
	assert_true(got[0][0] == pp.ratio[0] && got[1][0] == pp.ratio[1]);
	assert_true(got[0][1] == 0 && got[1][1] == 0);
	assert_non_null(pp.all.slice[0]);
	assert_non_null(pp.all.slice[1]);
	assert_non_null(pp.one.buf);
	path_probe_free(&pp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_that_reach_memory),
		cmocka_unit_test(test_figures_of_ratios),
		cmocka_unit_test(test_real_samples_by_two_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
