/* test_disturb.c — steal time and runnable tasks from /proc/stat-format files, faked so that a noisy
 * cloud VM (steal), an old kernel (no steal field) and unreadable input are met on any machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "disturb.h"

static char path[64];

static void fake_stat(const char *cpu_line, int running)
{
	FILE *f;

	snprintf(path, sizeof path, "/tmp/pmucheck-stat.%d", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"%s\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 12345 1 2\nctxt 999\nprocs_running %d\nprocs_blocked 0\n",
		cpu_line, running);
	fclose(f);
}

static void test_steal_share_between_two_samples(void **state)
{
	struct disturb_sample a, b;
	struct err e;
	json_t *j;

	(void)state;
	/* user nice system idle iowait irq softirq steal guest guest_nice (guest inside user) */
	fake_stat("cpu  1000 0 200 8000 0 0 0 800 500 0", 2);
	assert_int_equal(disturb_read(path, &a, &e), 0);
	assert_int_equal(a.total, 10000);
	assert_int_equal(a.steal, 800);
	assert_int_equal(a.procs_running, 2);
	fake_stat("cpu  1600 0 300 8800 0 0 0 1300 900 0", 5);
	assert_int_equal(disturb_read(path, &b, &e), 0);
	/* 500 steal jiffies of 2000 */
	assert_true(disturb_steal_percent(&a, &b) == 25.0);
	j = disturb_json(&a, &b);
	assert_true(json_real_value(json_object_get(j, "steal_percent")) == 25.0);
	assert_int_equal(json_integer_value(json_object_get(j, "runnable_after")), 5);
	json_decref(j);
	unlink(path);
}

static void test_no_time_between_samples_is_unknown_not_zero(void **state)
{
	struct disturb_sample a;
	struct err e;
	json_t *j;

	(void)state;
	fake_stat("cpu  1000 0 200 8000", 1); /* a kernel without the steal field */
	assert_int_equal(disturb_read(path, &a, &e), 0);
	assert_int_equal(a.steal, 0);
	assert_true(disturb_steal_percent(&a, &a) < 0);
	j = disturb_json(&a, &a);
	assert_true(json_is_null(json_object_get(j, "steal_percent")));
	json_decref(j);
	unlink(path);
}

static void test_unreadable_or_foreign_file_is_an_error_naming_it(void **state)
{
	struct disturb_sample a;
	struct err e;

	(void)state;
	assert_int_equal(disturb_read("/nonexistent/stat", &a, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "/nonexistent/stat"));
	fake_stat("intr 5", 1);
	assert_int_equal(disturb_read(path, &a, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "no aggregate 'cpu' line"));
	unlink(path);
}

static void test_this_machines_proc_stat_reads(void **state)
{
	struct disturb_sample a;
	struct err e;

	(void)state;
	assert_int_equal(disturb_read(DISTURB_PROC_STAT, &a, &e), 0);
	assert_true(a.total > 0);
	assert_true(a.procs_running >= 1); /* this thread */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steal_share_between_two_samples),
		cmocka_unit_test(test_no_time_between_samples_is_unknown_not_zero),
		cmocka_unit_test(test_unreadable_or_foreign_file_is_an_error_naming_it),
		cmocka_unit_test(test_this_machines_proc_stat_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
