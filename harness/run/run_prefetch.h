/* run_prefetch.h — the prefetcher states of a run: which are measured, switching between them, and what
 * machine.json records. A state is "on" (all enabled), "off" (all disabled), "off:NAME+NAME" (those
 * disabled, the others enabled), or "uncontrolled" when the MSRs cannot be used and nothing is switched. */
#ifndef PMUCHECK_RUN_PREFETCH_H
#define PMUCHECK_RUN_PREFETCH_H

#include <jansson.h>

#include "err.h"
#include "plan.h"

struct pf_ctl;

struct run_pf {
	struct pf_ctl *ctl;           /* NULL: no control */
	const struct plan_opts *opts; /* the experiment being measured */
	char reason[ERR_MSG_MAX];     /* why there is no control */
	char skipped[256];            /* states dropped for lack of control */
	char before[8192];            /* MSR values when the run started */
	char after[8192];             /* MSR values after the restore */
	char left_running[256];       /* prefetchers the table does not switch (pf_table.left_running) */
	int predicted;                /* run_pf_predict: control possible, no session open */
};

/* Parses a comma-separated list of states (NULL: "on,off") into o->pf_states; a bad state or prefetcher
   name is E_USAGE. Nothing is opened. */
int run_pf_states(const char *list, struct plan_opts *o, struct err *e);
/* The syntax of --prefetch LIST alone (NULL: the default), for a run on another machine (fleet's nodes). */
int run_pf_states_syntax(const char *list, struct err *e);
/* Opens the prefetcher session on these CPUs, saving their MSRs; without access records the reason and
   leaves p->ctl NULL. config_table is the config's [arch] prefetch (NULL: no config, or "listed": the lists
   decide): "none", or another layout than this CPU's table, opens nothing and says so in the reason. */
void run_pf_open(struct run_pf *p, const int *cpus, int ncpus, const char *config_table);
/* --dry-run: what run_pf_open would find (control or the reason without), opening no session. */
void run_pf_predict(struct run_pf *p, const int *cpus, int ncpus, const char *config_table);
/* Makes o's states the ones run_pf_set switches between; without control they become the single
   "uncontrolled" state and the others are recorded as skipped. */
void run_pf_use(struct run_pf *p, struct plan_opts *o);
/* run_state.set_prefetch */
int run_pf_set(void *ctx, int state, char *msr, size_t len, struct err *e);
/* Restores the prefetchers and ends the session; a failed restore is returned (pf_close still puts
   the values back as its last resort, see pf.h). Ending a session twice is a no-op. */
int run_pf_end(struct run_pf *p, struct err *e);
json_t *run_pf_json(const struct run_pf *p);

#endif
