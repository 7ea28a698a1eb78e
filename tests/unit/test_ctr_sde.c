/* test_ctr_sde.c — PAPI's real API end to end, on any machine, through software-defined events.
 *
 * tests/sde/ registers counters with libsde (one exact, one counting half, one double, ...); linking it
 * enables PAPI's SDE component in this binary (mk/sde.mk). The events go the way a run's events go:
 * ctr_resolve -> ctr_plan_groups -> ctr_open -> ctr_start / loop / ctr_stop / ctr_read -> ctr_close,
 * and each count is differenced over n and 2n iterations as the run loop does.
 */
#include <omp.h>
#include <papi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ctr.h"
#include "ctr_fixture.h"
#include "sde/sdetest.h"
#include "skip_why.h"

#define SDE(name) "sde:::" SDETEST_LIB "::" name

static int setup(void **state)
{
	(void)state;
	sdetest_register();
	return 0;
}

/* Runs the group over n and 2n loop iterations; diff[i] = count(2n) - count(n) for each event. */
static void measure(struct ctr_fixture *f, const struct ctr_group *g, uint64_t n, long long *diff)
{
	struct ctr_reading r1[CTR_GROUP_MAX], r2[CTR_GROUP_MAX];
	struct ctr_set *s;
	struct err e;

	assert_int_equal(ctr_open(g, -1, &f->set[0], &e), 0);
	s = f->set[0];
	assert_int_equal(ctr_start(s, &e), 0);
	sdetest_loop(n);
	assert_int_equal(ctr_stop(s, &e), 0);
	assert_int_equal(ctr_read(s, r1, &e), 0);
	assert_int_equal(ctr_start(s, &e), 0);
	sdetest_loop(2 * n);
	assert_int_equal(ctr_stop(s, &e), 0);
	assert_int_equal(ctr_read(s, r2, &e), 0);
	for (unsigned i = 0; i < g->n; i++) {
		assert_int_equal(r2[i].status, CTR_OK);
		diff[i] = (long long)(r2[i].count - r1[i].count);
	}
	ctr_close(s);
	f->set[0] = NULL;
}

static void test_sde_component_is_enabled_by_linking_libsde(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(ctr_resolve(SDE("EXACT"), &ev, &e), 0);
	assert_int_equal(ev.backend, CTR_PAPI);
	assert_int_equal(ev.status, CTR_OK);
	assert_string_equal(ev.pool, "sde");
	assert_non_null(strstr(ev.encoding, "component=sde"));
}

static void test_exact_counter_matches_and_wrong_ones_do_not(void **state)
{
	const char *specs[] = {SDE("EXACT"), SDE("HALF"), SDE("DOUBLE")};
	const uint64_t n = 100000;
	struct ctr_fixture *f = *state;
	struct ctr_event evs[3];
	long long d[3];
	struct err e;

	assert_int_equal(ctr_resolve_list(specs, 3, evs, &e), 0);
	assert_int_equal(ctr_plan_groups(evs, 3, NULL, 0, &f->plan, &e), 0);
	assert_int_equal(f->plan.ngroups, 1);
	measure(f, &f->plan.groups[0], n, d);
	assert_int_equal(d[0], n);     /* exact: one per iteration */
	assert_int_equal(d[1], n / 2); /* undercounts by half */
	assert_int_equal(d[2], 2 * n); /* overcounts twice */
}

/* SDE has 40 "counters" per set; a test-only limit of 2 must give groups of 2, 2, 1 that each count
   right when the kernel is re-run per group. CALLS is the same for n and 2n iterations: the constant
   per call that differencing cancels, so its difference is 0. */
static void test_more_events_than_counters_are_split_and_each_group_counts(void **state)
{
	const char *specs[] = {SDE("EXACT"), SDE("HALF"), SDE("DOUBLE"), SDE("BYTES"), SDE("CALLS")};
	const long long n = 4096, want[] = {n, n / 2, 2 * n, 8 * n, 0};
	struct ctr_fixture *f = *state;
	struct ctr_plan *plan = &f->plan;
	struct ctr_event evs[5];
	struct err e;
	unsigned seen = 0;

	assert_int_equal(ctr_resolve_list(specs, 5, evs, &e), 0);
	for (int i = 0; i < 5; i++)
		evs[i].counters = 2;
	assert_int_equal(ctr_plan_groups(evs, 5, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 3);
	assert_int_equal(plan->groups[0].n, 2);
	assert_int_equal(plan->groups[1].n, 2);
	assert_int_equal(plan->groups[2].n, 1);
	for (unsigned k = 0; k < plan->ngroups; k++) {
		long long d[CTR_GROUP_MAX];
		measure(f, &plan->groups[k], n, d);
		for (unsigned i = 0; i < plan->groups[k].n; i++)
			assert_int_equal(d[i], want[plan->groups[k].ev[i] - evs]);
		seen += plan->groups[k].n;
	}
	assert_int_equal(seen, 5);
}

/* Each OpenMP thread registers with PAPI and opens its own set. SDE counters are per process, so the
   threads take turns; each must read exactly its own loop. */
static void test_each_thread_opens_and_reads_its_own_set(void **state)
{
	const char *specs[] = {SDE("EXACT")};
	struct ctr_fixture *f = *state;
	struct ctr_event ev;
	struct err e;
	int bad = 0;

	assert_int_equal(ctr_resolve_list(specs, 1, &ev, &e), 0);
	assert_int_equal(ctr_plan_groups(&ev, 1, NULL, 0, &f->plan, &e), 0);
#pragma omp parallel num_threads(2) reduction(+ : bad)
	{
		uint64_t mine = 1000 * (omp_get_thread_num() + 1);
		struct ctr_reading r;
		struct ctr_set *s;
		struct err te;
		if (ctr_open(&f->plan.groups[0], -1, &s, &te)) {
			bad++;
		} else {
#pragma omp critical
			{
				ctr_start(s, &te);
				sdetest_loop(mine);
				ctr_stop(s, &te);
				ctr_read(s, &r, &te);
			}
			bad += r.status != CTR_OK || r.count != mine;
			ctr_close(s);
		}
	}
	assert_int_equal(bad, 0);
}

/* PAPI's SDE would accept any name as a placeholder; an unregistered one must be a usage error. */
static void test_unknown_sde_event_is_a_usage_error_naming_it(void **state)
{
	struct ctr_event ev;
	struct err e = {""};

	(void)state;
	assert_int_equal(ctr_resolve(SDE("NOSUCH"), &ev, &e), E_USAGE);
	assert_non_null(strstr(e.msg, SDE("NOSUCH")));
	assert_int_equal(ctr_resolve("sde:::nosuchlib::EXACT", &ev, &e), E_USAGE);
}

/* Where PAPI's perf_event component works and the kernel counts hardware (a PMU machine) PAPI decides
   about other names itself; every other combination is faked in test_ctr_papi_judge. */
static void test_unknown_papi_name_is_a_usage_error(void **state)
{
	int cidx = PAPI_get_component_index("perf_event");
	char why[CTR_REASON_MAX];
	struct ctr_event ev;
	struct err e = {""};
	int rc;

	(void)state;
	if (cidx < 0 || PAPI_get_component_info(cidx)->disabled || !ctr_hardware_available(why, sizeof why)) {
		skip_why("PAPI's perf_event component is disabled or the kernel counts no hardware event "
			 "here; such names are not_measured, see test_ctr_papi_judge");
	}
	rc = ctr_resolve("NOSUCH_EVENT:NOSUCH_UMASK", &ev, &e);
	assert_int_equal(rc, E_USAGE);
	assert_non_null(strstr(e.msg, "NOSUCH_EVENT:NOSUCH_UMASK"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sde_component_is_enabled_by_linking_libsde),
		CTR_FIXTURE_TEST(test_exact_counter_matches_and_wrong_ones_do_not),
		CTR_FIXTURE_TEST(test_more_events_than_counters_are_split_and_each_group_counts),
		CTR_FIXTURE_TEST(test_each_thread_opens_and_reads_its_own_set),
		cmocka_unit_test(test_unknown_sde_event_is_a_usage_error_naming_it),
		cmocka_unit_test(test_unknown_papi_name_is_a_usage_error),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
