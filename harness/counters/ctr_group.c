/* ctr_group.c — the plan of event groups: never more events than counters, so nothing is multiplexed.
 *
 * Greedy first fit, in the order the user gave the events: an event joins the first group of its
 * backend, scope and pool that still has a free counter and holds no event with its conflict tag; else
 * it opens a new group. An event restricted to some counters (counter_mask) joins only where every
 * member can still be given a counter of its own mask at once (a bipartite matching: "0,1,2,3" events
 * beside a "2"-only one). Each group then gets the fixed reference events of its pool (cycles,
 * instructions, ref-cycles), whose counters are reserved up front when they need general ones (AMD). An
 * Intel fixed counter holds one event of a group: a second event for it is planned on a general counter.
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

/* Whether the fixed event f is one more for a group of these events: add_fixed leaves it out where one of
   them is f itself (the same encoding), or holds f's fixed counter where the kernel has no other counter for
   f (an alias of ref-cycles listed by the user: it counts what f would). */
static bool fixed_joins(const struct ctr_event *const *evs, unsigned n, const struct ctr_event *f)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(evs[i]->encoding, f->encoding) ||
		    (f->fixed_counter && evs[i]->fixed_counter == f->fixed_counter &&
		     ctr_fixed_only(f->fixed_counter)))
			return false;
	return true;
}

/* The events of g once ev joins it, into all: its members, ev, and the fixed events of its pool that
   add_fixed gives it. Returns how many. */
static unsigned with_fixed(const struct ctr_group *g, const struct ctr_event *ev,
			   const struct ctr_event *fixed, unsigned nfixed, const struct ctr_event **all,
			   unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < g->n && n < max; i++)
		all[n++] = g->ev[i];
	if (n < max)
		all[n++] = ev;
	for (unsigned i = 0; i < nfixed && n < max; i++)
		if (same_pool(&fixed[i], ev->backend, ev->scope, ev->pool) && fixed_joins(all, n, &fixed[i]))
			all[n++] = &fixed[i];
	return n;
}

/* The general counters evs take together, or -1 when they cannot be counted together. Each takes its
   uses_counter, but only one event of a group sits on a given Intel fixed counter: another event for it
   (two aliases of instructions retired, perf::INSTRUCTIONS beside PAPI_TOT_INS) takes a general counter,
   where the kernel puts it (Linux arch/x86/events/intel/core.c, intel_pmu_check_event_constraints), or none
   at all for reference cycles (ctr_fixed_only). */
static int general_counters(const struct ctr_event *const *evs, unsigned n)
{
	unsigned held = 0; /* bit k-1: fixed counter k-1 is given */
	int used = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned k = evs[i]->fixed_counter;
		if (!k || k > 32) {
			used += (int)evs[i]->uses_counter;
		} else if (!(held >> (k - 1) & 1)) {
			held |= 1u << (k - 1);
		} else if (ctr_fixed_only(k)) {
			return -1;
		} else {
			used++;
		}
	}
	return used;
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

/* Whether ev joins g: same pool, no conflict tag of a member, and with the fixed events the group gets, the
   general counters all take (the members' and ev's own masks honoured, those for the rest unrestricted). */
static bool fits(const struct ctr_group *g, const struct ctr_event *ev, const struct ctr_event *fixed,
		 unsigned nfixed)
{
	const struct ctr_event *all[CTR_GROUP_MAX + CTR_FIXED_MAX + 1];
	unsigned own = ev->uses_counter, n;
	bool masked = ev->counter_mask != 0;
	int general;

	if (!same_pool(ev, g->backend, g->scope, g->pool))
		return false;
	for (unsigned i = 0; i < g->n; i++) {
		own += g->ev[i]->uses_counter;
		masked |= g->ev[i]->counter_mask != 0;
		if (ev->conflict[0] && !strcmp(ev->conflict, g->ev[i]->conflict))
			return false;
	}
	n = with_fixed(g, ev, fixed, nfixed, all, sizeof all / sizeof all[0]);
	if (n > CTR_GROUP_MAX)
		return false;
	if (!ev->counters)
		return true;
	general = general_counters(all, n);
	return general >= 0 && (unsigned)general <= ev->counters &&
		(!masked || assignable(g, ev, (unsigned)general - own));
}

static void add_fixed(struct ctr_group *g, const struct ctr_event *fixed, unsigned nfixed)
{
	for (unsigned i = 0; i < nfixed; i++)
		if (same_pool(&fixed[i], g->backend, g->scope, g->pool) &&
		    fixed_joins(g->ev, g->n, &fixed[i]))
			g->ev[g->n++] = &fixed[i];
}

/* 0 when ev fits a group of its own beside the fixed events of its pool, else E_RUNTIME saying why. */
static int fits_alone(const struct ctr_event *ev, const struct ctr_event *fixed, unsigned nfixed,
		      struct err *e)
{
	const struct ctr_event *all[CTR_FIXED_MAX + 1];
	struct ctr_group alone = {.backend = ev->backend, .scope = ev->scope};
	unsigned n, fixed_take;
	int general;

	if (!ev->counters)
		return 0;
	snprintf(alone.pool, sizeof alone.pool, "%s", ev->pool);
	n = with_fixed(&alone, ev, fixed, nfixed, all, sizeof all / sizeof all[0]);
	general = general_counters(all, n);
	fixed_take = (unsigned)general_counters(all + 1, n - 1);
	/* an event that needs no counter here is not the one to blame for fixed events that take them all */
	if ((unsigned)general > ev->counters && (unsigned)general > fixed_take)
		return err_set(e, E_RUNTIME,
			       "event '%s': the fixed events take %u of the %u counters of pool '%s', "
			       "and it needs %u",
			       ev->spec, fixed_take, ev->counters, ev->pool, (unsigned)general - fixed_take);
	if (ev->counter_mask && !assignable(&alone, ev, (unsigned)general - ev->uses_counter))
		return err_set(e, E_RUNTIME,
			       "event '%s': none of its counters (mask 0x%x) is free among the %u "
			       "of pool '%s'",
			       ev->spec, ev->counter_mask, ev->counters, ev->pool);
	return 0;
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
		unsigned k;
		int rc;
		if (ev->status != CTR_OK)
			continue;
		if ((rc = fits_alone(ev, fixed, nfixed, e))) {
			ctr_plan_free(plan);
			return rc;
		}
		for (k = 0; k < plan->ngroups && !fits(&plan->groups[k], ev, fixed, nfixed); k++)
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
