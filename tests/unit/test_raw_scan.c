/* test_raw_scan.c — raw_scan (common/raw_scan.h): where raw.csv's records and points begin, as the
   writer leaves them whole or cut. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "raw_scan.h"

static const char head[] = "point,rep,clock_note\n";
static const char p0[] = "0,0,a\n0,1,\"b\n3,c\"\n"; /* a quoted line break: "3,c" is no row of point 3 */
static const char p1[] = "1,0,x\n1,1,y\n";

/* Scans the first len bytes of text. */
static struct raw_scan scan(const char *text, size_t len)
{
	struct raw_scan sc;
	FILE *f = fmemopen((void *)text, len, "r");

	assert_non_null(f);
	assert_int_equal(raw_scan(f, &sc), 0);
	fclose(f);
	return sc;
}

static void test_a_whole_file_ends_with_its_last_points_rows(void **state)
{
	char text[256];
	size_t n = (size_t)snprintf(text, sizeof text, "%s%s%s", head, p0, p1);
	struct raw_scan sc = scan(text, n);

	(void)state;
	assert_int_equal(sc.header_end, strlen(head));
	assert_int_equal(sc.last_point, 1);
	assert_int_equal(sc.last_point_start, strlen(head) + strlen(p0));
	assert_int_equal(sc.complete_end, n);
	assert_false(sc.torn);
	/* the same file without point 1: its last point is 0, from its first row, the quoted line break
	   inside it */
	sc = scan(text, strlen(head) + strlen(p0));
	assert_int_equal(sc.last_point, 0);
	assert_int_equal(sc.last_point_start, strlen(head));
	assert_false(sc.torn);
}

static void test_a_cut_record_is_torn_and_names_its_point_where_it_can(void **state)
{
	char text[256];
	size_t n = (size_t)snprintf(text, sizeof text, "%s%s%s", head, p0, p1),
	       whole0 = strlen(head) + strlen(p0);
	struct raw_scan sc;

	(void)state;
	sc = scan(text, n - 3); /* "1,1,": point 1's second row cut */
	assert_true(sc.torn);
	assert_int_equal(sc.last_point, 1);
	assert_false(sc.torn_new_point);
	assert_int_equal(sc.complete_end, n - strlen("1,1,y\n"));
	sc = scan(text, whole0 + 3); /* "1,0": the cut row begins point 1 */
	assert_true(sc.torn);
	assert_int_equal(sc.last_point, 0);
	assert_true(sc.torn_new_point);
	assert_int_equal(sc.complete_end, whole0);
	sc = scan(text, whole0 + 1); /* "1": too short to name its point */
	assert_true(sc.torn);
	assert_false(sc.torn_new_point);
	sc = scan(text, strlen(head) + 2); /* "0,": the first row cut, the header whole */
	assert_int_equal(sc.last_point, -1);
	assert_int_equal(sc.header_end, strlen(head));
	assert_int_equal(sc.complete_end, strlen(head));
	sc = scan(text, 5); /* the header cut */
	assert_true(sc.torn);
	assert_int_equal(sc.header_end, 0);
	assert_int_equal(sc.complete_end, 0);
}

/* A whole line that is no row (atoi read "garbage" as point 0, and a resume measured points 0 and 1 again
   after it), a point that comes back after a later one began, a row of more or fewer fields than the
   header (which a resume kept, and analyze then refused), a quote opening inside a field (read as a field
   left open, the rest of the file a torn end) or a NUL byte: the scan stops at the first such line and
   names it; the rows before it stand. */
static void test_a_line_that_is_no_row_is_named_and_stops_the_scan(void **state)
{
	static const char *const bad[] = {"garbage\n",     "x1,0,z\n", "-1,0,z\n",   "0,2,z\n",      "1\n",
					  "2,0,z,extra\n", "2,0\n",    "2,0,a\"b\n", "2,0,a\"b,\"\n"};
	char text[256];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		size_t n = (size_t)snprintf(text, sizeof text, "%s%s%s%s", head, p0, p1, bad[i]);
		struct raw_scan sc = scan(text, n);
		assert_int_equal(sc.bad_line, 7); /* the header, p0's three lines, p1's two */
		assert_int_equal(sc.last_point, 1);
		assert_int_equal(sc.complete_end, n - strlen(bad[i]));
	}
	snprintf(text, sizeof text, "%s%s%s2,0,z\n", head, p0, p1);
	assert_int_equal(scan(text, strlen(text)).bad_line, 0);
	text[strlen(text) - 2] = '\0'; /* 2,0,<NUL> */
	assert_int_equal(scan(text, strlen(text) + 2).bad_line, 7);
}

/* A file that ends with a line end inside a quoted field ends in a cut record all the same: the line
   "0,1,\"b\n" is not a whole row. */
static void test_a_file_cut_inside_a_quoted_field_is_torn(void **state)
{
	char text[256];
	size_t n = (size_t)snprintf(text, sizeof text, "%s%s", head, p0);
	size_t cut = n - strlen("3,c\"\n");
	struct raw_scan sc = scan(text, cut);

	(void)state;
	assert_true(sc.torn);
	assert_int_equal(sc.last_point, 0);
	assert_int_equal(sc.complete_end, strlen(head) + strlen("0,0,a\n"));
	assert_false(sc.torn_new_point);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_whole_file_ends_with_its_last_points_rows),
		cmocka_unit_test(test_a_cut_record_is_torn_and_names_its_point_where_it_can),
		cmocka_unit_test(test_a_file_cut_inside_a_quoted_field_is_torn),
		cmocka_unit_test(test_a_line_that_is_no_row_is_named_and_stops_the_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
