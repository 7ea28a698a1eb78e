/* test_noisy_why.c — the sentence that counts why points stayed noisy (common/noisy_why.h), as the run's
 * summary and the report print it: every reason with its count in the header's order, the reasons no
 * point had left out, points without any reason (a raw.csv from before the column) counted apart, and a
 * buffer too short for it cut, never overrun. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "noisy_why.h"

static void test_each_reason_counted_in_order_and_absent_ones_left_out(void **state)
{
	unsigned counts[NW_COUNT] = {0};
	char buf[512];

	(void)state;
	noisy_why_count(counts, 1u << NW_LEVEL | 1u << NW_AT_BUDGET);
	noisy_why_count(counts, 1u << NW_AT_BUDGET);
	noisy_why_count(counts, 1u << NW_APART);
	noisy_why_count(counts, 0); /* a clean point */
	assert_int_equal(counts[NW_AT_BUDGET], 2);
	assert_int_equal(counts[NW_AT_REPS], 0);
	assert_int_equal(counts[NW_TOO_FAST], 0);
	noisy_why_format(buf, sizeof buf, counts, 0);
	assert_string_equal(
		buf,
		"2 not confirmed within their share of the time budget, 1 whose threads never ran "
		"together, 1 that the last cache level did not hold");
}

static void test_points_without_a_reason_are_counted_apart(void **state)
{
	unsigned counts[NW_COUNT] = {0};
	char buf[512];

	(void)state;
	noisy_why_format(buf, sizeof buf, counts, 5);
	assert_string_equal(buf, "5 without a reason (a raw.csv from before its noisy_why column)");
	noisy_why_count(counts, 1u << NW_TOO_FAST);
	noisy_why_format(buf, sizeof buf, counts, 2);
	assert_string_equal(buf,
			    "1 faster than any core, 2 without a reason (a raw.csv from before its noisy_why "
			    "column)");
	counts[NW_TOO_FAST] = 0;
	noisy_why_format(buf, sizeof buf, counts, 0);
	assert_string_equal(buf, "");
}

static void test_a_short_buffer_is_cut_not_overrun(void **state)
{
	unsigned counts[NW_COUNT] = {3, 3, 3, 3, 3, 3};
	char buf[40];

	(void)state;
	memset(buf, 'x', sizeof buf);
	noisy_why_format(buf, 24, counts, 7);
	assert_int_equal(strlen(buf), 23);
	assert_int_equal(buf[24], 'x');
}

/* The column's words are those the reader parses; one per reason, none empty or with the separator. */
static void test_every_reason_has_a_word(void **state)
{
	(void)state;
	for (int w = 0; w < NW_COUNT; w++) {
		assert_non_null(noisy_why_names[w]);
		assert_true(*noisy_why_names[w]);
		assert_null(strpbrk(noisy_why_names[w], ";, "));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_reason_counted_in_order_and_absent_ones_left_out),
		cmocka_unit_test(test_points_without_a_reason_are_counted_apart),
		cmocka_unit_test(test_a_short_buffer_is_cut_not_overrun),
		cmocka_unit_test(test_every_reason_has_a_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
