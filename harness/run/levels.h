/* levels.h — where each cache level really ends, measured.
 *
 * Reported cache sizes can lie: a guest gets a share of a shared L3, cache allocation technology
 * partitions it, hwloc reports the whole. Before the sweep, a pointer chase over a fine geometric size
 * grid gives latency against size; runs of similar latency are the levels' plateaus, in order L1, L2,
 * L3, ..., DRAM. Where a plateau ends well before the reported size, the measured limit replaces the
 * reported one for the sweep and the level labels, and the disagreement is printed and recorded. */
#ifndef PMUCHECK_LEVELS_H
#define PMUCHECK_LEVELS_H

#include <jansson.h>

#include "core_clock.h"
#include "disturb.h"
#include "err.h"
#include "kern.h"
#include "topo.h"

#define LEVELS_MAX_POINTS 64
/* Sweeps over the same sizes, each size keeping its fastest (levels.c: levels_measure says why): at least
   LEVELS_SWEEPS_MIN, and more until the sweeps have spread over a few seconds (levels.c: SWEEP_SPREAD_*),
   at most LEVELS_SWEEPS_MAX. With another process time-sharing CPU 0 of the 2-vCPU guest, five quick
   probes put L3's end at 4096, 5792 x4 KiB with three sweeps and at 724, 2896 x3, 4096 KiB with one. */
#define LEVELS_SWEEPS_MIN 3
#define LEVELS_SWEEPS_MAX 12
/* What the probe says where it disagrees with hwloc: at most one line for its time limit, one per level or
   one for DRAM, one for its sweeps, then from the history (levels_history.h) one per level it takes at
   another size and one for its probe not added, or one for no history kept; as many as machine_read.h
   reads back (MACHINE_NDISAGREEMENTS). */
#define LEVELS_MAX_DISAGREEMENTS (2 * TOPO_MAX_LEVELS + 3)
/* The most sizes levels_list_sizes lists. */
#define LEVELS_LIST_MAX 32

struct levels_probe {
	int npoints;
	uint64_t size[LEVELS_MAX_POINTS];
	double ns[LEVELS_MAX_POINTS];  /* latency per access, as measured */
	double env[LEVELS_MAX_POINTS]; /* ns with disturbed points replaced (levels.c says how): what the
					  plateaus are found on (levels.c says why) */
	uint64_t stopped_at;           /* the first size not measured because the time limit ran out; 0 */
	/* each sweep's own latencies (ns keeps their fastest) and cycles per access (levels_latency_ns; 0:
	   none) */
	double sweep_ns[LEVELS_SWEEPS_MAX][LEVELS_MAX_POINTS];
	double sweep_cycles[LEVELS_SWEEPS_MAX][LEVELS_MAX_POINTS];
	double cycles[LEVELS_MAX_POINTS];      /* latency per access in cycles (levels_cycles); 0: none */
	int nsweeps;                           /* the sweeps that measured every size */
	uint64_t sweep_end[LEVELS_SWEEPS_MAX]; /* where each sweep alone ends the last cache level
						  (levels_sweeps); 0: it found no end */
	uint64_t llc_median; /* where the last level is measured short: the median of the sweeps' ends, which
				the run takes for it (levels_sweeps says why); 0: the fastest of each size's end */
	uint64_t dram_from, llc_limit; /* when the plateaus match no level one to one but the last is
					  DRAM-like: where it starts, and the last level's limit; else 0 */
	double thp_share; /* the share of the largest size the chain had on huge pages as its sweeps ended
			     (buf_thp_share); -1: no size was measured */
	double step_ns;   /* the middle of the step from the last cache level's plateau to DRAM's, where that
			   level ends (levels.c: level_ends), or where the sweeps' median ends it
			   (levels_sweeps) the median of those sweeps' own; 0 when the plateaus show no such
			   step */
	int nplateaus;
	struct {
		uint64_t first, last; /* sizes of the plateau's first and last points */
		uint64_t next;        /* size of the point after it (0: none) */
		double ns;            /* median latency of the plateau */
	} plateau[TOPO_MAX_LEVELS + 2];
	char disagreements[LEVELS_MAX_DISAGREEMENTS][448]; /* under machine_read.h's 512 */
	int ndisagreements;
	int kept_reported; /* 1 + the index of levels_classify's "keeping the reported sizes"; 0: none */
	/* /proc as the probe started and ended (disturb.h): whether it is added to the history
	   (levels_history.h); sampled 0 where either could not be read */
	struct disturb_sample before, after;
	int sampled;
};

/* Measures on `cpu` (the calling thread is pinned there for the duration, its mask put back after:
   topo_on_cpu) and classifies. quick: coarser grid. clock: the bounds of the add chains that bracket each
   timed call (levels_latency_ns), for the cycles; NULL: none. */
int levels_measure(struct levels_probe *p, const struct topo *t, int cpu, double tsc_hz,
		   const struct clock_bounds *clock, int quick, struct err *e);
/* The add chains that bracket each timed call (levels_latency_ns): their bounds and length. */
struct levels_clock {
	const struct clock_bounds *bounds;
	uint64_t iters;
};
/* Each size's latency in cycles (cycles): the second fewest of its sweeps' (sweep_cycles, those that have
   any), the fewest that two sweeps reach; 0 where fewer than two have any. Not the fastest time in ns at a
   clock read apart from it: a host moves the clock within milliseconds, which the time in ns follows and
   the cycles of a core-clocked cache do not. Nor the fewest alone: a clock may move and come back within a
   call whose brackets agree, and one sweep in some tens read a 5-cycle L1 chase at 4.64 cycles. Nor the
   median: as the ns are each size's fastest, the cycles must come from the same undisturbed sweeps, and
   near a level's end the sweeps split between it and the next (a --quick probe's 45 KiB, of a 48 KiB L1,
   read 5.00 cycles in two of six sweeps, 7.55 in one and 13.8-14.0 in three, its fastest 1.79 ns, L1's).
   Separate from levels_measure so it can be tested on constructed sweeps. */
void levels_cycles(struct levels_probe *p);
/* Latency per access at `bytes` of the chain kernel f/v over buf (at least that large), in ns: the fastest
   of its timed calls, each at least min_s long (levels.c says why the fastest); and with a clock (NULL:
   none), in *cycles, the fewest of the calls whose brackets agree (levels.c says how), 0 where none did
   (cycles NULL: not wanted). */
int levels_latency_ns(const struct kern_family *f, const struct kern_variant *v, void *buf, uint64_t bytes,
		      double tsc_hz, double min_s, const struct levels_clock *clock, double *ns,
		      double *cycles, struct err *e);
/* Whether the last points of the sweep span two octaves all as slow as DRAM (levels.c: DRAM_NS), where
   the sweep stops: beyond that it could only measure more DRAM. */
int levels_past_dram(const struct levels_probe *p);
/* Whether the sweep stops after its last point, on a machine whose last cache level is reported at llc
   bytes: at four times llc (levels.c: SWEEP_TOP), levels_past_dram, or with quick past twice llc once its
   last points can be a plateau of DRAM's. */
int levels_sweep_done(const struct levels_probe *p, uint64_t llc, int quick);
/* Groups the measured points into plateaus and compares them with the reported sizes; separate from
   levels_measure so it can be tested on constructed curves. */
void levels_classify(struct levels_probe *p, const struct topo *t);
/* Classifies each complete sweep alone (after levels_classify, which leaves them alone) and keeps where
   it ends the last cache level; where the sweeps disagree it says so, since the share of that level other
   tenants leave moved while the probe ran. Separate from levels_measure so it can be tested on
   constructed sweeps. */
void levels_sweeps(struct levels_probe *p, const struct topo *t);
/* Sets topo's measured level sizes where a plateau ends before 3/4 of the reported size. */
void levels_apply(const struct levels_probe *p, struct topo *t);
json_t *levels_json(const struct levels_probe *p);
/* Adds one line to what the probe says disagrees with the reported sizes (dropped past
   LEVELS_MAX_DISAGREEMENTS). */
void levels_disagree(struct levels_probe *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sizes as "none (1), 2896 KiB (1) and 4096 KiB (5)": each size (0: none), ascending, with how often it
   occurs; at most LEVELS_LIST_MAX of them. */
void levels_list_sizes(const uint64_t *sizes, int n, char *list, size_t size);
/* The k-th smallest (1: the smallest) of n sizes, 1 <= k <= n <= LEVELS_LIST_MAX. */
uint64_t levels_kth_smallest(const uint64_t *sizes, int n, int k);

#endif
