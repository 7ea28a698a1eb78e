/* test_run_record.c — what a point keeps of its repetitions: the clock median and the noise measure. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run_record.h"
#include "stats.h"

/* Five repetitions of two groups; group 1's clocks must not count, nor a failed sample (0). */
static void test_point_clock_is_median_of_group_0_samples(void **state)
{
	struct point_record r;
	const double g0[5] = {4.1, 0, 4.4, 3.9, 4.2}, g1[5] = {9, 9, 9, 9, 9};

	(void)state;
	assert_int_equal(record_init(&r, 5, 2), 0);
	for (int i = 0; i < 5; i++) {
		record_pass(&r, i, 0)->ghz = g0[i];
		record_pass(&r, i, 1)->ghz = g1[i];
	}
	assert_true(fabs(record_ghz(&r) - 4.15) < 1e-12); /* median of 3.9 4.1 4.2 4.4 */
	for (int i = 0; i < 5; i++)
		record_pass(&r, i, 0)->ghz = 0;
	assert_true(record_ghz(&r) == 0);
	record_free(&r);
}

static void test_cv_of_repetition_times(void **state)
{
	struct point_record r;
	const int64_t ticks[4] = {100, 100, 100, 100};

	(void)state;
	assert_int_equal(record_init(&r, 4, 1), 0);
	for (int i = 0; i < 4; i++)
		record_pass(&r, i, 0)->ticks = ticks[i];
	assert_true(record_cv(&r) == 0);
	record_pass(&r, 3, 0)->ticks = 140; /* mean 110, sample sd 20 */
	assert_true(fabs(record_cv(&r) - 20.0 / 110) < 1e-12);
	record_free(&r);
}

static void test_median_odd_even_empty(void **state)
{
	double odd[3] = {3, 1, 2}, even[4] = {4, 1, 3, 2};

	(void)state;
	assert_true(stats_median(odd, 3) == 2);
	assert_true(stats_median(even, 4) == 2.5);
	assert_true(odd[0] == 1 && odd[2] == 3); /* sorted in place */
	assert_true(stats_median(NULL, 0) == 0);
}

/* Failed clock samples (0) are left out of the mean; none left gives 0. */
static void test_mean_of_positive_samples(void **state)
{
	const double v[4] = {4.0, 0, 4.4, 0}, none[2] = {0, 0};

	(void)state;
	assert_true(fabs(stats_mean_positive(v, 4) - 4.2) < 1e-12);
	assert_true(stats_mean_positive(v, 1) == 4.0);
	assert_true(stats_mean_positive(none, 2) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_point_clock_is_median_of_group_0_samples),
		cmocka_unit_test(test_cv_of_repetition_times),
		cmocka_unit_test(test_median_odd_even_empty),
		cmocka_unit_test(test_mean_of_positive_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
