/* stall.h — which events report memory stalls only (Molka et al. Section 4.3, Fig. 7/8/10).
 *
 * The pointer chase runs plain, with K independent multiplies per access (they hide in the load's
 * shadow: time per load unchanged) and with K dependent multiplies (they add their latency to every
 * access). An event that reports memory stalls only gives the same cycles per load for plain and
 * dependent, and is not raised by independent multiplies; the plain value is compared with the
 * measured cycles per load. */
#ifndef PMUCHECK_STALL_H
#define PMUCHECK_STALL_H

#include "agg.h"

/* By the chase variants' flags (raw.csv `traits`): none, KV_MUL_INDEP, KV_MUL_DEP. */
enum chase_kind { CH_PLAIN, CH_INDEP, CH_DEP, CH_COUNT };

struct stall_row {
	uint32_t event;
	int level;
	int have[CH_COUNT];
	double reported[CH_COUNT]; /* event count per access: cycles per load as the event sees it */
	double measured[CH_COUNT]; /* core cycles per access from the time */
	int64_t k[CH_COUNT];       /* multiplies per access */
	int noisy[CH_COUNT];       /* from noisy points only: the level has no clean chase of that kind */
	int memory_only;           /* plain == dep, indep not above plain */
	int dep_rises, indep_rises, indep_drops;
	int matches_latency; /* plain within THR_STALL_MATCH of the measured cycles per load */
};

/* The figures of a level and chase kind rest on its clean points, or on its noisy ones where it has no
   clean one (noisy[] set), as the peaks' latency: a disturbed chase takes longer while its stall events,
   which stop with the vCPU, do not count more, so a noisy point would read as an event that misses
   cycles. Rows for the levels where each stall-like event applies: from the first level where it reports at
   least THR_STALL_MIN_FRACTION of the measured cycles per load, when it does so at every deeper level
   too (an L1-miss stall event is 0 in L1 by definition); *rows is malloc'ed (free it). Returns 0 or -1
   (oom). */
int stall_compute(const struct agg *a, struct stall_row **rows, unsigned *n);

#endif
