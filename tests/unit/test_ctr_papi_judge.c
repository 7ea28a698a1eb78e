/* test_ctr_papi_judge.c — a PAPI name's status comes from what the kernel opens, never from PAPI's
 * self-report. Every combination of component state and kernel is faked, so it runs on any machine:
 * the Zen 3 VM where libpfm4 knows the CPU and PAPI's perf_event component says "enabled" although the
 * kernel counts nothing, the Zen 5 VM where the component is disabled, and a machine with a PMU. */
#include <papi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ctr_int.h"

/* ctr_avail.c's reason, in full (ctr_perf.c's text of ENOENT without a PMU) */
static const char *const no_pmu = "perf 'instructions': perf_event_open: No such file or directory: the "
				  "kernel cannot count this event here (no hardware PMU exposed, e.g. a VM "
				  "without a virtual PMU)";

/* PAPI's perf_event component as it reports itself on the Zen 3 VM: enabled, the name known. */
static struct ctr_papi_facts enabled_without_kernel_pmu(void)
{
	return (struct ctr_papi_facts){.component = "perf_event",
				       .name_rc = PAPI_OK,
				       .kernel_hw = false,
				       .kernel_reason = no_pmu,
				       .probe_rc = PAPI_OK};
}

static int judge(const char *spec, const struct ctr_papi_facts *f, struct ctr_event *ev, struct err *e)
{
	memset(ev, 0, sizeof *ev);
	memset(e, 0, sizeof *e);
	return ctr_papi_judge(spec, f, ev, e);
}

static void test_enabled_component_without_kernel_pmu_is_not_measured_with_the_kernel_reason(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(judge("PAPI_TOT_CYC", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, no_pmu));
	assert_non_null(strstr(ev.reason, "reports itself enabled"));
	/* A run on that machine once ended with "failed: PAPI_add_event ...: Event does not exist". */
	assert_null(strstr(ev.reason, "PAPI_add_event"));
}

/* An Intel name on the AMD VM: unknown to PAPI, but nothing could be counted anyway. */
static void test_unknown_name_without_kernel_pmu_is_not_measured_not_a_usage_error(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.name_rc = PAPI_ENOEVNT;
	assert_int_equal(judge("L1D:REPLACEMENT", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	/* whole: at 320 bytes it ended "and it does not know th" (list events, raw.csv, --events) */
	assert_non_null(strstr(ev.reason, no_pmu));
	assert_non_null(strstr(ev.reason, ", and it does not know this name either"));
	assert_string_equal(ev.reason + strlen(ev.reason) - strlen("either"), "either");
}

static void test_uncore_component_follows_the_kernel_too(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.component = "perf_event_uncore";
	assert_int_equal(judge("amd64_fam19h_zen3_l3::UNC_L3_MISSES", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
}

static void test_disabled_component_gives_papis_reason(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.comp_disabled = true;
	f.comp_reason = "Unknown processor";
	f.name_rc = PAPI_ENOEVNT;
	assert_int_equal(judge("PAPI_TOT_INS", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "Unknown processor"));
}

/* With a PMU the library and the probe decide. */
static void test_with_kernel_pmu_a_known_name_that_opens_is_ok(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.kernel_hw = true;
	assert_int_equal(judge("PAPI_TOT_CYC", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_OK);
}

static void test_with_kernel_pmu_an_unknown_name_is_a_usage_error_naming_it(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.kernel_hw = true;
	f.name_rc = PAPI_ENOEVNT;
	assert_int_equal(judge("NOSUCH:EVENT", &f, &ev, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "NOSUCH:EVENT"));
}

static void test_with_kernel_pmu_a_name_the_kernel_refuses_is_not_measured(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.kernel_hw = true;
	f.probe_rc = PAPI_ECNFLCT;
	assert_int_equal(judge("LS_DISPATCH:LD_DISPATCH", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "PAPI_add_event"));
	f.probe_rc = PAPI_OK;
	f.preset_unavailable = true;
	assert_int_equal(judge("PAPI_L3_TCM", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "papi_avail"));
}

/* SDE counts in software: a machine without a PMU does not stop it. */
static void test_software_component_ignores_the_kernel_pmu(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.component = "sde";
	assert_int_equal(judge("sde:::lib::EXACT", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_OK);
}

/* libpfm4's perf:: PMU lists the kernel's software events beside its generic hardware ones, all in PAPI's
   perf_event component: perf::PAGE-FAULTS counts on the Zen 3 VM, where it was not measured because "the
   kernel counts no hardware event here". Its own probe decides, as for any event with a PMU. */
static void test_software_event_of_the_perf_event_component_ignores_the_kernel_pmu(void **state)
{
	struct ctr_papi_facts f = enabled_without_kernel_pmu();
	struct ctr_event ev;
	struct err e;

	(void)state;
	f.software = true;
	assert_int_equal(judge("perf::PAGE-FAULTS", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_OK);
	f.probe_rc = PAPI_EPERM;
	assert_int_equal(judge("perf::PAGE-FAULTS", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "PAPI_add_event"));
	assert_null(strstr(ev.reason, "hardware"));
	/* the probe sets the run's domain first: where PAPI refuses it, the reason names that call */
	f.probe_call = "PAPI_set_opt(PAPI_DOMAIN)";
	assert_int_equal(judge("perf::PAGE-FAULTS", &f, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "(PAPI_set_opt(PAPI_DOMAIN): "));
}

/* PAPI's uncore component counts the sum of its PMUs' counters: each box is its own pool with one box's
   counters, so two boxes share a group only as perf would allow (never), and four events of one box fit. */
static void test_uncore_events_are_pooled_per_box(void **state)
{
	struct ctr_event a = {.spec = "skx_unc_imc0::UNC_M_CAS_COUNT:RD", .backend = CTR_PAPI};
	struct ctr_event b = {.spec = "skx_unc_imc3::UNC_M_CAS_COUNT:RD", .backend = CTR_PAPI};
	struct ctr_event c = {.spec = "PAPI_L1_DCM", .backend = CTR_PAPI};

	(void)state;
	ctr_papi_place("perf_event_uncore", 48, &a);
	ctr_papi_place("perf_event_uncore", 48, &b);
	ctr_papi_place("perf_event", 6, &c);
	assert_string_equal(a.pool, "perf_event_uncore:skx_unc_imc0");
	assert_string_equal(b.pool, "perf_event_uncore:skx_unc_imc3");
	assert_int_equal(a.counters, 4);
	assert_int_equal(a.scope, CTR_SCOPE_SOCKET);
	assert_non_null(strstr(a.encoding, "component=perf_event_uncore,domain=all"));
	assert_string_equal(c.pool, "perf_event");
	assert_int_equal(c.counters, 6);
	assert_int_equal(c.scope, CTR_SCOPE_THREAD);
}

/* A box has the counters of libpfm4's table of its PMU (pfm_get_pmu_info, whether or not the PMU is here):
   Skylake-SP's UBOX 2, where its IMC has 4; a box libpfm4 has no table of gets UNCORE_COUNTERS. */
static void test_an_uncore_box_has_the_counters_libpfm4_gives_its_pmu(void **state)
{
	struct ctr_event ubox = {.spec = "skx_unc_ubo::UNC_U_LOCK_CYCLES", .backend = CTR_PAPI};
	struct ctr_event r3qpi = {.spec = "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS", .backend = CTR_PAPI};
	struct ctr_event unknown = {.spec = "no_unc_box0::EVENT", .backend = CTR_PAPI};

	(void)state;
	ctr_papi_place("perf_event_uncore", 48, &ubox);
	ctr_papi_place("perf_event_uncore", 48, &r3qpi);
	ctr_papi_place("perf_event_uncore", 48, &unknown);
	assert_string_equal(ubox.pool, "perf_event_uncore:skx_unc_ubo");
	assert_int_equal(ubox.counters, 2);
	assert_int_equal(r3qpi.counters, 3);
	assert_int_equal(unknown.counters, UNCORE_COUNTERS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_enabled_component_without_kernel_pmu_is_not_measured_with_the_kernel_reason),
		cmocka_unit_test(test_unknown_name_without_kernel_pmu_is_not_measured_not_a_usage_error),
		cmocka_unit_test(test_uncore_component_follows_the_kernel_too),
		cmocka_unit_test(test_disabled_component_gives_papis_reason),
		cmocka_unit_test(test_with_kernel_pmu_a_known_name_that_opens_is_ok),
		cmocka_unit_test(test_with_kernel_pmu_an_unknown_name_is_a_usage_error_naming_it),
		cmocka_unit_test(test_with_kernel_pmu_a_name_the_kernel_refuses_is_not_measured),
		cmocka_unit_test(test_software_component_ignores_the_kernel_pmu),
		cmocka_unit_test(test_software_event_of_the_perf_event_component_ignores_the_kernel_pmu),
		cmocka_unit_test(test_uncore_events_are_pooled_per_box),
		cmocka_unit_test(test_an_uncore_box_has_the_counters_libpfm4_gives_its_pmu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
