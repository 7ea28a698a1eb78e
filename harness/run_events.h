/* run_events.h — the events a run counts: resolved once, split into groups that fit the counters
 * (never multiplexed), and the rows they produce. Events that cannot be counted here stay in the list
 * and are written as not measured, with the reason, next to every measurement. */
#ifndef PMUCHECK_RUN_EVENTS_H
#define PMUCHECK_RUN_EVENTS_H

#include <jansson.h>

#include "ctr.h"
#include "err.h"

struct run_events {
	struct ctr_event *evs; /* as listed, including the ones that cannot be counted */
	unsigned nev;
	struct ctr_event fixed[CTR_FIXED_MAX];
	unsigned nfixed;
	struct ctr_plan plan;  /* groups of the countable ones, fixed events added */
};

/* Resolves a comma-separated event list (perf or PAPI syntax). An event that is malformed or cannot be
   counted on this machine stops the run (E_USAGE, naming it) unless keep_going, which records it as
   failed or not measured and goes on. */
int run_events_setup(struct run_events *re, const char *list, int keep_going, struct err *e);
void run_events_free(struct run_events *re);
/* For machine.json: every event with its backend, encoding, scope, status and reason, the groups, and
   the counter availability in words. */
json_t *run_events_json(const struct run_events *re);

#endif
