/* test_tsc.c — the TSC rate from its calibration intervals (made-up ticks and times, no hardware). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tsc.h"

/* Two intervals agree and one was stretched: their rate, not the stretched one's. A median of three
   that compared with <= picked the third value whenever the first two were equal and above it. */
static void test_two_equal_rates_above_the_third_are_the_median(void **state)
{
	const uint64_t ticks[TSC_SAMPLES] = {30000000, 30000000, 20000000};
	const double ns[TSC_SAMPLES] = {1e7, 1e7, 1e7};

	(void)state;
	assert_float_equal(tsc_hz_of(ticks, ns), 3e9, 1);
}

static void test_the_middle_rate_whatever_the_order(void **state)
{
	const uint64_t ticks[TSC_SAMPLES] = {29000000, 35000000, 30000000};
	const double ns[TSC_SAMPLES] = {1e7, 1e7, 1e7};

	(void)state;
	assert_float_equal(tsc_hz_of(ticks, ns), 3e9, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_equal_rates_above_the_third_are_the_median),
		cmocka_unit_test(test_the_middle_rate_whatever_the_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
