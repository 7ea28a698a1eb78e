/* test_machine_read.c — machine_read (analysis/machine_read.h) on counts a run never writes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine_read.h"

/* A topology count beyond its type (an edited 1e300 cores printed as -2147483648 cores: a conversion C
   leaves undefined) or below zero reads as absent, 0; a plausible one as itself. */
static void test_counts_out_of_their_range_read_as_absent(void **state)
{
	char path[] = "/tmp/pmucheck-machine.XXXXXX";
	struct machine m = {0};
	struct err e;
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f,
		"{\"format\": 1, \"levels\": {\"reported\": {\"L1\": 49152}}, \"topology\": {\"cores\": "
		"1e300, "
		"\"sockets\": -3, \"pus\": 4, \"numa_nodes\": 2.5e10}, \"cpu\": {\"model\": 1e20}}\n");
	fclose(f);
	assert_int_equal(machine_read(path, &m, &e), 0);
	assert_int_equal(m.cores, 0);
	assert_int_equal(m.sockets, 0);
	assert_int_equal(m.pus, 4);
	assert_int_equal(m.numa_nodes, 0);
	assert_int_equal(m.model, -1);
	machine_free(&m);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_out_of_their_range_read_as_absent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
