/* path_probe.h — whether the run's threads had paths to memory of their own. Non-temporal stores leave
 * the core for memory whatever the buffer's size, and on the Zen 3 guest (2 vCPUs) one thread's already
 * fills the path they take: 21-23 GB/s for one thread, and for two either the same (1.0-1.1x) or 40-44 GB/s
 * (1.9x), each mode held for minutes and changing between runs (a 60-line C loop of 4 MiB stores per
 * thread, 2026-12-01: 4 minutes at 1.0x but for 10 s; an hour before, a whole --quick run at 1.9x), while
 * the two threads' L1 reads stayed at about twice one thread's: they had cores of their own. That points at
 * the host placing the two vCPUs where their writes share one path out of the core complex (on Zen 3 likely
 * one CCD's link to the I/O die: 32 bytes a fabric clock for reads, 16 for writes in Zen 2, Naffziger et
 * al., ISSCC 2020). The mode moves the all-thread figures whose traffic goes to memory: in four consecutive
 * --quick runs that day two threads' non-temporal stores at L1 sizes read 22.9 GB/s in the three at 1.0x
 * and 44.1 in the one at 1.9x, and their DRAM read 33-35 against 42.7, while the one-thread figures held
 * (DRAM read 20.8-22.0); reads move with the memory's other tenants too (in four later runs 34.4-41.1 at
 * 1.0x, 38.7 at 2.0x). Neither the speed probe (L1) nor the memory probe (a read; two threads' 128 MiB read
 * 24-26 GB/s in all four runs) sees it.
 *
 * So before each point of the most threads whose traffic reaches memory (a DRAM point, or non-temporal
 * stores at any size), one thread times the probe (the kernel registered with KP_PATH_PROBE) and then all
 * the threads at once, each its own PATH_PROBE_BYTES: their bandwidth over one thread's is the point's
 * ratio, about `threads` where each has a path of its own, about 1 where all share one. On a bare machine
 * the threads' paths are the hardware's (two cores of one CCD share its link); on a VM they are where the
 * host put the vCPUs, which the guest cannot choose nor see otherwise, and which two runs may differ in.
 * machine.json's disturbance.path_probe keeps the ratios; the report and the run's output say what they
 * mean for the figures. It judges no point. */
#ifndef PMUCHECK_PATH_PROBE_H
#define PMUCHECK_PATH_PROBE_H

#include <jansson.h>

#include "plan.h"
#include "speed_probe.h"

/* Per thread. Non-temporal stores bypass the caches, so the size only makes a pass long enough to time: at
   22 GB/s 0.1 ms, and a call (speed_probe.h: SPEED_PROBE_SECONDS) 2-4 passes. As the memory probe's, the
   buffers lie where the first such point's threads first touched them. */
#define PATH_PROBE_BYTES (2u << 20)

/* Threads whose stores read below this part of `threads` times one thread's shared paths to memory (the
   same halfway rule as speed_probe.h's SPEED_PROBE_SHARED between the two cases above). */
#define PATH_PROBE_SHARED SPEED_PROBE_SHARED

struct path_probe {
	struct speed_probe one, all; /* one thread's stores, then all the threads' at once */
	double *ratio;               /* per sample: all's GB/s over one's, taken just before */
	int n, cap;
};

/* Whether the path probe is timed before a point of the most threads: one whose traffic reaches memory. */
int path_probe_point(const struct plan_point *pt);

/* For `threads` (> 1) threads. E_RUNTIME when no kernel is registered, out of memory. */
int path_probe_init(struct path_probe *pp, int threads, double tsc_hz, struct err *e);

/* Called by every thread (tid 0 .. threads - 1) of an OpenMP parallel region of pp->all.threads threads,
   each pinned where it measures: the master times one thread's stores, then all time theirs together.
   No sample where either could not be taken (out of memory). Returns the ratio kept on the master; 0 on
   the other threads, or where none was kept. */
double path_probe_sample(struct path_probe *pp, int tid);

/* Keeps a sample's ratio of `all_gbps` over `one_gbps`; path_probe_sample's, and tests' own. Returns it; 0
   out of memory (not kept). */
double path_probe_keep(struct path_probe *pp, double one_gbps, double all_gbps);

struct path_probe_figures {
	int n, shared;            /* samples; those below PATH_PROBE_SHARED x threads */
	double best, median, p10; /* of the ratios, p10 the 10th percentile from the low end */
};
struct path_probe_figures path_probe_figures(const struct path_probe *pp);

/* {"kernel", "bytes" (per thread), "threads", "points", "ratio_best", "ratio_median", "ratio_p10",
   "points_shared", "shared_below", "gbps_one_best", "gbps_best"}; NULL without a sample. */
json_t *path_probe_json(const struct path_probe *pp);

void path_probe_free(struct path_probe *pp);

#endif
