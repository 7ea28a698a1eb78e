/* test_export_names.c — LIKWID's event names and counter classes, looked up by what the hardware is
 * told (event code and umask) in the [export] section of each architecture's config (configs/<arch>.ini,
 * as `pmucheck export` reads it): a core event gets its PMC name, an AMD L3 event CPMC, a data-fabric
 * event DFC; an encoding LIKWID has no umask for gets no name (never a neighbour's), and an architecture
 * without names says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cfg.h"
#include "out_export.h"

/* configs/<arch>.ini's [export] names, as `pmucheck export` loads them; the last architecture's are kept
   for the next call (freed at the next one). */
static const struct export_names *names_of(const char *arch)
{
	static struct export_names n;
	struct err e;

	export_names_free(&n);
	if (cfg_export_names(arch, &n, &e))
		fail_msg("%s", e.msg);
	return &n;
}

/* The name and class LIKWID gets for an event counted on arch, or NULL (why set). */
static const char *likwid(const char *arch, const char *backend, const char *event, const char *encoding,
			  const char **cls, const char **why)
{
	static char buf[256];
	static struct out_metric m;
	unsigned units;

	memset(&m, 0, sizeof m);
	snprintf(m.arch, sizeof m.arch, "%s", arch);
	m.names = names_of(arch);
	snprintf(m.backend, sizeof m.backend, "%s", backend);
	snprintf(m.event, sizeof m.event, "%s", event);
	snprintf(m.encoding, sizeof m.encoding, "%s", encoding);
	*cls = "";
	*why = NULL;
	return out_likwid_name(&m, buf, sizeof buf, cls, &units, why);
}

/* The name perf gets for an event counted on arch (NULL: no config's names), or NULL (why set). */
static const char *perf_name(const char *arch, const char *backend, const char *event, const char *encoding,
			     const char **why)
{
	static char buf[256];
	static struct out_metric m;

	memset(&m, 0, sizeof m);
	if (arch) {
		snprintf(m.arch, sizeof m.arch, "%s", arch);
		m.names = names_of(arch);
	}
	snprintf(m.backend, sizeof m.backend, "%s", backend);
	snprintf(m.event, sizeof m.event, "%s", event);
	snprintf(m.encoding, sizeof m.encoding, "%s", encoding);
	*why = NULL;
	return out_perf_event(&m, buf, sizeof buf, why);
}

static void test_core_events_by_code_and_umask(void **state)
{
	static const struct {
		const char *arch, *encoding, *name;
	} cases[] = {
		/* perfmon_zen2_events.txt: MISALIGNED_LOADS has umask 0 on Zen 2 */
		{"zen2", "pmu=cpu,type=4,config=0x47", "MISALIGNED_LOADS"},
		{"zen2", "pmu=cpu,type=4,config=0x4043", "DATA_CACHE_REFILLS_REMOTE_DRAM"},
		{"zen2", "pmu=cpu,type=4,config=0x2ae", "DYN_TOKENS_DISP_STALL_CYCLES1_LD_QUEUE_STALL"},
		/* perfmon_zen_events.txt (LIKWID's zen, Zen 1): its own names and umasks, not Zen 2's */
		{"zen1", "pmu=cpu,type=4,config=0x5b43", "DATA_CACHE_REFILLS_ALL"},
		{"zen1", "pmu=cpu,type=4,config=0x141", "MAB_ALLOC_PIPE_DATA"},
		{"zen1", "pmu=cpu,type=4,config=0x40af", "DYN_TOKENS_DISP_STALL_CYCLES_RETIRE_TOKEN_STALL"},
		/* perfmon_zen3_events.txt: the dispatch stalls Zen 3 counts, as LIKWID names them there */
		{"zen3", "pmu=cpu,type=4,config=0x2ae", "DISPATCH_RESOURCE_STALL_CYCLES_1_LOAD_QUEUE"},
		{"zen3", "pmu=cpu,type=4,config=0x4ae", "DISPATCH_RESOURCE_STALL_CYCLES_1_STORE_QUEUE"},
		{"zen3", "pmu=cpu,type=4,config=0x20af",
		 "DISPATCH_RESOURCE_STALL_CYCLES_2_RETIRE_TOKEN_STALL"},
		/* a PAPI event whose libpfm4 encoding was recorded */
		{"zen4", "papi=0x40000012,component=perf_event,config=0x129", "LS_DISPATCH_LOADS"},
		{"zen4", "pmu=cpu,type=4,config=0x3f41", "LS_MAB_ALLOC_LD_ST"},
		{"zen4", "pmu=cpu,type=4,config=0x100001ea0", "DISPATCH_STALLS_PER_SLOT_BACKEND"},
		/* Zen 5's LD_ST umask is 0x07, Zen 4's 0x3f */
		{"zen5", "pmu=cpu,type=4,config=0x741", "LS_MAB_ALLOC_LD_ST"},
		{"zen5", "pmu=cpu,type=4,config=0xdf5a", "HWPREF_DATA_CACHE_FILLS_ALL"},
		{"zen5", "pmu=cpu,type=4,config=0xc0", "RETIRED_INSTRUCTIONS"},
		{"icx", "pmu=cpu,type=4,config=0x1ff1", "L2_LINES_IN_ALL"},
		{"icx", "pmu=cpu,type=4,config=0x4f4", "SQ_MISC"},
		/* cmask 12: LIKWID's DEFAULT_OPTIONS set EVENT_OPTION_THRESHOLD=0xC for this name */
		{"icx", "pmu=cpu,type=4,config=0xc000ca3", "CYCLE_ACTIVITY_STALLS_L1D_MISS"},
		{"spr", "pmu=cpu,type=4,config=0x226", "L2_LINES_OUT_NON_SILENT"},
		{"spr", "pmu=cpu,type=4,config=0x9000947", "MEMORY_ACTIVITY_STALLS_L3_MISS"},
		/* Granite Rapids: cmask 5 as LIKWID's DEFAULT_OPTIONS threshold 0x05 */
		{"gnr", "pmu=cpu,type=4,config=0x5000547", "MEMORY_ACTIVITY_STALLS_L2_MISS"},
		{"gnr", "pmu=cpu,type=4,config=0x4023", "L2_TRANS_L2_WB"},
		/* Haswell's and Broadwell's load counts are MEM_UOPS_RETIRED, spelt apart */
		{"hsw_ep", "pmu=cpu,type=4,config=0x81d0", "MEM_UOPS_RETIRED_LOADS"},
		{"bdw_ep", "pmu=cpu,type=4,config=0x81d0", "MEM_UOPS_RETIRED_LOADS_ALL"},
		{"hsw_ep", "pmu=cpu,type=4,config=0x1000248", "L1D_PEND_MISS_FB_FULL"},
	};
	const char *cls, *why, *name;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		name = likwid(cases[i].arch, "perf", "x", cases[i].encoding, &cls, &why);
		if (!name)
			fail_msg("%s %s: %s", cases[i].arch, cases[i].encoding, why);
		assert_string_equal(name, cases[i].name);
		assert_string_equal(cls, "PMC");
	}
}

static void test_uncore_events_get_their_box_class(void **state)
{
	const char *cls, *why, *name;

	(void)state;
	name = likwid("zen2", "perf", "amd_df/event=0x07,umask=0x38/", "", &cls, &why);
	assert_non_null(name);
	assert_string_equal(name, "DATA_FROM_LOCAL_DRAM_CHANNEL");
	assert_string_equal(cls, "DFC");
	name = likwid("zen4", "perf", "amd_l3/event=0x04,umask=0x01/", "", &cls, &why);
	assert_non_null(name);
	assert_string_equal(name, "L3_LOOKUP_STATE_MISS");
	assert_string_equal(cls, "CPMC");
	name = likwid("zen2", "perf", "amd_l3/event=0x06,umask=0x01/", "", &cls, &why);
	assert_non_null(name);
	assert_string_equal(name, "L3_MISS");
	assert_string_equal(cls, "CPMC");
	/* Zen 1: the same DF code is LIKWID's DRAM_CHANNEL_0 in its zen list, and L3_ACCESS is 0x01/0x80 */
	name = likwid("zen1", "perf", "amd_df/event=0x07,umask=0x38/", "", &cls, &why);
	assert_non_null(name);
	assert_string_equal(name, "DRAM_CHANNEL_0");
	assert_string_equal(cls, "DFC");
	name = likwid("zen1", "perf", "amd_l3/event=0x01,umask=0x80/", "", &cls, &why);
	assert_non_null(name);
	assert_string_equal(name, "L3_ACCESS");
	assert_string_equal(cls, "CPMC");
}

static void test_no_name_without_that_umask(void **state)
{
	const char *cls, *why;

	(void)state;
	/* ls_any_fills_from_sys 0x5f on Zen 4: LIKWID lists 0x0f, 0xd0 and 0xdf only */
	assert_null(likwid("zen4", "perf", "x", "pmu=cpu,type=4,config=0x5f44", &cls, &why));
	assert_non_null(strstr(why, "no event with this encoding"));
	/* Zen 2's l2 prefetch misses 0xff: LIKWID's L2_PF_MISS_IN_L3 is 0x1f there */
	assert_null(likwid("zen2", "perf", "x", "pmu=cpu,type=4,config=0xff72", &cls, &why));
	/* LIKWID's zen (Zen 1) list has no 0xae, no 0x72 and no amd_l3 0x04/0xff, which its zen2 list has */
	assert_null(likwid("zen1", "perf", "x", "pmu=cpu,type=4,config=0x2ae", &cls, &why));
	assert_null(likwid("zen1", "perf", "x", "pmu=cpu,type=4,config=0xff72", &cls, &why));
	assert_null(likwid("zen1", "perf", "amd_l3/event=0x04,umask=0xff/", "", &cls, &why));
	/* remote link 0 (amdzen2/data-fabric.json 0x7c7): LIKWID's zen2 list has no such DF event */
	assert_null(likwid("zen2", "perf", "amd_df/event=0x7c7,umask=0x02/", "", &cls, &why));
	/* icx's longest_lat_cache.miss is umask 0x41; LIKWID's icelakeX list has 0x01 only */
	assert_null(likwid("icx", "perf", "x", "pmu=cpu,type=4,config=0x412e", &cls, &why));
	/* exe_activity.bound_on_stores with cmask 2: icelakeX has no threshold for it, sapphirerapids has */
	assert_null(likwid("icx", "perf", "x", "pmu=cpu,type=4,config=0x20040a6", &cls, &why));
	assert_non_null(likwid("spr", "perf", "x", "pmu=cpu,type=4,config=0x20040a6", &cls, &why));
	/* the same event without the cmask is another event */
	assert_null(likwid("spr", "perf", "x", "pmu=cpu,type=4,config=0x40a6", &cls, &why));
	/* LIKWID counts L1D_PEND_MISS_PENDING on PMC2 only on Haswell: no name rather than a group on PMC0 */
	assert_null(likwid("hsw_ep", "perf", "x", "pmu=cpu,type=4,config=0x148", &cls, &why));
	/* Broadwell has no FB_FULL with a threshold of 1 */
	assert_null(likwid("bdw_ep", "perf", "x", "pmu=cpu,type=4,config=0x1000248", &cls, &why));
	/* a config the config directory has no file of (pmucheck discover's) says so */
	assert_null(likwid("discovered", "perf", "x", "pmu=cpu,type=4,config=0x151", &cls, &why));
	assert_non_null(strstr(why, "no LIKWID names for this architecture"));
	/* a software event there is refused for what it is, which no architecture's table would change */
	assert_null(likwid("discovered", "perf", "page-faults", "type=1,config=0x2", &cls, &why));
	assert_non_null(strstr(why, "software and generic events have no LIKWID name"));
	assert_null(likwid("zen4", "perf", "page-faults", "type=1,config=0x2", &cls, &why));
	assert_non_null(strstr(why, "software and generic events have no LIKWID name"));
	/* a PAPI event with no encoding recorded (a derived preset) is no software event */
	assert_null(
		likwid("zen4", "papi", "PAPI_L1_DCM", "papi=0x80000000,component=perf_event", &cls, &why));
	assert_non_null(strstr(why, "no hardware encoding was recorded for this PAPI event"));
	/* an inverted count is another event than the one listed */
	assert_null(likwid("zen5", "perf", "x", "pmu=cpu,type=4,config=0x8000c0", &cls, &why));
}

/* The LIKWID group of a perf metric (name, unit, arch, event, divisor), as text to free. */
static char *group_of(const char *name, const char *unit, const char *arch, const char *event,
		      const char *encoding, unsigned bytes, double divisor)
{
	struct out_metric m;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	memset(&m, 0, sizeof m);
	snprintf(m.name, sizeof m.name, "%s", name);
	snprintf(m.unit, sizeof m.unit, "%s", unit);
	snprintf(m.arch, sizeof m.arch, "%s", arch);
	m.names = names_of(arch);
	snprintf(m.backend, sizeof m.backend, "perf");
	snprintf(m.event, sizeof m.event, "%s", event);
	snprintf(m.encoding, sizeof m.encoding, "%s", encoding);
	m.scale = 1;
	m.bytes = bytes;
	m.divisor = divisor;
	assert_int_equal(out_export_likwid_group(f, &m), 0);
	fclose(f);
	return text;
}

/* A memory-controller event summed over the boxes: one MBOX counter per box, summed in the formula, as
   LIKWID's own MEM groups do. */
static void test_box_wildcard_lists_every_box(void **state)
{
	char *text = group_of("dram_read_bw", "GB/s", "spr", "uncore_imc_*/event=0x05,umask=0xcf/",
			      "sum of 3 boxes,domain=all", 64, 1e9);

	(void)state;
	assert_non_null(strstr(text,
			       "EVENTSET\nMBOX0C0  CAS_COUNT_RD\nMBOX1C0  CAS_COUNT_RD\n"
			       "MBOX2C0  CAS_COUNT_RD\n\n"));
	assert_non_null(strstr(text, "dram_read_bw [GB/s]  (MBOX0C0+MBOX1C0+MBOX2C0)*1.0E-09/1*64/time\n"));
	assert_non_null(strstr(text, "= SUM(CAS_COUNT_RD)*"));
	free(text);
}

/* Linux numbers 12 memory-controller boxes on an Ice Lake server, LIKWID defines MBOX0-MBOX7 there
   (icx.ini's count): the group sums LIKWID's 8, which cover the same channels, and says so; MBOX8C0 would
   be refused as undefined ("Counter MBOX8C0 not defined for current architecture"). */
static void test_box_sum_stays_within_likwids_boxes(void **state)
{
	char *text = group_of("dram_read_bw", "GB/s", "icx", "uncore_imc_*/event=0x04,umask=0x0f/",
			      "sum of 12 boxes,domain=all", 64, 1e9);

	(void)state;
	assert_non_null(strstr(text, "MBOX7C0  CAS_COUNT_RD\n\n"));
	assert_null(strstr(text, "MBOX8C0"));
	assert_non_null(strstr(text, "(MBOX0C0+MBOX1C0+MBOX2C0+MBOX3C0+MBOX4C0+MBOX5C0+MBOX6C0+MBOX7C0)*"));
	assert_non_null(strstr(text, "pmucheck summed Linux's 12 MBOX boxes; LIKWID defines 8"));
	free(text);
}

static void test_group_counter_is_the_first_of_its_class(void **state)
{
	char *text = group_of("l3_miss_rate", "Mevents/s", "zen4", "amd_l3/event=0x04,umask=0x01/", "", 0,
			      1e6);

	(void)state;
	assert_non_null(strstr(text, "EVENTSET\nCPMC0  L3_LOOKUP_STATE_MISS\n"));
	free(text);
}

/* LIKWID programs a core counter for user mode alone unless told KERNEL: a core event validated counting
   user and kernel mode gets PMC0:KERNEL (the formula still names PMC0), one validated in user mode alone the
   plain counter, and one validated in kernel mode alone, which LIKWID cannot count, no group. Uncore counters
   take no option. */
static void test_core_counter_counts_the_validated_domain(void **state)
{
	const char *cls, *why;
	char *text;

	(void)state;
	text = group_of("read_bw", "GB/s", "skx", "l1d.replacement",
			"pmu=cpu,type=4,config=0x151,domain=user+kernel", 64, 1e9);
	assert_non_null(strstr(text, "EVENTSET\nPMC0:KERNEL  L1D_REPLACEMENT\n"));
	assert_non_null(strstr(text, "read_bw [GB/s]  PMC0*1.0E-09/1*64/time\n"));
	/* where LIKWID's perf_event backend cannot open it, LONG says so */
	assert_non_null(strstr(text,
			       "Linux refuses at perf_event_paranoid 2 or more to a user "
			       "without CAP_PERFMON (or root), where the plain PMC0 counts"));
	free(text);
	text = group_of("read_bw", "GB/s", "skx", "l1d.replacement",
			"pmu=cpu,type=4,config=0x151,domain=user", 64, 1e9);
	assert_non_null(strstr(text, "EVENTSET\nPMC0  L1D_REPLACEMENT\n"));
	free(text);
	text = group_of("dram_read_bw", "GB/s", "zen3", "amd_df/event=0x07,umask=0x38/", "", 64, 1e9);
	assert_non_null(strstr(text, "EVENTSET\nDFC0  DRAM_CHANNEL_0\n"));
	free(text);
	assert_null(likwid("skx", "perf", "x", "pmu=cpu,type=4,config=0x151,domain=kernel", &cls, &why));
	assert_non_null(strstr(why, "kernel mode alone"));
}

/* perf-stat.txt and metrics.json for a perf event counted as event with encoding (its domain=), one after
   the other, as text to free. */
static char *perf_of(const char *event, const char *encoding)
{
	struct out_metric m;
	unsigned use = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	memset(&m, 0, sizeof m);
	snprintf(m.name, sizeof m.name, "pages_rate");
	snprintf(m.unit, sizeof m.unit, "Mpages/s");
	snprintf(m.backend, sizeof m.backend, "perf");
	snprintf(m.scope, sizeof m.scope, "thread");
	snprintf(m.event, sizeof m.event, "%s", event);
	snprintf(m.encoding, sizeof m.encoding, "%s", encoding);
	m.names = names_of("skx");
	m.scale = 1;
	m.divisor = 1e6;
	assert_int_equal(out_export_perf_stat(f, &m, &use, 1), 0);
	assert_int_equal(out_export_perf(f, &m, &use, 1), 0);
	fclose(f);
	return text;
}

/* The validated level's modifier goes where perf takes it, once: a name that spells u or k already keeps it
   (perf rejects 'page-faults:u:u'), one with other modifiers gets the letter among them (perf rejects
   '.../p:u'), and a ':' that is part of the name (a tracepoint's) is no modifier. */
static void test_perf_modifier_is_merged_never_doubled(void **state)
{
	static const struct {
		const char *event, *encoding, *perf, *expr;
	} cases[] = {
		{"page-faults:u", "type=1,config=0x2,domain=user", "page-faults:u", "page\\\\-faults:u / "},
		{"instructions:u", "type=0,config=0x1,domain=user", "instructions:u", "instructions:u / "},
		{"page-faults:S", "type=1,config=0x2,domain=user", "page-faults:Su", "page\\\\-faults:Su / "},
		{"page-faults", "type=1,config=0x2,domain=user", "page-faults:u", "page\\\\-faults:u / "},
		{"sched:sched_switch", "type=2,config=0x13c,domain=user", "sched:sched_switch:u",
		 "sched:sched_switch:u / "},
		{"sched:sched_switch:k", "type=2,config=0x13c,domain=kernel", "sched:sched_switch:k",
		 "sched:sched_switch:k / "},
		{"cpu_core/event=0x51,umask=0x1/p", "pmu=cpu_core,type=4,config=0x151,domain=user",
		 "cpu_core/event=0x51,umask=0x1/pu", "cpu_core@event\\\\=0x51\\\\,umask\\\\=0x1@pu / "},
		{"cpu_core/event=0x51,umask=0x1/", "pmu=cpu_core,type=4,config=0x151,domain=user",
		 "cpu_core/event=0x51,umask=0x1/u", "cpu_core@event\\\\=0x51\\\\,umask\\\\=0x1@u / "},
	};
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = perf_of(cases[i].event, cases[i].encoding);

		snprintf(want, sizeof want, "\nperf stat -e '%s' -- ./app\n", cases[i].perf);
		if (!strstr(text, want))
			fail_msg("%s (%s): no line %s in\n%s", cases[i].event, cases[i].encoding, want, text);
		snprintf(want, sizeof want, "\"MetricExpr\": \"%s", cases[i].expr);
		if (!strstr(text, want))
			fail_msg("%s (%s): no %s in\n%s", cases[i].event, cases[i].encoding, want, text);
		free(text);
	}
}

/* Results from before pmucheck recorded domain= say exclude_kernel (user mode) or exclude_user (kernel mode)
   where the perf backend set one: read as such, they keep LIKWID's plain counter, perf's :u, and no group
   for the kernel alone. Where neither is recorded no level is claimed: the plain counter, with a word in
   LONG, and no modifier for perf. */
static void test_older_results_level_is_read_or_not_claimed(void **state)
{
	const char *cls, *why;
	char *text;

	(void)state;
	text = group_of("read_bw", "GB/s", "skx", "l1d.replacement",
			"pmu=cpu,type=4,config=0x151,exclude_kernel", 64, 1e9);
	assert_non_null(strstr(text, "EVENTSET\nPMC0  L1D_REPLACEMENT\n"));
	assert_null(strstr(text, "do not record"));
	free(text);
	assert_null(likwid("skx", "perf", "x", "pmu=cpu,type=4,config=0x151,exclude_user", &cls, &why));
	assert_non_null(strstr(why, "kernel mode alone"));
	text = group_of("read_bw", "GB/s", "skx", "l1d.replacement", "pmu=cpu,type=4,config=0x151", 64, 1e9);
	assert_non_null(strstr(text, "EVENTSET\nPMC0  L1D_REPLACEMENT\n"));
	assert_non_null(
		strstr(text, "\nPMC0: the results do not record the privilege level the event was counted"));
	free(text);
	text = perf_of("l1d.replacement", "pmu=cpu,type=4,config=0x151,exclude_kernel");
	assert_non_null(strstr(text, "\nperf stat -e 'l1d.replacement:u' -- ./app\n"));
	free(text);
	text = perf_of("l1d.replacement", "pmu=cpu,type=4,config=0x151");
	assert_non_null(strstr(text, "\nperf stat -e 'l1d.replacement' -- ./app\n"));
	free(text);
}

/* perf's name for an event PAPI counted by libpfm4's perf:: name (its encoding, ctr_papi.c: no config for
   a software or generic event, which libpfm4 encodes as no raw one): perf's own spelling where it has one,
   else none, with why (never an uncore reason, never a name perf does not parse). */
/* Formula constants in fixed notation (no exponent, which older perf expression lexers do not read), exact
   enough for a config's small scale: 1/65536 was 0.000015 (1.7 % off), 4e-7 was 0, a division by zero. */
static void test_decimals_keep_small_scales(void **state)
{
	char buf[64];

	(void)state;
	out_decimal(buf, sizeof buf, 1.0 / 65536);
	assert_string_equal(buf, "0.000015258789");
	out_decimal(buf, sizeof buf, 4e-7);
	assert_string_equal(buf, "0.0000004");
	out_decimal(buf, sizeof buf, 0.5);
	assert_string_equal(buf, "0.5");
	out_decimal(buf, sizeof buf, 64);
	assert_string_equal(buf, "64");
}

/* perf's names on Zen 1 (zen1.ini): those of amdzen1 that amdzen2, perf's table for family 23 models
   0x50-0x5f, encodes alike; retire token stalls are 0xaf/0x40 in amdzen1 but 0xaf/0x20 in amdzen2 (whose
   0x40 is sc_agu_dispatch_stall), so they go raw, as does an event no amdzen1 name has (0x43). */
static void test_zen1_perf_names_only_where_both_tables_agree(void **state)
{
	static const struct {
		const char *encoding, *perf;
	} cases[] = {
		{"pmu=cpu,type=4,config=0x129", "ls_dispatch.ld_dispatch"},
		{"pmu=cpu,type=4,config=0xff72", "l2_pf_miss_l2_l3"},
		{"pmu=cpu,type=4,config=0x40af", "cpu/event=0xaf,umask=0x40/"},
		{"pmu=cpu,type=4,config=0x5b43", "cpu/event=0x43,umask=0x5b/"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *why, *got = perf_name("zen1", "perf", "x", cases[i].encoding, &why);

		assert_non_null(got);
		assert_string_equal(got, cases[i].perf);
	}
}

static void test_perf_names_libpfm4_generic_events(void **state)
{
	static const struct {
		const char *event, *perf;
	} cases[] = {
		{"perf::PAGE-FAULTS", "page-faults"},
		{"perf::CYCLES", "cycles"},
		{"perf::PERF_COUNT_SW_PAGE_FAULTS", NULL}, /* perf has no perf_count_sw_page_faults */
		{"perf::CYCLES:u", NULL},
	};

	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *why,
			*got = perf_name(NULL, "papi", cases[i].event,
					 "papi=0x40000012,component=perf_event,domain=user+kernel", &why);

		if (cases[i].perf) {
			assert_non_null(got);
			assert_string_equal(got, cases[i].perf);
		} else {
			assert_null(got);
			assert_non_null(why);
			assert_null(strstr(why, "uncore"));
		}
		/* LIKWID has no software or generic events; the reason says so, not an uncore one */
		{
			const char *cls, *lwhy;
			assert_null(likwid("zen4", "papi", cases[i].event,
					   "papi=0x40000012,component=perf_event,domain=user+kernel", &cls,
					   &lwhy));
			assert_non_null(lwhy);
			assert_non_null(strstr(lwhy, "hardware events only"));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_events_by_code_and_umask),
		cmocka_unit_test(test_uncore_events_get_their_box_class),
		cmocka_unit_test(test_no_name_without_that_umask),
		cmocka_unit_test(test_group_counter_is_the_first_of_its_class),
		cmocka_unit_test(test_box_wildcard_lists_every_box),
		cmocka_unit_test(test_box_sum_stays_within_likwids_boxes),
		cmocka_unit_test(test_core_counter_counts_the_validated_domain),
		cmocka_unit_test(test_perf_modifier_is_merged_never_doubled),
		cmocka_unit_test(test_older_results_level_is_read_or_not_claimed),
		cmocka_unit_test(test_perf_names_libpfm4_generic_events),
		cmocka_unit_test(test_zen1_perf_names_only_where_both_tables_agree),
		cmocka_unit_test(test_decimals_keep_small_scales),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
