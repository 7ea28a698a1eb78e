/* level.h — which memory level a measurement point exercises, and in which prefetcher state. */
#ifndef PMUCHECK_LEVEL_H
#define PMUCHECK_LEVEL_H

#include "machine.h"
#include "raw.h"

enum level {
	LV_L1,
	LV_L2,
	LV_L3,
	LV_DRAM,        /* local DRAM (placement local) */
	LV_DRAM_REMOTE, /* placement remote */
	LV_DRAM_OTHER,  /* placement node:N or interleave */
	LV_ANY,         /* kernels whose traffic does not depend on the level (touch: fresh pages) */
	LV_COUNT,
	LV_EXCLUDED = -1, /* too close to a cache limit to belong to either side */
};
extern const char *const level_names[LV_COUNT];

enum pf_state { PF_ON, PF_OFF, PF_PARTIAL, PF_UNCONTROLLED, PF_COUNT };
extern const char *const pf_names[PF_COUNT];

/* The level of a row's point: per-thread footprint (bytes x arrays) against the machine's limits,
   with the margins of thresholds.h. */
enum level level_assign(const struct machine *m, const struct raw_row *row);
enum pf_state level_prefetch(const char *prefetch);

#endif
