/* test_ctr_papi_domain.c — the probe that judges a PAPI name opens it in the domain the run counts it in:
 * user+kernel where this process may count the kernel and the kernel counts hardware, else user
 * (ctr_domain_name). An event that opens in one domain and not the other was judged in PAPI's default,
 * user, and counted in user+kernel.
 *
 * Neither can be seen on a machine without a PMU: PAPI's perf_event component refuses PAPI_set_opt
 * (PAPI_DOMAIN) outright there (it first opens a hardware instructions event in that domain,
 * check_permissions in PAPI's perf_event.c: PAPI_ENOEVNT on the Zen 3 guest without a virtual PMU), and
 * ctr_domain_name says "user" anyway. So the link wraps (-Wl,--wrap, mk/unit_wrap.mk) the calls that decide:
 * ctr_hardware_available says what each test asks, PAPI_set_opt records the domain asked for an event set
 * and lets PAPI keep its default, and PAPI_add_event records the domain its set was given before the event
 * is added, then adds it for real. The event is perf::PAGE-FAULTS, which PAPI's perf_event component opens
 * without a PMU. */
#include <papi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ctr_fixture.h"
#include "ctr_int.h"
#include "skip_why.h"

int __real_PAPI_set_opt(int option, PAPI_option_t *ptr);
int __real_PAPI_add_event(int set, int code);
int __real_PAPI_create_eventset(int *set);

static int hardware;               /* what ctr_hardware_available says */
static int domain_set = PAPI_NULL; /* the event set PAPI_set_opt(PAPI_DOMAIN) was last asked for */
static int domain_asked;           /* and the domain asked */
static int added[4], nadded;       /* per PAPI_add_event: the domain asked for its set, 0 for none */

int __wrap_ctr_hardware_available(char *reason, size_t len)
{
	if (!hardware && len)
		snprintf(reason, len, "no PMU (the test says so)");
	return hardware;
}

int __wrap_PAPI_set_opt(int option, PAPI_option_t *ptr)
{
	if (option != PAPI_DOMAIN)
		return __real_PAPI_set_opt(option, ptr);
	domain_set = ptr->domain.eventset;
	domain_asked = ptr->domain.domain;
	return PAPI_OK;
}

/* A new set has no domain asked yet, whatever set number PAPI gives it again. */
int __wrap_PAPI_create_eventset(int *set)
{
	int rc = __real_PAPI_create_eventset(set);

	if (rc == PAPI_OK && *set == domain_set)
		domain_set = PAPI_NULL;
	return rc;
}

int __wrap_PAPI_add_event(int set, int code)
{
	if (nadded < (int)(sizeof added / sizeof added[0]))
		added[nadded++] = set == domain_set ? domain_asked : 0;
	return __real_PAPI_add_event(set, code);
}

/* Resolves perf::PAGE-FAULTS (its probe adds it once), then opens a group of it as the run does (adds it
   again): the domains asked for the two sets, into probe and run. */
static void probe_and_run(struct ctr_fixture *f, int *probe, int *run)
{
	struct ctr_event ev;
	struct err e;

	nadded = 0;
	assert_int_equal(ctr_resolve("perf::PAGE-FAULTS", &ev, &e), 0);
	if (ev.backend != CTR_PAPI || strcmp(ev.pool, "perf_event") || ev.status != CTR_OK)
		skip_why("PAPI does not count perf::PAGE-FAULTS in its perf_event component here (%s)",
			 ev.reason);
	assert_int_equal(nadded, 1);
	*probe = added[0];
	assert_int_equal(ctr_plan_groups(&ev, 1, NULL, 0, &f->plan, &e), 0);
	assert_int_equal(ctr_open(&f->plan.groups[0], -1, &f->set[0], &e), 0);
	assert_int_equal(nadded, 2);
	*run = added[1];
}

/* Where the kernel may be counted, the probe asks for user+kernel, as the run does. */
static void test_the_probe_opens_in_user_and_kernel_as_the_run(void **state)
{
	int probe, run;

	hardware = 1;
	if (!ctr_may_count_kernel())
		skip_why("this process may not count the kernel (perf_event_paranoid %d, no CAP_PERFMON): "
			 "the domain is user for both",
			 ctr_perf_paranoid());
	probe_and_run(*state, &probe, &run);
	assert_int_equal(run, PAPI_DOM_USER | PAPI_DOM_KERNEL);
	assert_int_equal(probe, run);
}

/* Where it may not (here: no hardware counting), neither asks: PAPI's default, user. */
static void test_the_probe_keeps_papis_user_domain_as_the_run(void **state)
{
	int probe, run;

	hardware = 0;
	probe_and_run(*state, &probe, &run);
	assert_int_equal(run, 0);
	assert_int_equal(probe, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CTR_FIXTURE_TEST(test_the_probe_opens_in_user_and_kernel_as_the_run),
		CTR_FIXTURE_TEST(test_the_probe_keeps_papis_user_domain_as_the_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
