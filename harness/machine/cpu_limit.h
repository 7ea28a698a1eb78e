/* cpu_limit.h — the CPU bandwidth limit of pmucheck's cgroup (a container's or a batch job's CPU quota)
 * and how often the kernel throttled the run under it. A quota below the run's threads stops every
 * thread of the cgroup for the rest of each period once the quota is spent (CFS bandwidth control,
 * Documentation/scheduler/sched-bwc.rst): the run sees no steal time and no other task, only calls that
 * took longer. On a 2-vCPU guest, a --quick run in a cgroup of 1 CPU was throttled in 353 of 574 periods,
 * 31.5 s of its 57 s, and nothing in the run said so before this was recorded. */
#ifndef PMUCHECK_CPU_LIMIT_H
#define PMUCHECK_CPU_LIMIT_H

#include <limits.h>

#include <jansson.h>

#include "err.h"

/* Where /proc/self/cgroup, /proc/self/mountinfo and the cgroup mounts they name are found: "" on this
   machine; tests pass a fake tree. */
#define CPU_LIMIT_ROOT ""

struct cpu_limit {
	int version;           /* cgroup hierarchy the cpu controller is on: 1 or 2 */
	char cgroup[PATH_MAX]; /* the cgroup whose limit is the tightest, as /proc/self/cgroup names it; the
				  run's own when none of its cgroup and their parents has one */
	char dir[PATH_MAX];    /* that cgroup's directory */
	long long quota_us;    /* per period; 0 when no cgroup on the path limits the CPU time */
	long long period_us;
};

/* Throttling counters of the limiting cgroup's cpu.stat (cumulative). */
struct cpu_throttle {
	unsigned long long periods;      /* nr_periods: periods in which the cgroup ran */
	unsigned long long throttled;    /* nr_throttled: periods that ended with it stopped */
	unsigned long long throttled_ns; /* time it stood still (v1 throttled_time ns, v2 throttled_usec) */
};

/* Finds the cpu controller's cgroup of this process below root (CPU_LIMIT_ROOT) and the tightest quota
   (in CPUs: quota / period) of that cgroup and its parents within the mount. E_RUNTIME naming the file
   when /proc/self/cgroup or mountinfo cannot be read or no cgroup hierarchy has the cpu controller, or a
   quota file cannot be parsed. */
int cpu_limit_find(const char *root, struct cpu_limit *l, struct err *e);

/* The limiting cgroup's throttling counters now; E_RUNTIME naming cpu.stat when unreadable. */
int cpu_limit_sample(const struct cpu_limit *l, struct cpu_throttle *s, struct err *e);

/* CPUs' worth of time the cgroup may use per period; 0 without a limit. */
double cpu_limit_cpus(const struct cpu_limit *l);

/* {"cgroup", "version", "cpus", "period_us", "periods", "throttled_periods", "throttled_seconds",
   "source"}: cpus null and no counters without a limit; counters only where both samples were read
   (before or after NULL: not). */
json_t *cpu_limit_json(const struct cpu_limit *l, const struct cpu_throttle *before,
		       const struct cpu_throttle *after);

#endif
