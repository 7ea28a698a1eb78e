/* disc_plan.c — the groups a discovery would measure on the CPU its candidates belong to, and how long
 * that takes. The groups come from ctr_plan_groups, the run's own grouping, so they follow the same
 * rules: never more events than the PMU's general counters, the vendor's counter restrictions
 * (counter_mask) honoured, two events that program the same filter register (offcore response,
 * config1) never together, uncore apart from core. The reference events (cycles, instructions) a run
 * adds to every group sit on fixed counters on Intel and are left out of this count. The counter masks
 * come from vendor files only: libpfm4 4.13's public API gives none (docs/discover.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"

static void target_event(const struct disc_cand *c, struct ctr_event *ev)
{
	memset(ev, 0, sizeof *ev);
	snprintf(ev->spec, sizeof ev->spec, "%s", c->spec);
	ev->backend = strchr(c->spec, '/') || !strstr(c->spec, "::") ? CTR_PERF : CTR_PAPI;
	ev->scope = c->uncore ? CTR_SCOPE_SOCKET : CTR_SCOPE_THREAD;
	snprintf(ev->pool, sizeof ev->pool, "%s", c->pmu);
	ev->counters = c->counters;
	ev->uses_counter = c->counters > 0;
	ev->counter_mask = c->counter_mask;
	/* Intel's offcore response: event 0xb7 programs MSR 0x1a6, 0xbb MSR 0x1a7 (SDM vol. 3B, 20.3.4.5),
	   so one of each fits a group; other config1 users share one register per PMU */
	if (c->has_config && c->config1 && c->counters)
		snprintf(ev->conflict, sizeof ev->conflict, "%s:filter:0x%02llx", c->pmu,
			 (unsigned long long)(c->config & 0xff));
	ev->scale = c->scale;
	ev->status = CTR_OK;
}

int disc_plan_build(const struct disc_list *l, struct disc_plan *p, struct err *e)
{
	int rc;

	memset(p, 0, sizeof *p);
	p->evs = calloc(l->n + 1, sizeof *p->evs);
	if (!p->evs)
		return err_set(e, E_RUNTIME, "out of memory");
	p->nev = l->n;
	for (unsigned i = 0; i < l->n; i++)
		target_event(&l->c[i], &p->evs[i]);
	rc = ctr_plan_groups(p->evs, p->nev, NULL, 0, &p->groups, e);
	if (rc)
		disc_plan_free(p);
	return rc;
}

void disc_plan_free(struct disc_plan *p)
{
	ctr_plan_free(&p->groups);
	free(p->evs);
	memset(p, 0, sizeof *p);
}

void disc_estimate(const double *call_s, unsigned points, unsigned groups, double min_s, double *least_s,
		   double *typical_s)
{
	/* warm-up: R doubles until a call lasts min_s, about two calls; a repetition: an R-pass and a
	   2R-pass call per group, 3 calls' time; a point settles after 3 repetitions at the earliest
	   (harness/run/budget.h) */
	const double warm = 2, per_rep = 3, typical_reps = 3;

	*least_s = *typical_s = 0;
	if (!groups)
		groups = 1; /* the kernel runs once per repetition even with nothing to count */
	for (unsigned i = 0; i < points; i++) {
		double call = call_s && call_s[i] > min_s ? call_s[i] : min_s;
		*least_s += call * (warm + per_rep * groups);
		*typical_s += call * (warm + per_rep * groups * typical_reps);
	}
}
