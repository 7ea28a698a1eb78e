/* test_run_record.c — what a point keeps of its repetitions: the time and clock medians and the noise
 * measure. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run_record.h"

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

/* The point's time is the median of its positive differenced times, the mean of the middle two for an
   even count (what the analysis takes of raw.csv): the upper middle alone gave 130 here. */
static void test_point_time_is_median_of_positive_repetitions(void **state)
{
	struct point_record r;
	const int64_t ticks[6] = {120, -40, 100, 0, 130, 110};

	(void)state;
	assert_int_equal(record_init(&r, 6, 1), 0);
	for (int i = 0; i < 6; i++)
		record_pass(&r, i, 0)->ticks = ticks[i];
	assert_true(fabs(record_seconds(&r, 10.0) - 11.5) < 1e-12); /* 100 110 | 120 130, over 10 Hz */
	for (int i = 0; i < 6; i++)
		record_pass(&r, i, 0)->ticks = -1;
	assert_true(record_seconds(&r, 10.0) == 0);
	record_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_point_clock_is_median_of_group_0_samples),
		cmocka_unit_test(test_cv_of_repetition_times),
		cmocka_unit_test(test_point_time_is_median_of_positive_repetitions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
