/* test_fileset.c — output files committed together or not at all (common/fileset.c): every file of a set
   appears under its name, whole, or none does, and no temporary file is left either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileset.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/pmucheck-fileset.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The directory's entries, sorted, ';'-separated. */
static const char *entries(void)
{
	static char out[512];
	char cmd[160];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ';'", dir);
	p = popen(cmd, "r");
	n = p ? fread(out, 1, sizeof out - 1, p) : 0;
	out[n] = '\0';
	if (p)
		pclose(p);
	return out;
}

static int write_set(const char *a, const char *b, struct err *e)
{
	struct fileset s = {.dir = dir};
	FILE *f;
	int rc;

	if ((rc = fileset_open(&s, a, &f, e)))
		return rc;
	fprintf(f, "first\n");
	if ((rc = fileset_open(&s, b, &f, e))) {
		fileset_abort(&s);
		return rc;
	}
	fprintf(f, "second\n");
	return fileset_commit(&s, e);
}

static void test_a_set_appears_whole(void **state)
{
	struct err e;

	(void)state;
	assert_int_equal(write_set("events.csv", "peaks.md", &e), 0);
	assert_string_equal(entries(), "events.csv;peaks.md;");
}

/* The second file's name is a directory: the first is not renamed either (before, events.csv appeared). */
static void test_a_directory_in_the_way_writes_none(void **state)
{
	char path[128];
	struct err e;

	(void)state;
	snprintf(path, sizeof path, "%s/peaks.md", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(write_set("events.csv", "peaks.md", &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "peaks.md is a directory"));
	assert_string_equal(entries(), "peaks.md;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_set_appears_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_directory_in_the_way_writes_none, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
