/* test_ctr_papi_counters.c — the core counters a PAPI perf_event event takes, as the perf backend reckons
 * them: the free general counters (CPUID's, less the NMI watchdog's), where PAPI's num_cntrs adds the fixed
 * ones and keeps the watchdog's; none for a software event or one on a fixed counter. Through libpfm4's
 * "perf" names, which PAPI resolves without a PMU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <linux/perf_event.h>

#include "ctr_int.h"
#include "skip_why.h"

static void resolve(const char *spec, struct ctr_event *ev)
{
	struct err e;

	assert_int_equal(ctr_resolve(spec, ev, &e), 0);
	if (strcmp(ev->pool, "perf_event"))
		skip_why("PAPI resolves %s in component '%s', not perf_event (%s)", spec, ev->pool,
			 ev->reason);
}

static void test_a_software_event_takes_no_counter(void **state)
{
	struct ctr_event ev;

	(void)state;
	resolve("perf::PAGE-FAULTS", &ev);
	assert_int_equal(ev.backend, CTR_PAPI);
	assert_int_equal(ev.uses_counter, 0);
	assert_int_equal(ev.counters, ctr_core_counters_free());
}

static void test_a_hardware_event_takes_a_free_general_counter(void **state)
{
	struct ctr_event ev;

	(void)state;
	resolve("perf::CACHE-MISSES", &ev);
	assert_int_equal(ev.counters, ctr_core_counters_free());
	assert_int_equal(ev.uses_counter, 1);
	resolve("perf::INSTRUCTIONS",
		&ev); /* Intel's fixed counter 0 where it has one; AMD's a general one */
	assert_int_equal(ev.fixed_counter,
			 ctr_on_fixed_counter(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS));
	assert_int_equal(ev.uses_counter, !ev.fixed_counter);
}

/* A preset PAPI derives from two natives (PAPI_TLB_IM adds two ITLB events on AMD) takes two counters. */
static void test_a_derived_preset_takes_a_counter_per_native(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	if (ctr_resolve("PAPI_TLB_IM", &ev, &e) || strcmp(ev.pool, "perf_event"))
		skip_why("PAPI resolves no PAPI_TLB_IM in its perf_event component here (%s)", ev.reason);
	if (!strstr(ev.encoding, "native="))
		assert_int_equal(ev.uses_counter, 2);
	else /* a preset of one native on this CPU */
		assert_true(ev.uses_counter <= 1);
}

/* A software clock goes alone (a clock read in a group of other events comes back stale, as the perf
   backend found), and counts every privilege level whatever PAPI's domain. */
static void test_a_software_clock_has_a_pool_of_its_own(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(ctr_resolve("perf::TASK-CLOCK", &ev, &e), 0);
	if (ev.backend != CTR_PAPI || strncmp(ev.pool, "perf_event", 10))
		skip_why("PAPI resolves perf::TASK-CLOCK in component '%s' (%s)", ev.pool, ev.reason);
	assert_string_equal(ev.pool, "perf_event-clock:perf::TASK-CLOCK");
	assert_int_equal(ev.uses_counter, 0);
	assert_non_null(strstr(ev.encoding, "component=perf_event,domain=user+kernel"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_software_event_takes_no_counter),
		cmocka_unit_test(test_a_hardware_event_takes_a_free_general_counter),
		cmocka_unit_test(test_a_software_clock_has_a_pool_of_its_own),
		cmocka_unit_test(test_a_derived_preset_takes_a_counter_per_native),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
