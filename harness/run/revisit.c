/* revisit.c — which points a run measures again, and the rounds that measure them (revisit.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "budget.h"
#include "progress.h"
#include "revisit.h"

int revisit_eligible(const struct plan_point *p)
{
	enum kern_access a = p->var->access;

	if (a == KA_NONE || a == KA_FAULT || (p->fam->flags & KF_FRESH_BUFFER) || p->boundary)
		return 0;
	/* a latency row is of one-thread chases (analysis/peak.c) */
	return a != KA_LATENCY || p->threads == 1;
}

/* A latency row's figure is the median of its sizes' figures (analysis/peak.c), so each size is a row of
   its own here: a revisit of the best one alone would not move the median. */
static int same_row(const struct plan_point *a, const struct plan_point *b)
{
	return a->level == b->level && a->var->access == b->var->access && a->threads == b->threads &&
		a->pf == b->pf && a->place == b->place &&
		(a->var->access != KA_LATENCY || a->bytes == b->bytes);
}

/* What a revisit stands for: a row's variant (a bandwidth row's figure is the best of all its variants'
   points, and each variant's visit may have met a slow stretch of its own), a latency row as a whole. */
static int same_pick(const struct plan_point *a, const struct plan_point *b)
{
	return same_row(a, b) && (a->var->access == KA_LATENCY || a->var == b->var);
}

/* The highest plan outcome of pt's row. */
static double row_best(const struct plan *p, const struct run_point_result *res, const struct plan_point *pt)
{
	double best = 0;

	for (int i = 0; i < p->npoints; i++)
		if (revisit_eligible(&p->points[i]) && same_row(&p->points[i], pt) && res[i].gbps > best)
			best = res[i].gbps;
	return best;
}

int revisit_choose(const struct plan *p, const struct run_point_result *res, double rival, int *pick)
{
	int n = 0, kept = 0;

	for (int i = 0; i < p->npoints; i++) {
		const struct plan_point *pt = &p->points[i];
		int k = 0;
		if (!revisit_eligible(pt) || !(res[i].gbps > 0))
			continue;
		while (k < n && !same_pick(&p->points[pick[k]], pt))
			k++;
		if (k == n)
			pick[n++] = i;
		else if (res[i].gbps > res[pick[k]].gbps)
			pick[k] = i;
	}
	for (int k = 0; k < n; k++) {
		const struct plan_point *pt = &p->points[pick[k]];
		int row_had = 0; /* without rivals, one pick a row: the first of variants that tie */
		for (int j = 0; j < kept && !rival; j++)
			row_had |= same_row(&p->points[pick[j]], pt);
		if (!row_had && res[pick[k]].gbps >= (1 - rival) * row_best(p, res, pt))
			pick[kept++] = pick[k];
	}
	n = kept;
	/* plan order, so that a round's points of one thread count, placement and prefetch state run together
	   as the plan's do (run.c same_group) */
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && pick[b - 1] > pick[b]; b--) {
			int t = pick[b];
			pick[b] = pick[b - 1];
			pick[b - 1] = t;
		}
	return n;
}

int revisit_repick(const struct plan *p, const struct run_point_result *res, const int *pick, int n,
		   const struct run_point_result *round, int *out)
{
	struct run_point_result *seen = malloc(sizeof *seen * (size_t)(p->npoints + 1));
	int m;

	if (!seen)
		return -1;
	memcpy(seen, res, sizeof *seen * (size_t)p->npoints);
	for (int k = 0; k < n; k++)
		if (round[k].gbps > seen[pick[k]].gbps)
			seen[pick[k]].gbps = round[k].gbps;
	m = revisit_choose(p, seen, 0, out);
	free(seen);
	return m;
}

int revisit_round(const struct plan *p, const int *pick, int n, struct plan *out)
{
	memset(out, 0, sizeof *out);
	out->points = calloc((size_t)n + 1, sizeof *out->points);
	if (!out->points)
		return -1;
	for (int k = 0; k < n; k++)
		out->points[k] = p->points[pick[k]];
	out->npoints = n;
	return 0;
}

double revisit_first_cost(const struct run_point_result *res, const int *pick, int n)
{
	double cost = 0;

	for (int k = 0; k < n; k++)
		cost += res[pick[k]].first_seconds;
	return cost;
}

double revisit_round_floor(double took, const struct run_point_result *res, int n)
{
	for (int k = 0; k < n; k++)
		took -= res[k].visit_seconds - res[k].first_seconds;
	return took;
}

/* How many of `rounds` rounds, the first reckoned at `cost` and each later one at `later`, can begin and end
   in `left` (revisit_share); 1 at least. */
static int rounds_fitting(double left, double cost, double later, int rounds)
{
	double start = fmax(REVISIT_APART_S, cost); /* when the second may begin */
	int fit = 1;

	while (fit < rounds && start + later <= left) {
		fit++;
		start += fmax(REVISIT_APART_S, later);
	}
	return fit;
}

double revisit_share(double left, double cost, double later, int rounds)
{
	return fmax(cost, left / rounds_fitting(left, cost, later, rounds));
}

/* Appends a round's outcomes, of plan points pick[0 .. n-1], to d. -1 when out of memory. */
static int keep(struct revisit_done *d, const struct run_point_result *res, const int *pick, int n)
{
	struct run_point_result *r = realloc(d->res, sizeof *r * (size_t)(d->n + n));
	int *of = realloc(d->of, sizeof *of * (size_t)(d->n + n));

	if (r)
		d->res = r;
	if (of)
		d->of = of;
	if (!r || !of)
		return -1;
	memcpy(d->res + d->n, res, sizeof *res * (size_t)n);
	memcpy(d->of + d->n, pick, sizeof *pick * (size_t)n);
	d->n += n;
	return 0;
}

double revisit_narrowed_cost(double floor_s, const int *pick, const struct run_point_result *round, int n,
			     const int *later, int m)
{
	double all = 0, kept = 0;

	if (n <= 0)
		return floor_s;
	for (int k = 0; k < n; k++) {
		all += round[k].first_seconds;
		for (int j = 0; j < m; j++)
			if (later[j] == pick[k]) {
				kept += round[k].first_seconds;
				break;
			}
	}
	return kept + fmax(floor_s - all, 0) * m / n;
}

/* The first round's picks pick[0 .. n-1] narrowed to the later rounds' (revisit_repick, into pick; how many,
   or -1 when out of memory), and *cost, the first round's floor, to theirs (revisit_narrowed_cost). */
static int narrow(const struct plan *p, const struct run_point_result *res, int *pick, int n,
		  const struct run_point_result *round, double *cost)
{
	int *next = malloc(sizeof *next * (size_t)(p->npoints + 1)), m;

	if (!next)
		return -1;
	m = revisit_repick(p, res, pick, n, round, next);
	if (m >= 0) {
		*cost = revisit_narrowed_cost(*cost, pick, round, n, next, m);
		memcpy(pick, next, sizeof *next * (size_t)m);
	}
	free(next);
	return m;
}

enum revisit_first revisit_first_fits(double left, double cost, double bare)
{
	if (cost <= left)
		return REVISIT_FIRST_RIVALS;
	return bare <= left ? REVISIT_FIRST_BARE : REVISIT_FIRST_NONE;
}

void revisit_first_round(const struct plan *p, const struct run_point_result *res, double left, int *pick,
			 int *n, double *cost, double *bare_cost, struct revisit_done *d)
{
	int *bare = malloc(sizeof *bare * (size_t)(p->npoints + 1)), nb;

	d->rival = REVISIT_RIVAL;
	d->rivals_left_out[0] = 0;
	*bare_cost = *cost;
	if (!bare || (nb = revisit_choose(p, res, 0, bare)) <= 0) {
		free(bare);
		return;
	}
	*bare_cost = revisit_first_cost(res, bare, nb);
	if (revisit_first_fits(left, *cost, *bare_cost) == REVISIT_FIRST_BARE) {
		snprintf(d->rivals_left_out, sizeof d->rivals_left_out,
			 "the first round left out each variant's best within %.0f %% of its row's: only the "
			 "rows' best fitted (%.1f s left; %.1f s reckoned, %.1f s with them)",
			 100 * REVISIT_RIVAL, left, *bare_cost, *cost);
		d->rival = 0;
		memcpy(pick, bare, sizeof *bare * (size_t)nb);
		*n = nb;
		*cost = *bare_cost;
	}
	free(bare);
}

int revisit_run(const struct run_state *main, int rounds, struct revisit_done *d, struct err *e)
{
	const struct run_config *c = main->cfg;
	double end = main->budget_start + c->time_budget * (1 - BUDGET_RESERVE), cost, later, begun = 0;
	double first_now = progress_now();
	int *pick = calloc((size_t)main->plan->npoints + 1, sizeof *pick), n, rc = 0;

	memset(d, 0, sizeof *d);
	d->asked = rounds;
	if (!pick)
		return err_set(e, E_RUNTIME, "out of memory");
	n = revisit_choose(main->plan, main->results, REVISIT_RIVAL, pick);
	cost = revisit_first_cost(main->results, pick, n);
	/* the first round's choice and its check below read the clock once, so they cannot disagree */
	revisit_first_round(main->plan, main->results, end - first_now, pick, &n, &cost, &later, d);
	if (!n)
		snprintf(d->why, sizeof d->why, "no bandwidth or latency point was measured");
	for (int r = 0; r < rounds && n && !rc; r++) {
		struct run_config rcfg = *c;
		struct run_state st = *main;
		struct plan round;
		double now = r ? progress_now() : first_now;
		double wait = begun > 0 ? begun + REVISIT_APART_S - now : 0, took;

		if (wait < 0)
			wait = 0;
		if (r == 0 && now + cost > end && later < cost) {
			snprintf(d->why, sizeof d->why,
				 "the time budget had no room for round 1 (%.1f s of %.0f left; it needed "
				 "%.1f s with its rivals, %.1f s without)",
				 end - now > 0 ? end - now : 0, c->time_budget, cost, later);
			break;
		}
		if (now + wait + cost > end) {
			snprintf(
				d->why, sizeof d->why,
				"the time budget had no room for round %d (%.1f s of %.0f left; it needed "
				"%.1f s, the round reckoned at %.1f s after %.1f s to begin %.0f s after the "
				"last)",
				r + 1, end - now > 0 ? end - now : 0, c->time_budget, wait + cost, cost, wait,
				REVISIT_APART_S);
			break;
		}
		if (wait > 0) {
			struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
			nanosleep(&ts, NULL);
			now = progress_now();
		}
		if (revisit_round(main->plan, pick, n, &round)) {
			rc = err_set(e, E_RUNTIME, "out of memory");
			break;
		}
		rcfg.time_budget = revisit_share(end - now, cost, r ? cost : later, rounds - r) /
			(1 - BUDGET_RESERVE);
		rcfg.min_seconds = REVISIT_MIN_SECONDS;
		st.cfg = &rcfg;
		st.plan = &round;
		st.events = NULL;
		/* No memory probe (speed_probe.h): it judges no point, it states the memory's speed over the
		   plan's DRAM points, and its three passes over 128 MiB before each DRAM revisit took 0.7 s of a
		   round's 3.9 s on the Zen 3 guest (2026-12-01), time the revisits are for. */
		st.memory = st.memory_all = NULL;
		/* The path probe stays: its ~2 ms says, for the all-thread DRAM and non-temporal points revisited,
		   whether the threads had paths of their own at that moment (path_probe.h). */
		st.point_base = main->point_base + main->plan->npoints + d->n;
		st.resume_after = -1;
		st.budget_start = now;
		st.run_end = main->budget_start + c->time_budget;
		st.threads_after = 0;
		st.results = calloc((size_t)n, sizeof *st.results);
		begun = now;
		if (d->rounds < REVISIT_MAX)
			d->began[d->rounds] = now - main->budget_start;
		rc = st.results ? run_measure(&st, e) : err_set(e, E_RUNTIME, "out of memory");
		if (st.results && keep(d, st.results, pick, n) && !rc)
			rc = err_set(e, E_RUNTIME, "out of memory");
		d->rounds += !rc;
		took = progress_now() - now;
		d->seconds += took;
		/* the next round is reckoned at this one less the repetitions its share let its points add:
		   reckoned at its whole time, a round that filled its share (revisit_share) left the next
		   fewer rounds that fit than there were */
		if (st.results)
			cost = revisit_round_floor(took, st.results, n);
		/* the rivals had their second chance; later rounds revisit each row's best after it */
		if (r == 0 && st.results && !rc &&
		    (n = narrow(main->plan, main->results, pick, n, st.results, &cost)) < 0)
			rc = err_set(e, E_RUNTIME, "out of memory");
		free(st.results);
		plan_free(&round);
	}
	free(pick);
	return rc;
}

void revisit_done_free(struct revisit_done *d)
{
	free(d->res);
	free(d->of);
	memset(d, 0, sizeof *d);
}
