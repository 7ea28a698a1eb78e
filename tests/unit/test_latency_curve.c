/* test_latency_curve.c — the level probe's curve in machine.json (common/latency_curve.h), read by the run
   that resumes (harness levels_curve_read) and by the analysis (machine_read): the same points from the
   same curve, malformed ones skipped by both. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "latency_curve.h"
#include "levels_from.h"
#include "machine_read.h"

/* Six points, two of them malformed: a zero time, a size that is no number; of the four others one has
   its cycles, one none (null), one a negative number (none), one is written as before the probe kept them. */
static const char curve[] = "[[16384, 1.0, 5.0], [65536, 0, 7.0], [262144, 3.5, null], [\"1M\", 9.0], "
			    "[1048576, 4.0, -1], [8388608, 12.25]]";

static void test_a_point_is_a_positive_size_and_time(void **state)
{
	json_t *ok = json_pack("[I, f]", (json_int_t)4096, 0.8),
	       *zero = json_pack("[I, f]", (json_int_t)4096, 0.0),
	       *neg = json_pack("[I, f]", (json_int_t)-1, 1.0), *short_ = json_pack("[I]", (json_int_t)4096),
	       *obj = json_pack("{s:I}", "bytes", (json_int_t)4096);
	json_t *cycles = json_pack("[I, f, f]", (json_int_t)4096, 0.8, 4.0);
	struct level_probe_time t;
	double b;

	(void)state;
	assert_true(latency_curve_point(ok, &b, &t));
	assert_true(b == 4096 && t.ns == 0.8 && t.cycles == 0);
	assert_true(latency_curve_point(cycles, &b, &t));
	assert_true(b == 4096 && t.ns == 0.8 && t.cycles == 4.0);
	assert_false(latency_curve_point(zero, &b, &t));
	assert_false(latency_curve_point(neg, &b, &t));
	assert_false(latency_curve_point(short_, &b, &t));
	assert_false(latency_curve_point(obj, &b, &t));
	json_decref(ok), json_decref(zero), json_decref(neg), json_decref(short_), json_decref(obj);
	json_decref(cycles);
}

static void test_the_resumed_run_and_the_analysis_read_the_same_points(void **state)
{
	char path[] = "/tmp/pmucheck-curve.XXXXXX", text[512];
	uint64_t size[8];
	double ns[8], cycles[8];
	struct machine m = {0};
	struct err e;
	json_t *levels;
	FILE *f;
	int n;

	(void)state;
	snprintf(text, sizeof text, "{\"reported\": {\"L1\": 32768}, \"latency_curve\": %s}", curve);
	assert_non_null(levels = json_loads(text, 0, NULL));
	n = levels_curve_read(levels, size, ns, cycles, 8);
	assert_int_equal(n, 4);
	assert_true(cycles[0] == 5.0 && cycles[1] == 0 && cycles[2] == 0 && cycles[3] == 0);
	assert_int_equal(levels_curve_read(levels, size, ns, cycles, 2), 2); /* at most max */

	close(mkstemp(path));
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"format\": 1, \"levels\": %s}\n", text);
	fclose(f);
	assert_int_equal(machine_read(path, &m, &e), 0);
	assert_int_equal(m.nlatency, n);
	n = levels_curve_read(levels, size, ns, cycles, 8);
	for (int i = 0; i < n; i++) {
		assert_true(m.latency[i].bytes == (double)size[i]);
		assert_true(m.latency[i].t.ns == ns[i]);
		assert_true(m.latency[i].t.cycles == cycles[i]);
	}
	machine_free(&m);
	json_decref(levels);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_point_is_a_positive_size_and_time),
		cmocka_unit_test(test_the_resumed_run_and_the_analysis_read_the_same_points),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
