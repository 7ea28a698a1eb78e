/* point_level.h — which memory level a measurement point exercises, and in which prefetcher state. */
#ifndef PMUCHECK_POINT_LEVEL_H
#define PMUCHECK_POINT_LEVEL_H

#include "level.h"
#include "machine_read.h"
#include "raw_read.h"

/* The levels of common/level.h, with DRAM split by placement and the analysis's own classes after them. */
enum point_level {
	LV_L1 = LEVEL_L1,
	LV_L2 = LEVEL_L2,
	LV_L3 = LEVEL_L3,
	LV_DRAM = LEVEL_DRAM, /* local DRAM (placement local) */
	LV_DRAM_REMOTE,       /* placement remote */
	LV_DRAM_OTHER,        /* placement node:N or interleave */
	LV_ANY,               /* kernels whose traffic does not depend on the level (touch: fresh pages) */
	LV_COUNT,
	LV_EXCLUDED = -1, /* too close to a cache limit to belong to either side */
};
/* "L1".."DRAM" (level_name), "remote DRAM", "other DRAM", "any"; "" for LV_EXCLUDED. */
const char *point_level_name(enum point_level l);
/* The level of common/level.h a point level is: LEVEL_DRAM for local, remote and other DRAM alike (a remote
   chase is DRAM, never a cache level that took DRAM-like time), LEVEL_NONE for LV_ANY and LV_EXCLUDED. */
enum level point_level_common(enum point_level l);

enum pf_state { PF_ON, PF_OFF, PF_PARTIAL, PF_UNCONTROLLED, PF_COUNT };
extern const char *const pf_names[PF_COUNT];

/* The level of a row's point: per-thread footprint (bytes x arrays) against the machine's limits,
   with the margins of thresholds.h. */
enum point_level point_level_assign(const struct machine *m, const struct raw_row *row);
/* What the level above `below` keeps its latency clear of (common/level.h level_probe_from): one thread's
   capacity of level `below`, the larger of the probe's and the reported one, as the run's plan took it
   (harness plan_clear_of); 0 for no such level. */
double point_level_clear_of(const struct machine *m, enum level below);
enum pf_state point_level_prefetch(const char *prefetch);

#endif
