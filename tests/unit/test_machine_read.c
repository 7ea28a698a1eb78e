/* test_machine_read.c — machine_read (analysis/machine_read.h) on counts a run never writes, and the path
 * probe's figures (disturbance.path_probe) as written, edited or absent. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* machine.json as `body` (the members after "format" and "levels"), read into *m. */
static void machine_of(const char *body, struct machine *m)
{
	char path[] = "/tmp/pmucheck-machine.XXXXXX";
	struct err e;
	FILE *f;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"format\": 1, \"levels\": {\"reported\": {\"L1\": 49152}}, %s}\n", body);
	fclose(f);
	assert_int_equal(machine_read(path, m, &e), 0);
	unlink(path);
}

/* config.ports as the run wrote them; absent (a run before them), an empty object, a value past what any
   core does (kern.h KERN_MAX_*), 0, negative or no number reads as not given, 0: judged by nothing. */
static void test_ports_read_or_not_given(void **state)
{
	struct machine m = {0};

	(void)state;
	machine_of("\"config\": {\"ports\": {\"load_bytes_per_cycle\": 32, \"store_bytes_per_cycle\": 16, "
		   "\"loads_per_cycle\": 2, \"stores_per_cycle\": 1}}",
		   &m);
	assert_true(m.ports.load_bytes == 32 && m.ports.store_bytes == 16);
	assert_true(m.ports.loads == 2 && m.ports.stores == 1);
	machine_free(&m);
	memset(&m, 0, sizeof m);
	machine_of("\"config\": {\"path\": \"x.ini\"}", &m);
	assert_true(m.ports.load_bytes == 0 && m.ports.store_bytes == 0 && m.ports.loads == 0 &&
		    m.ports.stores == 0);
	machine_free(&m);
	memset(&m, 0, sizeof m);
	machine_of("\"config\": {\"ports\": {\"load_bytes_per_cycle\": 300, \"store_bytes_per_cycle\": 0, "
		   "\"loads_per_cycle\": -2, \"stores_per_cycle\": \"1\"}}",
		   &m);
	assert_true(m.ports.load_bytes == 0 && m.ports.store_bytes == 0 && m.ports.loads == 0 &&
		    m.ports.stores == 0);
	machine_free(&m);
	memset(&m, 0, sizeof m);
	machine_of("\"config\": {\"ports\": {\"loads_per_cycle\": 8, \"stores_per_cycle\": 4.5}}", &m);
	assert_true(m.ports.loads == 8 && m.ports.stores == 0); /* 4.5 stores: past any core's 4 */
	machine_free(&m);
}

/* disturbance.points.clock_samples as the run wrote them, with clock.bounds' maximum; absent (a run before
   them), a count missing or negative, or more rejected than taken: taken -1, no line in the report. */
static void test_clock_samples_read_or_absent(void **state)
{
	static const char points[] =
		"\"disturbance\": {\"points\": {\"measured\": 3, \"repetitions\": 9, "
		"\"repetitions_disturbed\": 2, \"disturbed_past\": 0.1, \"clock_samples\": ";
	static const char *const broken[] = {
		"{\"taken\": 10, \"disturbed\": 4, \"above_max\": 4, \"below_floor\": 0, \"unread\": 3, "
		"\"repetitions_without_clock\": 1}",
		"{\"taken\": 10, \"disturbed\": 1, \"above_max\": 1, \"below_floor\": 0, "
		"\"repetitions_without_clock\": 1}",
		"{\"taken\": 10, \"disturbed\": -1, \"above_max\": 1, \"below_floor\": 0, \"unread\": 0, "
		"\"repetitions_without_clock\": 1}",
		"{}",
	};
	char body[512];
	struct machine m = {0};

	(void)state;
	snprintf(body, sizeof body,
		 "%s{\"taken\": 40, \"disturbed\": 3, \"above_max\": 30, \"below_floor\": 1, \"unread\": 2, "
		 "\"repetitions_without_clock\": 5}}}, \"clock\": {\"bounds\": {\"max_ghz\": 4.4, "
		 "\"max_source\": "
		 "\"zen1.ini max_ghz\", \"max_from\": \"config\"}}",
		 points);
	machine_of(body, &m);
	assert_true(m.points.clock_taken == 40 && m.points.reps_without_clock == 5);
	assert_true(m.points.clock_rejected_by[CLOCK_REJECT_DISTURBED] == 3 &&
		    m.points.clock_rejected_by[CLOCK_REJECT_ABOVE_MAX] == 30 &&
		    m.points.clock_rejected_by[CLOCK_REJECT_BELOW_FLOOR] == 1 &&
		    m.points.clock_rejected_by[CLOCK_REJECT_UNREAD] == 2);
	assert_true(m.max_ghz == 4.4);
	assert_string_equal(m.max_source, "zen1.ini max_ghz");
	assert_string_equal(m.max_from, "config");
	machine_free(&m);
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
		memset(&m, 0, sizeof m);
		snprintf(body, sizeof body, "%s%s}}", points, broken[i]);
		machine_of(body, &m);
		assert_true(m.points.measured == 3); /* the rest of the points' counts still read */
		assert_true(m.points.clock_taken == -1);
		machine_free(&m);
	}
	memset(&m, 0, sizeof m);
	machine_of("\"os\": {}", &m);
	assert_true(m.points.clock_taken == -1 && m.max_ghz == 0);
	machine_free(&m);
}

/* The reasons a run writes read whole at the longest the run writes them (an error message, ERR_MSG_MAX, for
   prefetcher control; "not used: " and a counter reason for APERF/MPERF): a Zen 1 guest's reason of 295
   characters came out of report.md cut at 255, ending in "prefetch);". */
static void test_reasons_read_whole(void **state)
{
	char reason[ERR_MSG_MAX], skipped[256], left[256], aperf[ERR_MSG_MAX], body[5 * ERR_MSG_MAX];
	struct machine m = {0};

	(void)state;
	memset(reason, 'r', sizeof reason - 1);
	reason[sizeof reason - 1] = '\0';
	memset(skipped, 's', sizeof skipped - 1);
	skipped[sizeof skipped - 1] = '\0';
	memset(left, 'l', sizeof left - 1);
	left[sizeof left - 1] = '\0';
	/* at the reader's whole size, past the longest the run writes ("not used: " and CTR_REASON_MAX - 1) */
	snprintf(aperf, sizeof aperf, "not used: %0*d", (int)sizeof aperf - 11, 7);
	snprintf(body, sizeof body,
		 "\"prefetch\": {\"control\": false, \"reason\": \"%s\", \"skipped\": \"%s\", "
		 "\"left_running\": \"%s\"}, \"clock\": {\"aperf_mperf\": \"%s\"}",
		 reason, skipped, left, aperf);
	machine_of(body, &m);
	assert_string_equal(m.prefetch_reason, reason);
	assert_string_equal(m.prefetch_skipped, skipped);
	assert_string_equal(m.prefetch_left_running, left);
	assert_string_equal(m.aperf_not_used, aperf);
	machine_free(&m);
}

/* disturbance.path_probe as written, or `json` in its place: m's path probe. */
static struct machine_path_probe path_probe_of(const char *json)
{
	char body[1024];
	struct machine m = {0};
	struct machine_path_probe p;

	snprintf(body, sizeof body, "\"disturbance\": {\"path_probe\": %s}", json);
	machine_of(body, &m);
	p = m.path;
	machine_free(&m);
	return p;
}

/* The path probe's figures as the run wrote them; none with fewer than two threads or without a positive
   ratio (nothing to state); an edited points_shared above the points counts as every point. */
static void test_path_probe_as_written_or_none(void **state)
{
	struct machine_path_probe p;

	(void)state;
	p = path_probe_of(
		"{\"kernel\": \"store.sse.nt\", \"bytes\": 2097152, \"threads\": 2, \"points\": 4, "
		"\"ratio_best\": 1.9, \"ratio_median\": 1.02, \"ratio_p10\": 0.98, \"points_shared\": 3, "
		"\"shared_below\": 0.75, \"gbps_one_best\": 23.1, \"gbps_best\": 43.9}");
	assert_string_equal(p.kernel, "store.sse.nt");
	assert_true(p.bytes == 2097152 && p.threads == 2 && p.points == 4 && p.points_shared == 3);
	assert_true(p.ratio_best == 1.9 && p.ratio_median == 1.02 && p.ratio_p10 == 0.98);
	assert_true(p.shared_below == 0.75 && p.gbps_one_best == 23.1 && p.gbps_best == 43.9);
	assert_int_equal(path_probe_of("{\"threads\": 1, \"points\": 4, \"ratio_best\": 1.0}").points, 0);
	assert_int_equal(path_probe_of("{\"threads\": 2, \"points\": 4, \"ratio_best\": 0}").points, 0);
	assert_int_equal(path_probe_of("{\"threads\": 2, \"points\": 4}").points, 0);
	p = path_probe_of("{\"threads\": 2, \"points\": 4, \"ratio_best\": 1.0, \"points_shared\": 9}");
	assert_true(p.points == 4 && p.points_shared == 4);
	assert_int_equal(path_probe_of("null").points, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_out_of_their_range_read_as_absent),
		cmocka_unit_test(test_path_probe_as_written_or_none),
		cmocka_unit_test(test_reasons_read_whole),
		cmocka_unit_test(test_clock_samples_read_or_absent),
		cmocka_unit_test(test_ports_read_or_not_given),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
