/* test_raw_perf.c — analyze on a results directory of 10^6 raw rows: every row read, the verdicts
 * right, and under 500 MiB (getrusage's peak RSS; the generator streams its rows, so the peak is the
 * analysis'). Memory is the same on a busy machine; the time (under 10 s) is not, and is a benchmark:
 * tests/bench/analyze_rows.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "analyze.h"
#include "tools/events.h"

#define ROWS_WANTED 1000000L
#define MAX_RSS_MIB 500.0

static void test_million_rows_in_little_memory(void **state)
{
	char dir[64], cmd[128];
	struct analyze_summary sum;
	struct rusage ru;
	struct err e;
	double rss;
	long rows;

	(void)state;
	strcpy(dir, "/tmp/pmucheck-perf.XXXXXX");
	assert_non_null(mkdtemp(dir));
	/* 28 point shapes x (4 x 120 + 1) sizes x 5 repetitions x 20 events */
	rows = gen_dir(dir, test_events, TEST_NEVENTS, 120, 5, 1);
	assert_true(rows >= ROWS_WANTED);
	assert_int_equal(analyze_dir(dir, &sum, &e), 0);
	getrusage(RUSAGE_SELF, &ru);
	rss = ru.ru_maxrss / 1024.0;
	printf("# %ld rows analysed, peak RSS %.0f MiB\n", rows, rss);
	assert_int_equal(sum.rows, (unsigned long)rows);
	assert_int_equal(sum.classes[VC_EXACT], 11);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	assert_true(rss < MAX_RSS_MIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_million_rows_in_little_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
