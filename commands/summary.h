/* summary.h — the short table `run` prints when it is done: per level, the best bandwidth of each
 * access type for one thread and for all threads, and the pointer-chase latency. The full analysis is
 * `pmucheck analyze`; this is what a person wants to see at once. */
#ifndef PMUCHECK_SUMMARY_H
#define PMUCHECK_SUMMARY_H

#include <stdio.h>

#include "plan.h"
#include "run.h"

void summary_print(FILE *f, const struct plan *p, const struct run_point_result *res, const char *dir,
		   int reported_levels, const char *levels_from);

#endif
