/* test_raw_columns.c — raw.csv's one column list (common/raw_columns.h): the writer's header is that list,
 * and a row written by raw.c comes back from raw_read with every column's value, each column distinct, so a
 * column the reader misses or two columns swapped show. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "noisy_why.h"
#include "raw.h"
#include "raw_columns.h"
#include "raw_read.h"

/* Text with a comma, a quote and a line break, so quoting round-trips too. */
static const struct raw_out_row written = {
	.point = 3,
	.rep = 4,
	.group = 5,
	.kernel = "load",
	.variant = "load.sse",
	.access = KA_READ,
	.plots = KP_BW_SIZE | KP_EV_SIZE,
	.traits = KV_NT,
	.width = 16,
	.arg_name = "delay",
	.arg = 7,
	.bytes = 16384,
	.arrays = 2,
	.reps = 131072,
	.span = 8192,
	.diff = "reps",
	.threads = 2,
	.cpus = "0;1",
	.placement = "node:0",
	.mem_nodes = "0",
	.prefetch = "off:L2_STREAM",
	.msr = "0=0x2c",
	.level = "L1",
	.thp_share = 0.25,
	.seconds = 1.5e-3,
	.tsc = -11,
	.tsc_lo = 12,
	.tsc_hi = 13,
	.core_ghz = 3.5,
	.clock_note = "1 of 2 clock samples rejected: \"N, 2N\"\ndisagree",
	.flag = "noisy",
	.noisy_why = 1u << NW_AT_REPS | 1u << NW_LEVEL | 1u << NW_SLOW | 1u << NW_QUOTA,
	.v = {.instructions = 101,
	      .loads = 102,
	      .stores = 103,
	      .bytes_loaded = 104,
	      .bytes_stored = 105,
	      .lines_read = 106,
	      .lines_written = 107,
	      .split_loads = 108,
	      .chase_accesses = 109,
	      .multiplies = 110,
	      .nops = 111,
	      .pages = 112},
	.event = "cpu/event=0x1,umask=0x2/",
	.backend = "perf",
	.encoding = "type=4,config=0x201",
	.scope = "thread",
	.has_count = 1,
	.count = 14,
	.time_enabled = 15,
	.time_running = 16,
	.status = "ok",
	.reason = "",
	.experiment = "molka2017.core",
	.uncore = "0:threads;1:memory",
};

/* The rows written, in order, and how many came back. */
struct expect {
	const struct raw_out_row *rows;
	int seen;
};

static int check_row(const struct raw_row *row, void *ctx, struct err *e)
{
	struct expect *x = ctx;
	const struct raw_out_row *w = &x->rows[x->seen++];

	(void)e;
#define CHECK_INT(n) assert_int_equal(row->n, w->n)
#define CHECK_TEXT(n) assert_string_equal(row->n, w->n)
#define CHECK_FRACTION(n) assert_true(row->n == w->n)
#define CHECK_SECONDS(n) assert_true(row->n == w->n)
#define CHECK_GHZ(n) assert_true(row->n == w->n)
#define CHECK_ACCESS(n) assert_int_equal(row->n, w->n)
#define CHECK_PLOTS(n) assert_int_equal(row->n, w->n)
#define CHECK_TRAITS(n) assert_int_equal(row->n, w->n)
#define CHECK_NOISY(n) assert_int_equal(row->n, w->n)
#define CHECK_COUNT(n) \
	(assert_int_equal(row->has_count, w->has_count), \
	 assert_true(row->n == (w->has_count ? (double)w->n : 0)))
#define CHECK_TIME(n) assert_int_equal(row->n, w->n)
#define CHECK_STATUS(n) assert_string_equal(raw_status_names[row->n], w->n)
#define COLUMN(name, type, presence) CHECK_##type(name);
#define VOLUME(name, presence) assert_true(row->v[RQ_##name] == (double)w->v.name);
	RAW_COLUMNS(COLUMN, KERN_VOLUME_FIELDS(VOLUME))
#undef COLUMN
#undef VOLUME
	return 0;
}

static void test_header_is_the_column_list_and_every_column_round_trips(void **state)
{
	char dir[] = "/tmp/pmucheck-rawcolumns.XXXXXX", path[128], cmd[160], line[4096], text[8192];
	const char *expected =
#define NAME(name, type, presence) "," #name
#define VOLUME(name, presence) ",v_" #name
		RAW_COLUMNS(NAME, KERN_VOLUME_FIELDS(VOLUME)) "\n";
#undef NAME
#undef VOLUME
	struct raw_writer w;
	struct err e = {0};
	unsigned long rows = 0;
	struct expect x = {&written, 0};
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(raw_create(&w, dir, &e), 0);
	raw_write(&w, &written);
	assert_int_equal(raw_close(&w, &e), 0);
	snprintf(path, sizeof path, "%s/raw.csv", dir);

	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	assert_string_equal(line, expected + 1);
	assert_non_null(strstr(line, ",tsc_lo,tsc_hi,core_ghz,clock_note,flag,noisy_why,v_instructions,"));
	/* the row (clock_note's line break spans two lines): its reasons as the column's words */
	line[fread(line, 1, sizeof line - 1, f)] = '\0';
	assert_non_null(
		strstr(line, ",noisy,unconfirmed-at-reps;level-not-held;slow-machine;cpu-quota,101,"));
	fclose(f);

	assert_int_equal(raw_read(path, check_row, &x, &rows, &e), 0);
	assert_int_equal(rows, 1);
	assert_int_equal(x.seen, 1);

	/* a reason the column does not know is refused, naming the column and the value */
	f = fopen(path, "r");
	assert_non_null(f);
	text[fread(text, 1, sizeof text - 1, f)] = '\0';
	fclose(f);
	memcpy(strstr(text, "level-not-held"), "level-not-hold", 14);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	x.seen = 0;
	assert_int_not_equal(raw_read(path, check_row, &x, &rows, &e), 0);
	assert_non_null(strstr(
		e.msg, "'noisy_why': bad value 'unconfirmed-at-reps;level-not-hold;slow-machine;cpu-quota'"));
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The reader reuses the values of a row's measurement columns while their text repeats (every event of
   a measurement has its row): each row must still come back as written when the events change, when one
   measurement column changes (a number, a text), after a quoted record, and back again. */
static void test_rows_that_share_a_measurement_come_back_each_as_written(void **state)
{
	char dir[] = "/tmp/pmucheck-rawcolumns.XXXXXX", path[128], cmd[160];
	struct raw_out_row r[7];
	struct raw_writer w;
	struct err e = {0};
	unsigned long rows = 0;
	struct expect x = {r, 0};

	(void)state;
	for (int i = 0; i < 7; i++)
		r[i] = written;
	r[0].clock_note = "";
	r[1] = r[0], r[1].event = "second", r[1].count = 20, r[1].status = "failed", r[1].has_count = 0;
	r[1].reason = "EINVAL";
	r[2] = r[0], r[2].seconds = 2.5e-3, r[2].core_ghz = 2.0;
	r[3] = r[2], r[3].variant = "load.avx", r[3].plots = KP_EV_SIZE, r[3].event = "third";
	r[4] = r[3]; /* written's quoted clock_note: a record the reader splits in full */
	r[4].clock_note = written.clock_note;
	r[5] = r[3], r[5].count = 99;
	r[6] = r[0];
	assert_non_null(mkdtemp(dir));
	assert_int_equal(raw_create(&w, dir, &e), 0);
	for (int i = 0; i < 7; i++)
		raw_write(&w, &r[i]);
	assert_int_equal(raw_close(&w, &e), 0);
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	assert_int_equal(raw_read(path, check_row, &x, &rows, &e), 0);
	assert_int_equal(rows, 7);
	assert_int_equal(x.seen, 7);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Where a torn file's last point begins: a point's rows as the writer appends them, the last one cut; a
   quoted field's line break (clock_note) does not start a record; a file that ends with a line end is
   whole. */
static void test_a_torn_files_last_point_begins_at_its_first_row(void **state)
{
	static const char head[] = "point,rep,clock_note\n", p0[] = "0,0,a\n0,1,\"b\n3,c\"\n",
			  p1[] = "1,0,x\n1,1,y\n";
	char path[] = "/tmp/pmucheck-torn.XXXXXX", text[256];
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(text, sizeof text, "%s%s%s", head, p0, p1);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	assert_int_equal(raw_torn_point(path), -1);
	assert_int_equal(truncate(path, (off_t)strlen(text) - 3), 0); /* "1,1,": point 1 is cut */
	assert_int_equal(raw_torn_point(path), (long)(strlen(head) + strlen(p0)));
	/* "1,0": the cut row begins point 1, so point 0 is whole */
	assert_int_equal(truncate(path, (off_t)(strlen(head) + strlen(p0) + 3)), 0);
	assert_int_equal(raw_torn_point(path), (long)(strlen(head) + strlen(p0)));
	/* "1": its point is not known, so point 0 goes too, from its first row: the line "3,c\"" inside its
	   quoted field is not a row of point 3 */
	assert_int_equal(truncate(path, (off_t)(strlen(head) + strlen(p0) + 1)), 0);
	assert_int_equal(raw_torn_point(path), (long)strlen(head));
	/* only the header left whole */
	assert_int_equal(truncate(path, (off_t)strlen(head) + 2), 0);
	assert_int_equal(raw_torn_point(path), (long)strlen(head));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_is_the_column_list_and_every_column_round_trips),
		cmocka_unit_test(test_rows_that_share_a_measurement_come_back_each_as_written),
		cmocka_unit_test(test_a_torn_files_last_point_begins_at_its_first_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
