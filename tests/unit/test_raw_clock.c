/* test_raw_clock.c — a repetition whose clock samples were all rejected is written as a missing clock (an
 * empty core_ghz with the reason in clock_note) and read back as missing, never as 0 GHz; a file that
 * carries a non-number there is still refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raw.h"
#include "raw_read.h"

struct seen {
	int n;
	double ghz[4];
};

static int collect(const struct raw_row *row, void *ctx, struct err *e)
{
	struct seen *s = ctx;

	(void)e;
	if (s->n < 4)
		s->ghz[s->n++] = row->core_ghz;
	return 0;
}

static void write_row(struct raw_writer *w, int rep, double ghz, const char *note)
{
	struct raw_out_row r = {
		.point = 0,
		.rep = rep,
		.kernel = "load",
		.variant = "load.gpr",
		.width = 8,
		.arg_name = "",
		.bytes = 4096,
		.arrays = 1,
		.reps = 4,
		.diff = "reps",
		.threads = 1,
		.cpus = "0",
		.placement = "local",
		.mem_nodes = "0",
		.prefetch = "on",
		.msr = "",
		.level = "L1",
		.seconds = 1e-6,
		.tsc = 2500,
		.core_ghz = ghz,
		.clock_note = note,
		.flag = "",
		.status = "ok",
		.reason = "",
		.experiment = "",
	};
	raw_write(w, &r);
}

static void test_missing_clock_is_empty_and_reads_back_as_missing(void **state)
{
	char dir[] = "/tmp/pmucheck-rawclock.XXXXXX", path[128], cmd[160], line[4096];
	struct raw_writer w;
	struct seen s = {0};
	unsigned long rows;
	struct err e;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(raw_create(&w, dir, &e), 0);
	write_row(&w, 0, 3.2, "1 of 2 clock samples rejected: 17.4 GHz, but 3.2 GHz from the 2N chain alone");
	write_row(&w, 1, 0, "2 of 2 clock samples rejected: 17.4 GHz, above the CPU's 7 GHz maximum");
	assert_int_equal(raw_flush(&w, &e), 0);
	assert_int_equal(raw_close(&w, &e), 0);

	snprintf(path, sizeof path, "%s/raw.csv", dir);
	assert_non_null(f = fopen(path, "r"));
	assert_non_null(fgets(line, sizeof line, f)); /* header */
	assert_non_null(fgets(line, sizeof line, f));
	assert_non_null(strstr(line, ",3.2000,\"1 of 2 clock samples rejected"));
	assert_non_null(fgets(line, sizeof line, f));
	assert_non_null(strstr(line, ",,\"2 of 2 clock samples rejected"));
	fclose(f);

	assert_int_equal(raw_read(path, collect, &s, &rows, &e), 0);
	assert_int_equal(s.n, 2);
	assert_true(s.ghz[0] == 3.2);
	assert_true(s.ghz[1] == 0); /* missing: the readers take only positive clocks */
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_core_ghz_that_is_no_number_is_refused(void **state)
{
	char dir[] = "/tmp/pmucheck-rawclock.XXXXXX", path[128], cmd[160];
	struct raw_writer w;
	struct seen s = {0};
	unsigned long rows;
	struct err e;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(raw_create(&w, dir, &e), 0);
	write_row(&w, 0, 3.2, "");
	assert_int_equal(raw_flush(&w, &e), 0);
	assert_int_equal(raw_close(&w, &e), 0);
	/* the writer cannot produce a bad clock: edit one in */
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	snprintf(cmd, sizeof cmd, "sed -i 's/,3.2000,/,fast,/' %s", path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(raw_read(path, collect, &s, &rows, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "core_ghz"));
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_clock_is_empty_and_reads_back_as_missing),
		cmocka_unit_test(test_core_ghz_that_is_no_number_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
