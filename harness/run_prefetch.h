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
	struct pf_ctl *ctl;         /* NULL: no control */
	const struct plan_opts *opts;
	char reason[ERR_MSG_MAX];   /* why there is no control */
	char skipped[256];          /* states dropped for lack of control */
	char before[8192];          /* MSR values when the run started */
	char after[8192];           /* MSR values after the restore */
};

/* Checks the --prefetch list (comma-separated states; NULL = "on,off" when control is available) and
   fills o->pf_states. Bad state or prefetcher names are E_USAGE. Opens the session when any state
   needs control; without access drops the "off" states (recorded in skipped, with the reason) and
   measures "uncontrolled" instead of "on". */
int run_pf_begin(struct run_pf *p, const char *list, struct plan_opts *o, struct err *e);
/* run_state.set_prefetch */
int run_pf_set(void *ctx, int state, char *msr, size_t len, struct err *e);
/* Restores the prefetchers and ends the session. */
void run_pf_end(struct run_pf *p);
json_t *run_pf_json(const struct run_pf *p);

#endif
