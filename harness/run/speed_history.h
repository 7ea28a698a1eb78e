/* speed_history.h — the speed probe's best over this machine's recent runs, against which a run judges its
 * points once it ended.
 *
 * A run judges each point by the speed probe's reading before it, against the probe's best over the run
 * (run_judge_slow; noisy_why.h NW_SLOW). A run slow from its start to its end has no faster sample to be
 * judged against: on the Emerald Rapids guest (2 vCPUs, 2026-11-29) 7 of 18 short runs confirmed an L1
 * pointer chase "ok" at 4.46-7.14 ns where the others read 1.80-2.19, and a 24 KiB load at 15.7-26.6 GB/s
 * against 44-65; in the runs slow throughout the probe's own best was 43.8-47.2 GB/s, in the others
 * 60.5-65.3. Only an earlier run says what this machine does. So each run's best is kept beside the level
 * probe's history (history_file.h, speed.json), and a run judges its points against the higher of its own
 * best and the machine's: of its runs in the last SPEED_HISTORY_SECONDS (the fastest SPEED_HISTORY_KEEP
 * are kept), the (1 + n / SPEED_HISTORY_PASSED_OVER)-th fastest of n, the fastest while fewer than eight
 * are kept: interference only slows the probe, so a fast best is what the machine did, and once eight are
 * kept one in eight is passed over, so that a single run (a host's short boost) rules no day of runs; one
 * faster than a core can read (kern_impossibly_fast: an edited file) is refused. The fastest are kept, not
 * the newest, so that a series of runs slow throughout does not push the day's faster ones out and pass
 * itself as the machine's speed. A run slower throughout than NOISY_SLOW_SHARE of that says so, and its
 * points are marked as they would be beside a faster sample of its own. Every run's best is offered, a
 * busy one's too: a slower best never raises the machine's.
 *
 * "This machine" is the level history's (this boot, the CPU, the cache sizes hwloc reports), the probe
 * itself (its kernel and bytes: another build's probe reads at another speed) and the clock's settings
 * chosen within the boot (sysinfo_clock_policy: governor, energy preference, boost, turbo, intel_pstate's
 * max_perf_pct): a run with the clock lowered on purpose is judged against runs under the same settings,
 * not marked slow against the faster clock's. A limit that firmware or heat sets is no such setting: a run
 * it slows is marked. */
#ifndef PMUCHECK_SPEED_HISTORY_H
#define PMUCHECK_SPEED_HISTORY_H

#include <jansson.h>
#include <stdint.h>

#include "topo.h"

#define SPEED_HISTORY_FILE "speed.json"
#define SPEED_HISTORY_SECONDS (24 * 3600)
#define SPEED_HISTORY_KEEP 16
/* Of every SPEED_HISTORY_PASSED_OVER runs kept, the fastest is not followed. */
#define SPEED_HISTORY_PASSED_OVER 8

struct speed_history {
	char path[4096];
	char machine[640]; /* history_machine, the probe's kernel and bytes, and the clock's settings */
	double ghz;        /* the clock no core of this machine passes: its bound, else the run's clock */
	int n;             /* this machine's earlier runs kept; 0: none (or none read) */
	struct speed_run {
		int64_t time;
		double gbps;
	} seen[SPEED_HISTORY_KEEP]; /* oldest first */
	double machine_best;        /* GB/s: the (1 + n / SPEED_HISTORY_PASSED_OVER)-th fastest; 0: none */
	char why[512];              /* no history read: why; else "" */
	char unsaved[512];          /* this run's best not added to the file: why; else "" */
};

/* Before the points: reads history_dir()/speed.json, this machine's fastest runs in the window at `now`,
   and sets machine_best; ghz: the clock above which no core runs (0: unknown, no run refused as too fast).
   A history that cannot be read leaves n and machine_best 0, why set; probe NULL (the run has no speed
   probe) reads nothing. sys_root: where the clock's settings are read (CLOCK_SYSFS_ROOT; tests pass a fake
   tree). */
void speed_history_read(struct speed_history *h, const char *sys_root, const struct topo *t, int cpu,
			const char *probe, uint64_t bytes, double ghz, int64_t now);

/* What the points are judged against: the higher of the run's best so far and the machine's. */
double speed_history_against(const struct speed_history *h, double run_best);

/* After the points: adds the run's best at `now` to the file (read again under the history's lock, since
   another run may have added its own meanwhile; this machine's fastest SPEED_HISTORY_KEEP of the window
   kept, older runs dropped), unless it could not be read at the start (left as it was). Where it cannot
   be written, or the best is faster than a core can read, unsaved says why. machine_best stays what the
   run judged against. */
void speed_history_add(struct speed_history *h, double run_best, int64_t now);

/* Whether the run, of best run_best, ran slow throughout: below NOISY_SLOW_SHARE of the machine's best. */
int speed_history_slow_run(const struct speed_history *h, double run_best);

/* {"file", "machine", "runs": [{"time", "gbps"}, the earlier runs, oldest first], "machine_best_gbps"
   (null: none)}, with "not_added": why; or {"file", "not_kept": why}. */
json_t *speed_history_json(const struct speed_history *h);

#endif
