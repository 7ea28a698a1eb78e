/* MSR file access and the errors a user meets first: no driver, short reads. None of them may
 * write anything or leave a state file behind. Permission denied needs a non-root user (root
 * ignores file modes): tests/integration/prefetch_errors.sh checks it as user nobody. */
#include <fcntl.h>
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

#include "msr.h"
#include "pf.h"

#define AMD_PF 0xc0000108u

static char dir[64];

/* Two fake CPUs with a known value at the AMD prefetch MSR. */
static int make_dir(void **state)
{
	char path[128];

	(void)state;
	strcpy(dir, "/tmp/pmucheck-msr.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	setenv("PMUCHECK_MSR_DIR", dir, 1);
	setenv("PMUCHECK_FAKE_CPUID", "AuthenticAMD:0x1a:0x02", 1);
	unsetenv("PMUCHECK_STATE_DIR");
	for (int c = 0; c < 2; c++) {
		uint64_t v = 0x1234567890abcd00ull + (uint64_t)c;
		int fd;

		snprintf(path, sizeof path, "%s/%d", dir, c);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/%d/msr", dir, c);
		fd = open(path, O_RDWR | O_CREAT, 0600);
		if (fd < 0 || pwrite(fd, &v, sizeof v, AMD_PF) != sizeof v)
			return -1;
		close(fd);
	}
	return 0;
}

static int drop_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "chmod -R u+rwX %s; rm -rf %s", dir, dir);
	return system(cmd);
}

static uint64_t raw_value(int cpu)
{
	char path[128];
	uint64_t v = 0;
	int fd;

	snprintf(path, sizeof path, "%s/%d/msr", dir, cpu);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &v, sizeof v, AMD_PF), sizeof v);
	close(fd);
	return v;
}

static void assert_untouched(void)
{
	char path[128];

	assert_int_equal(raw_value(0), 0x1234567890abcd00ull);
	assert_int_equal(raw_value(1), 0x1234567890abcd01ull);
	snprintf(path, sizeof path, "%s/prefetch.state", dir);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_read_and_write_go_to_the_msr_address(void **state)
{
	uint64_t v;
	struct err e;
	int fd;

	(void)state;
	assert_int_equal(msr_open(1, 1, &fd, &e), 0);
	assert_int_equal(msr_read(fd, 1, AMD_PF, &v, &e), 0);
	assert_int_equal(v, 0x1234567890abcd01ull);
	assert_int_equal(msr_write(fd, 1, AMD_PF, 0xfeedull, &e), 0);
	close(fd);
	assert_int_equal(raw_value(1), 0xfeedull);
}

static void test_update_changes_only_the_given_bits(void **state)
{
	uint64_t old;
	struct err e;
	int fd;

	(void)state;
	assert_int_equal(msr_open(0, 1, &fd, &e), 0);
	/* 0x...cd00: clear bits 8 and 10 (set in 0xd), set bits 0 and 5 */
	assert_int_equal(msr_update(fd, 0, AMD_PF, 0x500, 0x21, &old, &e), 0);
	close(fd);
	assert_int_equal(old, 0x1234567890abcd00ull);
	assert_int_equal(raw_value(0), 0x1234567890abc821ull);
}

static void test_cpu_list_is_the_numeric_entries_in_order(void **state)
{
	char path[128];
	int cpus[8];
	struct err e;

	(void)state;
	snprintf(path, sizeof path, "%s/microcode", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/10", dir);
	mkdir(path, 0755);
	assert_int_equal(msr_cpus(cpus, 8, &e), 3);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 1);
	assert_int_equal(cpus[2], 10);
}

/* More CPUs than the list holds: refused, not cut to those readdir gave first (`prefetch off` on 1100 fake
   CPUs changed 1024 of them and said nothing of the others). */
static void test_cpu_list_longer_than_max_is_refused(void **state)
{
	char path[128];
	int cpus[3];
	struct err e;

	(void)state;
	snprintf(path, sizeof path, "%s/10", dir);
	mkdir(path, 0755);
	assert_int_equal(msr_cpus(cpus, 2, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "more than 2 CPUs have an MSR file in"));
	assert_int_equal(msr_cpus(cpus, 3, &e), 3);
}

static void test_missing_device_says_modprobe_msr(void **state)
{
	int cpus[] = {0, 7};
	struct pf_ctl *c;
	struct err e;

	(void)state;
	assert_int_equal(pf_open(&c, cpus, 2, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "/7/msr"));
	assert_non_null(strstr(e.msg, "modprobe msr"));
	assert_untouched();
	setenv("PMUCHECK_MSR_DIR", "/nonexistent/pmucheck", 1);
	assert_int_equal(pf_open(&c, NULL, 0, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "modprobe msr"));
	setenv("PMUCHECK_MSR_DIR", dir, 1);
}

static void test_short_read_is_named_and_nothing_written(void **state)
{
	char path[128];
	struct pf_ctl *c;
	struct err e;

	(void)state;
	snprintf(path, sizeof path, "%s/1/msr", dir);
	assert_int_equal(truncate(path, AMD_PF + 4), 0);
	assert_int_equal(pf_open(&c, NULL, 0, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "short read (4 of 8 bytes)"));
	assert_non_null(strstr(e.msg, "CPU 1"));
	assert_int_equal(raw_value(0), 0x1234567890abcd00ull);
	snprintf(path, sizeof path, "%s/prefetch.state", dir);
	assert_int_equal(access(path, F_OK), -1);
}

/* A faked CPU model never reaches the real MSR device: another model's bits would be written there. */
static void test_fake_cpuid_without_fake_msr_dir_opens_nothing(void **state)
{
	char path[128];
	int cpus[] = {0};
	struct pf_ctl *c;
	struct err e;
	int fd = 123;

	(void)state;
	unsetenv("PMUCHECK_MSR_DIR");
	assert_int_equal(msr_open(0, 1, &fd, &e), E_USAGE);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(e.msg, "PMUCHECK_MSR_DIR"));
	assert_non_null(strstr(e.msg, "/dev/cpu/0/msr"));
	assert_int_equal(msr_open(0, 0, &fd, &e), E_USAGE);
	assert_int_equal(pf_open(&c, cpus, 1, &e), E_USAGE);
	setenv("PMUCHECK_MSR_DIR", dir, 1);
	assert_untouched();
	/* A character device in the fake directory (as /dev/cpu/N/msr are) is refused too. */
	snprintf(path, sizeof path, "%s/3", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/3/msr", dir);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(msr_open(3, 1, &fd, &e), E_USAGE);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(e.msg, "not an ordinary file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_and_write_go_to_the_msr_address, make_dir,
						drop_dir),
		cmocka_unit_test_setup_teardown(test_update_changes_only_the_given_bits, make_dir, drop_dir),
		cmocka_unit_test_setup_teardown(test_cpu_list_is_the_numeric_entries_in_order, make_dir,
						drop_dir),
		cmocka_unit_test_setup_teardown(test_cpu_list_longer_than_max_is_refused, make_dir, drop_dir),
		cmocka_unit_test_setup_teardown(test_missing_device_says_modprobe_msr, make_dir, drop_dir),
		cmocka_unit_test_setup_teardown(test_short_read_is_named_and_nothing_written, make_dir,
						drop_dir),
		cmocka_unit_test_setup_teardown(test_fake_cpuid_without_fake_msr_dir_opens_nothing, make_dir,
						drop_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
