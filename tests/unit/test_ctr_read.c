/* test_ctr_read.c — readings: a multiplexed or never-scheduled one is marked and cannot pass as ok. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ctr_int.h"

static void test_equal_times_are_ok(void **state)
{
	struct ctr_reading r = {.count = 1234, .time_enabled = 5000, .time_running = 5000};

	(void)state;
	ctr_classify(&r);
	assert_int_equal(r.status, CTR_OK);
	assert_string_equal(r.reason, "");
}

static void test_running_less_than_enabled_is_multiplexed(void **state)
{
	struct ctr_reading r = {.count = 1234, .time_enabled = 5000, .time_running = 4999};

	(void)state;
	ctr_classify(&r);
	assert_int_equal(r.status, CTR_MULTIPLEXED);
	assert_non_null(strstr(r.reason, "4999 of 5000"));
	assert_string_equal(ctr_status_name(r.status), "multiplexed");
}

static void test_never_running_is_failed(void **state)
{
	struct ctr_reading r = {.count = 0, .time_enabled = 5000, .time_running = 0};

	(void)state;
	ctr_classify(&r);
	assert_int_equal(r.status, CTR_FAILED);
}

/* What read() on a group leader returns when the kernel rotated the group: every event is marked. */
static void test_forced_multiplexed_group_read_marks_every_event(void **state)
{
	const uint64_t buf[] = {3, 1000000, 250000, 11, 22, 33};
	struct ctr_reading r[3];

	(void)state;
	ctr_perf_parse_group_read(buf, sizeof buf, 3, r);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(r[i].status, CTR_MULTIPLEXED);
		assert_int_equal(r[i].count, 11 * (i + 1)); /* raw, never extrapolated */
		assert_int_equal(r[i].time_running, 250000);
	}
}

static void test_group_read_in_order_is_ok(void **state)
{
	const uint64_t buf[] = {2, 777, 777, 5, 9};
	struct ctr_reading r[2];

	(void)state;
	ctr_perf_parse_group_read(buf, sizeof buf, 2, r);
	assert_int_equal(r[0].status, CTR_OK);
	assert_int_equal(r[0].count, 5);
	assert_int_equal(r[1].count, 9);
	assert_int_equal(r[1].time_enabled, 777);
}

/* A pinned group the PMU could not schedule reads as end of file. */
static void test_empty_or_short_group_read_is_failed(void **state)
{
	const uint64_t buf[] = {2, 777, 777, 5};
	struct ctr_reading r[2];

	(void)state;
	ctr_perf_parse_group_read(buf, 0, 2, r);
	assert_int_equal(r[0].status, CTR_FAILED);
	assert_non_null(strstr(r[1].reason, "pinned group"));
	ctr_perf_parse_group_read(buf, sizeof buf, 2, r);
	assert_int_equal(r[1].status, CTR_FAILED);
	assert_non_null(strstr(r[1].reason, "short"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_times_are_ok),
		cmocka_unit_test(test_running_less_than_enabled_is_multiplexed),
		cmocka_unit_test(test_never_running_is_failed),
		cmocka_unit_test(test_forced_multiplexed_group_read_marks_every_event),
		cmocka_unit_test(test_group_read_in_order_is_ok),
		cmocka_unit_test(test_empty_or_short_group_read_is_failed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
