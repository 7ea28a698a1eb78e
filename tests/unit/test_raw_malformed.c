/* test_raw_malformed.c — bad or truncated raw.csv / machine.json: E_USAGE, a message naming the file
 * and line, and nothing written (an earlier analysis in the directory stays as it was). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "analyze.h"
#include "raw_read.h"
#include "tools/events.h"

static const struct gen_event few[] = {{"LINES_EXACT", ev_lines}, {"page-faults", ev_faults}};

static char base[64];

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void spit(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Start of line n (1-based) of text. */
static char *line_at(char *text, int n)
{
	while (--n > 0)
		text = strchr(text, '\n') + 1;
	return text;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || strlen(de->d_name) > 2;
	closedir(d);
	return n;
}

/* Runs analyze on a directory holding raw (and machine, when given, else the good one) plus an
   earlier events.md, and checks the failure. */
static void expect_failure(const char *raw, const char *machine, const char *want1, const char *want2)
{
	char dir[64], path[256];
	struct err e = {{0}};
	char *good_machine, *md;
	int rc;

	strcpy(dir, "/tmp/pmucheck-bad.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/machine.json", base);
	good_machine = slurp(path);
	spit(dir, "raw.csv", raw);
	spit(dir, "machine.json", machine ? machine : good_machine);
	spit(dir, "events.md", "earlier analysis\n");
	rc = analyze_dir(dir, NULL, &e);
	assert_int_equal(rc, E_USAGE);
	if (!strstr(e.msg, want1) || (want2 && !strstr(e.msg, want2)))
		fail_msg("message '%s' lacks '%s' / '%s'", e.msg, want1, want2 ? want2 : "");
	assert_int_equal(count_entries(dir), 3);
	snprintf(path, sizeof path, "%s/events.md", dir);
	md = slurp(path);
	assert_string_equal(md, "earlier analysis\n");
	free(md);
	free(good_machine);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

static char *good_raw(void)
{
	char path[256];

	snprintf(path, sizeof path, "%s/raw.csv", base);
	return slurp(path);
}

static void test_truncated_last_row_names_its_line(void **state)
{
	char *raw = good_raw();
	size_t n = strlen(raw);
	int lines = 0;

	(void)state;
	for (size_t i = 0; i < n; i++)
		lines += raw[i] == '\n';
	raw[n - 20] = '\0'; /* cut in the middle of the last row, as an interrupted write would */
	char want[64];
	snprintf(want, sizeof want, "raw.csv:%d:", lines);
	expect_failure(raw, NULL, want, "truncated");
	free(raw);
}

static void test_row_with_missing_fields_names_its_line(void **state)
{
	char *raw = good_raw(), *l = line_at(raw, 5), *comma = strchr(l, ',');

	(void)state;
	memmove(l, comma + 1, strlen(comma + 1) + 1); /* drop the first field of line 5 */
	expect_failure(raw, NULL, "raw.csv:5:", "fields");
	free(raw);
}

static void test_bad_number_names_line_and_column(void **state)
{
	char *raw = good_raw(), *l = line_at(raw, 7);

	(void)state;
	/* field 1 is `rep`: make it text */
	l = strchr(l, ',') + 1;
	*l = 'x';
	expect_failure(raw, NULL, "raw.csv:7:", "'rep'");
	free(raw);
}

static void test_missing_column_is_reported_on_line_one(void **state)
{
	char *raw = good_raw(), *p = strstr(raw, "v_pages");

	(void)state;
	memcpy(p, "v_pagez", 7);
	expect_failure(raw, NULL, "raw.csv:1:", "v_pages");
	free(raw);
}

/* A column named twice (a hand-edited header): which one the file means is not the reader's to guess. */
static void test_a_column_named_twice_is_refused(void **state)
{
	char *raw = good_raw(), *eol = strchr(raw, '\n'), *twice = malloc(strlen(raw) + 16);

	(void)state;
	assert_non_null(twice);
	sprintf(twice, "%.*s,seconds%s", (int)(eol - raw), raw, eol);
	expect_failure(twice, NULL, "raw.csv:1:", "the column 'seconds' is in the header twice");
	free(twice);
	free(raw);
}

/* A raw.csv from before the kernels' access types were recorded: refused, saying why. */
static void test_raw_csv_without_access_column_is_refused_with_the_reason(void **state)
{
	char *raw = good_raw(), *p = strstr(raw, ",access,");

	(void)state;
	memcpy(p, ",acce$$,", 8);
	expect_failure(raw, NULL, "raw.csv:1: header lacks the column 'access'", "measure again");
	free(raw);
}

static void test_unknown_access_type_or_plot_kind_names_its_line(void **state)
{
	char *raw = good_raw(), *p = strstr(line_at(raw, 4), ",read,");

	(void)state;
	memcpy(p, ",reed,", 6);
	expect_failure(raw, NULL, "raw.csv:4:", "'access': bad value 'reed'");
	free(raw);
	raw = good_raw();
	p = strstr(line_at(raw, 6), "bw-size;");
	memcpy(p, "bw-sise;", 8);
	expect_failure(raw, NULL, "raw.csv:6:", "'plots'");
	free(raw);
}

static void test_unknown_status_names_its_line(void **state)
{
	char *raw = good_raw(), *l = line_at(raw, 3), *end = strchr(l, '\n');
	char *p = end;

	(void)state;
	while (*--p != ',')
		;
	/* reason is the last field (empty here), status the one before it: ",ok," -> ",ko," */
	assert_memory_equal(p - 3, ",ok", 3);
	memcpy(p - 2, "ko", 2);
	expect_failure(raw, NULL, "raw.csv:3:", "'status'");
	free(raw);
}

/* A quote opened on line 10 and never closed swallows the rest of the file: the error names the
   line where the record started. */
static void test_unclosed_quote_names_the_line_it_opened_on(void **state)
{
	char *raw = good_raw(), *l = line_at(raw, 10);

	(void)state;
	*l = '"';
	expect_failure(raw, NULL, "raw.csv:10:", "quoted field never closed");
	free(raw);
}

static void test_point_changing_parameters_is_rejected(void **state)
{
	char *raw = good_raw(), *l2 = line_at(raw, 2), *l3 = line_at(raw, 3);

	(void)state;
	/* line 3 repeats point 0 (the second event); give it another kernel name of the same length */
	assert_memory_equal(l2, l3, 10);
	char *k = strstr(l3, "load.sse");
	memcpy(k, "load.xmm", 8);
	expect_failure(raw, NULL, "raw.csv:3:", "point 0");
	free(raw);
}

/* raw with a `span` column after `reps` (the generator writes files from before it): 0 (unknown) on every
   row but line bad_line's, which gets bad. Fields up to `reps` are never quoted. */
static char *with_span(const char *raw, int bad_line, const char *bad)
{
	size_t n = strlen(raw);
	char *out = malloc(2 * n + 64), *o = out;
	int line = 1, field = 0;

	assert_non_null(out);
	for (const char *p = raw; *p; p++) {
		*o++ = *p;
		if (*p == '\n') {
			line++;
			field = 0;
		} else if (*p == ',' && ++field == 14) /* after point .. reps */
			o += sprintf(o, "%s,", line == 1 ? "span" : line == bad_line ? bad : "0");
	}
	*o = '\0';
	return out;
}

/* A pass cannot cover more than the point's buffer: a span beyond `bytes` is refused, naming the line. */
static void test_span_beyond_the_buffer_names_its_line(void **state)
{
	char *raw = good_raw(), *spanned = with_span(raw, 4, "99999999999");

	(void)state;
	assert_non_null(strstr(spanned, ",reps,span,diff,"));
	expect_failure(spanned, NULL, "raw.csv:4:", "'span'");
	free(spanned);
	spanned = with_span(raw, 4, "-1");
	expect_failure(spanned, NULL, "raw.csv:4:", "'span'");
	free(spanned);
	free(raw);
}

/* raw with line `line`'s field of column `column` (header name; the fields up to `event` are never
   quoted) replaced by value. */
static char *with_field(const char *raw, int line, const char *column, const char *value)
{
	char *out = malloc(strlen(raw) + strlen(value) + 1), *hdr, *l, *end, name[64];
	int k = 0;

	assert_non_null(out);
	strcpy(out, raw);
	snprintf(name, sizeof name, ",%s,", column);
	if (!strncmp(out, name + 1, strlen(name + 1))) {
		hdr = out; /* the first column */
	} else {
		hdr = strstr(out, name);
		assert_true(hdr && hdr < line_at(out, 2));
		hdr++;
	}
	for (const char *p = out; p < hdr; p++)
		k += *p == ',';
	l = line_at(out, line);
	while (k--)
		l = strchr(l, ',') + 1;
	end = l + strcspn(l, ",\n");
	memmove(l + strlen(value), end, strlen(end) + 1);
	memcpy(l, value, strlen(value));
	return out;
}

/* A value out of what a run writes would pass into the analysis as a measurement, or a misspelt word as
   another state (a "nosy" point would count as clean): refused, naming the line and the column. */
static void test_value_out_of_its_range_names_line_and_column(void **state)
{
	static const struct {
		const char *column, *value, *want;
	} bad[] = {
		{"core_ghz", "17", "'core_ghz': 17 GHz"},
		{"core_ghz", "-1", "'core_ghz'"},
		{"core_ghz", "0.01", "'core_ghz': 0.01 GHz"},
		{"thp_share", "7", "'thp_share'"},
		{"flag", "nosy", "'flag': bad value 'nosy'"},
		{"level", "L9", "'level': bad value 'L9'"},
		{"diff", "xyz", "'diff'"},
		{"scope", "bogus", "'scope'"},
		{"arrays", "-3", "below 0"},
		{"width", "-3", "below 0"},
		{"time_enabled", "-5", "below 0"},
		{"point", " 5", "'point'"},
	};
	char *raw = good_raw();

	(void)state;
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *changed = with_field(raw, 4, bad[i].column, bad[i].value);
		expect_failure(changed, NULL, "raw.csv:4:", bad[i].want);
		free(changed);
	}
	free(raw);
}

/* raw with line 4 (an event's row, ok) made a row of status not_measured with that count and those times. */
static char *not_measured_at_4(const char *raw, const char *count, const char *enabled, const char *running)
{
	char *a = with_field(raw, 4, "status", "not_measured"), *b = with_field(a, 4, "count", count),
	     *c = with_field(b, 4, "time_enabled", enabled), *d = with_field(c, 4, "time_running", running);

	free(a);
	free(b);
	free(c);
	return d;
}

/* The times the reader gives the rows not measured, summed. */
static int not_measured_times(const struct raw_row *row, void *ctx, struct err *e)
{
	(void)e;
	if (row->status == RS_NOT_MEASURED)
		*(int64_t *)ctx += row->time_enabled + row->time_running;
	return 0;
}

/* A run writes a row not measured without a reading, its count empty and its times 0 (run_record.c). One
   with a count is an edited or foreign file's, and which of its status and its number is wrong cannot be
   told: refused, naming the line, with nothing written. One with times is an older pmucheck's (until
   6001291 such a row had the times of the row before it, 7336486 below): its times are dropped and the run
   is analysed, as is the row as a run writes it now. */
static void test_a_not_measured_row_with_a_count_is_refused_and_its_times_dropped(void **state)
{
	static const char *const counts[] = {"12", "0"};
	static const struct {
		const char *enabled, *running;
	} times[] = {{"0", "0"}, {"7336486", "7336486"}, {"0", "5"}, {"5", "0"}};
	char *raw = good_raw(), *row, dir[64], path[256], *machine;
	struct err e = {{0}};

	(void)state;
	for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		row = not_measured_at_4(raw, counts[i], "0", "0");
		expect_failure(row, NULL, "raw.csv:4:", "status not_measured has no reading");
		free(row);
	}
	/* a time below 0 is refused whatever the status, before the times of a row not measured are dropped */
	row = not_measured_at_4(raw, "", "-5", "0");
	expect_failure(row, NULL, "raw.csv:4:", "below 0");
	free(row);
	snprintf(path, sizeof path, "%s/machine.json", base);
	machine = slurp(path);
	for (unsigned i = 0; i < sizeof times / sizeof times[0]; i++) {
		int64_t read_times = 0;
		unsigned long nrows;

		row = not_measured_at_4(raw, "", times[i].enabled, times[i].running);
		strcpy(dir, "/tmp/pmucheck-nm.XXXXXX");
		assert_non_null(mkdtemp(dir));
		spit(dir, "raw.csv", row);
		spit(dir, "machine.json", machine);
		snprintf(path, sizeof path, "%s/raw.csv", dir);
		if (raw_read(path, not_measured_times, &read_times, &nrows, &e))
			fail_msg("reading a not measured row with times %s, %s: %s", times[i].enabled,
				 times[i].running, e.msg);
		assert_int_equal(read_times, 0);
		if (analyze_dir(dir, NULL, &e))
			fail_msg("a not measured row with times %s, %s: %s", times[i].enabled,
				 times[i].running, e.msg);
		snprintf(path, sizeof path, "rm -rf %s", dir);
		assert_int_equal(system(path), 0);
		free(row);
	}
	free(machine);
	free(raw);
}

static void test_empty_raw_csv_is_an_error(void **state)
{
	(void)state;
	expect_failure("", NULL, "raw.csv:1:", "empty");
}

static void test_machine_json_syntax_error_names_its_line(void **state)
{
	char *raw = good_raw();

	(void)state;
	expect_failure(raw, "{ \"format\": 1,\n  \"levels\": {\n    \"reported\": { \"L1\": 49152, }\n",
		       "machine.json:3:", NULL);
	free(raw);
}

static void test_machine_json_without_levels_is_an_error(void **state)
{
	char *raw = good_raw();

	(void)state;
	expect_failure(raw, "{ \"format\": 1, \"host\": \"x\" }\n", "machine.json", "levels.reported");
	free(raw);
}

static void test_missing_directory_is_a_usage_error(void **state)
{
	struct err e;

	(void)state;
	assert_int_equal(analyze_dir("/nonexistent/pmucheck-results", NULL, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "/nonexistent/pmucheck-results"));
}

static int setup(void **state)
{
	(void)state;
	strcpy(base, "/tmp/pmucheck-good.XXXXXX");
	return !mkdtemp(base) || gen_dir(base, few, 2, 2, 1, 0) < 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf %s", base);
	return system(cmd) != 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncated_last_row_names_its_line),
		cmocka_unit_test(test_row_with_missing_fields_names_its_line),
		cmocka_unit_test(test_bad_number_names_line_and_column),
		cmocka_unit_test(test_missing_column_is_reported_on_line_one),
		cmocka_unit_test(test_a_column_named_twice_is_refused),
		cmocka_unit_test(test_raw_csv_without_access_column_is_refused_with_the_reason),
		cmocka_unit_test(test_unknown_access_type_or_plot_kind_names_its_line),
		cmocka_unit_test(test_unknown_status_names_its_line),
		cmocka_unit_test(test_unclosed_quote_names_the_line_it_opened_on),
		cmocka_unit_test(test_point_changing_parameters_is_rejected),
		cmocka_unit_test(test_span_beyond_the_buffer_names_its_line),
		cmocka_unit_test(test_value_out_of_its_range_names_line_and_column),
		cmocka_unit_test(test_a_not_measured_row_with_a_count_is_refused_and_its_times_dropped),
		cmocka_unit_test(test_empty_raw_csv_is_an_error),
		cmocka_unit_test(test_machine_json_syntax_error_names_its_line),
		cmocka_unit_test(test_machine_json_without_levels_is_an_error),
		cmocka_unit_test(test_missing_directory_is_a_usage_error),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
