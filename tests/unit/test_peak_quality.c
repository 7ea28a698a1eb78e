/* test_peak_quality.c — a peaks.csv row's quality (analysis/peak.h peak_quality): the words on the paths to
 * memory of the all-thread figure's point (harness path_probe.h) come last, after the other marks, and
 * only where the path probe was timed before that point; the names of its levels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "peak.h"

static void test_paths_of_the_all_thread_figure(void **state)
{
	char q[PEAK_QUALITY_MAX];
	struct peak pk = {.present = 1, .points = 4, .threads_all = 2};

	(void)state;
	peak_quality(&pk, q, sizeof q);
	assert_string_equal(q, "ok"); /* no probe before its point: no words */
	pk.paths_all = 0.98;
	pk.paths_shared = 1;
	peak_quality(&pk, q, sizeof q);
	assert_string_equal(q, "ok; 2 threads' stores shared paths to memory (0.98x one thread's)");
	pk.paths_all = 1.93;
	pk.paths_shared = 0;
	pk.r_call = 2;
	pk.noisy = 1;
	peak_quality(&pk, q, sizeof q);
	assert_string_equal(q,
			    "ok (1 of 4 points disturbed, slower than the figure); 2 of 4 at their R call; 2 "
			    "threads' stores had paths of their own (1.93x one thread's)");
	/* a buffer too short for the words keeps what fits, ended */
	peak_quality(&pk, q, 60);
	assert_int_equal(strlen(q), 59);
}

/* A noisy row says which of its figures is a noisy point's. */
static void test_noisy_says_which_figure(void **state)
{
	char q[PEAK_QUALITY_MAX];
	struct peak pk = {.present = 1, .points = 4, .noisy = 1, .threads_all = 2, .from_all = 1};

	(void)state;
	peak_quality(&pk, q, sizeof q);
	assert_string_equal(q, "noisy (all-cores figure; 1 of 4 points disturbed)");
	pk.from_one = 1;
	peak_quality(&pk, q, sizeof q);
	assert_string_equal(q, "noisy (both figures; 1 of 4 points disturbed)");
	pk.from_all = 0;
	peak_quality(&pk, q, sizeof q);
	assert_string_equal(q, "noisy (1-core figure; 1 of 4 points disturbed)");
}

/* peaks.csv's levels: DRAM of a placement neither local nor remote is named by it (peak_group_name), and
   merge takes those names, no other. */
static void test_dram_rows_named_by_placement(void **state)
{
	char buf[PEAK_NAME_MAX];
	struct peak_group node = {.level = LV_DRAM_OTHER, .placement = "node:1"},
			  remote = {.level = LV_DRAM_REMOTE};

	(void)state;
	assert_string_equal(peak_group_name(&node, buf, sizeof buf), "DRAM node:1");
	assert_string_equal(peak_group_name(&remote, buf, sizeof buf), "remote DRAM");
	assert_true(peak_level_known("DRAM node:1") && peak_level_known("DRAM interleave"));
	assert_true(peak_level_known("L1") && peak_level_known("DRAM") && peak_level_known("remote DRAM"));
	assert_false(peak_level_known("other DRAM") || peak_level_known("any") ||
		     peak_level_known("DRAM node:"));
	assert_false(peak_level_known("DRAM node:1x") || peak_level_known("DRAM local"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths_of_the_all_thread_figure),
		cmocka_unit_test(test_dram_rows_named_by_placement),
		cmocka_unit_test(test_noisy_says_which_figure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
