/* test_cfg_load — the config loader: the values it reads, and file:line + E_USAGE for every kind of
 * malformed input (with nothing left behind to free). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cfg.h"

static int load_text(const char *text, struct cfg *c, struct err *e)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = cfg_load_stream(f, "t.ini", c, e);
	fclose(f);
	return rc;
}

#define ARCH "[arch]\nname = t\ntitle = T\nvendor = GenuineIntel\nmatch = 6:0x3f\nprefetch = none\n"

static void test_event_keys_are_read(void **state)
{
	static const char text[] = ARCH "\n"
					"[event A]\n" /* line 8 */
					"spec = hswep_unc_qpi*::UNC_Q_RXL_FLITS_G1:DRS_DATA\n"
					"expect = lines_read * 8\n"
					"scope = socket\n"
					"levels = L3, DRAM\n"
					"prefetch = off\n"
					"placement = remote\n"
					"conflict = qpi_filter\n"
					"note = n ; inline comment\n"
					"[event B]\n" /* line 17 */
					"spec = cpu/event=0x44,umask=0xff/u\n"
					"expect = split_loads\n"
					"[event C]\n"
					"spec = amd_df/event=0x07,umask=0x38/\n"
					"expect = lines_demand_read * ?\n";
	struct cfg c;
	struct err e;
	const struct cfg_event *a, *b, *d;

	(void)state;
	assert_int_equal(load_text(text, &c, &e), 0);
	assert_int_equal(c.nevents, 3);
	a = cfg_event_find(&c, "A");
	b = cfg_event_find(&c, "B");
	d = cfg_event_find(&c, "C");
	/* '?': an unknown share of the quantity, recorded as scale 0 */
	assert_non_null(d);
	assert_int_equal(d->quantity, CFG_Q_lines_demand_read);
	assert_true(d->scale == 0);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->line, 8);
	assert_int_equal(b->line, 17);
	assert_int_equal(a->backend, CFG_PAPI);
	assert_int_equal(a->quantity, CFG_Q_lines_read);
	assert_true(a->scale == 8.0);
	assert_int_equal(a->scope, CFG_SCOPE_SOCKET);
	assert_int_equal(a->levels, CFG_L3 | CFG_DRAM);
	assert_int_equal(a->prefetch, CFG_PF_OFF);
	assert_int_equal(a->placement, CFG_REMOTE);
	assert_string_equal(a->conflict, "qpi_filter");
	assert_string_equal(a->note, "n");
	/* defaults */
	assert_int_equal(b->backend, CFG_PERF);
	assert_int_equal(b->quantity, CFG_Q_split_loads);
	assert_true(b->scale == 1.0);
	assert_int_equal(b->scope, CFG_SCOPE_CORE);
	assert_int_equal(b->levels, CFG_LEVELS_ALL);
	assert_int_equal(b->prefetch, CFG_PF_BOTH);
	assert_null(b->conflict);
	assert_string_equal(cfg_quantity_name(b->quantity), "split_loads");
	assert_string_equal(cfg_quantity_name(CFG_Q_cycles), "cycles");
	assert_string_equal(c.arch.name, "t");
	assert_int_equal(c.arch.nmatch, 1);
	assert_int_equal(c.arch.match[0].family, 6);
	assert_int_equal(c.arch.match[0].model_lo, 0x3f);
	assert_int_equal(c.arch.match[0].model_hi, 0x3f);
	cfg_free(&c);
}

/* The core's L1 ports, each given alone or not at all (0): what is not given is not judged (kern.h). */
static void test_port_limits_are_read(void **state)
{
	static const char text[] = ARCH "load_bytes_per_cycle = 32\nstores_per_cycle = 1.5\n";
	struct cfg c;
	struct err e;

	(void)state;
	assert_int_equal(load_text(text, &c, &e), 0);
	assert_true(c.arch.ports.load_bytes == 32);
	assert_true(c.arch.ports.store_bytes == 0);
	assert_true(c.arch.ports.loads == 0);
	assert_true(c.arch.ports.stores == 1.5);
	cfg_free(&c);
}

static void test_run_lists_expand_ranges(void **state)
{
	static const char text[] = "[preset p]\ntitle = P\n"
				   "[run p.a]\n"
				   "kernels = nopread, load.avx512\n"
				   "args = 0..40/10 44..48/2 63\n"
				   "threads = 1 2 socket\n"
				   "sizes = 32K 1M\n"
				   "prefetch = on off\n"
				   "events = lines_read cycles\n"
				   "repeat = 7\n"
				   "[run p.b]\n"
				   "kernels = chase\n";
	struct cfg c;
	struct err e;
	const struct cfg_run *a, *b;
	static const unsigned long long args[] = {0, 10, 20, 30, 40, 44, 46, 48, 63};

	(void)state;
	assert_int_equal(load_text(text, &c, &e), 0);
	assert_int_equal(c.npresets, 1);
	assert_int_equal(c.presets[0].nruns, 2);
	a = &c.runs[c.presets[0].first_run];
	b = a + 1;
	assert_string_equal(a->kernels[1], "load.avx512");
	assert_int_equal(a->args.n, sizeof args / sizeof args[0]);
	for (unsigned i = 0; i < a->args.n; i++)
		assert_int_equal(a->args.v[i], args[i]);
	assert_int_equal(a->threads.n, 3);
	assert_int_equal(a->threads.v[2], CFG_THREADS_SOCKET);
	assert_int_equal(a->sizes.v[0], 32768);
	assert_int_equal(a->sizes.v[1], 1048576);
	assert_int_equal(a->levels, 0);
	assert_int_equal(a->prefetch, CFG_PF_BOTH);
	assert_true(cfg_run_wants(a, CFG_Q_cycles));
	assert_false(cfg_run_wants(a, CFG_Q_loads));
	assert_int_equal(a->repeat, 7);
	/* defaults */
	assert_int_equal(b->levels, CFG_LEVELS_ALL);
	assert_int_equal(b->threads.n, 1);
	assert_int_equal(b->threads.v[0], 1);
	assert_int_equal(b->placement, CFG_LOCAL);
	assert_int_equal(b->prefetch, CFG_PF_ON);
	assert_true(cfg_run_wants(b, CFG_Q_loads));
	cfg_free(&c);
}

/* Each case: the text, the line the message must name, and a phrase it must contain. */
static const struct bad {
	const char *text;
	unsigned line;
	const char *phrase;
} bad[] = {
	{"[bogus]\nx = 1\n", 1, "unknown section [bogus]"},
	{ARCH "[event A]\nspec = L1D:REPLACEMENT\nexpect = loads\ncolour = red\n", 10,
	 "unknown key 'colour'"},
	{ARCH "[event A]\nspec = X\nexpect = loads\n[event A]\nspec = Y\nexpect = loads\n", 10,
	 "duplicate event 'A' (first at line 7)"},
	{ARCH "[event A]\nspec = X\nexpect = loads * abc\n", 9,
	 "scale 'abc' is not a positive decimal number"},
	{ARCH "[event A]\nspec = X\nexpect = loads * -2\n", 9, "not a positive decimal number"},
	/* decimal, as configs/README.md says: strtod alone took C's hex (0x10 as 16), inf and exponents */
	{ARCH "[event A]\nspec = X\nexpect = pages * 0x10\n", 9,
	 "scale '0x10' is not a positive decimal number"},
	{ARCH "[event A]\nspec = X\nexpect = pages * 1e3\n", 9,
	 "scale '1e3' is not a positive decimal number"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nlevels = L1 L1\n", 10,
	 "levels: 'L1' repeats what the list already names"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nprefetch = both on\n", 10,
	 "prefetch: 'on' repeats what the list already names"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nprefetch = on both\n", 10,
	 "prefetch: 'both' repeats what the list already names"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nlevels = L1 all\n", 10,
	 "levels: 'all' repeats what the list already names"},
	{ARCH "[event A]\nspec = X\nexpect = loads * ??\n", 9, "not a positive decimal number or '?'"},
	{ARCH "[event A]\nexpect = loads\n[event B]\nspec = X\nexpect = loads\n", 7,
	 "missing required key 'spec'"},
	{ARCH "[event A]\nspec = X\nexpect = bytes\n", 9, "'bytes' is not a quantity"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nscope = package\n", 10, "not core or socket"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nlevels = L1 L4\n", 10, "'L4' is not one of"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nexpect = stores\n", 10, "key 'expect' given twice"},
	{ARCH "[event A]\nspec = X\nexpect = loads\n  more text\n", 10, "given twice"},
	{"spec = X\n[arch]\n", 1, "before the first [section]"},
	{ARCH "[event A]\n[event B]\nspec = X\nexpect = loads\n", 7, "section has no keys"},
	{ARCH "[event A]\nspec = cpu/event=0xzz/\nexpect = loads\n", 8, "needs a number, not '0xzz'"},
	{ARCH "[event A]\nspec = cpu/event=0x10;umask=1/\nexpect = loads\n", 8,
	 "needs a number, not '0x10;umask=1'"},
	{ARCH "[event A]\nspec = cpu/event=0x10/q\nexpect = loads\n", 8, "unknown modifier 'q'"},
	{ARCH "[event A]\nspec = cpu/event=0x10/p\nexpect = loads\n", 8, "modifier 'p' is not supported"},
	{ARCH "[event A]\nspec = L1D REPLACEMENT\nexpect = loads\n", 8, "neither perf syntax"},
	{"[event A]\nspec = X\nexpect = loads\n", 1, "events need an [arch] section"},
	{"[arch]\nname = t\ntitle = T\nvendor = GenuineIntel\nmatch = 6\nprefetch = none\n", 5,
	 "'6' is not family:model"},
	{"[arch]\nname = t\ntitle = T\nvendor = GenuineIntel\nmatch = 6:0x40-0x3f\nprefetch = none\n", 5,
	 "lo-hi range"},
	{"[arch]\nname = t\ntitle = T\nvendor = Cyrix\nmatch = any\nprefetch = none\n", 4, "vendor"},
	{"[arch]\nname = t\ntitle = T\nvendor = AuthenticAMD\nmatch = any\nprefetch = amd\n", 6,
	 "prefetch: 'amd' is not one of intel-1a4, intel-knl, amd-c0000108, none, listed"},
	{ARCH "[arch]\nname = u\n", 7, "[arch] given twice (first at line 1)"},
	/* pairs cfg_select.c chooses for no CPU: loaded, they left every AMD CPU on generic.ini */
	{"[arch]\nname = t\ntitle = T\nvendor = AuthenticAMD\nmatch = any\nprefetch = none\n", 1,
	 "[arch]: match = any with vendor = AuthenticAMD is chosen for no CPU"},
	{"[arch]\nname = t\ntitle = T\nvendor = any\nmatch = 0x19:*\nprefetch = none\n", 1,
	 "[arch]: vendor = any with a FAMILY:MODEL match is chosen for no CPU"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nthreads = 0\n", 5, "0 is less than 1"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nsizes = 100\n", 5, "not a multiple of 64"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nargs = 5..1\n", 5, "range 5..1/1 is empty"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nsizes = 16k/8k..32k\n", 5,
	 "sizes: '16k/8k..32k' is not a range"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nargs = 0..5000\n", 5, "args: list longer than"},
	/* a run's most and each value once: a step was cut at 64 sizes, 128 args, and measured 16k twice */
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nsizes = 64..6400/64\n", 5,
	 "sizes: 100 values, more than the 64 a step takes"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = nopread\nargs = 0..200\n", 5,
	 "args: 201 values, more than the 128 a step takes"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nsizes = 16k 16k\n", 5,
	 "sizes: 16384 is listed twice"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = nopread\nargs = 1 2 1\n", 5, "args: 1 is listed twice"},
	/* as a run's lists: a step was cut at 16 thread counts without a word, measured load twice */
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nthreads = 1 2 1\n", 5,
	 "threads: 1 is listed twice"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nthreads = 1..17\n", 5,
	 "threads: 17 values, more than the 16 a step takes"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load, copy load\n", 4,
	 "kernels: 'load' is listed twice"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load.gpr load\n", 4,
	 "kernels: 'load.gpr' and 'load': a family and a variant of it"},
	/* machine.json's writer refuses other text: the config and the event's hypothesis went missing */
	{"[preset p]\ntitle = Caf\xe9\n[run p.a]\nkernels = load\n", 2, "not UTF-8 text"},
	{"[preset p]\ntitle = \xed\xa0\x80\n[run p.a]\nkernels = load\n", 2, "not UTF-8 text"},
	{ARCH "[event e1\nspec = X\n", 7, "section header without its closing ']'"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nrepeat = -1\n", 5, "not a non-negative number"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nrepeat = 99999999999999999999999\n", 5,
	 "too large"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nsizes = 1Q\n", 5, "unknown unit"},
	{"[preset p]\ntitle = P\n[run q.a]\nkernels = load\n", 3, "must follow [preset q]"},
	{"[preset p]\ntitle = P\n", 1, "preset 'p' has no [run p.STEP] sections"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nlevels = L1\nsizes = 64\n", 3,
	 "levels or sizes, not both"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nreference = no/such.csv\n", 5, "cannot read"},
	/* a directory reads: the run copied it at the end, and failed after it had measured */
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nreference = .\n", 5, "is not a file"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nevents = lines_read bogus\n", 5,
	 "'bogus' is not all, none or a quantity"},
	{"[arch]\nname = t\nthis line has no equals sign\n", 3, "expected [section], key = value"},
	{ARCH "pmu_uncore = skx_unc_imc*, skx/unc\n", 7, "'skx/unc' is not a libpfm4 PMU name"},
	{ARCH "pmu_uncore = skx_unc_*_x\n", 7, "'skx_unc_*_x' is not a libpfm4 PMU name"},
	{ARCH "pmu_uncore = *\n", 7, "'' is not a libpfm4 PMU name"},
	{ARCH "pmu_uncore = ,\n", 7, "pmu_uncore: empty list"},
	/* a word of a list given twice, refused as configs/README.md says (they loaded) */
	{ARCH "pmu_uncore = skx_unc_imc*, skx_unc_cha, skx_unc_imc*\n", 7,
	 "pmu_uncore: 'skx_unc_imc*' is listed twice"},
	{"[arch]\nname = t\ntitle = T\nvendor = GenuineIntel\n"
	 "match = 6:0x3f, 6:0x4f 6:0x3f\nprefetch = none\n",
	 5, "match: family 0x6 models 0x3f-0x3f are listed twice"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nevents = loads stores loads\n", 5,
	 "events: 'loads' is listed twice"},
	{ARCH "max_ghz = 4.9GHz\n", 7,
	 "max_ghz: '4.9GHz' is not a clock in GHz (a decimal number above 0, below 10)"},
	{ARCH "max_ghz = 0x5\n", 7, "max_ghz: '0x5' is not a clock in GHz"},
	{ARCH "max_ghz = 0\n", 7, "max_ghz: '0' is not a clock in GHz"},
	{ARCH "max_ghz = 17.4\n", 7, "max_ghz: '17.4' is not a clock in GHz"},
	{ARCH "load_bytes_per_cycle = 32B\n", 7,
	 "load_bytes_per_cycle: '32B' is not a count per core cycle (a decimal number above 0, at most 256)"},
	{ARCH "store_bytes_per_cycle = 0\n", 7, "store_bytes_per_cycle: '0' is not a count per core cycle"},
	{ARCH "store_bytes_per_cycle = 512\n", 7, "at most 256)"},
	{ARCH "loads_per_cycle = 9\n", 7,
	 "loads_per_cycle: '9' is not a count per core cycle (a decimal "
	 "number above 0, at most 8)"},
	{ARCH "stores_per_cycle = -1\n", 7, "stores_per_cycle: '-1' is not a count per core cycle"},
	{ARCH "stores_per_cycle = 5\n", 7, "at most 4)"},
	{ARCH "[export]\ncore 0x29 = a b\n", 8, "expected core EVENT/UMASK"},
	{ARCH "[export]\ncore 0x29/0x100 = a b\n", 8, "umask and cmask up to 0xff"},
	{ARCH "[export]\ncore 0x29/0x01/4/0x1/5 = a b\n", 8, "expected core EVENT/UMASK"},
	{ARCH "[export]\ncore 0x29/0x01x = a b\n", 8, "expected core EVENT/UMASK"},
	{ARCH "[export]\ncore 0x29/0x01 = a\n", 8, "is not two names"},
	{ARCH "[export]\ncore 0x29/0x01 = a b c\n", 8, "is not two names"},
	{ARCH "[export]\ncore 0x29/0x01 = - -\n", 8, "names nothing"},
	{ARCH "[export]\ncore 0x29/0x01 = a/b c\n", 8, "is not two names"},
	{ARCH "[export]\ncore 0x29/0x01 = a b\ncore 0x29/1 = c d\n", 9, "'core 0x29/1' given twice"},
	{ARCH "[export]\nuncore amd_df 0x07 = N DFC\n", 8, "expected uncore PMU EVENT/UMASK"},
	{ARCH "[export]\nuncore amd_df 0x07/0x38 = N -\n", 8, "its counter class"},
	{ARCH "[export]\nevent 0x29/0x01 = a b\n", 8, "unknown key 'event 0x29/0x01'"},
	{ARCH "[export]\nlikwid_groups = a/b\n", 8, "'a/b' is not a directory name"},
	{ARCH "[export]\nlikwid_groups = x\n[export]\nlikwid_groups = y\n", 9, "[export] given twice"},
	{"[arch x]\nname = t\n", 1, "[arch x]: [arch] takes no name"},
	{ARCH "[event]\nspec = X\nexpect = loads\n", 7, "expected [event NAME] with a name"},
	{ARCH "[event A]\nspec =\nexpect = loads\n", 8, "key 'spec' is empty"},
	{"[arch]\nname = t t\n", 2, "name: 't t' is not a name"},
	{"[arch]\nname = t\ntitle = T\nvendor = GenuineIntel\nmatch = 0x200:1\nprefetch = none\n", 5,
	 "family '0x200' is not a number up to 0x1ff"},
	{"[arch]\nname = t\ntitle = T\nvendor = GenuineIntel\nmatch = ,\nprefetch = none\n", 5,
	 "match: empty list"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nconflict = a/b\n", 10, "conflict: 'a/b' is not a tag"},
	{ARCH "[event A]\nspec = X\nexpect = loads\nunverified =\n", 10, "unverified: give the reason"},
	{ARCH "[event A]\nspec = X\nexpect = loads lines_read\n", 9, "expected 'quantity * scale'"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\n[preset p]\ntitle = Q\n", 5,
	 "duplicate preset 'p' (first at line 1)"},
	{"[preset p.q]\ntitle = P\n", 1, "must not contain '.'"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\n[run p.a]\nkernels = load\n", 5,
	 "duplicate run 'p.a' (first at line 3)"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load/sse\n", 4,
	 "kernels: 'load/sse' is not family or family.variant"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = ,\n", 4, "kernels: empty list"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nthreads = 5000\n", 5, "more than 4096"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nevents = ,\n", 5, "events: empty list"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nrepeat = 0\n", 5, "repeat: must be at least 1"},
	{"[preset p]\ntitle = P\n[run p.a]\nkernels = load\nreference = ../x.csv\n", 5,
	 "must be a path inside the config directory"},
};

/* [export]: perf's and LIKWID's names by encoding, '-' for a tool that has none; the lookups find an
   entry by every field of its encoding and no other. */
static void test_export_names_are_read_by_encoding(void **state)
{
	static const char text[] = ARCH
		"[export]\n"
		"likwid_groups = skylakeX\n"
		"core 0xd0/0x81 = mem_inst_retired.all_loads MEM_INST_RETIRED_ALL_LOADS\n"
		"core 0xa3/0x0c/12 = cycle_activity.stalls_l1d_miss -\n"
		"core 0x1b7/0x01/0/0x94002380 = - OFFCORE_X\n"
		"uncore amd_df 0x07/0x38 = DRAM_CHANNEL_0 DFC\n"
		"uncore uncore_imc 0x04/0x0f = CAS_COUNT_RD\tMBOX\t8\n"; /* LIKWID's box count, tab-separated */
	const struct export_core_name *n;
	const struct export_uncore_name *u;
	struct cfg c;
	struct err e;

	(void)state;
	assert_int_equal(load_text(text, &c, &e), 0);
	assert_string_equal(c.exports.likwid_dir, "skylakeX");
	assert_int_equal(c.exports.ncore, 3);
	assert_non_null(n = export_core_lookup(&c.exports, 0xd0, 0x81, 0, 0));
	assert_string_equal(n->perf, "mem_inst_retired.all_loads");
	assert_string_equal(n->likwid, "MEM_INST_RETIRED_ALL_LOADS");
	assert_non_null(n = export_core_lookup(&c.exports, 0xa3, 0x0c, 12, 0));
	assert_null(n->likwid);
	assert_null(export_core_lookup(&c.exports, 0xa3, 0x0c, 0, 0)); /* another cmask: another event */
	assert_non_null(n = export_core_lookup(&c.exports, 0x1b7, 0x01, 0, 0x94002380));
	assert_null(n->perf);
	assert_null(export_core_lookup(&c.exports, 0x1b7, 0x01, 0, 0x94002381));
	assert_non_null(u = export_uncore_lookup(&c.exports, "amd_df", 0x07, 0x38));
	assert_string_equal(u->likwid, "DRAM_CHANNEL_0");
	assert_int_equal(u->lunits, 0);
	assert_non_null(u = export_uncore_lookup(&c.exports, "uncore_imc", 0x04, 0x0f));
	assert_string_equal(u->lclass, "MBOX");
	assert_int_equal(u->lunits, 8);
	assert_non_null(u = export_uncore_lookup(&c.exports, "amd_df", 0x07, 0x38));
	assert_string_equal(u->lclass, "DFC");
	assert_null(export_uncore_lookup(&c.exports, "amd_l3", 0x07, 0x38));
	cfg_free(&c);
	assert_null(c.exports.core);
}

static void test_malformed_inputs_name_file_and_line(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct cfg c;
		struct err e = {""};
		char prefix[32];
		int rc = load_text(bad[i].text, &c, &e);

		snprintf(prefix, sizeof prefix, "t.ini:%u: ", bad[i].line);
		if (rc != E_USAGE || strncmp(e.msg, prefix, strlen(prefix)) || !strstr(e.msg, bad[i].phrase))
			fail_msg("case %zu: rc %d, message '%s'; wanted '%s...%s'", i, rc, e.msg, prefix,
				 bad[i].phrase);
		assert_int_equal(c.nevents, 0);
		assert_null(c.path);
		assert_null(c.events);
	}
}

static void test_long_lines_and_names_are_refused(void **state)
{
	char text[600];
	struct cfg c;
	struct err e;

	(void)state;
	/* "note = " and 191 digits: 198 characters, the longest line inih reads whole */
	snprintf(text, sizeof text, "%s[event A]\nspec = X\nexpect = loads\nnote = %0191d\n", ARCH, 0);
	assert_int_equal(load_text(text, &c, &e), 0);
	assert_int_equal(strlen(c.events[0].note), 191);
	cfg_free(&c);
	snprintf(text, sizeof text, "%s[event A]\nspec = X\nexpect = loads\nnote = %0192d\n", ARCH, 0);
	assert_int_equal(load_text(text, &c, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "t.ini:10: line longer than 198"));
	snprintf(text, sizeof text, "%s[event %060d]\nspec = X\nexpect = loads\n", ARCH, 0);
	assert_int_equal(load_text(text, &c, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "t.ini:7: section name longer than 49"));
}

static void test_nul_byte_is_refused(void **state)
{
	static const char text[] = "[arch]\nname = t\0x\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	struct cfg c;
	struct err e;

	(void)state;
	assert_int_equal(cfg_load_stream(f, "t.ini", &c, &e), E_USAGE);
	fclose(f);
	assert_non_null(strstr(e.msg, "t.ini:2: "));
}

static void test_missing_file_is_usage_error(void **state)
{
	struct cfg c;
	struct err e;

	(void)state;
	assert_int_equal(cfg_load("/nonexistent/x.ini", &c, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "/nonexistent/x.ini"));
}

/* A UTF-8 byte-order mark before the first line (as Windows editors write one) is no part of it: the
   config reads as without it, and its lines keep their numbers. */
static void test_a_leading_byte_order_mark_is_skipped(void **state)
{
	struct cfg c;
	struct err e;

	(void)state;
	assert_int_equal(load_text("\xEF\xBB\xBF" ARCH, &c, &e), 0);
	assert_true(c.has_arch);
	assert_string_equal(c.arch.name, "t");
	cfg_free(&c);
	assert_int_equal(load_text("\xEF\xBB\xBF[arch]\nnokey = 1\n", &c, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "t.ini:2: [arch]: unknown key 'nokey'"));
}

/* A directory, or a file with nothing in it, is said as such, not as a config without an [arch]. */
static void test_a_directory_or_an_empty_file_is_said_as_such(void **state)
{
	struct cfg c;
	struct err e;

	(void)state;
	assert_int_equal(cfg_load("/tmp", &c, &e), E_USAGE);
	assert_string_equal(e.msg, "/tmp is a directory, not a file");
	assert_int_equal(cfg_load("/dev/null", &c, &e), E_USAGE);
	assert_string_equal(e.msg, "/dev/null: empty file");
	assert_int_equal(load_text("", &c, &e), E_USAGE);
	assert_string_equal(e.msg, "t.ini: empty file");
}

/* The real Haswell-EP file carries Molka's QPI hypothesis (8 flits per line, remote, per socket). */
static void test_real_haswell_config(void **state)
{
	char path[4096];
	struct cfg c;
	struct err e;
	const struct cfg_event *ev;

	(void)state;
	assert_int_equal(cfg_dir_file("hsw_ep.ini", path, sizeof path, &e), 0);
	if (cfg_load(path, &c, &e))
		fail_msg("%s", e.msg);
	assert_string_equal(c.arch.pmu, "hsw_ep");
	assert_true(c.arch.max_ghz > 3 && c.arch.max_ghz < 5); /* the fastest Haswell-EP's turbo */
	/* two 32-byte loads and one 32-byte store a cycle (Intel's manual, as the file cites it) */
	assert_true(c.arch.ports.load_bytes == 64 && c.arch.ports.store_bytes == 32);
	assert_true(c.arch.ports.loads == 2 && c.arch.ports.stores == 1);
	/* the uncore PMUs of the architecture, as a comma list with the box kinds' '*' kept */
	assert_non_null(strstr(c.arch.pmu_uncore, "hswep_unc_cbo*,hswep_unc_ha*,hswep_unc_imc*,"));
	assert_null(strchr(c.arch.pmu_uncore, ' '));
	ev = cfg_event_find(&c, "UNC_Q_RXL_FLITS_G1.DRS_DATA");
	assert_non_null(ev);
	assert_int_equal(ev->quantity, CFG_Q_lines_read);
	assert_true(ev->scale == 8.0);
	assert_int_equal(ev->scope, CFG_SCOPE_SOCKET);
	assert_int_equal(ev->placement, CFG_REMOTE);
	ev = cfg_event_find(&c, "UNC_C_TOR_INSERTS.OPC_DRD");
	assert_non_null(ev);
	assert_string_equal(ev->conflict, "cbo_filter");
	cfg_free(&c);
}

static void test_real_presets(void **state)
{
	char path[4096];
	struct cfg c;
	struct err e;
	const struct cfg_preset *p;
	const struct cfg_run *split = NULL;

	(void)state;
	assert_int_equal(cfg_dir_file("presets.ini", path, sizeof path, &e), 0);
	if (cfg_load(path, &c, &e))
		fail_msg("%s", e.msg);
	assert_non_null(cfg_preset_find(&c, "molka2017"));
	assert_non_null(cfg_preset_find(&c, "helm2020"));
	p = cfg_preset_find(&c, "larysch2016");
	assert_non_null(p);
	for (unsigned i = p->first_run; i < p->first_run + p->nruns; i++)
		if (!strcmp(c.runs[i].name, "larysch2016.split"))
			split = &c.runs[i];
	assert_non_null(split);
	assert_int_equal(split->args.n, 64);
	assert_int_equal(split->args.v[63], 63);
	assert_non_null(strstr(split->reference, "reference/larysch2016_skylake.csv"));
	cfg_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_keys_are_read),
		cmocka_unit_test(test_port_limits_are_read),
		cmocka_unit_test(test_run_lists_expand_ranges),
		cmocka_unit_test(test_export_names_are_read_by_encoding),
		cmocka_unit_test(test_malformed_inputs_name_file_and_line),
		cmocka_unit_test(test_long_lines_and_names_are_refused),
		cmocka_unit_test(test_nul_byte_is_refused),
		cmocka_unit_test(test_missing_file_is_usage_error),
		cmocka_unit_test(test_a_leading_byte_order_mark_is_skipped),
		cmocka_unit_test(test_a_directory_or_an_empty_file_is_said_as_such),
		cmocka_unit_test(test_real_haswell_config),
		cmocka_unit_test(test_real_presets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
