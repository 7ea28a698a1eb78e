/* test_csv.c — the one CSV quoting rule (common/csv.c) that raw.csv and the analysis tables share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "csv.h"

/* Writes fields separated by '|' (a character the quoting ignores) and returns what was written. */
static const char *written(char *buf, size_t size, const char *const *fields, int n)
{
	FILE *f = fmemopen(buf, size, "w");

	for (int i = 0; i < n; i++) {
		if (i)
			fputc('|', f);
		csv_field(f, fields[i]);
	}
	fclose(f);
	return buf;
}

static void test_plain_fields_are_written_as_they_are(void **state)
{
	const char *const in[] = {"page-faults", "cpu/event=0x1/", "", NULL, "0;1"};
	char buf[256] = {0};

	(void)state;
	assert_string_equal(written(buf, sizeof buf, in, 5), "page-faults|cpu/event=0x1/|||0;1");
}

static void test_comma_quote_and_line_breaks_are_quoted(void **state)
{
	const char *const in[] = {"cpu/event=0x1,umask=0x2/", "say \"hi\"", "two\nlines", "cr\r", "\""};
	char buf[256] = {0};

	(void)state;
	assert_string_equal(
		written(buf, sizeof buf, in, 5),
		"\"cpu/event=0x1,umask=0x2/\"|\"say \"\"hi\"\"\"|\"two\nlines\"|\"cr\r\"|\"\"\"\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_fields_are_written_as_they_are),
		cmocka_unit_test(test_comma_quote_and_line_breaks_are_quoted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
