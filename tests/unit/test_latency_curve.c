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

/* Five points, two of them malformed: a zero time, a size that is no number. */
static const char curve[] = "[[16384, 1.0], [65536, 0], [262144, 3.5], [\"1M\", 9.0], [8388608, 12.25]]";

static void test_a_point_is_a_positive_size_and_time(void **state)
{
	json_t *ok = json_pack("[I, f]", (json_int_t)4096, 0.8),
	       *zero = json_pack("[I, f]", (json_int_t)4096, 0.0),
	       *neg = json_pack("[I, f]", (json_int_t)-1, 1.0), *short_ = json_pack("[I]", (json_int_t)4096),
	       *obj = json_pack("{s:I}", "bytes", (json_int_t)4096);
	double b, ns;

	(void)state;
	assert_true(latency_curve_point(ok, &b, &ns));
	assert_true(b == 4096 && ns == 0.8);
	assert_false(latency_curve_point(zero, &b, &ns));
	assert_false(latency_curve_point(neg, &b, &ns));
	assert_false(latency_curve_point(short_, &b, &ns));
	assert_false(latency_curve_point(obj, &b, &ns));
	json_decref(ok), json_decref(zero), json_decref(neg), json_decref(short_), json_decref(obj);
}

static void test_the_resumed_run_and_the_analysis_read_the_same_points(void **state)
{
	char path[] = "/tmp/pmucheck-curve.XXXXXX", text[512];
	uint64_t size[8];
	double ns[8];
	struct machine m = {0};
	struct err e;
	json_t *levels;
	FILE *f;
	int n;

	(void)state;
	snprintf(text, sizeof text, "{\"reported\": {\"L1\": 32768}, \"latency_curve\": %s}", curve);
	assert_non_null(levels = json_loads(text, 0, NULL));
	n = levels_curve_read(levels, size, ns, 8);
	assert_int_equal(n, 3);
	assert_int_equal(levels_curve_read(levels, size, ns, 2), 2); /* at most max */

	close(mkstemp(path));
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"format\": 1, \"levels\": %s}\n", text);
	fclose(f);
	assert_int_equal(machine_read(path, &m, &e), 0);
	assert_int_equal(m.nlatency, n);
	n = levels_curve_read(levels, size, ns, 8);
	for (int i = 0; i < n; i++) {
		assert_true(m.latency[i].bytes == (double)size[i]);
		assert_true(m.latency[i].ns == ns[i]);
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
