/* test_levels_pin.c — the level probe runs on its thread pinned to the CPU asked (topo_on_cpu) and leaves
   the thread's CPU mask as it found it, whether the probe ran or the CPU could not be pinned to: the run's
   own threads start from that mask. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "levels.h"
#include "skip_why.h"
#include "tsc.h"

/* A probe of this machine cut to a 32 KiB last level, so that its quick sweeps end at 64 KiB: a few
   hundred timed calls, not the seconds of a real probe. */
static void probe_on(int cpu, struct levels_probe *p, int *rc, struct err *e)
{
	struct topo t;

	if (topo_load(&t, e))
		skip_why("no topology of this machine: %s", e->msg);
	t.ncaches = 1;
	t.caches[0].size = 32 << 10;
	*rc = levels_measure(p, &t, cpu, tsc_calibrate_hz(20), NULL, 1, e);
	topo_free(&t);
}

static void probe_runs_and_puts_the_mask_back(void **state)
{
	struct levels_probe *p = malloc(sizeof *p);
	cpu_set_t before, after;
	int last = -1, rc;
	struct err e;

	(void)state;
	assert_non_null(p);
	assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &before))
			last = c;
	/* on one CPU the pinning changes nothing, and a mask never put back would read as kept */
	if (CPU_COUNT(&before) < 2) {
		free(p);
		skip_why("this process may run on %d CPU: the mask would not change", CPU_COUNT(&before));
	}
	probe_on(last, p, &rc, &e);
	assert_int_equal(rc, 0);
	assert_true(p->npoints > 0 && p->nsweeps > 0);
	assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	free(p);
}

/* A CPU number past every configured CPU: no probe, the pinning's error naming the CPU, the mask kept. */
static void probe_on_a_refused_cpu_fails_and_keeps_the_mask(void **state)
{
	struct levels_probe *p = malloc(sizeof *p);
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t before, after;
	char want[64];
	struct err e;
	int rc;

	(void)state;
	assert_non_null(p);
	if (conf <= 0 || conf >= CPU_SETSIZE)
		skip_why("%ld configured CPUs: no CPU number past them fits a cpu_set_t (%d)", conf,
			 CPU_SETSIZE);
	assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
	probe_on((int)conf, p, &rc, &e);
	assert_int_equal(rc, E_RUNTIME);
	snprintf(want, sizeof want, "CPU %ld: %s", conf, strerror(EINVAL));
	assert_non_null(strstr(e.msg, want));
	assert_true(p->npoints == 0 && !p->sampled);
	assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probe_runs_and_puts_the_mask_back),
		cmocka_unit_test(probe_on_a_refused_cpu_fails_and_keeps_the_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
