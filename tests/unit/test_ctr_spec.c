/* test_ctr_spec.c — perf event specs against a fake sysfs PMU tree, and event names on this machine. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/perf_event.h>

#include "ctr_int.h"
#include "fake_file.h"
#include "skip_why.h"

static char root[128];

static void put(const char *rel, const char *text)
{
	char line[256];

	snprintf(line, sizeof line, "%s\n", text);
	assert_int_equal(fake_put_at(root, rel, line), 0);
}

/* An Intel-like core PMU (event is split over bits 0-7 and 32-35) and an uncore IMC with an alias. */
static int make_tree(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/pmucheck-sysfs.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("cpu/type", "4");
	put("cpu/format/event", "config:0-7,32-35");
	put("cpu/format/umask", "config:8-15");
	put("cpu/format/edge", "config:18");
	put("cpu/format/inv", "config:23");
	put("cpu/format/cmask", "config:24-31");
	put("cpu/format/offcore_rsp", "config1:0-63");
	put("cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3");
	put("cpu/events/br-retired", "event=0xc4");
	put("uncore_imc_0/type", "17");
	put("uncore_imc_0/cpumask", "0");
	put("uncore_imc_0/format/event", "config:0-7");
	put("uncore_imc_0/format/umask", "config:8-15");
	put("uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03");
	put("uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5");
	put("uncore_imc_0/events/cas_count_read.unit", "MiB");
	put("software/type", "1");
	put("msr/type", "12");
	put("msr/format/event", "config:0-63");
	put("msr/events/cpu_thermal_margin", "event=0x04");
	put("msr/events/cpu_thermal_margin.snapshot", "1");
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

static int parse(const char *spec, struct ctr_event *ev, struct err *e)
{
	memset(ev, 0, sizeof *ev);
	snprintf(ev->spec, sizeof ev->spec, "%s", spec);
	return ctr_perf_parse(root, spec, ev, e);
}

static void expect_usage(const char *spec, const char *why)
{
	struct ctr_event ev;
	struct err e = {""};

	assert_int_equal(parse(spec, &ev, &e), E_USAGE);
	assert_non_null(strstr(e.msg, spec));
	assert_non_null(strstr(e.msg, why));
}

static void test_terms_fill_every_bit_range_of_their_format(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("cpu/event=0x1d0,umask=0x81,inv,cmask=2,edge/", &ev, &e), 0);
	/* event 0x1d0: low 8 bits to 0-7, the rest to 32-35. */
	assert_int_equal(ev.perf.config,
			 0xd0ull | 0x81ull << 8 | 1ull << 18 | 1ull << 23 | 2ull << 24 | 1ull << 32);
	assert_int_equal(ev.perf.type, 4);
	assert_int_equal(ev.status, CTR_OK);
	assert_int_equal(ev.scope, CTR_SCOPE_THREAD);
	assert_string_equal(ev.pool, "cpu");
	assert_true(ev.uses_counter == (ev.counters > 0));
}

static void test_raw_config_fields_are_taken_verbatim(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("cpu/config=0x53003c,config1=0x10001,config2=7/", &ev, &e), 0);
	assert_int_equal(ev.perf.config, 0x53003c);
	assert_int_equal(ev.perf.config1, 0x10001);
	assert_int_equal(ev.perf.config2, 7);
	assert_string_equal(ev.encoding,
			    ctr_may_count_kernel()
				    ? "pmu=cpu,type=4,config=0x53003c,config1=0x10001,config2=0x7,"
				      "domain=user+kernel"
				    : "pmu=cpu,type=4,config=0x53003c,config1=0x10001,config2=0x7,"
				      "domain=user");
}

static void test_term_in_config1_lands_there(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("cpu/event=0xb7,umask=1,offcore_rsp=0x3fbfc00001/", &ev, &e), 0);
	assert_int_equal(ev.perf.config, 0x01b7);
	assert_int_equal(ev.perf.config1, 0x3fbfc00001ull);
	/* The offcore response register is shared: such events must not share a group. */
	assert_string_equal(ev.conflict, "cpu:filter");
	assert_int_equal(parse("cpu/event=0xb7,umask=1/", &ev, &e), 0);
	assert_string_equal(ev.conflict, "");
}

static void test_fixed_events_only_where_countable(void **state)
{
	struct ctr_event fixed[CTR_FIXED_MAX];
	char why[CTR_REASON_MAX];
	unsigned n = ctr_fixed_events(fixed);

	(void)state;
	if (!ctr_hardware_available(why, sizeof why)) {
		assert_int_equal(n, 0);
		return;
	}
	assert_true(n >= 2); /* cycles and instructions, from perf at least */
	for (unsigned i = 0; i < n; i++) {
		assert_true(fixed[i].fixed);
		assert_int_equal(fixed[i].status, CTR_OK);
	}
}

static void test_alias_gives_terms_scale_unit_and_socket_scope(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("uncore_imc_0/cas_count_read/", &ev, &e), 0);
	assert_int_equal(ev.perf.type, 17);
	assert_int_equal(ev.perf.config, 0x0304);
	assert_true(ev.scale == 6.103515625e-5);
	assert_string_equal(ev.unit, "MiB");
	assert_int_equal(ev.scope, CTR_SCOPE_SOCKET);
	assert_string_equal(ev.pool, "uncore_imc_0");
	assert_true(ev.uses_counter);
	/* the alias's scale and unit are recorded beside the raw encoding */
	assert_non_null(strstr(ev.encoding, ",scale=6.103515625e-05,unit=MiB"));
	/* an uncore PMU counts every privilege level and rejects exclude bits */
	assert_non_null(strstr(ev.encoding, ",domain=all"));
	assert_false(ev.perf.exclude_kernel || ev.perf.exclude_user);
	expect_usage("uncore_imc_0/cas_count_read/u", "takes no u or k modifier");
}

static void test_alias_and_terms_combine(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("cpu/br-retired,umask=0x20/", &ev, &e), 0);
	assert_int_equal(ev.perf.config, 0x20c4);
	assert_true(ev.scale == 1.0);
}

static void test_alias_naming_an_unknown_term_is_reported(void **state)
{
	(void)state;
	expect_usage("cpu/mem-loads/", "ldlat");
}

static void test_malformed_specs_name_the_event_and_the_fault(void **state)
{
	(void)state;
	expect_usage("cpu/event=zz/", "'zz'");
	expect_usage("cpu/event=0x3c", "closing '/'");
	expect_usage("cpu/event=1/umask=2/", "one pair");
	expect_usage("/event=1/", "missing PMU name");
	expect_usage("cpu//", "no terms");
	expect_usage("cpu/event=/", "needs a number");
	expect_usage("cpu/event=1,,umask=1/", "empty term");
	expect_usage("cpu/bogus=1/", "no term or event 'bogus'");
	expect_usage("cpu/umask=0x100/", "does not fit");
	expect_usage("cpu/event=0x1000/", "does not fit");
	expect_usage("nosuchpmu/event=1/", "unknown PMU 'nosuchpmu'");
}

static void test_known_pmu_absent_here_is_not_measured(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("amd_umc_0/umc_cas_cmd.rd/", &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "no PMU 'amd_umc_0'"));
	/* A config's box wildcard comes here unexpanded when the machine has no box of it: not measured
	   for that reason, not a malformed PMU name. Where it has boxes, a wildcard is not perf syntax. */
	assert_int_equal(parse("amd_umc_*/event=0x0a/", &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "no PMU 'amd_umc_*'"));
	expect_usage("uncore_imc_*/event=0x04/", "is not [a-z][a-z0-9_]*");
	/* Still checked as far as it can be without the PMU's sysfs directory. */
	expect_usage("cpu_core/event=0xzz/", "needs a number");
	expect_usage("cpu_atom/bogus=1/", "unknown term 'bogus'");
}

/* An Intel hybrid machine (Alder Lake and later) has cpu_core and cpu_atom PMUs and no "cpu": each
   resolves with its own format and pool, and "cpu/.../" is not countable there, naming what is. */
static void test_hybrid_tree_has_two_core_pmus_and_no_cpu(void **state)
{
	char saved[128], hybrid[160];
	struct ctr_event ev;
	struct err e;

	(void)state;
	snprintf(saved, sizeof saved, "%s", root);
	snprintf(hybrid, sizeof hybrid, "%s/hybrid", saved);
	snprintf(root, sizeof root, "%s", hybrid);
	put("cpu_core/type", "4");
	put("cpu_core/format/event", "config:0-7");
	put("cpu_core/format/umask", "config:8-15");
	put("cpu_atom/type", "10");
	put("cpu_atom/format/event", "config:0-7");
	put("cpu_atom/format/umask", "config:8-15");
	assert_int_equal(parse("cpu_core/event=0x3c,umask=0x1/", &ev, &e), 0);
	assert_int_equal(ev.perf.type, 4);
	assert_int_equal(ev.perf.config, 0x013c);
	assert_string_equal(ev.pool, "cpu_core");
	assert_int_equal(parse("cpu_atom/event=0x3c/", &ev, &e), 0);
	assert_int_equal(ev.perf.type, 10);
	assert_string_equal(ev.pool, "cpu_atom");
	assert_int_equal(parse("cpu/event=0x3c/", &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "cpu_core"));
	snprintf(root, sizeof root, "%s", saved);
}

/* ENOENT is the kernel's answer both where no PMU takes the event's type (a VM without a virtual PMU)
   and where the core PMU maps a generic event to no event code (ref-cycles on bare-metal AMD, whose
   reason blamed a missing PMU): sysfs tells which. */
static void test_enoent_blames_a_missing_pmu_only_where_none_is_exposed(void **state)
{
	char why[CTR_REASON_MAX], none[160], hybrid[160];
	struct ctr_event ev;
	struct err e;

	(void)state;
	snprintf(none, sizeof none, "%s/no-pmu", root);
	assert_int_equal(mkdir(none, 0755), 0);
	snprintf(hybrid, sizeof hybrid, "%s/hybrid-only", root);
	assert_int_equal(fake_put_at(hybrid, "cpu_core/type", "4\n"), 0);
	assert_int_equal(parse("ref-cycles", &ev, &e), 0);
	ctr_perf_explain(root, ENOENT, &ev, 0, why, sizeof why);
	assert_non_null(strstr(why, "maps no such event on PMU 'cpu'"));
	assert_null(strstr(why, "no hardware PMU"));
	ctr_perf_explain(hybrid, ENOENT, &ev, 0, why, sizeof why);
	assert_non_null(strstr(why, "maps no such event on PMU 'cpu_core'"));
	ctr_perf_explain(none, ENOENT, &ev, 0, why, sizeof why);
	assert_non_null(strstr(why, "no hardware PMU exposed"));
	ctr_perf_explain(root, EOPNOTSUPP, &ev, 0, why, sizeof why);
	assert_non_null(strstr(why, "PMU 'cpu' cannot count this event as asked"));
	/* a sysfs PMU's own event: that PMU, not the core one */
	assert_int_equal(parse("uncore_imc_0/cas_count_read/", &ev, &e), 0);
	ctr_perf_explain(hybrid, ENOENT, &ev, 0, why, sizeof why);
	assert_non_null(strstr(why, "no hardware PMU exposed"));
	ctr_perf_explain(root, ENOENT, &ev, 0, why, sizeof why);
	assert_non_null(strstr(why, "maps no such event on PMU 'uncore_imc_0'"));
}

/* Every event of a group opened alone when it was resolved, so EINVAL for a sibling is the group's: three
   events of a 2-counter uncore box (SKX IRP, client uncore_cbox) planned for 4 failed with a reason that
   blamed the third one's encoding. The leader's, or an event's alone, is still its encoding's. */
static void test_einval_for_a_sibling_says_the_group_does_not_fit(void **state)
{
	char why[CTR_REASON_MAX];
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("uncore_imc_0/cas_count_read/", &ev, &e), 0);
	ctr_perf_explain(root, EINVAL, &ev, 2, why, sizeof why);
	assert_non_null(strstr(why, "event 3 of a group on PMU 'uncore_imc_0'"));
	assert_non_null(strstr(why, "does not fit the PMU's counters (planned for 4"));
	assert_null(strstr(why, "encoding"));
	ctr_perf_explain(root, EINVAL, &ev, 0, why, sizeof why);
	assert_non_null(strstr(why, "rejects encoding pmu=uncore_imc_0,"));
}

/* One grammar for configs and --events (ctr_syntax.h): u and k as perf's :u and :k, the rest refused by
   name; a box wildcard only where the caller allows it (configs). */
static void test_modifiers_u_and_k_exclude_the_other_side(void **state)
{
	struct ctr_syntax syn;
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("cpu/event=0x3c/u", &ev, &e), 0);
	assert_true(ev.perf.exclude_kernel);
	assert_false(ev.perf.exclude_user);
	assert_non_null(strstr(ev.encoding, ",domain=user"));
	assert_int_equal(parse("cpu/event=0x3c/k", &ev, &e), 0);
	assert_true(ev.perf.exclude_user);
	assert_false(ev.perf.exclude_kernel);
	assert_non_null(strstr(ev.encoding, ",domain=kernel"));
	assert_int_equal(parse("cpu/event=0x3c/uk", &ev, &e), 0);
	assert_false(ev.perf.exclude_user || ev.perf.exclude_kernel);
	assert_non_null(strstr(ev.encoding, ",domain=user+kernel"));
	/* no modifier: user and kernel where this process may count the kernel, else user */
	assert_int_equal(parse("cpu/event=0x3c/", &ev, &e), 0);
	assert_int_equal(ev.perf.exclude_kernel, !ctr_may_count_kernel());
	expect_usage("cpu/event=0x3c/p", "modifier 'p' is not supported");
	expect_usage("cpu/event=0x3c/x", "unknown modifier 'x'");
	expect_usage("uncore_imc_*/event=0x4/", "is not [a-z][a-z0-9_]*");
	assert_int_equal(ctr_syntax_parse("uncore_imc_*/event=0x4/", true, &syn, &e), 0);
	assert_string_equal(syn.pmu, "uncore_imc_*");
	assert_string_equal(syn.terms, "event=0x4");
}

static void test_software_event_uses_no_counter(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("minor-faults", &ev, &e), 0);
	assert_int_equal(ev.perf.type, 1);   /* PERF_TYPE_SOFTWARE */
	assert_int_equal(ev.perf.config, 5); /* PERF_COUNT_SW_PAGE_FAULTS_MIN */
	assert_string_equal(ev.pool, "software");
	assert_false(ev.uses_counter);
	assert_int_equal(ev.counters, 0);
}

/* A software clock read as a sibling in another software event's group comes back stale (task-clock
   under page-faults read 10 ms of a 20 ms interval after its first one, then 0, status ok): written as
   the software PMU's raw config, as by name, it gets a group of its own. */
static void test_software_clock_in_raw_syntax_gets_a_group_of_its_own(void **state)
{
	const char *clocks[] = {"software/config=1/", "software/config=0/"}; /* task-clock, cpu-clock */
	struct ctr_event ev[2];
	struct ctr_plan plan;
	struct err e;

	(void)state;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(parse("page-faults", &ev[0], &e), 0);
		assert_int_equal(parse(clocks[i], &ev[1], &e), 0);
		assert_int_equal(ctr_plan_groups(ev, 2, NULL, 0, &plan, &e), 0);
		assert_int_equal(plan.ngroups, 2);
		ctr_plan_free(&plan);
	}
	assert_int_equal(parse("software/config=2/", &ev[1], &e), 0); /* page-faults itself may join */
	assert_int_equal(ctr_plan_groups(ev, 2, NULL, 0, &plan, &e), 0);
	assert_int_equal(plan.ngroups, 1);
	ctr_plan_free(&plan);
}

/* A software clock counts the task's time on the CPU, the kernel's part too, whatever exclude_kernel
   says (task-clock over reads of /dev/zero: 27.7 ms with exclude_kernel, all of the thread's CPU time):
   its domain is user+kernel also where the open needs exclude_kernel (perf_event_paranoid 2), and a u or
   k modifier, which it would not honour, is refused naming it. Other software events honour them. */
static void test_software_clock_counts_every_privilege_level(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("task-clock", &ev, &e), 0);
	ev.perf.exclude_kernel = true; /* as an unprivileged process opens it */
	assert_string_equal(ctr_domain_name(&ev), "user+kernel");
	expect_usage("software/config=1/u", "takes no u or k modifier");
	expect_usage("software/config=0/k", "takes no u or k modifier");
	assert_int_equal(parse("software/config=2/u", &ev, &e), 0);
	assert_non_null(strstr(ev.encoding, ",domain=user"));
	assert_string_equal(ctr_domain_name(&ev), "user");
}

/* Context switches and migrations are counted in the scheduler's own context: excluded from the kernel
   (a u modifier, or an unprivileged open) they read 0 with status ok, so they are not measured then. */
static void test_kernel_context_software_events_excluding_the_kernel_are_not_measured(void **state)
{
	const char *specs[] = {"software/config=3/u",
			       "software/config=4/u"}; /* context-switches, migrations */
	struct ctr_event ev;
	struct err e;

	(void)state;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(parse(specs[i], &ev, &e), 0);
		ctr_perf_probe(&ev);
		assert_int_equal(ev.status, CTR_NOT_MEASURED);
		assert_non_null(strstr(ev.reason, "counted in the kernel's own context"));
	}
}

/* A sysfs alias marked .snapshot is a level read at an instant (the msr PMU's cpu_thermal_margin), which
   two readings' difference does not measure. */
static void test_a_snapshot_alias_is_not_measured(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(parse("msr/cpu_thermal_margin/", &ev, &e), 0);
	assert_int_equal(ev.status, CTR_NOT_MEASURED);
	assert_non_null(strstr(ev.reason, "a snapshot"));
}

static void test_other_names_go_to_papi(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_false(ctr_perf_syntax("L1D:REPLACEMENT"));
	assert_false(ctr_perf_syntax("perf::PAGE-FAULTS"));
	assert_true(ctr_perf_syntax("cpu/event=0x3c/"));
	assert_true(ctr_perf_syntax("minor-faults"));
	assert_int_equal(parse("L1D:REPLACEMENT", &ev, &e), E_USAGE);
}

/* On this machine (no PMU) a hardware event is not measured, with a reason; never "ok". */
static void test_hardware_events_here_are_not_measured_with_a_reason(void **state)
{
	static const char *const hw[] = {"cycles", "instructions", "cpu/event=0x3c/", "PAPI_TOT_INS",
					 "L1D:REPLACEMENT"};
	char why[CTR_REASON_MAX];
	struct ctr_event ev;
	struct err e;

	(void)state;
	if (ctr_hardware_available(why, sizeof why)) {
		skip_why("this machine has a PMU, the events are countable");
	}
	assert_non_null(strstr(why, "instructions"));
	for (size_t i = 0; i < sizeof hw / sizeof hw[0]; i++) {
		assert_int_equal(ctr_resolve(hw[i], &ev, &e), 0);
		assert_int_equal(ev.status, CTR_NOT_MEASURED);
		assert_true(strlen(ev.reason) > 20);
	}
}

/* Intel's fixed counters hold instructions, cycles and reference cycles, by perf's generic names and by the
   raw encodings libpfm4 gives PAPI (INST_RETIRED:ANY_P 0xc0, UNHALTED_CORE_CYCLES 0x3c,
   UNHALTED_REFERENCE_CYCLES 0x300, as LIBPFM_FORCE_PMU=skl encodes them): 1 + the counter's number (0, 1,
   2); with fewer fixed counters only the first ones, and AMD's none. A umask or another event is a general
   counter's. Only reference cycles have no general counter to go to when their fixed one is taken. A
   generic event gets its fixed counter, as ctr_plan_groups needs to tell two aliases of one apart. */
static void test_fixed_counters_hold_instructions_cycles_and_ref_cycles(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), 1);
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES), 3);
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_RAW, 0xc0), 1);
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_RAW, 0x3c), 2);
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_RAW, 0x300), 3);
	assert_int_equal(ctr_fixed_holds(2, PERF_TYPE_RAW, 0x300), 0);
	assert_int_equal(ctr_fixed_holds(2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), 2);
	assert_int_equal(ctr_fixed_holds(1, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), 0);
	assert_int_equal(ctr_fixed_holds(0, PERF_TYPE_RAW, 0xc0),
			 0); /* AMD: retired instructions, a general one */
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_RAW, 0x1c0), 0);
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_RAW, 0x2e), 0);
	assert_int_equal(ctr_fixed_holds(3, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS), 0);
	assert_false(ctr_fixed_only(1));
	assert_false(ctr_fixed_only(2));
	assert_true(ctr_fixed_only(3));
	assert_int_equal(parse("instructions", &ev, &e), 0);
	assert_int_equal(ev.fixed_counter,
			 ctr_on_fixed_counter(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS));
	assert_int_equal(ev.uses_counter, !ev.fixed_counter);
}

static void test_resolve_list_names_every_bad_event(void **state)
{
	const char *specs[] = {"page-faults", "cpu/event=zz/", "task-clock", "nosuchpmu/event=1/",
			       "cpu/event=1"};
	struct ctr_event evs[5];
	struct err e = {""};

	(void)state;
	assert_int_equal(ctr_resolve_list(specs, 5, evs, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "'cpu/event=zz/'"));
	assert_non_null(strstr(e.msg, "'nosuchpmu/event=1/'"));
	assert_non_null(strstr(e.msg, "'cpu/event=1'"));
	assert_null(strstr(e.msg, "page-faults"));
	assert_int_equal(evs[0].status, CTR_OK);
	assert_int_equal(evs[2].status, CTR_OK);
	assert_int_equal(evs[1].status, CTR_NOT_MEASURED);
	assert_string_equal(evs[3].spec, "nosuchpmu/event=1/");
}

static void test_split_list_keeps_perf_terms_together(void **state)
{
	char **v;
	unsigned n;
	struct err e;

	(void)state;
	assert_int_equal(ctr_split_list("cpu/event=0x3c,umask=0/,page-faults,L1D:REPLACEMENT,"
					"uncore_imc_0/event=4,umask=3/",
					&v, &n, &e),
			 0);
	assert_int_equal(n, 4);
	assert_string_equal(v[0], "cpu/event=0x3c,umask=0/");
	assert_string_equal(v[1], "page-faults");
	assert_string_equal(v[2], "L1D:REPLACEMENT");
	assert_string_equal(v[3], "uncore_imc_0/event=4,umask=3/");
	free(v);
	assert_int_equal(ctr_split_list("page-faults,,task-clock", &v, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "position 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms_fill_every_bit_range_of_their_format),
		cmocka_unit_test(test_raw_config_fields_are_taken_verbatim),
		cmocka_unit_test(test_term_in_config1_lands_there),
		cmocka_unit_test(test_fixed_events_only_where_countable),
		cmocka_unit_test(test_alias_gives_terms_scale_unit_and_socket_scope),
		cmocka_unit_test(test_alias_and_terms_combine),
		cmocka_unit_test(test_alias_naming_an_unknown_term_is_reported),
		cmocka_unit_test(test_malformed_specs_name_the_event_and_the_fault),
		cmocka_unit_test(test_known_pmu_absent_here_is_not_measured),
		cmocka_unit_test(test_hybrid_tree_has_two_core_pmus_and_no_cpu),
		cmocka_unit_test(test_enoent_blames_a_missing_pmu_only_where_none_is_exposed),
		cmocka_unit_test(test_einval_for_a_sibling_says_the_group_does_not_fit),
		cmocka_unit_test(test_modifiers_u_and_k_exclude_the_other_side),
		cmocka_unit_test(test_software_event_uses_no_counter),
		cmocka_unit_test(test_software_clock_in_raw_syntax_gets_a_group_of_its_own),
		cmocka_unit_test(test_software_clock_counts_every_privilege_level),
		cmocka_unit_test(test_other_names_go_to_papi),
		cmocka_unit_test(test_kernel_context_software_events_excluding_the_kernel_are_not_measured),
		cmocka_unit_test(test_a_snapshot_alias_is_not_measured),
		cmocka_unit_test(test_hardware_events_here_are_not_measured_with_a_reason),
		cmocka_unit_test(test_fixed_counters_hold_instructions_cycles_and_ref_cycles),
		cmocka_unit_test(test_resolve_list_names_every_bad_event),
		cmocka_unit_test(test_split_list_keeps_perf_terms_together),
	};
	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
