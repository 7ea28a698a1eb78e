/* clock_events.h — the perf backend's clock events measured beside independent clocks, for the unit test
 * (tests/unit/test_ctr_perf.c: bounds that only a bug can break) and the benchmark (tests/bench/
 * clock_events.c: agreement within 2 %, which a shared machine can break without a bug). Header-only, as
 * each cmocka program is one source file; include it after <cmocka.h>. The plan and the sets go into the
 * test's fixture (ctr_fixture.h), whose teardown frees them also after a failed assertion. */
#ifndef PMUCHECK_CLOCK_EVENTS_H
#define PMUCHECK_CLOCK_EVENTS_H

#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "ctr.h"
#include "ctr_fixture.h"
#include "skip_why.h"

struct clock_sample {
	uint64_t count;    /* the clock event, ns */
	uint64_t switches; /* the thread's context switches meanwhile (task-clock only; CLOCK_SWITCHES_UNKNOWN
			      where they cannot be counted) */
	uint64_t cpu_ns;   /* the thread's CPU time around the counting (CLOCK_THREAD_CPUTIME_ID) */
	uint64_t wall_ns;  /* CLOCK_MONOTONIC_RAW from before the start to after the stop */
};

#define CLOCK_SWITCHES_UNKNOWN UINT64_MAX

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec;
}

/* task-clock over a busy loop of busy_ns wall time, context-switches counted beside it where they can be:
   the scheduler counts them in the kernel's own context, which an unprivileged open excludes (perf_event_
   paranoid 2 without CAP_PERFMON), so pmucheck does not measure them there (ctr_spec.c). */
static inline void clock_task_busy(struct ctr_fixture *f, uint64_t busy_ns, struct clock_sample *out)
{
	const char *specs[] = {"task-clock", "context-switches"};
	struct ctr_reading clk, sw;
	struct ctr_set **s = f->set;
	struct ctr_event ev[2];
	struct err e;
	uint64_t w0, w1, c0, c1;
	volatile uint64_t x = 0;
	int n;

	assert_int_equal(ctr_resolve_list(specs, 2, ev, &e), 0);
	assert_int_equal(ev[0].status, CTR_OK);
	n = ev[1].status == CTR_OK ? 2 : 1;
	assert_int_equal(ctr_plan_groups(ev, (unsigned)n, NULL, 0, &f->plan, &e), 0);
	/* A clock event gets a group of its own (read as a sibling it came back stale). */
	assert_int_equal(f->plan.ngroups, n);
	assert_string_equal(f->plan.groups[0].ev[0]->spec, "task-clock");
	for (int g = 0; g < n; g++)
		assert_int_equal(ctr_open(&f->plan.groups[g], -1, &s[g], &e), 0);
	w0 = clock_ns(CLOCK_MONOTONIC_RAW);
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (n == 2)
		assert_int_equal(ctr_start(s[1], &e), 0);
	assert_int_equal(ctr_start(s[0], &e), 0);
	while (clock_ns(CLOCK_MONOTONIC_RAW) - w0 < busy_ns)
		x++;
	assert_int_equal(ctr_stop(s[0], &e), 0);
	if (n == 2)
		assert_int_equal(ctr_stop(s[1], &e), 0);
	c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	w1 = clock_ns(CLOCK_MONOTONIC_RAW);
	assert_int_equal(ctr_read(s[0], &clk, &e), 0);
	sw.count = CLOCK_SWITCHES_UNKNOWN;
	if (n == 2)
		assert_int_equal(ctr_read(s[1], &sw, &e), 0);
	assert_int_equal(clk.status, CTR_OK);
	*out = (struct clock_sample){clk.count, sw.count, c1 - c0, w1 - w0};
	print_message("# task-clock %llu ns, thread cpu time %llu ns, wall %llu ns, ",
		      (unsigned long long)out->count, (unsigned long long)out->cpu_ns,
		      (unsigned long long)out->wall_ns);
	if (n == 2)
		print_message("%llu switches\n", (unsigned long long)out->switches);
	else
		print_message("switches not counted (%s)\n", ev[1].reason);
}

/* cpu-clock of CPU 0 in socket scope, opened system-wide on one CPU (pid -1) as uncore events are, over
   a sleep of sleep_us. There it counts the CPU's elapsed time, where a thread-scope count of the
   sleeping thread would be about 0. Skips the test where system-wide counting is not allowed. */
static inline void clock_cpu_sleep(struct ctr_fixture *f, unsigned sleep_us, struct clock_sample *out)
{
	const char *spec = "cpu-clock";
	struct ctr_reading r;
	struct ctr_event ev;
	struct ctr_set *s;
	struct err e;
	uint64_t w0, w1;

	assert_int_equal(ctr_resolve_list(&spec, 1, &ev, &e), 0);
	assert_int_equal(ev.status, CTR_OK);
	assert_int_equal(ctr_plan_groups(&ev, 1, NULL, 0, &f->plan, &e), 0);
	f->plan.groups[0].scope = CTR_SCOPE_SOCKET;
	if (ctr_open(&f->plan.groups[0], 0, &f->set[0], &e)) {
		*out = (struct clock_sample){0};
		skip_why("system-wide counting not allowed here: %s", e.msg); /* leaves the test by longjmp */
	}
	s = f->set[0];
	w0 = clock_ns(CLOCK_MONOTONIC_RAW);
	assert_int_equal(ctr_start(s, &e), 0);
	usleep(sleep_us);
	assert_int_equal(ctr_stop(s, &e), 0);
	w1 = clock_ns(CLOCK_MONOTONIC_RAW);
	assert_int_equal(ctr_read(s, &r, &e), 0);
	assert_int_equal(r.status, CTR_OK);
	*out = (struct clock_sample){.count = r.count, .wall_ns = w1 - w0};
	print_message("# cpu-clock of CPU 0: %llu ns over a %llu ns sleep\n", (unsigned long long)out->count,
		      (unsigned long long)out->wall_ns);
}

#endif
