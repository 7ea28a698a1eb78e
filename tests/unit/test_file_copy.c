/* test_file_copy.c — file_copy (common/file_copy.h): a copy larger than the stream's buffer onto a full
 * disk (/dev/full) fails, where fclose alone reported success (discover --write and a preset's reference
 * figures were copied so, a truncated file then taken for whole); a copy that works is whole. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "file_copy.h"

#define BYTES 20000 /* over the 8 KiB a copy moves at once, and the 4 KiB of a stream's buffer */

static FILE *source(void)
{
	FILE *in = tmpfile();

	assert_non_null(in);
	for (int i = 0; i < BYTES; i++)
		fputc('a' + i % 26, in);
	rewind(in);
	return in;
}

static void test_a_full_disk_fails_the_copy(void **state)
{
	FILE *in = source(), *out = fopen("/dev/full", "w");

	(void)state;
	if (!out) {
		fclose(in);
		skip();
	}
	errno = 0;
	assert_int_equal(file_copy(in, out), -1);
	assert_int_equal(errno, ENOSPC);
	fclose(in);
	fclose(out);
}

static void test_a_copy_is_whole(void **state)
{
	FILE *in = source(), *out = tmpfile();
	char a[BYTES], b[BYTES];

	(void)state;
	assert_non_null(out);
	assert_int_equal(file_copy(in, out), 0);
	rewind(in);
	rewind(out);
	assert_int_equal(fread(a, 1, sizeof a, in), BYTES);
	assert_int_equal(fread(b, 1, sizeof b, out), BYTES);
	assert_int_equal(fgetc(out), EOF);
	assert_memory_equal(a, b, BYTES);
	fclose(in);
	fclose(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_full_disk_fails_the_copy),
		cmocka_unit_test(test_a_copy_is_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
