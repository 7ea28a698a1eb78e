/* disturb.h — how disturbed the machine was during a run, from what the kernel counts: the share of
 * CPU time the hypervisor gave to other guests (steal, /proc/stat), the tasks other than the run that
 * wanted a CPU (procs_running at two moments), and the share of the run's time in which some task
 * waited for a CPU (pressure stall information, /proc/pressure/cpu). Sampled before and after the
 * measurements; machine.json's "disturbance" holds both samples and the shares between them, and the
 * report says what that means for the figures (see docs/results-format.md). */
#ifndef PMUCHECK_DISTURB_H
#define PMUCHECK_DISTURB_H

#include <jansson.h>

#include "err.h"

#define DISTURB_PROC "/proc"

struct disturb_sample {
	unsigned long long steal; /* jiffies, all CPUs */
	unsigned long long total; /* jiffies of every state, all CPUs */
	int procs_running;        /* runnable tasks at the moment, the sampling one included */
	long long pressure_us;    /* pressure/cpu "some" total: time some runnable task waited, us; -1
				     without it (a kernel without PSI, or booted with psi=0) */
	double at_s;              /* CLOCK_MONOTONIC when read */
};

/* Where a run and the level probe read their samples: $PMUCHECK_PROC_DIR where set (tests: a fake tree, so
   that what a busy or a quiet machine makes of a probe does not depend on how busy the test's machine is),
   else DISTURB_PROC. */
const char *disturb_proc_dir(void);

/* Reads one sample from proc's stat and pressure/cpu (proc: disturb_proc_dir; tests pass a fake tree).
   E_RUNTIME when stat cannot be read or lacks the aggregate "cpu" line; pressure/cpu is optional. */
int disturb_read(const char *proc, struct disturb_sample *s, struct err *e);

/* The steal share between two samples, in percent of all CPU time; -1 when no time passed or the counters
   are inconsistent (steal went back, or grew more than all fields together). */
double disturb_steal_percent(const struct disturb_sample *before, const struct disturb_sample *after);

/* The share of the time between two samples in which some runnable task waited for a CPU, percent;
   -1 when unknown (no PSI in either sample, or no time passed). */
double disturb_pressure_percent(const struct disturb_sample *before, const struct disturb_sample *after);

/* {"steal_percent", "runnable_before", "runnable_after", "cpu_pressure_percent", "source"}; a share is
   null when unknown. */
json_t *disturb_json(const struct disturb_sample *before, const struct disturb_sample *after);

#endif
