/* test_speed_history.c — the speed probe's history: a run judges its points against the higher of its own
 * best and the (1 + n/8)-th fastest of this machine's runs in the window, adds its best after its points
 * (the fastest SPEED_HISTORY_KEEP of this machine kept, other machines' left as they were, a run added
 * meanwhile kept too), says where it ran slow throughout, refuses a speed no core reaches, and leaves a
 * file it cannot read, or one damaged meanwhile, as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "speed_history.h"

#define NOW 1800000000
#define GHZ 3.0 /* no core of the test's machine runs faster: 768 GB/s at 256 bytes per cycle */

static char dir[64], path[128], sys[128]; /* sys: the fake sysfs tree, empty (a VM) until a test fills it */
static int run_cpu;                       /* the CPU the run's probe reads on */

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/pmucheck-sh.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/%s", dir, SPEED_HISTORY_FILE);
	snprintf(sys, sizeof sys, "%s/sys", dir);
	run_cpu = 0;
	setenv("PMUCHECK_HISTORY_DIR", dir, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	unsetenv("PMUCHECK_HISTORY_DIR");
	return system(cmd);
}

static void machine(struct topo *t)
{
	memset(t, 0, sizeof *t);
	t->ncaches = 2;
	t->caches[0] = (struct topo_cache){.level = 1, .size = 49152, .npus = 1};
	t->caches[1] = (struct topo_cache){.level = 2, .size = 2097152, .npus = 1};
}

static void read_at(struct speed_history *h, const char *probe, int64_t now)
{
	struct topo t;

	machine(&t);
	speed_history_read(h, sys, &t, run_cpu, probe, 16384, GHZ, now);
}

/* This machine's key, as a run with the load.gpr probe makes it. */
static const char *key(void)
{
	static struct speed_history h;

	read_at(&h, "load.gpr", NOW);
	return h.machine;
}

/* Writes the file: runs of `machine` at NOW - ages[i] seconds reading gbps[i]. */
static void write_runs(const char *machine, const int *ages, const double *gbps, int n, const char *more)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "{\"runs\": [%s", more ? more : "");
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"machine\": \"%s\", \"time\": %d, \"gbps\": %.17g}", i || more ? ", " : "",
			machine, NOW - ages[i], gbps[i]);
	fprintf(f, "]}\n");
	fclose(f);
}

static char *slurp(const char *p)
{
	static char buf[65536];
	FILE *f = fopen(p, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The file's runs of this machine, and of all. */
static int runs_of(const char *machine, int *all)
{
	json_t *root = json_load_file(path, 0, NULL), *o;
	size_t i;
	int n = 0;

	assert_non_null(root);
	*all = (int)json_array_size(json_object_get(root, "runs"));
	json_array_foreach(json_object_get(root, "runs"), i, o)
		n += !strcmp(json_string_value(json_object_get(o, "machine")), machine);
	json_decref(root);
	return n;
}

/* No history yet: nothing to judge against but the run's own best; its best is the file's first run. */
static void test_first_run_judges_against_its_own_best(void **state)
{
	struct speed_history h;
	json_t *j;
	int all;

	(void)state;
	read_at(&h, "load.gpr", NOW);
	assert_string_equal(h.why, "");
	assert_int_equal(h.n, 0);
	assert_true(h.machine_best == 0);
	assert_true(speed_history_against(&h, 58.0) == 58.0);
	assert_false(speed_history_slow_run(&h, 1.0));
	speed_history_add(&h, 58.0, NOW);
	assert_string_equal(h.unsaved, "");
	assert_int_equal(runs_of(h.machine, &all), 1);
	j = speed_history_json(&h);
	assert_true(json_is_null(json_object_get(j, "machine_best_gbps")));
	assert_int_equal(json_array_size(json_object_get(j, "runs")), 0);
	json_decref(j);
}

/* A run slow throughout: judged against the machine's best, and says so; a faster run against its own. */
static void test_a_run_slow_throughout_is_judged_against_the_machine(void **state)
{
	const int ages[] = {3000, 2000, 1000};
	const double gbps[] = {60.0, 65.0, 50.0};
	struct speed_history h;

	(void)state;
	write_runs(key(), ages, gbps, 3, NULL);
	read_at(&h, "load.gpr", NOW);
	assert_int_equal(h.n, 3);
	assert_true(h.machine_best == 65.0);
	assert_true(speed_history_against(&h, 45.0) == 65.0);
	assert_true(speed_history_slow_run(&h, 45.0));  /* 69 % */
	assert_false(speed_history_slow_run(&h, 53.0)); /* 82 % */
	assert_true(speed_history_against(&h, 70.0) == 70.0);
}

/* From eight runs on, the fastest of each eight is passed over: one run does not rule a day. */
static void test_one_fast_run_in_eight_is_passed_over(void **state)
{
	const int ages[] = {900, 800, 700, 600, 500, 400, 300, 200, 100};
	const double gbps[] = {60, 61, 200, 62, 59, 60, 63, 58, 60};
	struct speed_history h;

	(void)state;
	write_runs(key(), ages, gbps, 7, NULL);
	read_at(&h, "load.gpr", NOW);
	assert_true(h.machine_best == 200); /* seven: the fastest */
	write_runs(key(), ages, gbps, 9, NULL);
	read_at(&h, "load.gpr", NOW);
	assert_int_equal(h.n, 9);
	assert_true(h.machine_best == 63); /* nine: the second fastest */
}

/* Runs older than the window or from a clock set back are neither counted nor kept; other machines' runs in
   the window are kept as they were, and another probe's (another kernel) are another machine's. */
static void test_window_and_other_machines(void **state)
{
	const int ages[] = {SPEED_HISTORY_SECONDS + 5, -60, 100};
	const double gbps[] = {90.0, 95.0, 40.0};
	char other[512];
	struct speed_history h, o;
	int all;

	(void)state;
	read_at(&o, "load.avx512", NOW);
	snprintf(other, sizeof other, "{\"machine\": \"%s\", \"time\": %d, \"gbps\": 300}", o.machine,
		 NOW - 50);
	write_runs(key(), ages, gbps, 3, other);
	read_at(&h, "load.gpr", NOW);
	assert_int_equal(h.n, 1);
	assert_true(h.machine_best == 40.0);
	speed_history_add(&h, 41.0, NOW);
	assert_int_equal(runs_of(h.machine, &all), 2);
	assert_int_equal(all, 3);
	assert_int_equal(runs_of(o.machine, &all), 1);
}

/* The fastest SPEED_HISTORY_KEEP of this machine in the window stay: a series of runs slow throughout does
   not push the day's faster ones out, and a faster run takes the slowest one's place. */
static void test_keeps_the_fastest(void **state)
{
	int ages[20];
	double gbps[20];
	struct speed_history h;
	int all;

	(void)state;
	for (int i = 0; i < 20; i++) {
		ages[i] = 20000 - 10 * i;
		gbps[i] = 100 - i; /* the oldest fastest */
	}
	write_runs(key(), ages, gbps, 20, NULL);
	read_at(&h, "load.gpr", NOW);
	assert_int_equal(h.n, SPEED_HISTORY_KEEP); /* 100 down to 85 */
	assert_true(h.machine_best == 98);         /* the third fastest of 16 */
	for (int i = 0; i < 20; i++) {
		read_at(&h, "load.gpr", NOW + i);
		speed_history_add(&h, 50.0, NOW + i); /* twenty runs slow throughout */
	}
	assert_true(h.machine_best == 98);
	assert_int_equal(runs_of(h.machine, &all), SPEED_HISTORY_KEEP);
	assert_null(strstr(slurp(path), "\"gbps\": 50"));
	read_at(&h, "load.gpr", NOW + 30);
	speed_history_add(&h, 101.0, NOW + 30);
	read_at(&h, "load.gpr", NOW + 31);
	assert_true(h.machine_best == 99); /* 101, 100, 99 */
	assert_true(h.seen[0].time < h.seen[h.n - 1].time);
	assert_null(strstr(slurp(path), "\"gbps\": 85")); /* the slowest gave its place */
}

/* A run added by another between this run's read and its add is kept beside this one. */
static void test_a_run_added_meanwhile_is_kept(void **state)
{
	const int ages[] = {100};
	const double gbps[] = {60.0};
	struct speed_history h;
	int all;

	(void)state;
	read_at(&h, "load.gpr", NOW);
	write_runs(key(), ages, gbps, 1, NULL);
	speed_history_add(&h, 55.0, NOW);
	assert_int_equal(runs_of(h.machine, &all), 2);
	assert_true(strstr(slurp(path), "\"gbps\": 60") != NULL);
}

/* A run of this machine faster than one core reads at its clock is refused, named, the file left as it
   was; a run's own best as fast is not added. Another machine's is not this machine's to judge. */
static void test_a_speed_no_core_reaches_is_refused(void **state)
{
	const int ages[] = {100};
	const double gbps[] = {1e308};
	char other[256];
	struct speed_history h;
	char *before;

	(void)state;
	write_runs(key(), ages, gbps, 1, NULL);
	before = strdup(slurp(path));
	read_at(&h, "load.gpr", NOW);
	assert_true(strstr(h.why, "run 1: 1e+308 GB/s, more than one core reads at 3.00 GHz") != NULL);
	assert_true(h.machine_best == 0);
	speed_history_add(&h, 50.0, NOW);
	assert_string_equal(slurp(path), before);
	free(before);
	snprintf(other, sizeof other, "{\"machine\": \"another\", \"time\": %d, \"gbps\": 1e308}", NOW - 5);
	write_runs(key(), ages, (const double[]){60.0}, 1, other);
	read_at(&h, "load.gpr", NOW);
	assert_string_equal(h.why, "");
	speed_history_add(&h, 800.0, NOW); /* 800 GB/s at 3 GHz: 267 bytes per cycle */
	assert_true(strstr(h.unsaved, "more than one core reads") != NULL);
	assert_null(strstr(slurp(path), "\"gbps\": 800"));
}

/* A file of another form is not read, named with the run in it, and left as it was. */
static void test_a_damaged_file_is_left_as_it_was(void **state)
{
	const char *bad[] = {
		"{\"runs\": [{\"machine\": \"m\", \"time\": 1, \"gbps\": -3}]}\n",
		"{\"runs\": [{\"machine\": \"m\", \"time\": 1, \"gbps\": \"fast\"}]}\n",
		"{\"runs\": {}}\n",
		"not json\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct speed_history h;
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(bad[i], f);
		fclose(f);
		read_at(&h, "load.gpr", NOW);
		assert_true(strstr(h.why, path) != NULL);
		assert_int_equal(h.n, 0);
		assert_true(speed_history_against(&h, 30.0) == 30.0);
		speed_history_add(&h, 30.0, NOW);
		assert_string_equal(slurp(path), bad[i]);
		json_t *j = speed_history_json(&h);
		assert_string_equal(json_string_value(json_object_get(j, "not_kept")), h.why);
		json_decref(j);
	}
}

/* A link in the history's place is not followed, neither read nor written through. */
static void test_a_link_is_not_followed(void **state)
{
	char target[160];
	const int ages[] = {100};
	const double gbps[] = {99.0};
	struct speed_history h;

	(void)state;
	write_runs(key(), ages, gbps, 1, NULL);
	snprintf(target, sizeof target, "%s/elsewhere.json", dir);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	read_at(&h, "load.gpr", NOW);
	assert_true(h.why[0] != 0);
	assert_true(h.machine_best == 0);
	speed_history_add(&h, 10.0, NOW);
	assert_true(strstr(slurp(target), "99") != NULL);
	assert_null(strstr(slurp(target), "\"gbps\": 10"));
}

/* Another run damaged the file between this run's read and its add: left as it was, the run says so and
   keeps what it judged against. */
static void test_a_file_damaged_meanwhile_is_not_overwritten(void **state)
{
	const int ages[] = {100};
	const double gbps[] = {70.0};
	struct speed_history h;
	FILE *f;

	(void)state;
	write_runs(key(), ages, gbps, 1, NULL);
	read_at(&h, "load.gpr", NOW);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("garbage\n", f);
	fclose(f);
	speed_history_add(&h, 50.0, NOW);
	assert_true(strstr(h.unsaved, path) != NULL);
	assert_string_equal(slurp(path), "garbage\n");
	assert_true(h.machine_best == 70.0);
	json_t *j = speed_history_json(&h);
	assert_string_equal(json_string_value(json_object_get(j, "not_added")), h.unsaved);
	json_decref(j);
}

/* The history directory's former name is read where the new one is not set. */
static void test_the_former_name_of_the_directory_is_read(void **state)
{
	char own[160], file[192];
	struct speed_history h;

	(void)state;
	snprintf(own, sizeof own, "%s/own", dir);
	assert_int_equal(mkdir(own, 0755), 0);
	unsetenv("PMUCHECK_HISTORY_DIR");
	setenv("PMUCHECK_LEVELS_HISTORY_DIR", own, 1);
	read_at(&h, "load.gpr", NOW);
	unsetenv("PMUCHECK_LEVELS_HISTORY_DIR");
	snprintf(file, sizeof file, "%s/%s", own, SPEED_HISTORY_FILE);
	assert_string_equal(h.path, file);
}

/* Without a speed probe there is nothing to read, judge or add. */
static void test_no_probe_reads_nothing(void **state)
{
	struct speed_history h;

	(void)state;
	read_at(&h, NULL, NOW);
	assert_true(h.why[0] != 0);
	speed_history_add(&h, 50.0, NOW);
	assert_int_equal(access(path, F_OK), -1);
}

/* Writes the fake tree's file under devices/system/cpu. */
static void sys_file(const char *file, const char *value)
{
	char p[512], cmd[600];
	FILE *f;

	snprintf(p, sizeof p, "%s/devices/system/cpu/%s", sys, file);
	snprintf(cmd, sizeof cmd, "mkdir -p $(dirname %s)", p);
	assert_int_equal(system(cmd), 0);
	assert_non_null(f = fopen(p, "w"));
	fprintf(f, "%s\n", value);
	fclose(f);
}

/* The clock's settings chosen within a boot are part of the machine: with the governor changed or the turbo
   switched off (intel_pstate/no_turbo, cpufreq/boost, the run's CPU's own boost), the day's runs at the full
   clock are another machine's, kept in the file but not judged against, so the slower run is not marked slow
   throughout; back at the full clock they count again (the other files each change the key too). Another
   CPU's policy is not the run's, and scaling_max_freq, which firmware and heat move too, is none. A machine
   without cpufreq (this guest) keeps the key it had before the settings were part of it. */
static void test_the_clocks_settings_are_part_of_the_machine(void **state)
{
	const int ages[] = {300, 200};
	const double gbps[] = {64.0, 65.0};
	const char *end = ", probe load.gpr 16384 bytes";
	struct speed_history h;
	int all;

	(void)state;
	assert_string_equal(key() + strlen(key()) - strlen(end), end);
	run_cpu = 1;
	sys_file("cpu1/cpufreq/scaling_governor", "performance");
	sys_file("cpu1/cpufreq/scaling_max_freq", "3500000");
	sys_file("cpu0/cpufreq/scaling_governor", "powersave"); /* another CPU's: not the run's */
	sys_file("intel_pstate/no_turbo", "0");
	assert_string_equal(strstr(key(), ", probe"),
			    ", probe load.gpr 16384 bytes, scaling_governor performance, "
			    "intel_pstate/no_turbo 0");
	write_runs(key(), ages, gbps, 2, NULL);
	sys_file("cpu1/cpufreq/scaling_max_freq", "2000000"); /* a thermal cap as much as a choice: none */
	read_at(&h, "load.gpr", NOW);
	assert_int_equal(h.n, 2);
	sys_file("intel_pstate/no_turbo", "1");
	read_at(&h, "load.gpr", NOW);
	assert_non_null(strstr(h.machine, "no_turbo 1"));
	assert_int_equal(h.n, 0);
	assert_false(speed_history_slow_run(&h, 38.0));
	speed_history_add(&h, 38.0, NOW);
	assert_int_equal(runs_of(h.machine, &all), 1);
	assert_int_equal(all, 3);
	sys_file("intel_pstate/no_turbo", "0");
	read_at(&h, "load.gpr", NOW);
	assert_int_equal(h.n, 2);
	assert_true(speed_history_slow_run(&h, 38.0));
	sys_file("cpufreq/boost", "0");
	assert_non_null(strstr(key(), "cpufreq/boost 0"));
	sys_file("cpu1/cpufreq/boost", "0");
	assert_non_null(strstr(key(), ", boost 0"));
	sys_file("cpu1/cpufreq/energy_performance_preference", "power");
	assert_non_null(strstr(key(), ", energy_performance_preference power"));
	sys_file("intel_pstate/max_perf_pct", "60");
	assert_non_null(strstr(key(), ", intel_pstate/max_perf_pct 60"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_first_run_judges_against_its_own_best, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_run_slow_throughout_is_judged_against_the_machine,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_fast_run_in_eight_is_passed_over, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window_and_other_machines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keeps_the_fastest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_run_added_meanwhile_is_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_speed_no_core_reaches_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_damaged_file_is_left_as_it_was, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_link_is_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_file_damaged_meanwhile_is_not_overwritten, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_the_former_name_of_the_directory_is_read, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_probe_reads_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_clocks_settings_are_part_of_the_machine, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
