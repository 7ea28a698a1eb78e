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
	unsigned long long steal; /* jiffies, of the CPUs read */
	unsigned long long total; /* jiffies of every state, of the CPUs read */
	int ncpus;                /* the CPUs whose cpuN lines were read; 0: the aggregate line (all CPUs) */
	int has_steal;            /* every line read had the steal field (kernels before 2.6.11 have none) */
	int procs_running;        /* runnable tasks at the moment, the sampling one included */
	int own_running;          /* of them, this process's threads (its sampling thread, OpenMP threads
				     still spinning): -1 where <proc>/self/task cannot be read */
	long long pressure_us;    /* pressure/cpu "some" total: time some runnable task waited, us; -1
				     without it (a kernel without PSI, or booted with psi=0) */
	double at_s;              /* CLOCK_MONOTONIC when read */
};

/* Where a run and the level probe read their samples: $PMUCHECK_PROC_DIR where set (tests: a fake tree, so
   that what a busy or a quiet machine makes of a probe does not depend on how busy the test's machine is),
   else DISTURB_PROC. */
const char *disturb_proc_dir(void);

/* Reads one sample from proc's stat and pressure/cpu (proc: disturb_proc_dir; tests pass a fake tree), the
   steal and time of the n CPUs in cpus (their cpuN lines), or where n is 0 of all (the aggregate line).
   Only the CPUs measured on: an idle CPU gathers idle time and no steal, so a one-thread run on a 128-CPU
   guest with a fifth of its time stolen read 0.16 % over all CPUs. E_RUNTIME when stat cannot be read or
   lacks a line asked for (every one of the CPUs' is missing: offline); pressure/cpu is optional. */
int disturb_read(const char *proc, const int *cpus, int n, struct disturb_sample *s, struct err *e);

/* The steal share between two samples of the same CPUs, in percent of their time; -1 when no time passed,
   the kernel has no steal field, or the counters are inconsistent (steal went back, or grew more than all
   fields together). */
double disturb_steal_percent(const struct disturb_sample *before, const struct disturb_sample *after);

/* The share of the time between two samples in which some runnable task waited for a CPU, percent;
   -1 when unknown (no PSI in either sample, or no time passed). */
double disturb_pressure_percent(const struct disturb_sample *before, const struct disturb_sample *after);

/* The tasks at a sample that are not pmucheck's own threads: procs_running less own_running, -1 where
   either is unknown. */
int disturb_others_running(const struct disturb_sample *s);

/* {"steal_percent", "runnable_before", "runnable_after", "others_runnable_before", "others_runnable_after",
   "cpu_pressure_percent", "source"}; a share or a count is null when unknown. */
json_t *disturb_json(const struct disturb_sample *before, const struct disturb_sample *after);

#endif
