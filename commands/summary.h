/* summary.h — the short table `run` prints when it is done: per level, the best bandwidth of each
 * access type for one thread and for all threads, and the pointer-chase latency. The full analysis is
 * `pmucheck analyze`; this is what a person wants to see at once. */
#ifndef PMUCHECK_SUMMARY_H
#define PMUCHECK_SUMMARY_H

#include <stdio.h>

#include "levels.h"
#include "plan.h"
#include "run.h"

/* The level probe the latency row may take a size's fastest time from (common/level.h:
   level_probe_figure says why and when): its curve, the options its points were planned with (their
   placement and prefetch state), and the run's clock, measured just after it (a curve without cycles,
   resumed from a run before they were kept, takes the higher of it and a point's); probe NULL where the
   run has no curve (it did not probe, nor did the run it resumes). done_before: the plan's first points,
   measured before the interruption a resumed run continues (--resume): they have no result here, and their
   cells say "earlier run", never "-". */
struct summary_probe {
	const struct levels_probe *probe;
	const struct plan_opts *opts;
	double ghz;
	int done_before;
	/* the cores of one socket (topo cores / sockets), 0 where not known: a cell's "all threads" figure is
	   its most threads up to these, as the peaks' all-cores figure is (analysis/peak.c) */
	int socket_cores;
	/* the run's topology, the level sizes it planned with: a cache level's latency may take the probe's
	   time from twice the level below up (common/level.h level_probe_from, plan_clear_of); NULL: from
	   each point's own size up */
	const struct topo *topo;
	/* what a core clock sample could give (core_clock.h): where the samples say the cores ran faster than
	   a config's maximum (clock_config_max_too_low), the summary says so; NULL: not judged */
	const struct clock_bounds *bounds;
};

/* What `run --revisits` measured (harness/run/revisit.h): each revisit's outcome, revisit k of plan point
   of[k]. */
struct summary_revisits {
	const struct run_point_result *res;
	int n;
	const int *of;
};

/* rv: the revisits, whose outcomes count in the bandwidth cells as their plan points' own (a row's figure
   is the best of its points, the revisits included, as in the analysis), and in the latency row as visits
   of their points (each size once in the median, at its fastest visit); the counts below the table are the
   plan's points'. NULL: none. */
void summary_print(FILE *f, const struct plan *p, const struct run_point_result *res,
		   const struct summary_probe *sp, const struct summary_revisits *rv, const char *dir,
		   int reported_levels, const char *levels_from);

#endif
