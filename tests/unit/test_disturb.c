/* test_disturb.c — steal time, runnable tasks and CPU pressure from fake /proc trees, so that a noisy
 * cloud VM (steal), a busy one (pressure), an old kernel (no steal field, no PSI) and unreadable input are
 * met on any machine. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "disturb.h"

static char path[64]; /* the fake /proc */

/* cpu_line: the aggregate line, followed by a cpu0 line; or where it holds several lines, all of them. */
static void fake_stat(const char *cpu_line, int running)
{
	char file[96];
	FILE *f;

	snprintf(path, sizeof path, "/tmp/pmucheck-proc.%d", (int)getpid());
	mkdir(path, 0700);
	snprintf(file, sizeof file, "%s/stat", path);
	f = fopen(file, "w");
	assert_non_null(f);
	fprintf(f, "%s\n%sintr 12345 1 2\nctxt 999\nprocs_running %d\nprocs_blocked 0\n", cpu_line,
		strchr(cpu_line, '\n') ? "" : "cpu0 1 2 3 4 5 6 7 8 0 0\n", running);
	fclose(f);
}

/* pressure/cpu with this "some" total (us), as Linux 4.20 and later write it; NULL: none (no PSI). */
static void fake_pressure(const char *some_total)
{
	char file[96];
	FILE *f;

	snprintf(file, sizeof file, "%s/pressure", path);
	mkdir(file, 0700);
	snprintf(file, sizeof file, "%s/pressure/cpu", path);
	if (!some_total) {
		unlink(file);
		return;
	}
	f = fopen(file, "w");
	assert_non_null(f);
	fprintf(f,
		"some avg10=1.50 avg60=0.20 avg300=0.05 total=%s\nfull avg10=0.00 avg60=0.00 avg300=0.00 "
		"total=0\n",
		some_total);
	fclose(f);
}

static void remove_fake(void)
{
	char file[96];

	snprintf(file, sizeof file, "%s/pressure/cpu", path);
	unlink(file);
	snprintf(file, sizeof file, "%s/pressure", path);
	rmdir(file);
	snprintf(file, sizeof file, "%s/stat", path);
	unlink(file);
	rmdir(path);
}

static void test_steal_share_between_two_samples(void **state)
{
	struct disturb_sample a, b;
	struct err e;
	json_t *j;

	(void)state;
	/* user nice system idle iowait irq softirq steal guest guest_nice (guest inside user) */
	fake_stat("cpu  1000 0 200 8000 0 0 0 800 500 0", 2);
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), 0);
	assert_int_equal(a.total, 10000);
	assert_int_equal(a.steal, 800);
	assert_int_equal(a.procs_running, 2);
	fake_stat("cpu  1600 0 300 8800 0 0 0 1300 900 0", 5);
	assert_int_equal(disturb_read(path, NULL, 0, &b, &e), 0);
	/* 500 steal jiffies of 2000 */
	assert_true(disturb_steal_percent(&a, &b) == 25.0);
	j = disturb_json(&a, &b);
	assert_true(json_real_value(json_object_get(j, "steal_percent")) == 25.0);
	assert_int_equal(json_integer_value(json_object_get(j, "runnable_after")), 5);
	json_decref(j);
	remove_fake();
}

/* iowait "may decrease in certain conditions" (proc(5), /proc/stat): the sum of the fields can then grow less
   than steal alone, and steal over it would exceed all CPU time (50 steal jiffies of 20: 250 %). Such a
   pair says nothing of the share: unknown, never above 100 %. */
static void test_steal_beyond_all_time_is_unknown(void **state)
{
	struct disturb_sample a, b;
	struct err e;
	json_t *j;

	(void)state;
	fake_stat("cpu  100 0 100 1000 500 0 0 10 0 0", 1);
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), 0);
	fake_stat("cpu  110 0 100 1000 460 0 0 60 0 0", 1); /* iowait -40, steal +50: +20 in all */
	assert_int_equal(disturb_read(path, NULL, 0, &b, &e), 0);
	assert_true(disturb_steal_percent(&a, &b) < 0);
	j = disturb_json(&a, &b);
	assert_true(json_is_null(json_object_get(j, "steal_percent")));
	json_decref(j);
	remove_fake();
}

static void test_no_time_between_samples_is_unknown_not_zero(void **state)
{
	struct disturb_sample a;
	struct err e;
	json_t *j;

	(void)state;
	fake_stat("cpu  1000 0 200 8000", 1); /* a kernel without the steal field */
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), 0);
	assert_int_equal(a.steal, 0);
	assert_true(disturb_steal_percent(&a, &a) < 0);
	j = disturb_json(&a, &a);
	assert_true(json_is_null(json_object_get(j, "steal_percent")));
	json_decref(j);
	remove_fake();
}

/* A one-thread run on CPU 2 of four, a fifth of whose time the host gave to other guests while the three
   others idled: over all CPUs (the aggregate line) 5 % of the time was stolen, under the 5 % a busy run is
   said from; over the CPU measured on, 20 %. A CPU with no line (offline) is an error naming the file. */
static void test_steal_of_the_cpus_measured_on(void **state)
{
	struct disturb_sample a, b;
	const int cpu2 = 2, cpu5 = 5, both[2] = {1, 2};
	struct err e;
	json_t *j;

	(void)state;
	fake_stat(
		"cpu  400 0 0 3600 0 0 0 0 0 0\ncpu0 100 0 0 900 0 0 0 0 0 0\ncpu1 100 0 0 900 0 0 0 0 0 0\n"
		"cpu2 100 0 0 900 0 0 0 0 0 0\ncpu3 100 0 0 900 0 0 0 0 0 0",
		1);
	assert_int_equal(disturb_read(path, &cpu2, 1, &a, &e), 0);
	assert_int_equal(a.total, 1000);
	assert_int_equal(a.ncpus, 1);
	fake_stat("cpu  1200 0 0 6600 0 0 0 200 0 0\ncpu0 100 0 0 1900 0 0 0 0 0 0\ncpu1 100 0 0 1900 0 0 0 "
		  "0 0 0\n"
		  "cpu2 900 0 0 900 0 0 0 200 0 0\ncpu3 100 0 0 1900 0 0 0 0 0 0",
		  1);
	assert_int_equal(disturb_read(path, &cpu2, 1, &b, &e), 0);
	assert_true(disturb_steal_percent(&a, &b) == 20.0);
	j = disturb_json(&a, &b);
	assert_true(json_real_value(json_object_get(j, "steal_percent")) == 20.0);
	assert_int_equal(json_integer_value(json_object_get(j, "steal_cpus")), 1);
	assert_non_null(strstr(json_string_value(json_object_get(j, "source")),
			       "the CPU measured on (its cpuN line)"));
	json_decref(j);
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), 0); /* all CPUs: the aggregate */
	a.steal = 0, a.total = 4000;
	assert_int_equal(disturb_read(path, NULL, 0, &b, &e), 0);
	assert_true(disturb_steal_percent(&a, &b) == 5.0);
	assert_int_equal(disturb_read(path, both, 2, &b, &e), 0); /* two CPUs' lines summed */
	assert_int_equal(b.total, 2000 + 2000);
	assert_int_equal(b.steal, 200);
	assert_int_equal(disturb_read(path, &cpu5, 1, &b, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "stat: no line of the CPUs measured on"));
	remove_fake();
}

/* A kernel whose lines end before the steal field says nothing of steal: unknown, not 0 % */
static void test_no_steal_field_is_unknown_not_zero(void **state)
{
	struct disturb_sample a, b;
	const int cpu0 = 0;
	struct err e;
	json_t *j;

	(void)state;
	fake_stat("cpu  100 0 50 1000 0 0 0\ncpu0 100 0 50 1000 0 0 0\n", 1);
	assert_int_equal(disturb_read(path, &cpu0, 1, &a, &e), 0);
	fake_stat("cpu  200 0 100 2000 0 0 0\ncpu0 200 0 100 2000 0 0 0\n", 1);
	assert_int_equal(disturb_read(path, &cpu0, 1, &b, &e), 0);
	assert_false(b.has_steal);
	assert_true(disturb_steal_percent(&a, &b) < 0);
	j = disturb_json(&a, &b);
	assert_true(json_is_null(json_object_get(j, "steal_percent")));
	assert_non_null(strstr(json_string_value(json_object_get(j, "source")), "no steal field"));
	json_decref(j);
	remove_fake();
}

static void test_unreadable_or_foreign_file_is_an_error_naming_it(void **state)
{
	struct disturb_sample a;
	struct err e;

	(void)state;
	assert_int_equal(disturb_read("/nonexistent", NULL, 0, &a, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "/nonexistent/stat"));
	fake_stat("intr 5", 1);
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "no aggregate 'cpu' line"));
	remove_fake();
}

static void test_this_machines_proc_stat_reads(void **state)
{
	struct disturb_sample a;
	struct err e;

	(void)state;
	assert_int_equal(disturb_read(DISTURB_PROC, NULL, 0, &a, &e), 0);
	assert_true(a.total > 0);
	assert_true(a.procs_running >= 1); /* this thread */
	assert_true(a.at_s > 0);
}

/* A thread of this process's own, its stat line as the kernel writes it (comm in parentheses). */
static void fake_task(const char *tid, const char *line)
{
	char file[128];
	FILE *f;

	snprintf(file, sizeof file, "%s/self", path);
	mkdir(file, 0700);
	snprintf(file, sizeof file, "%s/self/task", path);
	mkdir(file, 0700);
	snprintf(file, sizeof file, "%s/self/task/%s", path, tid);
	mkdir(file, 0700);
	snprintf(file, sizeof file, "%s/self/task/%s/stat", path, tid);
	f = fopen(file, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", line);
	fclose(f);
}

static void remove_tasks(const char *const *tids, int n)
{
	char file[128];

	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof file, "%s/self/task/%s/stat", path, tids[i]);
		unlink(file);
		snprintf(file, sizeof file, "%s/self/task/%s", path, tids[i]);
		rmdir(file);
	}
	snprintf(file, sizeof file, "%s/self/task", path);
	rmdir(file);
	snprintf(file, sizeof file, "%s/self", path);
	rmdir(file);
}

/* procs_running counts pmucheck's own threads, and after the last point libgomp's may still spin: the others
   are those less its threads in state R. A comm may hold ") S " itself: the state is after the last ')'. */
static void test_others_runnable_leave_out_own_threads(void **state)
{
	static const char *const tids[] = {"100", "101", "102"};
	struct disturb_sample a, b;
	struct err e;
	json_t *j;

	(void)state;
	fake_stat("cpu  1000 0 200 8000 0 0 0 0 0 0", 2);
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), 0);
	assert_int_equal(a.own_running, -1); /* no self/task in the tree: unknown, not 0 */
	assert_int_equal(disturb_others_running(&a), -1);
	fake_task("100", "100 (pmucheck) R 1 100 100 0 -1 4194560");
	fake_task("101", "101 (x) S 1 (y) R) S 1 100 100 0 -1"); /* sleeping, whatever its name says */
	fake_task("102", "102 (pmucheck) R 1 100 100 0 -1");
	fake_stat("cpu  1000 0 200 8000 0 0 0 0 0 0", 5);
	assert_int_equal(disturb_read(path, NULL, 0, &b, &e), 0);
	assert_int_equal(b.own_running, 2);
	assert_int_equal(disturb_others_running(&b), 3);
	j = disturb_json(&a, &b);
	assert_true(json_is_null(json_object_get(j, "others_runnable_before")));
	assert_int_equal(json_integer_value(json_object_get(j, "others_runnable_after")), 3);
	assert_int_equal(json_integer_value(json_object_get(j, "runnable_after")), 5);
	json_decref(j);
	/* read a moment apart: more of ours than procs_running counted is none of the others, never fewer */
	fake_stat("cpu  1000 0 200 8000 0 0 0 0 0 0", 1);
	assert_int_equal(disturb_read(path, NULL, 0, &b, &e), 0);
	assert_int_equal(disturb_others_running(&b), 0);
	remove_tasks(tids, 3);
	remove_fake();
}

static volatile int spinning, stop_spinning;

static void *spin(void *arg)
{
	(void)arg;
	spinning = 1;
	while (!stop_spinning)
		;
	return NULL;
}

/* The real /proc: a thread of this process that spins (as libgomp's do after a parallel region) is in state R
   and one of this process's own, not another task. */
static void test_a_spinning_thread_of_ours_is_not_another_task(void **state)
{
	struct disturb_sample a;
	struct err e;
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, spin, NULL), 0);
	while (!spinning)
		;
	assert_int_equal(disturb_read(DISTURB_PROC, NULL, 0, &a, &e), 0);
	stop_spinning = 1;
	pthread_join(t, NULL);
	assert_true(a.own_running >= 2); /* this thread and the spinning one */
	assert_true(disturb_others_running(&a) >= 0);
}

static void test_pressure_share_of_the_time_between_samples(void **state)
{
	struct disturb_sample a, b;
	struct err e;
	json_t *j;

	(void)state;
	fake_stat("cpu  1000 0 200 8000 0 0 0 0 0 0", 1);
	fake_pressure("5000000");
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), 0);
	assert_int_equal(a.pressure_us, 5000000);
	fake_pressure("5750000");
	assert_int_equal(disturb_read(path, NULL, 0, &b, &e), 0);
	/* 0.75 s of waiting in 3 s */
	a.at_s = 100.0;
	b.at_s = 103.0;
	assert_true(fabs(disturb_pressure_percent(&a, &b) - 25.0) < 1e-9);
	j = disturb_json(&a, &b);
	assert_true(fabs(json_real_value(json_object_get(j, "cpu_pressure_percent")) - 25.0) < 1e-9);
	json_decref(j);
	remove_fake();
}

static void test_no_psi_is_unknown_pressure_not_zero(void **state)
{
	struct disturb_sample a, b;
	struct err e;
	json_t *j;

	(void)state;
	fake_stat("cpu  1000 0 200 8000 0 0 0 0 0 0", 1);
	fake_pressure(NULL);
	assert_int_equal(disturb_read(path, NULL, 0, &a, &e), 0); /* stat alone is enough */
	assert_int_equal(a.pressure_us, -1);
	fake_pressure("not-a-number");
	assert_int_equal(disturb_read(path, NULL, 0, &b, &e), 0);
	assert_int_equal(b.pressure_us, -1);
	b.at_s = a.at_s + 1;
	assert_true(disturb_pressure_percent(&a, &b) < 0);
	j = disturb_json(&a, &b);
	assert_true(json_is_null(json_object_get(j, "cpu_pressure_percent")));
	json_decref(j);
	remove_fake();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steal_share_between_two_samples),
		cmocka_unit_test(test_steal_beyond_all_time_is_unknown),
		cmocka_unit_test(test_no_time_between_samples_is_unknown_not_zero),
		cmocka_unit_test(test_steal_of_the_cpus_measured_on),
		cmocka_unit_test(test_no_steal_field_is_unknown_not_zero),
		cmocka_unit_test(test_unreadable_or_foreign_file_is_an_error_naming_it),
		cmocka_unit_test(test_this_machines_proc_stat_reads),
		cmocka_unit_test(test_others_runnable_leave_out_own_threads),
		cmocka_unit_test(test_a_spinning_thread_of_ours_is_not_another_task),
		cmocka_unit_test(test_pressure_share_of_the_time_between_samples),
		cmocka_unit_test(test_no_psi_is_unknown_pressure_not_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
