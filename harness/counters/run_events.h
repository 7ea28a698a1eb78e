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
	struct ctr_plan plan; /* groups of the countable ones, fixed events added */
};

/* How events that are malformed or cannot be counted here are treated. */
enum run_events_mode {
	RUN_EVENTS_STRICT,     /* --events: stop the run before measuring (E_USAGE naming the event) */
	RUN_EVENTS_KEEP_GOING, /* --events --keep-going: record them as failed / not measured, go on */
	RUN_EVENTS_LENIENT,    /* a config's candidates: whatever cannot be used here is not measured */
};

/* Resolves a comma-separated event list (perf or PAPI syntax); a box wildcard is every box of the sysfs
   PMU tree `pmus` (CTR_SYSFS_PMUS for run_events_setup; tests pass a fake one), summed (boxes.h). */
int run_events_setup(struct run_events *re, const char *list, enum run_events_mode mode, struct err *e);
int run_events_setup_in(struct run_events *re, const char *list, enum run_events_mode mode, const char *pmus,
			struct err *e);
/* The same from specs (from a config), with optional conflict tags and box wildcards each spec is one box
   of (NULL, or one per spec, NULL = none). */
int run_events_setup_specs(struct run_events *re, const char *const *specs, const char *const *conflicts,
			   const char *const *sums, unsigned n, enum run_events_mode mode, struct err *e);
void run_events_free(struct run_events *re);
/* For machine.json: every event with its backend, encoding, scope, status and reason, and the groups. */
json_t *run_events_json(const struct run_events *re);

#endif
