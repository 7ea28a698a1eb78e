/* disturb.h — how disturbed the machine was during a run, from what the kernel counts: the share of
 * CPU time the hypervisor gave to other guests (steal, /proc/stat), and the tasks other than the run
 * that wanted a CPU (procs_running). Sampled before and after the measurements; machine.json's
 * "disturbance" holds both samples and the steal share between them, and the report says what that
 * means for the figures (see docs/results-format.md). */
#ifndef PMUCHECK_DISTURB_H
#define PMUCHECK_DISTURB_H

#include <jansson.h>

#include "err.h"

#define DISTURB_PROC_STAT "/proc/stat"

struct disturb_sample {
	unsigned long long steal; /* jiffies, all CPUs */
	unsigned long long total; /* jiffies of every state, all CPUs */
	int procs_running;        /* runnable tasks at the moment, the sampling one included */
};

/* Reads one sample from a /proc/stat-format file (tests pass a fake one). E_RUNTIME when it cannot be
   read or lacks the aggregate "cpu" line. */
int disturb_read(const char *path, struct disturb_sample *s, struct err *e);

/* The steal share between two samples, in percent of all CPU time; -1 when no time passed. */
double disturb_steal_percent(const struct disturb_sample *before, const struct disturb_sample *after);

/* {"steal_percent", "runnable_before", "runnable_after", "source"}; steal_percent null when unknown. */
json_t *disturb_json(const struct disturb_sample *before, const struct disturb_sample *after);

#endif
