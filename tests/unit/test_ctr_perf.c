/* test_ctr_perf.c — the perf backend on real software events, which every Linux can count.
 *
 * Page faults: first writes to N fresh pages fault N times. Each measurement touches N pages and then
 * 2N other fresh pages with the group running; the difference (2N - N) cancels whatever constant the
 * counting itself adds and must be exactly N, for page-faults and minor-faults alike. THP is turned off
 * for the buffers (MADV_NOHUGEPAGE), otherwise one fault could map 512 pages.
 */
#include <dirent.h>
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "ctr.h"
#include "clock_events.h"
#include "ctr_fixture.h"

#define PAGE 4096

/* ev[2] resolved from a and b (b may be NULL), planned into one group. */
static void resolve_group(struct ctr_event *ev, struct ctr_plan *plan, const char *a, const char *b)
{
	const char *specs[] = {a, b};
	struct err e;

	assert_int_equal(ctr_resolve_list(specs, b ? 2 : 1, ev, &e), 0);
	assert_int_equal(ev[0].status, CTR_OK);
	assert_int_equal(ctr_plan_groups(ev, b ? 2 : 1, NULL, 0, plan, &e), 0);
	assert_int_equal(plan->ngroups, 1);
}

static char *fresh(size_t pages)
{
	char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	assert_int_equal(madvise(p, pages * PAGE, MADV_NOHUGEPAGE), 0);
	return p;
}

/* Not instrumented under SAN=1: AddressSanitizer's shadow checks would fault in shadow pages too (one
   per 8 pages touched), as the real kernels in assembly never do. */
__attribute__((no_sanitize_address)) static void touch(char *p, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		((volatile char *)p)[i * PAGE] = 1;
}

/* Counts the first writes to `pages` fresh pages; r gets one reading per group event. */
static void count_touch(struct ctr_set *s, size_t pages, struct ctr_reading *r)
{
	char *p = fresh(pages);
	struct err e;

	assert_int_equal(ctr_start(s, &e), 0);
	touch(p, pages);
	assert_int_equal(ctr_stop(s, &e), 0);
	assert_int_equal(ctr_read(s, r, &e), 0);
	munmap(p, pages * PAGE);
}

static void expect_faults(struct ctr_fixture *f, const struct ctr_group *g, size_t n)
{
	struct ctr_reading r1[2], r2[2];
	struct err e;

	assert_int_equal(ctr_open(g, -1, &f->set[0], &e), 0);
	count_touch(f->set[0], n, r1);
	count_touch(f->set[0], 2 * n, r2);
	for (unsigned i = 0; i < g->n; i++) {
		assert_int_equal(r1[i].status, CTR_OK);
		assert_int_equal(r2[i].status, CTR_OK);
		assert_int_equal(r1[i].time_enabled, r1[i].time_running);
		assert_int_equal(r2[i].count - r1[i].count, n);
	}
	ctr_close(f->set[0]);
	f->set[0] = NULL;
}

static void test_page_faults_count_one_per_fresh_page(void **state)
{
	struct ctr_fixture *f = *state;
	struct ctr_event ev[2];

	resolve_group(ev, &f->plan, "page-faults", "minor-faults");
	assert_int_equal(f->plan.groups[0].n, 2);
	expect_faults(f, &f->plan.groups[0], 256);
	expect_faults(f, &f->plan.groups[0], 4096);
}

/* Thread scope counts the opening thread only: thread t touches (t + 1) x N pages while the others
   touch theirs, and each sees its own (t + 1) x N, not the sum. */
static void test_each_thread_counts_only_itself(void **state)
{
	const size_t n = 512;
	struct ctr_fixture *f = *state;
	struct ctr_event ev;
	int bad = 0;

	resolve_group(&ev, &f->plan, "minor-faults", NULL);
#pragma omp parallel num_threads(2) reduction(+ : bad)
	{
		size_t mine = n * (omp_get_thread_num() + 1);
		char *a = fresh(mine), *b = fresh(2 * mine);
		struct ctr_reading r1, r2;
		struct ctr_set *s;
		struct err e;
		if (ctr_open(&f->plan.groups[0], -1, &s, &e) == 0) {
#pragma omp barrier
			ctr_start(s, &e), touch(a, mine), ctr_stop(s, &e), ctr_read(s, &r1, &e);
			ctr_start(s, &e), touch(b, 2 * mine), ctr_stop(s, &e), ctr_read(s, &r2, &e);
			bad += r1.status != CTR_OK || r2.count - r1.count != mine;
			ctr_close(s);
		} else {
			bad++;
		}
		munmap(a, mine * PAGE);
		munmap(b, 2 * mine * PAGE);
	}
	assert_int_equal(bad, 0);
}

/* task-clock is the time the thread ran: something over a busy loop, and never more than the wall time
   from before the start to after the stop, a bound that no other tenant can break. How closely it
   agrees with the thread's CPU time is a benchmark (tests/bench/clock_events.c). */
static void test_task_clock_counts_a_busy_loop_within_its_wall_time(void **state)
{
	struct clock_sample s;

	clock_task_busy(*state, 20000000u, &s);
	assert_true(s.count > 0);
	assert_true(s.count <= s.wall_ns);
}

/* Socket scope opens system-wide on one CPU (pid -1), as uncore events are. No uncore PMU here, so the
   path is exercised with cpu-clock, which then counts the CPU's elapsed time: at least most of a 50 ms
   sleep, where a thread-scope count of the sleeping thread would be microseconds; at most the wall time. */
static void test_socket_scope_counts_the_cpu_not_the_thread(void **state)
{
	struct clock_sample s;

	clock_cpu_sleep(*state, 50000, &s);
	assert_true(s.count >= 50000000u / 2);
	assert_true(s.count <= s.wall_ns);
}

/* Busy for cpu_ns of this thread's CPU time, counted by s; r gets the reading. */
static void count_busy(struct ctr_set *s, uint64_t cpu_ns, struct ctr_reading *r)
{
	uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	volatile uint64_t x = 0;
	struct err e;

	assert_int_equal(ctr_start(s, &e), 0);
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0 < cpu_ns)
		x++;
	assert_int_equal(ctr_stop(s, &e), 0);
	assert_int_equal(ctr_read(s, r, &e), 0);
}

/* Each start..stop reading has the times of its own interval (raw.csv: time_enabled of the 2R call):
   PERF_EVENT_IOC_RESET zeroes the count but not the times, which run on from the open. A 1 ms interval
   after a 40 ms one read 41 ms enabled before. */
static void test_each_reading_times_its_own_interval(void **state)
{
	struct ctr_fixture *f = *state;
	struct ctr_reading r1, r2;
	struct ctr_event ev;
	struct err e;

	resolve_group(&ev, &f->plan, "page-faults", NULL);
	assert_int_equal(ctr_open(&f->plan.groups[0], -1, &f->set[0], &e), 0);
	count_busy(f->set[0], 40000000u, &r1);
	count_busy(f->set[0], 1000000u, &r2);
	print_message("# enabled %llu ns, then %llu ns\n", (unsigned long long)r1.time_enabled,
		      (unsigned long long)r2.time_enabled);
	assert_int_equal(r2.status, CTR_OK);
	assert_true(r1.time_enabled >= 30000000u);
	assert_true(r2.time_enabled >= 500000u);
	assert_true(r2.time_enabled < 20000000u);
	assert_int_equal(r2.time_running, r2.time_enabled);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A group whose second event the kernel refuses (a perf type no PMU has): ctr_open fails naming that
   event and leaves nothing behind, neither the first event's descriptor nor its set (the sanitizer
   pass reports the set as a leak). The set stays out of the fixture, whose teardown would free it. */
static void test_open_fails_whole_when_a_later_event_cannot_be_opened(void **state)
{
	struct ctr_event ev[2];
	struct ctr_group g = {.backend = CTR_PERF, .scope = CTR_SCOPE_THREAD, .n = 2, .ev = {&ev[0], &ev[1]}};
	struct ctr_set *s = NULL;
	struct err e = {""};
	int fds;

	(void)state;
	assert_int_equal(ctr_resolve("page-faults", &ev[0], &e), 0);
	assert_int_equal(ev[0].status, CTR_OK);
	ev[1] = ev[0];
	snprintf(ev[1].spec, sizeof ev[1].spec, "no-such-pmu-type");
	ev[1].perf.type = 0x7fffffff;
	fds = open_fds();
	assert_int_equal(ctr_open(&g, -1, &s, &e), E_RUNTIME);
	assert_null(s);
	assert_non_null(strstr(e.msg, "'no-such-pmu-type'"));
	assert_int_equal(open_fds(), fds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CTR_FIXTURE_TEST(test_page_faults_count_one_per_fresh_page),
		CTR_FIXTURE_TEST(test_each_thread_counts_only_itself),
		CTR_FIXTURE_TEST(test_task_clock_counts_a_busy_loop_within_its_wall_time),
		CTR_FIXTURE_TEST(test_socket_scope_counts_the_cpu_not_the_thread),
		CTR_FIXTURE_TEST(test_each_reading_times_its_own_interval),
		cmocka_unit_test(test_open_fails_whole_when_a_later_event_cannot_be_opened),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
