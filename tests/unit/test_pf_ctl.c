/* Prefetcher sessions, held changes and restores on fake MSR files (PMUCHECK_MSR_DIR) with an
 * injected CPUID. Every file starts from a random 64-bit value; the expected bits per table are
 * written out here from the vendor documents. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "pf.h"

#define NCPU 4

struct fake {
	char dir[64];
	uint32_t msr;
	uint64_t orig[NCPU];
};

static uint64_t random64(void)
{
	return (uint64_t)random() << 42 ^ (uint64_t)random() << 21 ^ (uint64_t)random();
}

static void path_of(const struct fake *f, int cpu, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d/msr", f->dir, cpu);
}

static void fake_put(const struct fake *f, int cpu, uint64_t v)
{
	char path[128];
	int fd;

	path_of(f, cpu, path, sizeof path);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &v, sizeof v, f->msr), sizeof v);
	close(fd);
}

/* The value, checking on the way that nothing was written anywhere but at the MSR's offset. */
static uint64_t fake_get(const struct fake *f, int cpu)
{
	char path[128];
	struct stat st;
	uint64_t v;
	int fd;

	path_of(f, cpu, path, sizeof path);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, (off_t)f->msr + 8);
	assert_int_equal(pread(fd, &v, sizeof v, f->msr), sizeof v);
	close(fd);
	return v;
}

static void fake_make(struct fake *f, const char *cpuid, uint32_t msr)
{
	char path[128];

	strcpy(f->dir, "/tmp/pmucheck-pf.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->msr = msr;
	setenv("PMUCHECK_MSR_DIR", f->dir, 1);
	setenv("PMUCHECK_FAKE_CPUID", cpuid, 1);
	unsetenv("PMUCHECK_STATE_DIR");
	for (int c = 0; c < NCPU; c++) {
		snprintf(path, sizeof path, "%s/%d", f->dir, c);
		assert_int_equal(mkdir(path, 0755), 0);
		f->orig[c] = random64();
		fake_put(f, c, f->orig[c]);
	}
}

static void fake_drop(const struct fake *f)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
	assert_int_equal(system(cmd), 0);
}

static int state_exists(const struct fake *f, const char *name)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", f->dir, name);
	return access(path, F_OK) == 0;
}

static void assert_all(const struct fake *f, uint64_t clear, uint64_t set)
{
	for (int c = 0; c < NCPU; c++)
		assert_int_equal(fake_get(f, c), (f->orig[c] & ~clear) | set);
}

static const struct vendor_case {
	const char *cpuid;
	uint32_t msr;
	uint64_t mask;
	const char *names[5];
	uint64_t bits[5];
} cases[] = {
	{"GenuineIntel:6:0x5e",
	 0x1a4,
	 0xf, /* Skylake client */
	 {"l2-stream", "l2-adjacent", "l1-next", "l1-ip"},
	 {0x1, 0x2, 0x4, 0x8}},
	{"GenuineIntel:6:0x55",
	 0x1a4,
	 0xf, /* Skylake-SP server */
	 {"l2-stream", "l2-adjacent", "l1-next", "l1-ip"},
	 {0x1, 0x2, 0x4, 0x8}},
	{"GenuineIntel:6:0x8f",
	 0x1a4,
	 0xf, /* Sapphire Rapids */
	 {"l2-stream", "l2-adjacent", "l1-next", "l1-ip"},
	 {0x1, 0x2, 0x4, 0x8}},
	{"GenuineIntel:6:0x57", 0x1a4, 0x3, {"l1-dcu", "l2-hw"}, {0x1, 0x2}}, /* KNL */
	{"GenuineIntel:6:0x85", 0x1a4, 0x3, {"l1-dcu", "l2-hw"}, {0x1, 0x2}}, /* KNM */
	{"AuthenticAMD:0x19:0x01",
	 0xc0000108,
	 0x2f, /* Zen 3 */
	 {"l1-stream", "l1-stride", "l1-region", "l2-stream", "l2-updown"},
	 {0x1, 0x2, 0x4, 0x8, 0x20}},
	{"AuthenticAMD:0x19:0x11",
	 0xc0000108,
	 0x2f, /* Zen 4 */
	 {"l1-stream", "l1-stride", "l1-region", "l2-stream", "l2-updown"},
	 {0x1, 0x2, 0x4, 0x8, 0x20}},
	{"AuthenticAMD:0x1a:0x02",
	 0xc0000108,
	 0x2f, /* Zen 5 */
	 {"l1-stream", "l1-stride", "l1-region", "l2-stream", "l2-updown"},
	 {0x1, 0x2, 0x4, 0x8, 0x20}},
};

static void check_one_vendor(const struct vendor_case *v)
{
	struct pf_ctl *c;
	struct fake f;
	struct err e;

	fake_make(&f, v->cpuid, v->msr);
	assert_int_equal(pf_open(&c, NULL, 0, &e), 0);
	assert_true(state_exists(&f, "prefetch.state"));
	for (int i = 0; i < 5 && v->names[i]; i++) {
		assert_int_equal(pf_set(c, v->names[i], &e), 0);
		assert_all(&f, v->mask, v->bits[i]);
	}
	assert_int_equal(pf_set(c, "all", &e), 0);
	assert_all(&f, 0, v->mask);
	assert_int_equal(pf_set(c, NULL, &e), 0);
	assert_all(&f, v->mask, 0);
	assert_int_equal(pf_restore(c, &e), 0);
	assert_all(&f, 0, 0);
	assert_int_equal(pf_set(c, v->names[1], &e), 0);
	pf_close(c);
	assert_all(&f, 0, 0);
	assert_false(state_exists(&f, "prefetch.state"));
	fake_drop(&f);
}

static void test_session_changes_exactly_the_table_bits_of_each_vendor(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_one_vendor(&cases[i]);
}

static void test_two_names_disable_both_and_enable_the_rest(void **state)
{
	struct pf_ctl *c;
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0x3f", 0x1a4);
	assert_int_equal(pf_open(&c, NULL, 0, &e), 0);
	assert_int_equal(pf_set(c, "l2-adjacent,l1-ip", &e), 0);
	assert_all(&f, 0xf, 0xa);
	assert_int_equal(pf_set(c, "l2-adjcent", &e), E_USAGE);
	assert_non_null(strstr(e.msg, "'l2-adjcent'"));
	assert_all(&f, 0xf, 0xa); /* a bad name changes nothing */
	pf_close(c);
	assert_all(&f, 0, 0);
	fake_drop(&f);
}

static void test_values_string_is_what_the_files_hold(void **state)
{
	char buf[256], want[256] = "", tiny[8];
	struct pf_ctl *c;
	struct fake f;
	struct err e;
	int cpus[] = {2, 0};

	(void)state;
	fake_make(&f, "AuthenticAMD:0x1a:0x02", 0xc0000108);
	assert_int_equal(pf_open(&c, cpus, 2, &e), 0);
	assert_int_equal(pf_set(c, "l2-stream", &e), 0);
	snprintf(want, sizeof want, "2=0x%llx;0=0x%llx", (unsigned long long)fake_get(&f, 2),
		 (unsigned long long)fake_get(&f, 0));
	assert_int_equal(pf_values(c, buf, sizeof buf), 0);
	assert_string_equal(buf, want);
	assert_int_equal(pf_values(c, tiny, sizeof tiny), E_RUNTIME);
	assert_string_equal(tiny, "");
	/* CPUs 1 and 3 were not in the session and are never touched */
	assert_int_equal(fake_get(&f, 1), f.orig[1]);
	assert_int_equal(fake_get(&f, 3), f.orig[3]);
	pf_close(c);
	assert_all(&f, 0, 0);
	fake_drop(&f);
}

/* Only the table's bits go back: a bit someone else changed meanwhile keeps its new value. */
static void test_restore_leaves_bits_outside_the_table_alone(void **state)
{
	struct pf_ctl *c;
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "AuthenticAMD:0x19:0x61", 0xc0000108);
	assert_int_equal(pf_open(&c, NULL, 0, &e), 0);
	assert_int_equal(pf_set(c, "all", &e), 0);
	fake_put(&f, 1, fake_get(&f, 1) ^ (1ull << 40) ^ (1ull << 4));
	pf_close(c);
	assert_int_equal(fake_get(&f, 1), f.orig[1] ^ (1ull << 40) ^ (1ull << 4));
	assert_int_equal(fake_get(&f, 0), f.orig[0]);
	fake_drop(&f);
}

static char *read_file(const char *dir, const char *name)
{
	static char buf[4096];
	char path[128];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = 0;
	fclose(fp);
	return buf;
}

static void test_second_changer_is_refused_while_a_session_runs(void **state)
{
	char saved[4096], report[1024], pid[32];
	struct pf_ctl *c, *c2;
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0x55", 0x1a4);
	assert_int_equal(pf_open(&c, NULL, 0, &e), 0);
	assert_int_equal(pf_set(c, "all", &e), 0);
	strcpy(saved, read_file(f.dir, "prefetch.state"));
	snprintf(pid, sizeof pid, "pid %d", (int)getpid());
	assert_non_null(strstr(saved, "kind session"));
	assert_non_null(strstr(saved, pid));

	assert_int_equal(pf_open(&c2, NULL, 0, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "another pmucheck"));
	assert_non_null(strstr(e.msg, pid + 4));
	assert_int_equal(pf_hold(NULL, 0, 0, 0xf, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "another pmucheck"));
	assert_int_equal(pf_restore_saved(NULL, 0, report, sizeof report, &e), E_RUNTIME);
	/* a live session is not stale: the next start must not undo it */
	assert_int_equal(pf_recover_stale(report, sizeof report, &e), 0);
	assert_string_equal(report, "");
	assert_all(&f, 0, 0xf);
	assert_string_equal(read_file(f.dir, "prefetch.state"), saved);
	assert_false(state_exists(&f, "prefetch.held"));
	pf_close(c);
	assert_all(&f, 0, 0);
	fake_drop(&f);
}

/* A child opens a session, disables everything and dies by SIGKILL: no handler runs. */
static void kill_a_session(void)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct pf_ctl *c;
		struct err e;

		if (pf_open(&c, NULL, 0, &e) || pf_set(c, "all", &e))
			_exit(1);
		raise(SIGKILL);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static void test_killed_session_is_restored_at_the_next_start(void **state)
{
	char report[1024], want[64];
	struct pf_ctl *c;
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "AuthenticAMD:0x19:0x01", 0xc0000108);
	kill_a_session();
	assert_all(&f, 0, 0x2f);
	assert_true(state_exists(&f, "prefetch.state"));
	/* until then, nobody may take the changed values for originals */
	assert_int_equal(pf_open(&c, NULL, 0, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "did not finish"));
	assert_int_equal(pf_hold(NULL, 0, 0x1, 0, &e), E_RUNTIME);
	assert_all(&f, 0, 0x2f);

	assert_int_equal(pf_recover_stale(report, sizeof report, &e), 0);
	assert_true(report[0]);
	assert_all(&f, 0, 0);
	snprintf(want, sizeof want, "CPU 3: 0x%016llx -> 0x%016llx", (unsigned long long)(f.orig[3] | 0x2f),
		 (unsigned long long)f.orig[3]);
	assert_non_null(strstr(report, want));
	assert_false(state_exists(&f, "prefetch.state"));
	assert_int_equal(pf_recover_stale(report, sizeof report, &e), 0);
	assert_string_equal(report, "");
	fake_drop(&f);
}

/* kill(2) returns before the killed process has exited, and until its exit has closed its files it
   still holds the lock: a start in that moment must wait for it, not take it for a live session. A
   child that sleeps 100 ms with the lock before _exit (no handler, no atexit) is such an owner. */
static void test_session_killed_a_moment_ago_is_restored_once_its_lock_goes(void **state)
{
	char report[1024], ready;
	struct fake f;
	struct err e;
	int pipefd[2], status;
	pid_t pid;

	(void)state;
	fake_make(&f, "AuthenticAMD:0x19:0x11", 0xc0000108);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const struct timespec exiting = {.tv_nsec = 100000000};
		struct pf_ctl *c;

		if (pf_open(&c, NULL, 0, &e) || pf_set(c, "all", &e))
			_exit(1);
		if (write(pipefd[1], "s", 1) != 1)
			_exit(1);
		nanosleep(&exiting, NULL);
		_exit(0);
	}
	assert_int_equal(read(pipefd[0], &ready, 1), 1);
	assert_int_equal(pf_recover_stale(report, sizeof report, &e), 0);
	assert_true(report[0]);
	assert_all(&f, 0, 0);
	assert_non_null(strstr(report, "restored MSR 0xc0000108"));
	assert_false(state_exists(&f, "prefetch.state"));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(pipefd[0]);
	close(pipefd[1]);
	fake_drop(&f);
}

static void test_restore_command_also_recovers_a_killed_session(void **state)
{
	char report[1024];
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0x57", 0x1a4);
	kill_a_session();
	assert_all(&f, 0, 0x3);
	assert_int_equal(pf_restore_saved(NULL, 0, report, sizeof report, &e), NCPU);
	assert_all(&f, 0, 0);
	assert_false(state_exists(&f, "prefetch.state"));
	fake_drop(&f);
}

static void test_held_change_outlives_sessions_until_restore(void **state)
{
	char report[2048];
	struct pf_ctl *c;
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0x2a", 0x1a4);
	assert_int_equal(pf_hold(NULL, 0, 0x8, 0, &e), 0); /* off l1-ip */
	assert_all(&f, 0, 0x8);
	assert_non_null(strstr(read_file(f.dir, "prefetch.held"), "kind held"));
	/* a session in between returns to the held values, not to the originals */
	assert_int_equal(pf_open(&c, NULL, 0, &e), 0);
	assert_int_equal(pf_set(c, NULL, &e), 0);
	assert_all(&f, 0xf, 0);
	pf_close(c);
	assert_all(&f, 0, 0x8);
	assert_int_equal(pf_recover_stale(report, sizeof report, &e), 0);
	assert_string_equal(report, "");
	assert_all(&f, 0, 0x8);
	/* a second held change keeps the first originals */
	assert_int_equal(pf_hold(NULL, 0, 0, 0xf, &e), 0); /* on all */
	assert_all(&f, 0xf, 0);
	assert_int_equal(pf_restore_saved(NULL, 0, report, sizeof report, &e), NCPU);
	assert_all(&f, 0, 0);
	assert_false(state_exists(&f, "prefetch.held"));
	assert_int_equal(pf_restore_saved(NULL, 0, report, sizeof report, &e), 0);
	fake_drop(&f);
}

static void test_restore_of_some_cpus_keeps_the_others_saved(void **state)
{
	char report[2048];
	int some[] = {1, 3};
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "AuthenticAMD:0x1a:0x44", 0xc0000108);
	assert_int_equal(pf_hold(NULL, 0, 0x2f, 0, &e), 0);
	assert_int_equal(pf_restore_saved(some, 2, report, sizeof report, &e), 2);
	assert_int_equal(fake_get(&f, 1), f.orig[1]);
	assert_int_equal(fake_get(&f, 3), f.orig[3]);
	assert_int_equal(fake_get(&f, 0), f.orig[0] | 0x2f);
	assert_int_equal(fake_get(&f, 2), f.orig[2] | 0x2f);
	assert_null(strstr(read_file(f.dir, "prefetch.held"), "cpu 1 "));
	assert_non_null(strstr(read_file(f.dir, "prefetch.held"), "cpu 2 "));
	assert_int_equal(pf_restore_saved(NULL, 0, report, sizeof report, &e), 2);
	assert_all(&f, 0, 0);
	fake_drop(&f);
}

/* A CPU gone offline since the kill (its MSR file missing) must not keep the CPUs after it changed:
   every other CPU is put back, and only the missing one stays in the state file for a later restore,
   at the next start and by the restore command alike. */
static void test_restore_past_an_offline_cpu_puts_back_the_others(void **state)
{
	char report[2048], cpu1[128], away[160];
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0x55", 0x1a4);
	snprintf(cpu1, sizeof cpu1, "%s/1", f.dir);
	snprintf(away, sizeof away, "%s/1.offline", f.dir);
	for (int via_restore = 0; via_restore < 2; via_restore++) {
		kill_a_session();
		assert_int_equal(rename(cpu1, away), 0);
		if (via_restore)
			assert_int_equal(pf_restore_saved(NULL, 0, report, sizeof report, &e), E_RUNTIME);
		else
			assert_int_equal(pf_recover_stale(report, sizeof report, &e), E_RUNTIME);
		assert_non_null(strstr(e.msg, "/1/msr"));
		assert_non_null(strstr(report, "CPU 3:"));
		for (int cpu = 0; cpu < NCPU; cpu++)
			if (cpu != 1)
				assert_int_equal(fake_get(&f, cpu), f.orig[cpu]);
		assert_null(strstr(read_file(f.dir, "prefetch.state"), "cpu 0 "));
		assert_non_null(strstr(read_file(f.dir, "prefetch.state"), "cpu 1 "));
		assert_null(strstr(read_file(f.dir, "prefetch.state"), "cpu 3 "));
		assert_int_equal(rename(away, cpu1), 0);
		assert_int_equal(fake_get(&f, 1), f.orig[1] | 0xf);
		assert_int_equal(pf_restore_saved(NULL, 0, report, sizeof report, &e), 1);
		assert_all(&f, 0, 0);
		assert_false(state_exists(&f, "prefetch.state"));
	}
	fake_drop(&f);
}

static void test_corrupt_state_file_is_reported_and_nothing_written(void **state)
{
	char path[128], report[256];
	struct fake f;
	struct err e;
	FILE *fp;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0x55", 0x1a4);
	snprintf(path, sizeof path, "%s/prefetch.state", f.dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "kind session\npid 1\nmsr 0x1a4\nmask 0xf\ncpu 0 zzz\n");
	fclose(fp);
	assert_int_equal(pf_recover_stale(report, sizeof report, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "line 5"));
	assert_all(&f, 0, 0);
	assert_true(state_exists(&f, "prefetch.state"));
	fake_drop(&f);
}

static void test_unknown_model_writes_nothing(void **state)
{
	struct pf_ctl *c;
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0xb7", 0x1a4); /* Raptor Lake: hybrid, no table */
	assert_int_equal(pf_open(&c, NULL, 0, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "model 0xb7"));
	assert_int_equal(pf_hold(NULL, 0, 0xf, 0, &e), E_USAGE);
	assert_all(&f, 0, 0);
	assert_false(state_exists(&f, "prefetch.state"));
	assert_false(state_exists(&f, "prefetch.held"));
	fake_drop(&f);
}

static void test_state_dir_override_moves_the_state_files(void **state)
{
	char statedir[] = "/tmp/pmucheck-pfstate.XXXXXX", path[128];
	struct pf_ctl *c;
	struct fake f;
	struct err e;

	(void)state;
	fake_make(&f, "GenuineIntel:6:0x55", 0x1a4);
	assert_non_null(mkdtemp(statedir));
	setenv("PMUCHECK_STATE_DIR", statedir, 1);
	assert_int_equal(pf_open(&c, NULL, 0, &e), 0);
	snprintf(path, sizeof path, "%s/prefetch.state", statedir);
	assert_int_equal(access(path, F_OK), 0);
	assert_false(state_exists(&f, "prefetch.state"));
	pf_close(c);
	assert_int_equal(access(path, F_OK), -1);
	unsetenv("PMUCHECK_STATE_DIR");
	snprintf(path, sizeof path, "rm -rf %s", statedir);
	assert_int_equal(system(path), 0);
	fake_drop(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_changes_exactly_the_table_bits_of_each_vendor),
		cmocka_unit_test(test_two_names_disable_both_and_enable_the_rest),
		cmocka_unit_test(test_values_string_is_what_the_files_hold),
		cmocka_unit_test(test_restore_leaves_bits_outside_the_table_alone),
		cmocka_unit_test(test_second_changer_is_refused_while_a_session_runs),
		cmocka_unit_test(test_killed_session_is_restored_at_the_next_start),
		cmocka_unit_test(test_session_killed_a_moment_ago_is_restored_once_its_lock_goes),
		cmocka_unit_test(test_restore_command_also_recovers_a_killed_session),
		cmocka_unit_test(test_held_change_outlives_sessions_until_restore),
		cmocka_unit_test(test_restore_of_some_cpus_keeps_the_others_saved),
		cmocka_unit_test(test_restore_past_an_offline_cpu_puts_back_the_others),
		cmocka_unit_test(test_corrupt_state_file_is_reported_and_nothing_written),
		cmocka_unit_test(test_unknown_model_writes_nothing),
		cmocka_unit_test(test_state_dir_override_moves_the_state_files),
	};
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();

	print_message("# random MSR start values from seed %u\n", seed);
	srandom(seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
