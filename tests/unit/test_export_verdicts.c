/* test_export_verdicts.c — metric exports from a hand-made events.json with one event of every
 * verdict class (tests/tools/events_every_class.json, measured with configs/skx.ini): only exact and
 * approximate events become metrics, each with one scale for all tools, named by its encoding in
 * each tool's table, with the evidence attached. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfg.h"
#include "out_export.h"
#include "out_report.h"

static char dir[PATH_MAX];

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	char src[PATH_MAX], dst[PATH_MAX], *text;
	const char *top = getenv("TOP");
	FILE *f;

	(void)state;
	snprintf(dir, sizeof dir, "/tmp/pmucheck-export-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(src, sizeof src, "%s/tests/tools/events_every_class.json", top ? top : ".");
	snprintf(dst, sizeof dst, "%s/events.json", dir);
	if (!(text = slurp(src)) || !(f = fopen(dst, "w")))
		return -1;
	fputs(text, f);
	fclose(f);
	free(text);
	snprintf(src, sizeof src, "%s/tests/tools/export_skx/machine.json", top ? top : ".");
	snprintf(dst, sizeof dst, "%s/machine.json", dir);
	if (!(text = slurp(src)) || !(f = fopen(dst, "w")))
		return -1;
	fputs(text, f);
	fclose(f);
	free(text);
	/* peaks.csv as analyze writes it: the indicator of a level and access, with its highest rates of one
	   core and of all (the export takes the higher) */
	snprintf(dst, sizeof dst, "%s/peaks.csv", dir);
	if (!(f = fopen(dst, "w")))
		return -1;
	fputs("level,access,gbps_1_core,indicator,indicator_max_events_per_s_1_core,"
	      "indicator_max_events_per_s_all_cores\n"
	      "L2,read,50,L1D:REPLACEMENT,750000000,1500000000\n"
	      "L3,read,25,L1D:REPLACEMENT,900000000,\n"
	      "DRAM,read,10,BAD_OVERCOUNTS,100000000,200000000\n",
	      f);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

static const char *const bad[] = {
	"BAD_PREFETCH_BLIND", "BAD_OVERCOUNTS",   "BAD_UNDERCOUNTS", "bad-unrelated",
	"bad\\\\-unrelated",  "BAD_NOT_MEASURED", "BAD_BOX"};

static void assert_no_unvalidated(const char *text)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (strstr(text, bad[i]))
			fail_msg("an event of class other than exact/approximate was exported: %s", bad[i]);
}

static char *export(enum out_export_format fmt, const char *file, struct out_export_summary *s)
{
	char path[PATH_MAX + 64];
	struct err e;

	assert_int_equal(out_export(dir, NULL, fmt, cfg_export_names, s, &e), 0);
	snprintf(path, sizeof path, "%s/metrics/%s", dir, file);
	return slurp(path);
}

/* The fixture's events.json, its quantity of event `which` replaced by `quantity` where not NULL, built into
   metrics with its machine.json; *validated may be NULL. */
static json_t *metrics_of(int which, const char *quantity, struct machine *mach, struct out_metric **m,
			  unsigned *n, unsigned *validated)
{
	char path[PATH_MAX + 16];
	unsigned v;
	json_t *ev;
	struct err e;

	snprintf(path, sizeof path, "%s/events.json", dir);
	ev = json_load_file(path, 0, NULL);
	assert_non_null(ev);
	if (quantity)
		json_object_set_new(json_array_get(json_object_get(ev, "events"), which), "quantity",
				    json_string(quantity));
	snprintf(path, sizeof path, "%s/machine.json", dir);
	assert_int_equal(machine_read(path, mach, &e), 0);
	/* the fixture directory is made by mkdtemp under /tmp: its own real path */
	assert_int_equal(out_metrics_build(ev, dir, dir, mach, m, n, validated ? validated : &v, &e), 0);
	return ev;
}

static void test_only_validated_events_become_metrics(void **state)
{
	struct out_metric *m;
	struct machine mach;
	unsigned n, validated;
	json_t *ev;

	(void)state;
	ev = metrics_of(0, NULL, &mach, &m, &n, &validated);
	assert_int_equal(validated, 5);
	assert_int_equal(n, 5);
	for (unsigned i = 0; i < n; i++)
		assert_no_unvalidated(m[i].event);
	assert_string_equal(m[0].name, "read_bw_L2_L3_DRAM");
	assert_string_equal(m[1].name, "read_bw_DRAM");
	assert_string_equal(m[2].name, "write_bw_L3_DRAM");
	assert_string_equal(m[3].name, "loads_plus_stores_rate");
	assert_string_equal(m[4].name, "pages_rate");
	/* the simple scale where analyze found one, the measured one beside it */
	assert_true(m[0].scale == 1 && m[0].measured == 1.004 && m[0].bytes == 64 && m[0].divisor == 1e9);
	assert_string_equal(m[0].arch, "skx");
	assert_true(m[4].bytes == 0 && m[4].divisor == 1e6);
	free(m);
	machine_free(&mach);
	json_decref(ev);
}

/* A sum with weights and level splits (verdict_sum's "1/2 lines_written@DRAM + 1.5 loads") names its metric
   with its signs spelled, not dropped: dropped, it read "12lines_writtenDRAM15loads". */
static void test_a_weighted_sums_metric_name_keeps_its_terms_apart(void **state)
{
	struct out_metric *m;
	struct machine mach;
	unsigned n;
	json_t *ev;

	(void)state;
	ev = metrics_of(3, "1/2 lines_written@DRAM + 1.5 loads", &mach, &m, &n, NULL);
	assert_int_equal(n, 5);
	assert_string_equal(m[3].count_name, "1_over_2_lines_written_at_DRAM_plus_1p5_loads");
	assert_string_equal(m[3].name, "1_over_2_lines_written_at_DRAM_plus_1p5_loads_rate");
	assert_string_equal(m[3].quantity, "1/2 lines_written@DRAM + 1.5 loads");
	free(m);
	machine_free(&mach);
	json_decref(ev);
}

/* Writes text as the fixture's peaks.csv (NULL: frees *was after writing it back); the text it replaced into
   *was, so that a test puts it back. */
static void swap_peaks(const char *text, char **was)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof path, "%s/peaks.csv", dir);
	if (text)
		assert_non_null(*was = slurp(path));
	assert_non_null(f = fopen(path, "w"));
	fputs(text ? text : *was, f);
	fclose(f);
	if (!text)
		free(*was);
}

/* A peaks.csv from before the one-core and all-core rates were split had one rate, the higher already: the
   export takes it as it took the higher of the two. */
static void test_a_peaks_csv_of_one_rate_still_gives_the_peak(void **state)
{
	struct out_export_summary s;
	char *t, *was;

	(void)state;
	swap_peaks("level,access,gbps_1_core,indicator,indicator_max_events_per_s\n"
		   "L2,read,50,L1D:REPLACEMENT,1500000000\n"
		   "L3,read,25,L1D:REPLACEMENT,900000000\n",
		   &was);
	t = export(OX_PERF, "metrics.json", &s);
	assert_non_null(t);
	assert_non_null(strstr(t, "\"l1d.replacement / duration_time / 1500000000\""));
	free(t);
	/* ... but it is no one core's rate, which LIKWID's per-thread metric needs: no of-peak there */
	t = export(OX_LIKWID, "skylakeX/READ_BW_L2_L3_DRAM.txt", &s);
	assert_non_null(t);
	assert_null(strstr(t, "of peak"));
	assert_non_null(strstr(t, "No of-peak metric: peaks.csv has no one-core rate of L1D:REPLACEMENT"));
	free(t);
	swap_peaks(NULL, &was);
}

/* Where analyze found no one-core rate for the indicator (peaks.csv's 1_core empty), a core counter's LIKWID
   group has no of-peak metric, and LONG says why: the all-core rate it fell back to put a core at its own
   peak at a fraction of 100 %. perf, which sums the threads, keeps the all-core reference. */
static void test_likwid_leaves_of_peak_out_without_a_one_core_rate(void **state)
{
	struct out_export_summary s;
	char *t, *was;

	(void)state;
	swap_peaks("level,access,gbps_1_core,indicator,indicator_max_events_per_s_1_core,"
		   "indicator_max_events_per_s_all_cores\n"
		   "L2,read,50,L1D:REPLACEMENT,,1500000000\n",
		   &was);
	t = export(OX_LIKWID, "skylakeX/READ_BW_L2_L3_DRAM.txt", &s);
	assert_non_null(t);
	assert_null(strstr(t, "of peak"));
	assert_non_null(strstr(t,
			       "No of-peak metric: peaks.csv has no one-core rate of L1D:REPLACEMENT, "
			       "the 100 % of a metric LIKWID evaluates per hardware thread; its highest "
			       "rate (1500000000/s, L2 read) may be all cores'"));
	free(t);
	t = export(OX_PERF, "metrics.json", &s);
	assert_non_null(t);
	assert_non_null(strstr(t, "\"l1d.replacement / duration_time / 1500000000\""));
	free(t);
	swap_peaks(NULL, &was);
}

static void test_perf_expressions_use_one_scale_and_perf_names(void **state)
{
	struct out_export_summary s;
	char *t = export(OX_PERF, "metrics.json", &s);

	(void)state;
	assert_non_null(t);
	assert_int_equal(s.metrics, 5);
	assert_int_equal(s.skipped, 0);
	assert_no_unvalidated(t);
	/* config=0x151 is event 0x51 umask 0x01: perf's skylakex table calls it l1d.replacement */
	assert_non_null(strstr(t, "\"l1d.replacement / 1 * 64 / 1000000000 / duration_time\""));
	/* '/' as '@', '\' before ',' and '=' (doubled inside JSON) */
	assert_non_null(strstr(t, "\"amd_umc_0@umc_cas_cmd.rd\\\\,umask\\\\=0x1@ / 1 * 64 / "));
	assert_non_null(strstr(t, "\"l2_lines_out.non_silent / 0.5 * 64 / 1000000000 / duration_time\""));
	assert_non_null(strstr(t, "\"page\\\\-faults / 1 / 1000000 / duration_time\""));
	/* the evidence: class, levels, prefetch state, error, R^2, the results directory */
	assert_non_null(
		strstr(t, "L1D:REPLACEMENT is exact: scale 1 events per lines_read (measured 1.004;"));
	assert_non_null(strstr(t,
			       "held at L2, L3, DRAM; prefetchers both; privilege level not recorded; "
			       "error 0.40 %; R^2 0.99995"));
	assert_non_null(strstr(t, dir));
	/* share of the highest rate measured where it is the indicator (L2 read, not L3 read) */
	assert_non_null(strstr(t, "\"l1d.replacement / duration_time / 1500000000\""));
	assert_non_null(strstr(t, "\"read_bw_L2_L3_DRAM_of_peak\""));
	assert_non_null(strstr(t, "(L2 read: 1500 Mevents/s;"));
	free(t);
}

static void test_likwid_groups_only_for_events_in_likwids_list(void **state)
{
	struct out_export_summary s;
	char *t = export(OX_LIKWID, "skylakeX/READ_BW_L2_L3_DRAM.txt", &s), *w, path[PATH_MAX + 64];

	(void)state;
	assert_non_null(t);
	/* the UMC event, L2_LINES_OUT (no entry in LIKWID's skylakeX list here) and the software event
	   have no LIKWID name */
	assert_int_equal(s.metrics, 2);
	assert_int_equal(s.skipped, 3);
	assert_non_null(strstr(s.skipped_why, "amd_umc_0"));
	assert_non_null(strstr(s.skipped_why, "L2_LINES_OUT:NON_SILENT"));
	assert_non_null(strstr(s.skipped_why, "page-faults"));
	/* no domain recorded (results from before pmucheck recorded it): no level is claimed, the plain
	   counter and a word in LONG */
	assert_non_null(strstr(t, "EVENTSET\nPMC0  L1D_REPLACEMENT\n"));
	assert_non_null(strstr(t, "\nPMC0: the results do not record the privilege level"));
	assert_non_null(strstr(t, "read_bw_L2_L3_DRAM [GB/s]  PMC0*1.0E-09/1*64/time\n"));
	/* LIKWID evaluates it per hardware thread: its 100 % is what one core reached (L3 read's 900 M/s), not
	   L2 read's 1500 M/s of all cores, at which a core at its peak would read 60 % */
	assert_non_null(strstr(t, "read_bw_L2_L3_DRAM of peak [%]  100*PMC0/time/900000000\n"));
	assert_non_null(strstr(t,
			       "/time/900000000 (the highest rate one core reached: LIKWID evaluates it per "
			       "hardware thread, L3 read)\n"));
	assert_non_null(strstr(t, "LONG\nFormulas:\n"));
	free(t);
	snprintf(path, sizeof path, "%s/metrics/skylakeX/LOADS_PLUS_STORES_RATE.txt", dir);
	w = slurp(path);
	assert_non_null(w);
	assert_non_null(strstr(w, "PMC0  MEM_INST_RETIRED_ALL_LOADS"));
	assert_no_unvalidated(w);
	free(w);
}

static void test_papi_presets_use_integer_postfix(void **state)
{
	struct out_export_summary s;
	char *t = export(OX_PAPI, OUT_PAPI_FILE, &s);

	(void)state;
	assert_non_null(t);
	assert_int_equal(s.metrics, 4); /* the perf-syntax UMC event has no PAPI name */
	assert_no_unvalidated(t);
	assert_non_null(strstr(t, "\nCPU,skx\n"));
	assert_non_null(strstr(t, "PAPI_USER_EVENTS_FILE="));
	assert_non_null(strstr(t, "# Not exported (PAPI cannot take them):\n#   amd_umc_0/"));
	assert_non_null(strstr(t,
			       "PRESET,PMUCHECK_LINES_READ_L2_L3_DRAM,NOT_DERIVED,L1D:REPLACEMENT,"
			       "LDESC,\""));
	/* scale 1/2: twice the count is the number of lines */
	assert_non_null(strstr(t,
			       "PRESET,PMUCHECK_LINES_WRITTEN_L3_DRAM,DERIVED_POSTFIX,N0|2|*|,"
			       "L2_LINES_OUT:NON_SILENT,LDESC,\""));
	assert_non_null(strstr(t, "PRESET,PMUCHECK_PAGES,NOT_DERIVED,perf::PAGE-FAULTS,LDESC,\""));
	free(t);
}

static void test_papi_postfix_needs_an_integer_ratio(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(out_papi_postfix(1, b, sizeof b), "");
	assert_string_equal(out_papi_postfix(8, b, sizeof b), "N0|8|/|");
	assert_string_equal(out_papi_postfix(0.25, b, sizeof b), "N0|4|*|");
	assert_null(out_papi_postfix(1.5, b, sizeof b));
}

static void test_missing_events_json_is_usage_error_and_writes_nothing(void **state)
{
	char empty[PATH_MAX + 8], metrics[PATH_MAX + 16];
	struct out_export_summary s;
	struct err e;

	(void)state;
	snprintf(empty, sizeof empty, "%s/sub", dir);
	mkdir(empty, 0777);
	assert_int_equal(out_export(empty, NULL, OX_PERF, cfg_export_names, &s, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "run 'pmucheck analyze"));
	snprintf(metrics, sizeof metrics, "%s/metrics", empty);
	assert_int_equal(access(metrics, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_only_validated_events_become_metrics),
		cmocka_unit_test(test_a_weighted_sums_metric_name_keeps_its_terms_apart),
		cmocka_unit_test(test_perf_expressions_use_one_scale_and_perf_names),
		cmocka_unit_test(test_a_peaks_csv_of_one_rate_still_gives_the_peak),
		cmocka_unit_test(test_likwid_groups_only_for_events_in_likwids_list),
		cmocka_unit_test(test_likwid_leaves_of_peak_out_without_a_one_core_rate),
		cmocka_unit_test(test_papi_presets_use_integer_postfix),
		cmocka_unit_test(test_papi_postfix_needs_an_integer_ratio),
		cmocka_unit_test(test_missing_events_json_is_usage_error_and_writes_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
