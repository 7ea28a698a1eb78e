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
#include <unistd.h>

#include <cmocka.h>

#include "file_copy.h"
#include "skip_why.h"

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
		int err = errno;
		fclose(in);
		skip_why("/dev/full cannot be opened for writing: %s", strerror(err));
	}
	assert_int_equal(file_copy(in, out), ENOSPC);
}

/* A copy that works is whole, and both streams are closed (the copy is read back by its name). */
static void test_a_copy_is_whole(void **state)
{
	char path[] = "/tmp/pmucheck-file-copy.XXXXXX", b[BYTES];
	int fd = mkstemp(path);
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL, *back;

	(void)state;
	assert_non_null(out);
	assert_int_equal(file_copy(source(), out), 0);
	back = fopen(path, "r");
	unlink(path);
	assert_non_null(back);
	assert_int_equal(fread(b, 1, sizeof b, back), BYTES);
	assert_int_equal(fgetc(back), EOF);
	for (int i = 0; i < BYTES; i++)
		assert_int_equal(b[i], 'a' + i % 26);
	fclose(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_full_disk_fails_the_copy),
		cmocka_unit_test(test_a_copy_is_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
