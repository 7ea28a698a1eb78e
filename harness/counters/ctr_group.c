/* ctr_group.c — the plan of event groups: never more events than counters, so nothing is multiplexed.
 *
 * Greedy first fit, in the order the user gave the events: an event joins the first group of its
 * backend, scope and pool that still has a free counter and holds no event with its conflict tag; else
 * it opens a new group. An event restricted to some counters (counter_mask) joins only where every
 * member can still be given a counter of its own mask at once (a bipartite matching: "0,1,2,3" events
 * beside a "2"-only one). Each group then gets the fixed reference events of its pool (cycles,
 * instructions, ref-cycles), whose counters are reserved up front when they need general ones (AMD).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctr_int.h"

static const char *const fixed_specs[] = {"cycles",       "instructions", "ref-cycles",
					  "PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_REF_CYC"};

unsigned ctr_fixed_events(struct ctr_event fixed[CTR_FIXED_MAX])
{
	unsigned n = 0;

	for (unsigned i = 0; i < CTR_FIXED_MAX; i++) {
		if (ctr_resolve(fixed_specs[i], &fixed[n], NULL) || fixed[n].status != CTR_OK)
			continue;
		fixed[n++].fixed = true;
	}
	return n;
}

static bool same_pool(const struct ctr_event *a, enum ctr_backend b, enum ctr_scope s, const char *pool)
{
	return a->backend == b && a->scope == s && !strcmp(a->pool, pool);
}

/* Fixed events a group of this pool will get: how many slots and how many general counters. */
static void reserve(const struct ctr_event *ev, const struct ctr_event *fixed, unsigned nfixed,
		    unsigned *slots, unsigned *counters)
{
	*slots = *counters = 0;
	for (unsigned i = 0; i < nfixed; i++) {
		if (!same_pool(&fixed[i], ev->backend, ev->scope, ev->pool))
			continue;
		(*slots)++;
		*counters += fixed[i].uses_counter;
	}
}

/* Kuhn's augmenting path: gives event i a counter of its mask, moving earlier ones where needed. */
static bool augment(const uint32_t *mask, unsigned i, unsigned ncounters, int *owner, uint32_t *seen)
{
	for (unsigned c = 0; c < ncounters; c++) {
		if (!(mask[i] >> c & 1) || (*seen >> c & 1))
			continue;
		*seen |= 1u << c;
		if (owner[c] < 0 || augment(mask, (unsigned)owner[c], ncounters, owner, seen)) {
			owner[c] = (int)i;
			return true;
		}
	}
	return false;
}

/* Whether the group's counter-using events, ev and `reserved` unrestricted ones (the fixed events that
   need general counters) can each have a counter of their mask at the same time. */
static bool assignable(const struct ctr_group *g, const struct ctr_event *ev, unsigned reserved)
{
	unsigned ncounters = ev->counters < 32 ? ev->counters : 32, n = 0;
	uint32_t mask[CTR_GROUP_MAX + 32], all = ncounters == 32 ? ~0u : (1u << ncounters) - 1;
	int owner[32];

	for (unsigned i = 0; i < g->n; i++)
		for (unsigned k = 0; k < g->ev[i]->uses_counter && n + 1 < sizeof mask / sizeof mask[0]; k++)
			mask[n++] = g->ev[i]->counter_mask ? g->ev[i]->counter_mask & all : all;
	for (unsigned k = 0; k < ev->uses_counter && n + 1 < sizeof mask / sizeof mask[0]; k++)
		mask[n++] = ev->counter_mask ? ev->counter_mask & all : all;
	for (unsigned i = 0; i < reserved && n < sizeof mask / sizeof mask[0]; i++)
		mask[n++] = all;
	for (unsigned c = 0; c < 32; c++)
		owner[c] = -1;
	for (unsigned i = 0; i < n; i++) {
		uint32_t seen = 0;
		if (!augment(mask, i, ncounters, owner, &seen))
			return false;
	}
	return true;
}

static bool fits(const struct ctr_group *g, const struct ctr_event *ev, unsigned slots, unsigned counters)
{
	unsigned used = 0;
	bool masked = ev->counter_mask != 0;

	if (!same_pool(ev, g->backend, g->scope, g->pool) || g->n + slots >= CTR_GROUP_MAX)
		return false;
	for (unsigned i = 0; i < g->n; i++) {
		used += g->ev[i]->uses_counter;
		masked |= g->ev[i]->counter_mask != 0;
		if (ev->conflict[0] && !strcmp(ev->conflict, g->ev[i]->conflict))
			return false;
	}
	if (!ev->uses_counter || !ev->counters)
		return true;
	return used + counters + ev->uses_counter <= ev->counters && (!masked || assignable(g, ev, counters));
}

static void add_fixed(struct ctr_group *g, const struct ctr_event *fixed, unsigned nfixed)
{
	for (unsigned i = 0; i < nfixed; i++) {
		bool have = false;
		if (!same_pool(&fixed[i], g->backend, g->scope, g->pool))
			continue;
		for (unsigned j = 0; j < g->n; j++)
			have |= !strcmp(g->ev[j]->encoding, fixed[i].encoding);
		if (!have)
			g->ev[g->n++] = &fixed[i];
	}
}

int ctr_plan_groups(const struct ctr_event *evs, unsigned n, const struct ctr_event *fixed, unsigned nfixed,
		    struct ctr_plan *plan, struct err *e)
{
	plan->ngroups = 0;
	plan->groups = calloc(n ? n : 1, sizeof *plan->groups);
	if (!plan->groups)
		return err_set(e, E_RUNTIME, "out of memory");
	for (unsigned i = 0; i < n; i++) {
		const struct ctr_event *ev = &evs[i];
		unsigned slots, counters, k;
		if (ev->status != CTR_OK)
			continue;
		reserve(ev, fixed, nfixed, &slots, &counters);
		if (ev->uses_counter && ev->counters && counters + ev->uses_counter > ev->counters) {
			ctr_plan_free(plan);
			return err_set(
				e, E_RUNTIME,
				"event '%s': the fixed events take %u of the %u counters of pool '%s', "
				"and it needs %u",
				ev->spec, counters, ev->counters, ev->pool, ev->uses_counter);
		}
		if (ev->uses_counter && ev->counters && ev->counter_mask &&
		    !assignable(&(struct ctr_group){0}, ev, counters)) {
			ctr_plan_free(plan);
			return err_set(e, E_RUNTIME,
				       "event '%s': none of its counters (mask 0x%x) is free among the %u "
				       "of pool '%s'",
				       ev->spec, ev->counter_mask, ev->counters, ev->pool);
		}
		for (k = 0; k < plan->ngroups && !fits(&plan->groups[k], ev, slots, counters); k++)
			;
		if (k == plan->ngroups) {
			struct ctr_group *g = &plan->groups[plan->ngroups++];
			g->backend = ev->backend;
			g->scope = ev->scope;
			snprintf(g->pool, sizeof g->pool, "%s", ev->pool);
		}
		plan->groups[k].ev[plan->groups[k].n++] = ev;
	}
	for (unsigned k = 0; k < plan->ngroups; k++)
		add_fixed(&plan->groups[k], fixed, nfixed);
	return 0;
}

void ctr_plan_free(struct ctr_plan *plan)
{
	free(plan->groups);
	plan->groups = NULL;
	plan->ngroups = 0;
}
