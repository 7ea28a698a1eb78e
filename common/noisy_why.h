/* noisy_why.h — why a point is flagged noisy (harness/run/run.c decides; docs/results-format.md). raw.csv's
 * noisy_why column names the reasons, `;`-separated; the run's summary and the report count each. "333 of
 * 909 points stayed noisy" alone did not say whether --reps or the budget was short, the host ran the vCPUs in turns
 * or the last cache level shrank, which call for different remedies. A point may have several reasons; a
 * clean point has none. In common/ because the writer (harness) and the reader (analysis) share the words. */
#ifndef PMUCHECK_NOISY_WHY_H
#define PMUCHECK_NOISY_WHY_H

#include <stddef.h>

enum noisy_why {
	NW_AT_REPS,     /* its time was not confirmed (two calls agreeing) within --reps repetitions */
	NW_AT_BUDGET,   /* ... nor within its share of the time budget, which ended it first */
	NW_TOO_FAST,    /* it moved more bytes per cycle than any core can (record_impossibly_fast) */
	NW_APART,       /* its threads never ran together (record_threads_apart) */
	NW_SHARED_CORE, /* its threads shared a core as it began (speed_probe_shared) */
	NW_LEVEL,       /* the last cache level did not hold it, before and after (level_check.h) */
	/* the speed probe read below NOISY_SLOW_SHARE of its best so far as it began, after any wait, or
	   below that share of the run's best once the run ended (noisy_why_slow): a slowdown that lasts
	   through the point slows all its calls alike, so they agree and confirm the slower figure
	   (speed_probe.h) */
	NW_SLOW,
	/* the cgroup's CPU quota stopped its threads while it ran (cpu_limit.h). Named beside another
	   reason, never alone: its shortest calls fall between the stops, so a point the quota stopped may
	   still be confirmed, and is then clean; a noisy one it stopped may owe its noise to the quota
	   rather than to what the other reason names (--reps, the budget) */
	NW_QUOTA,
	NW_COUNT
};

/* The share of the speed probe's best below which its reading before a point says the machine itself ran
   slow (NW_SLOW; harness speed_probe.h SPEED_PROBE_SLOW says why 0.8). */
#define NOISY_SLOW_SHARE 0.8

/* Whether a point whose speed probe read `gbps` before it ran slow against the run's best, `best`: judged
   once the run ended, against every sample, where the run judged it against the samples before it. The
   plan's first point (a pointer chase in L1) was judged against none: on the Emerald Rapids guest it was
   confirmed "ok" at 4.5-7.1 ns, 2-4x its 1.9 ns, in 7 of 18 short runs, and in one run the probe read 47.7
   GB/s before it, of a best of 65.0 later. 0 where either is unknown (0). */
int noisy_why_slow(double gbps, double best);

/* The column's words, by enum noisy_why */
extern const char *const noisy_why_names[NW_COUNT];

/* Adds one point's enum noisy_why bits to counts[] */
void noisy_why_count(unsigned counts[NW_COUNT], unsigned bits);

/* "300 not confirmed by a second repetition ..., 2 faster than any core": the reasons counted, in enum
   order, those with none left out; unexplained: noisy points without any (files from before the column). */
void noisy_why_format(char *buf, size_t len, const unsigned counts[NW_COUNT], unsigned unexplained);

#endif
