/* test_resume.c — what `run --resume` reads of an interrupted run (harness resume.h): the last point raw.csv
   holds, found as the analysis finds it (raw_scan.h), the cut that leaves whole points only, and the CPUs
   its plan ran on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_file.h"
#include "raw.h"
#include "resume.h"

static const char machine[] =
	"{\"format\": 1, \"argv\": [\"run\", \"--quick\"], \"started_utc\": \"2026-11-28T00:00:00Z\", "
	"\"finished_utc\": null, \"levels\": {}}\n";

/* A run directory with machine.json and raw.csv (its header, then rows); its path into dir. */
static void make_run(char *dir, const char *rows)
{
	char raw[4096];

	strcpy(dir, "/tmp/pmucheck-resume.XXXXXX");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(fake_put_at(dir, "machine.json", machine), 0);
	snprintf(raw, sizeof raw, "%s%s", raw_header(), rows);
	assert_int_equal(fake_put_at(dir, "raw.csv", raw), 0);
}

/* rows, each whole record given as far as the last field it names, filled with empty fields to the header's
   count (a row of another count is refused: raw_scan.h); a last record without its line end (a torn one)
   is left as it is. Into out. */
static const char *full_rows(const char *rows, char *out, size_t len)
{
	long fields = 0, commas = 0;
	int open = 0;
	size_t n = 0;

	for (const char *h = raw_header(); *h; h++)
		fields += *h == ',';
	for (const char *c = rows; *c; c++) {
		if (*c == '"')
			open = !open;
		else if (*c == ',' && !open)
			commas++;
		if (*c == '\n' && !open) {
			for (; commas < fields; commas++)
				out[n++] = ',';
			commas = 0;
		}
		out[n++] = *c;
		assert_true(n + (size_t)fields < len);
	}
	out[n] = 0;
	return out;
}

static void remove_run(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static long file_size(const char *dir)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof path, "%s/raw.csv", dir);
	assert_int_equal(stat(path, &st), 0);
	return (long)st.st_size;
}

/* A clock_note may hold a line break (csv.c quotes it); the line after it begins with a number but is no
   row of its own, so point 1 is the last, from its first row, and the cut keeps point 0 whole. */
static void test_a_quoted_line_break_is_no_row_of_its_own(void **state)
{
	char dir[64], rows[1024], p0[256], p1[512];
	struct resume_info ri;
	struct err e = {0};

	(void)state;
	full_rows("0,0,a\n", p0, sizeof p0);
	full_rows("1,0,\"b\n3,c\"\n1,1,y\n", p1, sizeof p1);
	snprintf(rows, sizeof rows, "%s%s", p0, p1);
	make_run(dir, rows);
	assert_int_equal(resume_load(dir, &ri, &e), 0);
	assert_int_equal(ri.argc, 2);
	assert_string_equal(ri.argv[1], "--quick");
	assert_int_equal(ri.last_point, 1);
	assert_int_equal(ri.last_point_start, (long)(strlen(raw_header()) + strlen(p0)));
	assert_false(ri.torn);
	assert_int_equal(resume_trim(dir, &ri, &e), 0);
	assert_int_equal(ri.last_point, 0);
	assert_int_equal(file_size(dir), (long)(strlen(raw_header()) + strlen(p0)));
	resume_free(&ri);
	remove_run(dir);
}

/* A torn last row: the cut goes back to its point's first row, and the file ends with point 0. */
static void test_a_torn_last_point_is_cut_to_its_first_row(void **state)
{
	char dir[64], rows[1024], p0[512], p1[256];
	struct resume_info ri;
	struct err e = {0};

	(void)state;
	full_rows("0,0,a\n0,1,b\n", p0, sizeof p0);
	snprintf(rows, sizeof rows, "%s%s1,1", p0, full_rows("1,0,c\n", p1, sizeof p1));
	make_run(dir, rows);
	assert_int_equal(resume_load(dir, &ri, &e), 0);
	assert_true(ri.torn);
	assert_int_equal(ri.last_point, 1);
	assert_int_equal(resume_trim(dir, &ri, &e), 0);
	assert_int_equal(ri.last_point, 0);
	assert_int_equal(file_size(dir), (long)(strlen(raw_header()) + strlen(p0)));
	resume_free(&ri);
	remove_run(dir);
}

/* Another header (a run of another version): no resume, and the file is left as it was. */
static void test_another_header_is_refused_and_left_alone(void **state)
{
	char dir[64], path[128];
	struct resume_info ri;
	struct err e = {0};
	long before;

	(void)state;
	make_run(dir, "0,0,a\n");
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	assert_int_equal(fake_put(path, "point,rep\n0,0\n"), 0);
	before = file_size(dir);
	assert_int_equal(resume_load(dir, &ri, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "other columns"));
	assert_non_null(strstr(e.msg, path));
	assert_int_equal(file_size(dir), before);
	remove_run(dir);
}

/* machine.json with "plan_cpus" (members of JSON text), written over make_run's */
static void make_run_cpus(char *dir, const char *plan_cpus)
{
	char text[512];

	make_run(dir, "");
	snprintf(text, sizeof text,
		 "{\"format\": 1, \"argv\": [\"run\"], \"finished_utc\": null, \"levels\": {}, "
		 "\"plan_cpus\": %s}\n",
		 plan_cpus);
	assert_int_equal(fake_put_at(dir, "machine.json", text), 0);
}

/* The CPUs a run's points ran on, in their order (a point of N threads takes the first N): the same list
   resumes; another order, another CPU or another count is refused naming the directory and both lists. */
static void test_other_plan_cpus_are_refused(void **state)
{
	const int same[] = {2, 3}, swapped[] = {3, 2}, fewer[] = {2};
	char dir[64];
	struct resume_info ri;
	struct err e = {0};

	(void)state;
	make_run_cpus(dir, "[2, 3]");
	assert_int_equal(resume_load(dir, &ri, &e), 0);
	assert_int_equal(ri.ncpus, 2);
	assert_int_equal(resume_same_cpus(dir, &ri, same, 2, &e), 0);
	assert_int_equal(resume_same_cpus(dir, &ri, swapped, 2, &e), E_USAGE);
	assert_non_null(strstr(e.msg, dir));
	assert_non_null(strstr(e.msg, "on CPUs 2,3, and its arguments plan them on CPUs 3,2 here"));
	assert_int_equal(resume_same_cpus(dir, &ri, fewer, 1, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "on CPUs 2,3, and its arguments plan them on CPUs 2 here"));
	resume_free(&ri);
	remove_run(dir);
}

/* A machine.json from before "plan_cpus" gives no CPUs to hold the plan to: resumed as before. */
static void test_a_run_without_plan_cpus_is_not_checked(void **state)
{
	const int cpus[] = {5};
	char dir[64];
	struct resume_info ri;
	struct err e = {0};

	(void)state;
	make_run(dir, "");
	assert_int_equal(resume_load(dir, &ri, &e), 0);
	assert_int_equal(ri.ncpus, -1);
	assert_int_equal(resume_same_cpus(dir, &ri, cpus, 1, &e), 0);
	resume_free(&ri);
	remove_run(dir);
}

/* "plan_cpus" that no run writes is refused by name, not read as "not recorded" (which skips the check). */
static void test_malformed_plan_cpus_are_refused(void **state)
{
	const char *bad[] = {"\"0-1\"", "[]", "[0, \"1\"]", "[-1]"};
	char dir[64];
	struct resume_info ri;
	struct err e = {0};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		make_run_cpus(dir, bad[i]);
		assert_int_equal(resume_load(dir, &ri, &e), E_USAGE);
		assert_non_null(strstr(e.msg, "machine.json: 'plan_cpus'"));
		remove_run(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_quoted_line_break_is_no_row_of_its_own),
		cmocka_unit_test(test_a_torn_last_point_is_cut_to_its_first_row),
		cmocka_unit_test(test_another_header_is_refused_and_left_alone),
		cmocka_unit_test(test_other_plan_cpus_are_refused),
		cmocka_unit_test(test_a_run_without_plan_cpus_is_not_checked),
		cmocka_unit_test(test_malformed_plan_cpus_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
