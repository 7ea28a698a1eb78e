/* test_cpu_limit.c — the cgroup CPU quota and its throttling from fake /proc and cgroup trees: cgroup v1
 * beside an empty v2 (as on the development VM), cgroup v2 with a parent's quota (a batch job and its
 * step), a container whose mount shows its own cgroup as the root, no quota, and files that are missing or
 * not as the kernel writes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "cpu_limit.h"
#include "fake_file.h"
#include "skip_why.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	assert_int_equal(fake_put_at(root, rel, text), 0);
}

/* v1's quota files in the cgroup directory dir (below root): quota us per 100 ms. */
static void v1_quota(const char *dir, const char *quota)
{
	char rel[256];

	snprintf(rel, sizeof rel, "%s/cpu.cfs_quota_us", dir);
	put(rel, quota);
	snprintf(rel, sizeof rel, "%s/cpu.cfs_period_us", dir);
	put(rel, "100000\n");
}

/* Finds the limit in the fake tree and checks what it found. */
static void expect_limit(struct cpu_limit *l, int version, const char *cgroup, double cpus)
{
	struct err e;

	assert_int_equal(cpu_limit_find(root, l, &e), 0);
	assert_int_equal(l->version, version);
	assert_string_equal(l->cgroup, cgroup);
	assert_true(cpu_limit_cpus(l) == cpus);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/pmucheck-cg.%d", (int)getpid());
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

#define MOUNT_V1_CPU "35 30 0:30 / /sys/fs/cgroup/cpu rw,nosuid - cgroup cgroup rw,cpu\n"
#define MOUNT_V2_UNIFIED "31 30 0:26 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"

static const char stat_v1[] = "nr_periods 574\nnr_throttled 353\nthrottled_time 31510730829\nnr_bursts 0\n";

static void test_v1_quota_of_the_runs_cgroup_and_its_throttling(void **state)
{
	struct cpu_limit l;
	struct cpu_throttle a, b;
	struct err e;
	json_t *j;

	(void)state;
	put("proc/self/cgroup", "9:name=systemd:/\n3:cpuset:/\n1:cpu:/pmq\n0::/\n");
	put("proc/self/mountinfo",
	    "30 1 0:25 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n" MOUNT_V2_UNIFIED
	    "34 30 0:29 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n" MOUNT_V1_CPU);
	v1_quota("sys/fs/cgroup/cpu", "-1\n");
	v1_quota("sys/fs/cgroup/cpu/pmq", "50000\n");
	put("sys/fs/cgroup/cpu/pmq/cpu.stat", "nr_periods 10\nnr_throttled 4\nthrottled_time 510730829\n");
	expect_limit(&l, 1, "/pmq", 0.5);
	assert_int_equal(l.period_us, 100000);
	assert_int_equal(cpu_limit_sample(&l, &a, &e), 0);
	put("sys/fs/cgroup/cpu/pmq/cpu.stat", stat_v1);
	assert_int_equal(cpu_limit_sample(&l, &b, &e), 0);
	j = cpu_limit_json(&l, &a, &b);
	assert_true(json_real_value(json_object_get(j, "cpus")) == 0.5);
	assert_int_equal(json_integer_value(json_object_get(j, "periods")), 564);
	assert_int_equal(json_integer_value(json_object_get(j, "throttled_periods")), 349);
	assert_true(fabs(json_real_value(json_object_get(j, "throttled_seconds")) - 31.0) < 1e-9);
	assert_string_equal(json_string_value(json_object_get(j, "cgroup")), "/pmq");
	json_decref(j);
}

/* A parent's quota throttles its children together: the tightest on the path counts, wherever it is. */
static void test_v2_tightest_quota_on_the_path_counts(void **state)
{
	struct cpu_limit l;
	struct cpu_throttle a;
	struct err e;

	(void)state;
	put("proc/self/cgroup", "0::/job/step\n");
	put("proc/self/mountinfo", "25 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
	put("sys/fs/cgroup/cpu.stat", "usage_usec 5\n"); /* the root: no cpu.max */
	put("sys/fs/cgroup/job/cpu.max", "150000 100000\n");
	put("sys/fs/cgroup/job/cpu.stat",
	    "usage_usec 9\nnr_periods 7\nnr_throttled 2\nthrottled_usec 1500\n");
	put("sys/fs/cgroup/job/step/cpu.max", "max 100000\n");
	expect_limit(&l, 2, "/job", 1.5);
	assert_int_equal(cpu_limit_sample(&l, &a, &e), 0);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.at[l.tight].periods, 7);
	assert_int_equal(a.at[l.tight].throttled, 2);
	assert_int_equal(a.at[l.tight].throttled_ns, 1500000);
	/* the step's own, tighter, quota wins over its job's */
	put("sys/fs/cgroup/job/step/cpu.max", "25000 50000\n");
	expect_limit(&l, 2, "/job/step", 0.5);
	assert_int_equal(l.period_us, 50000);
}

/* A looser parent shared with other jobs (a Slurm user's cgroup, a systemd slice with CPUQuota) stops all
   its children together once they used it up: the run's own, tighter, cgroup was then never throttled, and
   its cpu.stat alone said the run was not stopped. Every cgroup with a quota on the path is sampled;
   "limits" gives each one's throttling, run's first, while the top-level figures stay the tightest's. */
static void parent_throttled_child_not(const char *proc_cgroup, const char *mountinfo, const char *parent,
				       const char *child, const char *stat0, const char *stat1,
				       const char *quiet, void (*quota)(const char *, const char *))
{
	char rel[256];
	struct cpu_limit l;
	struct cpu_throttle a, b;
	struct err e;
	json_t *j, *limits, *p;

	put("proc/self/cgroup", proc_cgroup);
	put("proc/self/mountinfo", mountinfo);
	quota(parent, "200000");
	quota(child, "100000");
	snprintf(rel, sizeof rel, "%s/cpu.stat", child);
	put(rel, quiet);
	snprintf(rel, sizeof rel, "%s/cpu.stat", parent);
	put(rel, stat0);
	assert_int_equal(cpu_limit_find(root, &l, &e), 0);
	assert_true(cpu_limit_cpus(&l) == 1);
	assert_int_equal(cpu_limit_sample(&l, &a, &e), 0);
	put(rel, stat1);
	assert_int_equal(cpu_limit_sample(&l, &b, &e), 0);
	j = cpu_limit_json(&l, &a, &b);
	/* the tightest's figures keep their meaning: the child was never stopped */
	assert_int_equal(json_integer_value(json_object_get(j, "throttled_periods")), 0);
	assert_non_null(strstr(json_string_value(json_object_get(j, "source")), "every cgroup"));
	limits = json_object_get(j, "limits");
	assert_int_equal(json_array_size(limits), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(limits, 0), "cgroup")),
			    json_string_value(json_object_get(j, "cgroup")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(limits, 0), "throttled_periods")),
			 0);
	p = json_array_get(limits, 1);
	assert_true(json_real_value(json_object_get(p, "cpus")) == 2);
	assert_int_equal(json_integer_value(json_object_get(p, "periods")), 500);
	assert_int_equal(json_integer_value(json_object_get(p, "throttled_periods")), 120);
	assert_true(fabs(json_real_value(json_object_get(p, "throttled_seconds")) - 3.5) < 1e-9);
	json_decref(j);
}

/* v1 quota files in dir holding quota (per 100 ms) */
static void v1_quota_us(const char *dir, const char *quota)
{
	char text[32];

	snprintf(text, sizeof text, "%s\n", quota);
	v1_quota(dir, text);
}

/* v2 cpu.max in dir holding quota per 100 ms */
static void v2_quota_us(const char *dir, const char *quota)
{
	char rel[256], text[64];

	snprintf(rel, sizeof rel, "%s/cpu.max", dir);
	snprintf(text, sizeof text, "%s 100000\n", quota);
	put(rel, text);
}

static void test_v2_parent_throttled_is_reported_where_the_tight_child_was_not(void **state)
{
	(void)state;
	parent_throttled_child_not(
		"0::/user/job\n", "25 1 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n",
		"sys/fs/cgroup/user", "sys/fs/cgroup/user/job",
		"usage_usec 1\nnr_periods 100\nnr_throttled 30\nthrottled_usec 500000\n",
		"usage_usec 9\nnr_periods 600\nnr_throttled 150\nthrottled_usec 4000000\n",
		"usage_usec 9\nnr_periods 40\nnr_throttled 0\nthrottled_usec 0\n", v2_quota_us);
}

static void test_v1_parent_throttled_is_reported_where_the_tight_child_was_not(void **state)
{
	(void)state;
	parent_throttled_child_not(
		"1:cpu,cpuacct:/batch.slice/pmq.service\n0::/\n",
		MOUNT_V2_UNIFIED "35 30 0:30 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n",
		"sys/fs/cgroup/cpu/batch.slice", "sys/fs/cgroup/cpu/batch.slice/pmq.service",
		"nr_periods 100\nnr_throttled 30\nthrottled_time 500000000\n",
		"nr_periods 600\nnr_throttled 150\nthrottled_time 4000000000\n",
		"nr_periods 40\nnr_throttled 0\nthrottled_time 0\n", v1_quota_us);
}

/* Inside a container the mount's root is the container's own cgroup (mountinfo's fourth field), and a
   mount point may hold characters mountinfo escapes. */
static void test_container_mount_root_and_escaped_mount_point(void **state)
{
	struct cpu_limit l;

	(void)state;
	put("proc/self/cgroup", "4:cpu,cpuacct:/docker/abc\n0::/\n");
	put("proc/self/mountinfo",
	    "40 35 0:33 /docker/abc /sys/fs/cgroup/cpu\\040acct ro - cgroup cgroup "
	    "ro,cpu,cpuacct\n");
	v1_quota("sys/fs/cgroup/cpu acct", "150000\n");
	expect_limit(&l, 1, "/docker/abc", 1.5);
	assert_non_null(strstr(l.own_dir, "/sys/fs/cgroup/cpu acct"));
}

static void test_no_quota_is_no_limit_not_zero_cpus(void **state)
{
	struct cpu_limit l;
	json_t *j;

	(void)state;
	put("proc/self/cgroup", "1:cpu:/pmq\n0::/\n");
	put("proc/self/mountinfo", MOUNT_V2_UNIFIED MOUNT_V1_CPU);
	v1_quota("sys/fs/cgroup/cpu", "-1\n");
	v1_quota("sys/fs/cgroup/cpu/pmq", "-1\n");
	expect_limit(&l, 1, "/pmq", 0);
	j = cpu_limit_json(&l, NULL, NULL);
	assert_true(json_is_null(json_object_get(j, "cpus")));
	assert_null(json_object_get(j, "throttled_seconds"));
	json_decref(j);
}

static void test_missing_or_malformed_files_are_errors_naming_them(void **state)
{
	struct cpu_limit l;
	struct cpu_throttle a;
	struct err e;

	(void)state;
	assert_int_equal(cpu_limit_find(root, &l, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "/proc/self/cgroup: cannot read it"));
	put("proc/self/cgroup", "1:cpu:/\n");
	put("proc/self/mountinfo", "30 1 0:25 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n");
	assert_int_equal(cpu_limit_find(root, &l, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "no mounted cgroup hierarchy has the cpu controller"));
	put("proc/self/cgroup", "0::/job\n");
	put("proc/self/mountinfo", "25 1 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/job/cpu.max", "lots 100000\n");
	assert_int_equal(cpu_limit_find(root, &l, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "sys/fs/cgroup/job/cpu.max: not 'max PERIOD' or 'QUOTA PERIOD'"));
	/* a quota that could not be read is none found: no cgroup is left recorded as without a quota */
	assert_int_equal(l.version, 0);
	put("sys/fs/cgroup/job/cpu.max", "50000 100000\n");
	put("sys/fs/cgroup/job/cpu.stat", "usage_usec 9\n"); /* a kernel without CFS bandwidth control */
	assert_int_equal(cpu_limit_find(root, &l, &e), 0);
	assert_int_equal(cpu_limit_sample(&l, &a, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "job/cpu.stat: no nr_periods"));
}

/* This machine's own cgroup reads, where a cgroup hierarchy with the cpu controller is mounted. */
static void test_this_machines_cgroup_reads(void **state)
{
	struct cpu_limit l;
	struct cpu_throttle a;
	struct err e;

	(void)state;
	if (cpu_limit_find(CPU_LIMIT_ROOT, &l, &e)) {
		assert_non_null(strstr(e.msg, "no mounted cgroup hierarchy has the cpu controller"));
		skip_why("%s", e.msg);
	}
	assert_true(l.version == 1 || l.version == 2);
	assert_true(l.cgroup[0] == '/');
	if (cpu_limit_cpus(&l) > 0)
		assert_int_equal(cpu_limit_sample(&l, &a, &e), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_v1_quota_of_the_runs_cgroup_and_its_throttling, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_v2_tightest_quota_on_the_path_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_v2_parent_throttled_is_reported_where_the_tight_child_was_not, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_v1_parent_throttled_is_reported_where_the_tight_child_was_not, setup, teardown),
		cmocka_unit_test_setup_teardown(test_container_mount_root_and_escaped_mount_point, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_quota_is_no_limit_not_zero_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_or_malformed_files_are_errors_naming_them, setup,
						teardown),
		cmocka_unit_test(test_this_machines_cgroup_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
