/* test_ctr_group.c — the plan of event groups: sized to the counters, never multiplexed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ctr.h"
#include "ctr_fixture.h"

static struct ctr_event make(const char *spec, enum ctr_backend b, const char *pool, unsigned counters)
{
	struct ctr_event ev;

	memset(&ev, 0, sizeof ev);
	snprintf(ev.spec, sizeof ev.spec, "%s", spec);
	snprintf(ev.encoding, sizeof ev.encoding, "enc:%s", spec);
	snprintf(ev.pool, sizeof ev.pool, "%s", pool);
	ev.backend = b;
	ev.counters = counters;
	ev.uses_counter = counters > 0;
	ev.status = CTR_OK;
	return ev;
}

static void fill(struct ctr_event *evs, unsigned n, const char *pool, unsigned counters)
{
	char name[32];

	for (unsigned i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s-%u", pool, i);
		evs[i] = make(name, CTR_PERF, pool, counters);
	}
}

static void test_ten_events_on_four_counters_make_groups_of_4_4_2_in_order(void **state)
{
	struct ctr_event evs[10];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 10, "cpu", 4);
	assert_int_equal(ctr_plan_groups(evs, 10, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 3);
	assert_int_equal(plan->groups[0].n, 4);
	assert_int_equal(plan->groups[1].n, 4);
	assert_int_equal(plan->groups[2].n, 2);
	for (unsigned k = 0, i = 0; k < plan->ngroups; k++)
		for (unsigned j = 0; j < plan->groups[k].n; j++)
			assert_ptr_equal(plan->groups[k].ev[j], &evs[i++]);
}

/* Intel: instructions and cycles sit on fixed counters and cost no general one. */
static void test_fixed_events_join_every_group_of_their_pool(void **state)
{
	struct ctr_event evs[6], fixed[2];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 5, "cpu", 4);
	evs[5] = make("page-faults", CTR_PERF, "software", 0);
	fixed[0] = make("instructions", CTR_PERF, "cpu", 4);
	fixed[1] = make("cycles", CTR_PERF, "cpu", 4);
	fixed[0].uses_counter = fixed[1].uses_counter = false;
	fixed[0].fixed = fixed[1].fixed = true;
	assert_int_equal(ctr_plan_groups(evs, 6, fixed, 2, plan, &e), 0);
	assert_int_equal(plan->ngroups, 3);
	assert_int_equal(plan->groups[0].n, 4 + 2);
	assert_int_equal(plan->groups[1].n, 1 + 2);
	assert_ptr_equal(plan->groups[1].ev[1], &fixed[0]);
	assert_ptr_equal(plan->groups[1].ev[2], &fixed[1]);
	assert_string_equal(plan->groups[2].pool, "software");
	assert_int_equal(plan->groups[2].n, 1); /* no fixed events in a software group */
}

/* AMD: cycles and instructions take general counters, so 6 counters leave 4 per group. */
static void test_fixed_events_on_general_counters_are_reserved(void **state)
{
	struct ctr_event evs[8], fixed[2];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 8, "cpu", 6);
	fixed[0] = make("cycles", CTR_PERF, "cpu", 6);
	fixed[1] = make("instructions", CTR_PERF, "cpu", 6);
	assert_int_equal(ctr_plan_groups(evs, 8, fixed, 2, plan, &e), 0);
	assert_int_equal(plan->ngroups, 2);
	assert_int_equal(plan->groups[0].n, 6);
	assert_int_equal(plan->groups[1].n, 6);
}

static void test_a_fixed_event_listed_by_the_user_is_not_added_twice(void **state)
{
	struct ctr_event evs[2], fixed[1];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 2, "cpu", 4);
	fixed[0] = make("cycles", CTR_PERF, "cpu", 4);
	evs[1] = fixed[0];
	assert_int_equal(ctr_plan_groups(evs, 2, fixed, 1, plan, &e), 0);
	assert_int_equal(plan->ngroups, 1);
	assert_int_equal(plan->groups[0].n, 2);
}

static void test_events_sharing_a_filter_register_are_split(void **state)
{
	struct ctr_event evs[5];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 5, "cpu", 8);
	strcpy(evs[0].conflict, "offcore_rsp");
	strcpy(evs[1].conflict, "offcore_rsp");
	strcpy(evs[2].conflict, "offcore_rsp");
	assert_int_equal(ctr_plan_groups(evs, 5, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 3);
	assert_int_equal(plan->groups[0].n, 3); /* evs 0, 3, 4 */
	assert_ptr_equal(plan->groups[0].ev[1], &evs[3]);
	assert_int_equal(plan->groups[1].n, 1);
	assert_int_equal(plan->groups[2].n, 1);
}

/* The boxes of one expanded wildcard in one pool (PAPI's uncore component) share a config tag only per
   box: one group for all boxes, and two events of the same box still apart. */
static void test_box_scoped_tags_split_only_within_a_box(void **state)
{
	struct ctr_event evs[4];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 4, "perf_event_uncore", 8);
	strcpy(evs[0].conflict, "cha_filter@skx_unc_cha0");
	strcpy(evs[1].conflict, "cha_filter@skx_unc_cha1");
	strcpy(evs[2].conflict, "cha_filter@skx_unc_cha2");
	strcpy(evs[3].conflict, "cha_filter@skx_unc_cha0");
	assert_int_equal(ctr_plan_groups(evs, 4, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 2);
	assert_int_equal(plan->groups[0].n, 3);
	assert_ptr_equal(plan->groups[1].ev[0], &evs[3]);
}

static void test_backends_scopes_and_pools_never_mix(void **state)
{
	struct ctr_event evs[5];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	evs[0] = make("cpu/event=1/", CTR_PERF, "cpu", 4);
	evs[1] = make("uncore_imc_0/event=4/", CTR_PERF, "uncore_imc_0", 4);
	evs[1].scope = CTR_SCOPE_SOCKET;
	evs[2] = make("L1D:REPLACEMENT", CTR_PAPI, "perf_event", 4);
	evs[3] = make("sde:::x::y", CTR_PAPI, "sde", 40);
	evs[4] = make("cpu/event=2/", CTR_PERF, "cpu", 4);
	assert_int_equal(ctr_plan_groups(evs, 5, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 4);
	assert_int_equal(plan->groups[0].n, 2);
	assert_int_equal(plan->groups[1].scope, CTR_SCOPE_SOCKET);
	assert_int_equal(plan->groups[2].backend, CTR_PAPI);
	assert_string_equal(plan->groups[3].pool, "sde");
}

static void test_software_events_are_limited_only_by_group_size(void **state)
{
	struct ctr_event evs[20];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 20, "software", 0);
	assert_int_equal(ctr_plan_groups(evs, 20, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 2);
	assert_int_equal(plan->groups[0].n, CTR_GROUP_MAX);
	assert_int_equal(plan->groups[1].n, 20 - CTR_GROUP_MAX);
}

static void test_events_not_countable_here_are_left_out(void **state)
{
	struct ctr_event evs[3];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 3, "cpu", 4);
	evs[1].status = CTR_NOT_MEASURED;
	assert_int_equal(ctr_plan_groups(evs, 3, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 1);
	assert_int_equal(plan->groups[0].n, 2);
	assert_ptr_equal(plan->groups[0].ev[1], &evs[2]);
}

static void test_fixed_events_taking_every_counter_is_an_error(void **state)
{
	struct ctr_event evs[1], fixed[2];
	struct ctr_plan plan;
	struct err e = {""};

	(void)state;
	fill(evs, 1, "cpu", 2);
	fixed[0] = make("cycles", CTR_PERF, "cpu", 2);
	fixed[1] = make("instructions", CTR_PERF, "cpu", 2);
	assert_int_equal(ctr_plan_groups(evs, 1, fixed, 2, &plan, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "cpu-0"));
}

/* A PAPI preset derived from two natives (PAPI_TLB_IM: two counters) takes two: on 5 free counters with
   cycles and instructions on general ones (AMD, NMI watchdog on), the derived one leaves room for one plain
   event beside the fixed two (three would have taken 6 of 5), and the next group holds three. */
static void test_a_derived_event_takes_a_counter_per_native(void **state)
{
	struct ctr_event evs[5], fixed[2];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 5, "perf_event", 5);
	evs[0].uses_counter = 2;
	fixed[0] = make("PAPI_TOT_CYC", CTR_PERF, "perf_event", 5);
	fixed[1] = make("PAPI_TOT_INS", CTR_PERF, "perf_event", 5);
	fixed[0].fixed = fixed[1].fixed = true;
	assert_int_equal(ctr_plan_groups(evs, 5, fixed, 2, plan, &e), 0);
	assert_int_equal(plan->ngroups, 2);
	assert_int_equal(plan->groups[0].n, 2 + 2);
	assert_ptr_equal(plan->groups[0].ev[1], &evs[1]);
	assert_int_equal(plan->groups[1].n, 3 + 2);
	assert_ptr_equal(plan->groups[1].ev[0], &evs[2]);
}

/* A derived event whose natives and the fixed events' need more than the pool has is refused, naming both. */
static void test_a_derived_event_past_the_counters_is_an_error(void **state)
{
	struct ctr_event evs[1], fixed[2];
	struct ctr_plan plan;
	struct err e = {""};

	(void)state;
	fill(evs, 1, "perf_event", 3);
	evs[0].uses_counter = 2;
	fixed[0] = make("PAPI_TOT_CYC", CTR_PERF, "perf_event", 3);
	fixed[1] = make("PAPI_TOT_INS", CTR_PERF, "perf_event", 3);
	assert_int_equal(ctr_plan_groups(evs, 1, fixed, 2, &plan, &e), E_RUNTIME);
	assert_non_null(strstr(
		e.msg, "the fixed events take 2 of the 3 counters of pool 'perf_event', and it needs 2"));
}

/* The fourth event fails after three groups were made: the caller gets an empty plan and nothing to
   free (the sanitizer pass reports the groups as a leak otherwise). The plan stays out of the fixture,
   whose teardown would free it. */
static void test_a_failure_midway_frees_the_groups_made_so_far(void **state)
{
	struct ctr_event evs[4], fixed[1];
	struct ctr_plan plan;
	struct err e = {""};

	(void)state;
	evs[0] = make("cpu/event=1/", CTR_PERF, "cpu", 4);
	evs[1] = make("page-faults", CTR_PERF, "software", 0);
	evs[2] = make("L1D:REPLACEMENT", CTR_PAPI, "perf_event", 4);
	evs[3] = make("amd_df/event=1/", CTR_PERF, "amd_df", 1);
	fixed[0] = make("df-cycles", CTR_PERF, "amd_df", 1);
	assert_int_equal(ctr_plan_groups(evs, 4, fixed, 1, &plan, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "amd_df/event=1/"));
	assert_null(plan.groups);
	assert_int_equal(plan.ngroups, 0);
}

/* Intel's "Counter" field: two events that only counter 2 takes never share a group; an any-counter
   event fills in beside one of them, and a 0-3 event may move to make room (a matching, not first fit:
   first fit would have put the 0-3 event on counter 2 and refused the 2-only one). */
static void test_counter_masks_are_honoured_by_a_matching(void **state)
{
	struct ctr_event evs[4];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	fill(evs, 4, "cpu", 4);
	evs[0].counter_mask = 0x4; /* 2 */
	evs[1].counter_mask = 0x4; /* 2 */
	evs[2].counter_mask = 0xf; /* 0-3 */
	evs[3].counter_mask = 0x5; /* 0, 2 */
	assert_int_equal(ctr_plan_groups(evs, 4, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 2);
	assert_int_equal(plan->groups[0].n, 3); /* 2-only, 0-3, {0,2} on counters 2, 1 or 3, 0 */
	assert_ptr_equal(plan->groups[0].ev[0], &evs[0]);
	assert_ptr_equal(plan->groups[0].ev[1], &evs[2]);
	assert_ptr_equal(plan->groups[0].ev[2], &evs[3]);
	assert_int_equal(plan->groups[1].n, 1);
	assert_ptr_equal(plan->groups[1].ev[0], &evs[1]);
}

static void test_a_mask_outside_the_counters_is_an_error(void **state)
{
	struct ctr_event ev;
	struct ctr_plan plan;
	struct err e;

	(void)state;
	fill(&ev, 1, "cpu", 4);
	ev.counter_mask = 0x30; /* counters 4 and 5 of a PMU with 4 */
	assert_int_equal(ctr_plan_groups(&ev, 1, NULL, 0, &plan, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "mask 0x30"));
}

/* An event on an Intel fixed counter as ctr_resolve makes one (instructions: 1, cycles: 2, ref-cycles: 3). */
static struct ctr_event on_fixed(const char *spec, const char *pool, unsigned counters,
				 unsigned fixed_counter)
{
	struct ctr_event ev = make(spec, CTR_PAPI, pool, counters);

	ev.fixed_counter = fixed_counter;
	ev.uses_counter = 0;
	return ev;
}

/* perf::INSTRUCTIONS listed beside the PAPI_TOT_INS every group gets: both are instructions retired, the
   kernel gives fixed counter 0 to one and a general counter to the other, so on 4 general counters the alias
   leaves room for 3 events, not 4 (a group of 4 + the alias would not have scheduled, and failed pinned). */
static void test_two_events_for_one_fixed_counter_take_a_general_one(void **state)
{
	struct ctr_event evs[5], fixed[2];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	evs[0] = on_fixed("perf::INSTRUCTIONS", "perf_event", 4, 1);
	fill(evs + 1, 4, "perf_event", 4);
	for (unsigned i = 1; i < 5; i++)
		evs[i].backend = CTR_PAPI;
	fixed[0] = on_fixed("PAPI_TOT_INS", "perf_event", 4, 1);
	fixed[1] = on_fixed("PAPI_TOT_CYC", "perf_event", 4, 2);
	fixed[0].fixed = fixed[1].fixed = true;
	assert_int_equal(ctr_plan_groups(evs, 5, fixed, 2, plan, &e), 0);
	assert_int_equal(plan->ngroups, 2);
	assert_int_equal(plan->groups[0].n, 1 + 3 + 2);
	assert_ptr_equal(plan->groups[0].ev[0], &evs[0]);
	assert_int_equal(plan->groups[1].n, 1 + 2);
	assert_ptr_equal(plan->groups[1].ev[0], &evs[4]);
}

/* Two aliases of core cycles among the user's events, no fixed events: the second takes the one general
   counter, so a plain event no longer fits beside them. */
static void test_a_second_alias_takes_the_counter_a_plain_event_would(void **state)
{
	struct ctr_event evs[4];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	evs[0] = on_fixed("perf::CYCLES", "perf_event", 1, 2);
	evs[1] = on_fixed("perf::CPU-CYCLES", "perf_event", 1, 2);
	fill(evs + 2, 2, "perf_event", 1);
	evs[2].backend = evs[3].backend = CTR_PAPI;
	assert_int_equal(ctr_plan_groups(evs, 4, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 3);
	assert_int_equal(plan->groups[0].n, 2); /* both aliases: fixed counter 1 and the general counter */
	assert_int_equal(plan->groups[1].n, 1);
	assert_int_equal(plan->groups[2].n, 1);
}

/* Reference cycles go on fixed counter 2 only (the kernel extends no pseudo-encoding to general counters):
   two aliases never share a group, and a group holding one has it in place of the PAPI_REF_CYC it would
   get (the two would not schedule together); instructions still join. */
static void test_reference_cycles_twice_never_share_a_group(void **state)
{
	struct ctr_event evs[3], fixed[1];
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct err e;

	evs[0] = on_fixed("perf::REF-CYCLES", "perf_event", 4, 3);
	evs[1] = on_fixed("perf::PERF_COUNT_HW_REF_CPU_CYCLES", "perf_event", 4, 3);
	evs[2] = on_fixed("perf::INSTRUCTIONS", "perf_event", 4, 1);
	fixed[0] = on_fixed("PAPI_REF_CYC", "perf_event", 4, 3);
	fixed[0].fixed = true;
	assert_int_equal(ctr_plan_groups(evs, 3, fixed, 1, plan, &e), 0);
	assert_int_equal(plan->ngroups, 2);
	assert_int_equal(plan->groups[0].n, 2); /* perf::REF-CYCLES, perf::INSTRUCTIONS */
	assert_ptr_equal(plan->groups[0].ev[1], &evs[2]);
	assert_int_equal(plan->groups[1].n, 1);
	assert_ptr_equal(plan->groups[1].ev[0], &evs[1]);
}

/* The pre-check names an alias that needs the one general counter the fixed events left. */
static void test_an_alias_past_the_counters_is_an_error(void **state)
{
	struct ctr_event evs[1], fixed[2];
	struct ctr_plan plan;
	struct err e = {""};

	(void)state;
	evs[0] = on_fixed("perf::INSTRUCTIONS", "perf_event", 1, 1);
	fixed[0] = on_fixed("PAPI_TOT_INS", "perf_event", 1, 1);
	fixed[1] = make("PAPI_L1_DCM", CTR_PAPI, "perf_event", 1); /* a fixed event on a general counter */
	assert_int_equal(ctr_plan_groups(evs, 1, fixed, 2, &plan, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg,
			       "the fixed events take 1 of the 1 counters of pool 'perf_event', and it "
			       "needs 1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CTR_FIXTURE_TEST(test_ten_events_on_four_counters_make_groups_of_4_4_2_in_order),
		CTR_FIXTURE_TEST(test_fixed_events_join_every_group_of_their_pool),
		CTR_FIXTURE_TEST(test_fixed_events_on_general_counters_are_reserved),
		CTR_FIXTURE_TEST(test_a_fixed_event_listed_by_the_user_is_not_added_twice),
		CTR_FIXTURE_TEST(test_events_sharing_a_filter_register_are_split),
		CTR_FIXTURE_TEST(test_box_scoped_tags_split_only_within_a_box),
		CTR_FIXTURE_TEST(test_backends_scopes_and_pools_never_mix),
		CTR_FIXTURE_TEST(test_software_events_are_limited_only_by_group_size),
		CTR_FIXTURE_TEST(test_events_not_countable_here_are_left_out),
		CTR_FIXTURE_TEST(test_counter_masks_are_honoured_by_a_matching),
		CTR_FIXTURE_TEST(test_a_derived_event_takes_a_counter_per_native),
		cmocka_unit_test(test_a_derived_event_past_the_counters_is_an_error),
		cmocka_unit_test(test_a_mask_outside_the_counters_is_an_error),
		cmocka_unit_test(test_fixed_events_taking_every_counter_is_an_error),
		cmocka_unit_test(test_a_failure_midway_frees_the_groups_made_so_far),
		CTR_FIXTURE_TEST(test_two_events_for_one_fixed_counter_take_a_general_one),
		CTR_FIXTURE_TEST(test_a_second_alias_takes_the_counter_a_plain_event_would),
		CTR_FIXTURE_TEST(test_reference_cycles_twice_never_share_a_group),
		cmocka_unit_test(test_an_alias_past_the_counters_is_an_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
