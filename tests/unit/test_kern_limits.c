/* test_kern_limits.c — what no core can do (kern_impossibly_fast), what one core's L1 ports allow
 * (kern_past_ports), and the ports in words (kern_ports_format). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kern.h"

/* A Zen 1 core (zen1.ini): 32 bytes loaded, 16 stored, 2 loads and 1 store a cycle. */
static const struct kern_ports zen1 = {.load_bytes = 32, .store_bytes = 16, .loads = 2, .stores = 1};

/* Work per cycle at 1 GHz for 1 s: the figures are per cycle as written. */
static int past(double loaded, double stored, double loads, double stores, double threads,
		const struct kern_ports *ports)
{
	const struct kern_work w = {loaded * 1e9, stored * 1e9, loads * 1e9, stores * 1e9};

	return kern_past_ports(&w, 1, 1, threads, ports);
}

/* Past a port by more than KERN_PORTS_MARGIN (2 %), each port against its own work: the Zen 1 guest's L2
   write at 18.4 bytes stored a cycle is past; 16.3 is within the margin, 16.4 is not; a copy of 17 + 17 is
   past the store port though its 34 is within 32 + 16; 30 loaded and 15 stored are each within their own
   though 45 is past the load port alone. */
static void test_each_port_against_its_own_work(void **state)
{
	(void)state;
	assert_true(past(0, 18.4, 0, 0, 1, &zen1));
	assert_false(past(0, 16.3, 0, 0, 1, &zen1));
	assert_true(past(0, 16.4, 0, 0, 1, &zen1));
	assert_true(past(17, 17, 0, 0, 1, &zen1));
	assert_false(past(30, 15, 0, 0, 1, &zen1));
	assert_false(past(32.6, 0, 0, 0, 1, &zen1));
	assert_true(past(33, 0, 0, 0, 1, &zen1));
	/* 3 loads of about 5 bytes a cycle: within the bytes, past the 2 loads; 1.5 stores past the 1 */
	assert_true(past(16, 0, 3, 0, 1, &zen1));
	assert_true(past(0, 12, 0, 1.5, 1, &zen1));
	assert_false(past(32, 16, 2, 1, 1, &zen1)); /* at every limit */
}

/* Two threads have two cores' cycles; a port the config leaves out is not judged; no ports, no clock or no
   time judge nothing. */
static void test_threads_and_what_is_not_given(void **state)
{
	const struct kern_ports loads_only = {.load_bytes = 32};
	const struct kern_work w = {0, 18.4e9, 0, 0};

	(void)state;
	assert_false(past(0, 18.4, 0, 0, 2, &zen1)); /* 9.2 each */
	assert_true(past(0, 36.8, 0, 0, 2, &zen1));
	assert_false(past(0, 18.4, 0, 0, 1, &loads_only));
	assert_false(past(33, 0, 0, 0, 1, NULL));
	assert_false(kern_past_ports(&w, 1, 0, 1, &zen1));
	assert_false(kern_past_ports(&w, 0, 1, 1, &zen1));
}

/* What no core does (kern.h): 256 bytes, 8 loads, 4 stores a cycle, the bytes loaded and stored together. */
static void test_impossible_for_any_core(void **state)
{
	const struct kern_work bytes = {200e9, 100e9, 0, 0}, loads = {0, 0, 9e9, 0}, stores = {0, 0, 0, 5e9};

	(void)state;
	assert_true(kern_impossibly_fast(&bytes, 1, 1, 1));
	assert_false(kern_impossibly_fast(&bytes, 1, 2, 1)); /* 150 a cycle at 2 GHz */
	assert_false(kern_impossibly_fast(&bytes, 1, 1, 2)); /* two cores */
	assert_true(kern_impossibly_fast(&loads, 1, 1, 1));
	assert_true(kern_impossibly_fast(&stores, 1, 1, 1));
	assert_false(kern_impossibly_fast(&bytes, 1, 0, 1)); /* no clock: not judged */
}

/* In words, as info and report.md say them: the ones given, one and several. */
static void test_ports_in_words(void **state)
{
	const struct kern_ports stores_only = {.store_bytes = 64, .stores = 2};
	char buf[160];

	(void)state;
	kern_ports_format(buf, sizeof buf, &zen1);
	assert_string_equal(buf, "32 bytes loaded, 16 bytes stored, 2 loads, 1 store");
	kern_ports_format(buf, sizeof buf, &stores_only);
	assert_string_equal(buf, "64 bytes stored, 2 stores");
	kern_ports_format(buf, sizeof buf, &(struct kern_ports){.load_bytes = 1, .loads = 1.5});
	assert_string_equal(buf, "1 byte loaded, 1.5 loads");
	kern_ports_format(buf, sizeof buf, &(struct kern_ports){0});
	assert_string_equal(buf, "");
	kern_ports_format(buf, sizeof buf, NULL);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_port_against_its_own_work),
		cmocka_unit_test(test_threads_and_what_is_not_given),
		cmocka_unit_test(test_impossible_for_any_core),
		cmocka_unit_test(test_ports_in_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
