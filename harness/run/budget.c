#include <math.h>

#include "budget.h"

double budget_share(double budget_s, double elapsed_s, double weight_left, double weight, double floor_unit_s,
		    double floor_s)
{
	double slack = budget_s * (1 - BUDGET_RESERVE) - elapsed_s - floor_unit_s * weight_left;

	return floor_s + (slack > 0 && weight_left > 0 ? slack * weight / weight_left : 0);
}

enum budget_next budget_next(const struct budget_point *p)
{
	int settled = p->reps_done >= BUDGET_MIN_REPS && p->est_now > 0 && p->spread <= p->confirmed;

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
