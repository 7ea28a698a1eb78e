/* peak.h — achievable bandwidth, latency and the best indicator event per level and access type:
 * the layout of Molka et al.'s Tables 2 and 3. */
#ifndef PMUCHECK_PEAK_H
#define PMUCHECK_PEAK_H

#include <stddef.h>

#include "agg.h"
#include "verdict.h"

struct peak {
	int present;
	double gbps_one, gbps_all;           /* best of 1 thread / of the most threads measured */
	int threads_all;                     /* that most; 0 when only 1 thread was measured */
	double bpc_one, bpc_all;             /* the same per core and core cycle, of the best point that has a
						clock (its own): where the best has none, one that read low
						(agg.c settle_time), the next best's */
	double bpc_gbps_one, bpc_gbps_all;   /* GB/s of the points those are of */
	double bpt_one, bpt_all;             /* bytes per transfer of each figure's point: its access width in
						L1 (variants of one access differ), a line elsewhere */
	double latency_ns, latency_cycles;   /* latency rows: median over the level's points */
	double transfers_one, transfers_all; /* per second */
	int indicator;                       /* verdict index, -1 when none */
	double indicator_one, indicator_all; /* its highest events/s on the points of each figure: 1 thread's,
						threads_all's (0: none) */
	unsigned points;                     /* the points the figures rest on */
	unsigned noisy;                      /* of those, flagged noisy */
	int from_one, from_all;              /* that figure is a noisy point's (its bound, or no clean one) */
	unsigned left_out;                   /* noisy points left out because clean ones gave the figure */
	unsigned dram_like;                  /* latency points of a cache level that took DRAM-like time */
	double dram_like_ns;                 /* the slowest of them, ns */
	unsigned probed; /* latency points whose figure is the level probe's at their size (peak.c) */
	unsigned r_call; /* of the points, those whose own time is their R call (agg.h r_call) */
	unsigned ports, ports_clock; /* of the points, those past the core's ports, and of them those without
					a clock for it (agg.h past_ports, ports_clock) */
	unsigned untimed; /* clean points of the row without a time (agg.h: seconds INFINITY): in no figure;
			     noisy ones count in left_out */
	/* the path probe's ratio before the point of the all-thread figure (agg.h path_ratio; 0: none), and
	   whether its threads' stores shared paths to memory then (below shared_below x its threads) */
	double paths_all;
	int paths_shared;
};

/* A bandwidth is the best of the row's points, a noisy point's at its bound (agg.h `bounded`), which no
   disturbance makes faster: one disturbed point no longer hands the row to another kernel, so two runs
   give the same row from the same point. A latency is the median of the clean points, each at the faster
   of its own time and the level probe's (common/level.h: level_probe_from, level_probe_figure) and, where
   it was measured again (run --revisits), at its fastest visit, noisy only where every visit was; a noisy
   point without a bound (files before tsc_lo and tsc_hi) counts only where a figure has no clean one.
   Either way a level never vanishes from the peaks, and the row says when a figure is a noisy point's. */
#define PEAK_QUALITY_MAX 256

/* "ok", "ok (k of m points disturbed, slower than the figure)", "ok (k noisy points left out)", "noisy (W; n
   of m points disturbed)" when a figure is a noisy point's, W saying which (peak_noisy_which), or for a cache
   level's latency measured only at DRAM-like times "DRAM-like (n of n points, up to X ns): not this level's
   latency"; DRAM-like points left out beside clean ones are appended ("; k DRAM-like points left out"), and
   latency points that took the level probe's time at their size ("; k of m at the level probe's time"), and
   points whose time is their R call ("; k of m at their R call": every 2R call stretched; common/stats.h),
   and those past the core's L1 ports ("; k of m past the core's L1 ports at their clock, at their bound",
   with " (j even so: no clock, no figure in cycles)": agg.h past_ports, ports_clock), and where the path
   probe was timed before the all-thread figure's point, whether its threads' stores shared paths to memory
   ("; 2 threads' stores shared paths to memory (1.00x one thread's)", or "had paths of their own": harness
   path_probe.h). A row whose points have no time (none positive, or faster than any core) has
   no figure and says so: "no time (n of n points: ...)"; beside figures, "; k without a time left out". */
void peak_quality(const struct peak *pk, char *buf, size_t len);
/* Which figures of a noisy row are a noisy point's: the 1-core one (a latency row's figure is one thread's
   too), the all-cores one, both. */
enum peak_noisy { PEAK_NOISY_ONE, PEAK_NOISY_ALL, PEAK_NOISY_BOTH, PEAK_NOISY_COUNT };
extern const char *const peak_noisy_which[PEAK_NOISY_COUNT];

/* The rows of one level, per access type. DRAM of a placement neither local nor remote (node:N,
   interleave: point_level.h LV_DRAM_OTHER) has a group per placement: node:0 and node:1 on two sockets are
   local and remote memory, and one median over their chases (90 and 144 ns) gave a latency neither
   measured. */
struct peak_group {
	enum point_level level;
	const char *placement; /* LV_DRAM_OTHER's placement (interned: agg.h), NULL for any other level */
	struct peak row[KA_COUNT];
};

/* The levels L1 to remote DRAM (group l is level l), then one group per other DRAM placement, in the
   order raw.csv first has them. */
struct peak_table {
	unsigned n;
	struct peak_group *g;
};

/* A group's name in peaks.csv's `level`: point_level_name's, "DRAM node:1" or "DRAM interleave" for
   another placement's DRAM. */
const char *peak_group_name(const struct peak_group *g, char *buf, size_t len);
/* Whether a peaks.csv `level` is one peak_group_name gives. */
int peak_level_known(const char *name);
#define PEAK_NAME_MAX 96

/* Peaks for every group x access type. The access types are the kernels' (kern.h, by raw.csv's
   `access`), by which the run's summary groups too; a row no point measured stays absent. verdicts are
   indexed by event. Returns 0, or -1 when out of memory (t then holds nothing to free). */
int peak_compute(const struct agg *a, const struct verdict *verdicts, struct peak_table *t);
void peak_table_free(struct peak_table *t);

/* The access type a point measures (raw.csv `access`), or -1 for none (nopread, splitread, chase with
   multiplies). */
int peak_access(const struct agg_point *p);

#endif
