/* levels_history.h — the level probe's answers on this machine over the last day, and the sizes a run takes
 * from them.
 *
 * Where a guest shares the host's last-level cache with other tenants, the part of it the guest can keep
 * moves with what they do, by a factor of two within minutes: six `info --levels` on the development VM
 * (Zen 5 guest, 2 vCPUs, 2026-11-28), a minute apart, ended L3 at 11585, 13777, 13777, 11585, 11585 and
 * 6888 KiB, each the median of its own sweeps (levels.c: levels_sweeps); five the next morning at 8192,
 * 5792, 5792, 5792 and 5792 KiB. No single probe can give one answer five runs out of five there, and a
 * run's points of the last level sit at up to 3/4 of the end it takes (plan.c): placed from a probe that
 * met a large share, they run partly from DRAM once the share shrinks (level_check.h).
 *
 * So every probe's sizes are kept in the state directory (history_file.h, levels.json; or in
 * $PMUCHECK_HISTORY_DIR, as each test file keeps its own), and a run takes for each level, of the probes of
 * this machine in the last LEVELS_HISTORY_SECONDS (its newest LEVELS_HISTORY_KEEP), the smallest size once
 * one probe in LEVELS_HISTORY_PASSED_OVER is passed over: the (1 + n/8)-th smallest of n, the smallest itself
 * while fewer than eight are kept (or the last run's, below). A size the guest kept nearly each time it was
 * looked at, which the level's points fit whenever the share is no smaller than it has mostly been. The
 * smallest alone (until 2026-11-29) let one probe rule for a day: on the development VM one of 16, taken
 * while other work kept both vCPUs busy, ended L2 at 512 KiB where the other 15 found its reported 1 MiB, and
 * one ended L3 at 1448 KiB where the others found 4096 to 11585, so every run of that day placed its "L3"
 * points partly in L2. The answer changes only when a probe moves the size at that rank, or one ages out. On
 * a machine whose levels do not move (real hardware, a guest with a cache of its own) every probe finds the
 * same sizes and the history changes nothing.
 *
 * A size at that rank still moves by one step of the probe's grid whenever a probe below it comes or goes: of
 * five consecutive `info --levels` on the Zen 3 guest (2026-12-01), whose probes alone ended L3 at 3444,
 * 3444, 2896, 3444 and 4096 KiB, the runs took 4096, 4096, 3444, 3444 and 3444 KiB. So the size the last run
 * took (each probe added keeps its run's, "taken": a busy probe's run, not added, sets none) stays where it
 * is larger than the size at the rank while no more than one probe in LEVELS_HISTORY_HELD_WHILE ended the
 * level shorter: a level is held between the sizes with one probe in eight and one in four passed over, and a
 * run's points move only once more than a quarter of the probes found the level shorter. With those five that
 * is 4096 KiB each time (in their window of 16); over 20000 probes drawn from this boot's 20, the runs' size
 * changed from one run to the next 3.0 % of the time rather than 8.5 %, and five consecutive runs took the
 * same in 88 % of the draws rather than 72 %. A size smaller than the one at the rank is not held: it would
 * let one short probe rule again.
 *
 * A probe taken while the machine was busy (busy.h: other work then held a share of the caches) counts for
 * its own run but is not added, so that it rules no later one. Its own run does meet the smaller share: with
 * a shell's busy loop time-sharing the probed CPU of the Zen 3 guest (2026-11-30), probes ended L3 at
 * 724-2048 KiB where quiet ones found 2435-4870, and the run's own chase over 1448 KiB then read 141 ns an
 * access at best (quiet: 18 ns); a busy loop on the other vCPU changed nothing (3444 KiB).
 *
 * "This machine" is this boot (a guest booted again may run on another host), the CPU probed and the
 * cache sizes hwloc reports for it. Each probe's own answer stays in machine.json (levels.latency_curve,
 * sweep_ends) beside the sizes taken (levels.measured) and the history they came from (levels.history). */
#ifndef PMUCHECK_LEVELS_HISTORY_H
#define PMUCHECK_LEVELS_HISTORY_H

#include <jansson.h>
#include <stdint.h>

#include "busy.h"
#include "levels.h"
#include "topo.h"

#define LEVELS_HISTORY_SECONDS (24 * 3600)
#define LEVELS_HISTORY_KEEP 16
/* Of every LEVELS_HISTORY_PASSED_OVER probes kept, the one that found a level smallest is not followed. */
#define LEVELS_HISTORY_PASSED_OVER 8
/* The last run's size of a level stays while no more than one probe in LEVELS_HISTORY_HELD_WHILE ended the
   level shorter (above). */
#define LEVELS_HISTORY_HELD_WHILE 4
#define LEVELS_HISTORY_FILE "levels.json"

struct levels_history {
	char path[4096];
	char machine[320]; /* what two probes must share to be compared (history_machine) */
	int n;             /* this machine's probes in the window, the new one among them; 0: none kept */
	int nlevels;
	uint64_t own[TOPO_MAX_LEVELS];    /* this probe's size of each level: measured, else reported */
	uint64_t ranked[TOPO_MAX_LEVELS]; /* each level's (1 + n / LEVELS_HISTORY_PASSED_OVER)-th smallest */
	uint64_t last[TOPO_MAX_LEVELS];   /* what the newest probe's run took; 0: not recorded */
	int held[TOPO_MAX_LEVELS];        /* the level's last size stays (above) */
	uint64_t taken[TOPO_MAX_LEVELS];  /* each level's size: last where held, else ranked */
	struct {
		int64_t time;
		uint64_t size[TOPO_MAX_LEVELS];
		uint64_t taken[TOPO_MAX_LEVELS]; /* what its run took; 0: not recorded */
	} seen[LEVELS_HISTORY_KEEP];             /* the n probes, oldest first */
	char why[512];                           /* no history read: why; else "" */
	char unsaved[512];                       /* read, but this probe not added to it: why; else "" */
};

/* After levels_apply (t holds this probe's sizes): reads state_dir()/levels.json, drops the probes older than
   the window or beyond the newest LEVELS_HISTORY_KEEP of a machine, adds this one at `now` and writes the
   file back (not where p's samples say the machine was busy: then p says so), and sets t's measured sizes
   to each level's size over this machine's probes (above: at that rank, or the last run's where it stays),
   which the file keeps as this probe's "taken"; each level where that differs from this probe's own gets a
   line in p's disagreements. A history that cannot be read leaves t as this probe set it and is left as it
   was, the reason in h->why and p; one that can be read but not written (root's, to another user) counts
   all the same, and p says this probe was not added. */
void levels_history_apply(struct levels_history *h, struct levels_probe *p, struct topo *t, int cpu,
			  int64_t now);

/* What a run would take from the history before its own probe, for a dry run, which probes nothing: this
   machine's probes in the window, read as levels_history_apply reads them, without a lock (a probe added
   meanwhile only makes this one older), each level's size (at that rank, or the last run's where it stays)
   set as t's measured size where it is below the reported one. h->n 0 and t untouched where there is no
   such probe, or no history could be read (h->why). */
void levels_history_preview(struct levels_history *h, struct topo *t, int cpu, int64_t now);

/* {"file", "machine", "probes": [{"time", "sizes": [bytes per level], "taken": [bytes per level] where
   recorded}, oldest first, this one last]} (with "not_added": why, where it could not be written), or
   {"file", "not_kept": why}. */
json_t *levels_history_json(const struct levels_history *h);

#endif
