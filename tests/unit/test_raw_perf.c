/* test_raw_perf.c — analyze on a results directory of 10^6 raw rows: under 10 s and 500 MiB.
 * Measured in-process (CLOCK_MONOTONIC around analyze_dir, getrusage for the peak RSS); the
 * generator streams its rows, so the peak is the analysis'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "analyze.h"
#include "tools/events.h"

#define ROWS_WANTED 1000000L
#define MAX_SECONDS 10.0
#define MAX_RSS_MIB 500.0

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void test_million_rows_fast_and_small(void **state)
{
	char dir[64], cmd[128];
	struct analyze_summary sum;
	struct rusage ru;
	struct err e;
	double t0, secs, rss;
	long rows;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	skip(); /* sanitizer builds are several times slower and larger by design: the limit is for release builds */
#endif
	strcpy(dir, "/tmp/pmucheck-perf.XXXXXX");
	assert_non_null(mkdtemp(dir));
	/* 28 point shapes x (4 x 128 + 1) sizes x 5 repetitions x 14 events */
	rows = gen_dir(dir, test_events, TEST_NEVENTS, 128, 5, 1);
	assert_true(rows >= ROWS_WANTED);
	t0 = now();
	assert_int_equal(analyze_dir(dir, &sum, &e), 0);
	secs = now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	rss = ru.ru_maxrss / 1024.0;
	printf("# %ld rows analysed in %.2f s, peak RSS %.0f MiB\n", rows, secs, rss);
	assert_int_equal(sum.rows, (unsigned long)rows);
	assert_int_equal(sum.classes[VC_EXACT], 6);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	assert_true(secs < MAX_SECONDS);
	assert_true(rss < MAX_RSS_MIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_million_rows_fast_and_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
