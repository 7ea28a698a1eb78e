/* test_topo_pin.c — pinning a thread: the mask it leaves, and a refused CPU named with errno. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "skip_why.h"
#include "topo.h"

static void pinned_thread_runs_on_that_cpu_alone(void **state)
{
	int cpu = sched_getcpu();
	cpu_set_t now;
	struct err e;

	(void)state;
	assert_true(cpu >= 0);
	assert_int_equal(topo_pin_self(cpu, &e), 0);
	assert_int_equal(sched_getaffinity(0, sizeof now, &now), 0);
	assert_int_equal(CPU_COUNT(&now), 1);
	assert_true(CPU_ISSET(cpu, &now));
}

/* A CPU number past every configured CPU: the kernel refuses the mask (EINVAL); the thread keeps its
   mask and the message names the CPU and the reason. */
static void cpu_the_kernel_refuses_fails_with_cpu_and_errno(void **state)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	int cpu = (int)conf, before = sched_getcpu();
	char want[64];
	cpu_set_t now;
	struct err e;

	(void)state;
	if (conf <= 0 || conf >= CPU_SETSIZE)
		skip_why("%ld configured CPUs: no CPU number past them fits a cpu_set_t (%d)", conf,
			 CPU_SETSIZE);
	assert_int_equal(topo_pin_self(before, &e), 0);
	assert_int_equal(topo_pin_self(cpu, &e), E_RUNTIME);
	snprintf(want, sizeof want, "CPU %d: %s", cpu, strerror(EINVAL));
	assert_non_null(strstr(e.msg, want));
	assert_int_equal(sched_getaffinity(0, sizeof now, &now), 0);
	assert_true(CPU_ISSET(before, &now));
}

static int where_it_ran(void *arg, struct err *e)
{
	cpu_set_t now;

	(void)e;
	assert_int_equal(sched_getaffinity(0, sizeof now, &now), 0);
	((int *)arg)[0] = sched_getcpu();
	((int *)arg)[1] = CPU_COUNT(&now);
	return ((int *)arg)[2];
}

/* topo_on_cpu runs the function on that CPU alone and puts the mask back after, whatever the function
   returned; a CPU it cannot pin to runs nothing. */
static void on_cpu_runs_there_and_puts_the_mask_back(void **state)
{
	cpu_set_t before, after;
	int last = -1, ran[3] = {-1, 0, 0};
	struct err e;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &before))
			last = c;
	assert_int_equal(topo_on_cpu(last, where_it_ran, ran, &e), 0);
	assert_int_equal(ran[0], last);
	assert_int_equal(ran[1], 1);
	assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	ran[2] = E_USAGE; /* the function's own failure is returned, the mask still put back */
	assert_int_equal(topo_on_cpu(last, where_it_ran, ran, &e), E_USAGE);
	assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	ran[0] = -1;
	assert_int_equal(topo_on_cpu(-1, where_it_ran, ran, &e), E_RUNTIME);
	assert_int_equal(ran[0], -1);
}

static void negative_cpu_fails_without_a_syscall(void **state)
{
	struct err e;

	(void)state;
	assert_int_equal(topo_pin_self(-1, &e), E_RUNTIME);
	assert_non_null(strstr(e.msg, "CPU -1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pinned_thread_runs_on_that_cpu_alone),
		cmocka_unit_test(cpu_the_kernel_refuses_fails_with_cpu_and_errno),
		cmocka_unit_test(on_cpu_runs_there_and_puts_the_mask_back),
		cmocka_unit_test(negative_cpu_fails_without_a_syscall),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
