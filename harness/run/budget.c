#include <math.h>

#include "budget.h"
#include "stats.h"

double budget_share(double budget_s, double elapsed_s, double weight_left, double weight,
		    double floors_after_s, double floor_s)
{
	double slack = budget_s * (1 - BUDGET_RESERVE) - elapsed_s - floor_s - floors_after_s;

	return floor_s + (slack > 0 && weight_left > 0 ? slack * weight / weight_left : 0);
}

double budget_floor_unit(const struct budget_floors *f, int level)
{
	double tmp[BUDGET_RECENT];
	size_t n = 0;

	for (int i = f->n - 1; i >= 0 && n < BUDGET_RECENT; i--)
		if (level < 0 || f->level[i] == level)
			tmp[n++] = f->s[i];
	if (!n && level >= 0)
		return budget_floor_unit(f, -1);
	return n ? stats_median(tmp, n) : 0;
}

void budget_calls(struct budget_point *p, const struct stats_mindiff *calls)
{
	p->est_now = stats_mindiff(calls);
	p->spread = stats_mindiff_spread(calls);
	p->mismatch = stats_mindiff_mismatch(calls);
}

enum budget_next budget_next(const struct budget_point *p)
{
	int settled = p->reps_done >= BUDGET_MIN_REPS && p->est_now > 0 && p->spread <= p->confirmed &&
		p->mismatch <= BUDGET_MISMATCH_CONFIRMED * p->confirmed;

	if (settled)
		return BUDGET_STABLE_STOP;
	if (p->reps_done >= p->reps_max)
		return BUDGET_MAX;
	if (p->spent_s >= p->share_s || p->spent_s + p->rep_s > p->share_s + p->over_s)
		return BUDGET_SPENT;
	return BUDGET_GO;
}

int budget_wait(double point_s, double run_s, double budget_s)
{
	return point_s + BUDGET_WAIT_STEP <= BUDGET_WAIT_POINT + 1e-9 &&
		run_s + BUDGET_WAIT_STEP <= BUDGET_WAIT_RUN * budget_s;
}
