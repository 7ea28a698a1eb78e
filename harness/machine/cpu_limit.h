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

/* Cgroups with a quota kept on one path, the run's own upward: Slurm nests system/slurm/uid/job/step/task,
   systemd -.slice/user.slice/user-UID.slice/session; one further up is neither taken as the tightest nor
   sampled. */
#define CPU_LIMIT_MAX 32

/* One cgroup with a quota on the path: its directory and name are the first dir_len, cgroup_len bytes of
   the run's own (cpu_limit.own_dir, own_cgroup), a parent's path being a prefix of its child's. */
struct cpu_limit_level {
	size_t dir_len, cgroup_len;
	long long quota_us, period_us;
};

struct cpu_limit {
	int version;           /* cgroup hierarchy the cpu controller is on: 1 or 2 */
	char cgroup[PATH_MAX]; /* the cgroup whose limit is the tightest, as /proc/self/cgroup names it; the
				  run's own when none of its cgroup and their parents has one */
	long long quota_us;    /* per period; 0 when no cgroup on the path limits the CPU time */
	long long period_us;
	char own_cgroup[PATH_MAX], own_dir[PATH_MAX]; /* the run's own cgroup */
	int nlevels, tight; /* cgroups with a quota in level[], the run's first; level[tight] the tightest */
	struct cpu_limit_level level[CPU_LIMIT_MAX];
};

/* Throttling counters of every cgroup with a quota on the path (cpu.stat, cumulative), as cpu_limit.level
   has them: a looser parent shared with other jobs stops the run too once they all used up its quota,
   while the run's tighter cgroup shows no stop. */
struct cpu_throttle {
	int n; /* cpu_limit.nlevels */
	struct cpu_stat {
		unsigned long long periods;      /* nr_periods: periods in which the cgroup ran */
		unsigned long long throttled;    /* nr_throttled: periods that ended with it stopped */
		unsigned long long throttled_ns; /* time it stood still (v1 throttled_time ns, v2
						    throttled_usec) */
	} at[CPU_LIMIT_MAX];
};

/* Finds the cpu controller's cgroup of this process below root (CPU_LIMIT_ROOT) and the tightest quota
   (in CPUs: quota / period) of that cgroup and its parents within the mount. E_RUNTIME naming the file
   when /proc/self/cgroup or mountinfo cannot be read or no cgroup hierarchy has the cpu controller, or a
   quota file cannot be parsed. */
int cpu_limit_find(const char *root, struct cpu_limit *l, struct err *e);

/* The throttling counters of every cgroup with a quota on the path now; E_RUNTIME naming the first cpu.stat
   that is unreadable. */
int cpu_limit_sample(const struct cpu_limit *l, struct cpu_throttle *s, struct err *e);

/* How often any quota on the path has stopped the run's cgroup so far: the sum of their nr_throttled, which
   grows whenever one of them stops it (a parent's and a child's stop in the same period count twice). */
unsigned long long cpu_limit_stops(const struct cpu_throttle *s);

/* The level whose quota stopped the run in the most periods between before and after (the tightest where
   none did more): the one to name, since the stops of different levels cannot be added up. */
int cpu_limit_worst(const struct cpu_limit *l, const struct cpu_throttle *before,
		    const struct cpu_throttle *after);

/* The name of level i, as /proc/self/cgroup names it, in buf of PATH_MAX. */
const char *cpu_limit_level_cgroup(const struct cpu_limit *l, int i, char *buf);

/* CPUs' worth of time the cgroup may use per period; 0 without a limit. */
double cpu_limit_cpus(const struct cpu_limit *l);

/* {"cgroup", "version", "cpus", "period_us", "periods", "throttled_periods", "throttled_seconds",
   "limits", "source"}: the tightest quota and its cgroup's throttling; "limits" every cgroup with a quota
   on the path, the run's own first, each {"cgroup", "cpus", "period_us", "periods", "throttled_periods",
   "throttled_seconds"}. cpus null and no counters nor limits without a limit; counters only where both
   samples were read (before or after NULL: not). */
json_t *cpu_limit_json(const struct cpu_limit *l, const struct cpu_throttle *before,
		       const struct cpu_throttle *after);

#endif
