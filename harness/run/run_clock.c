/* run_clock.c — each thread's core clock around a repetition's two calls, as run.c's measure_reps takes
 * it: an add-chain sample before and after them (core_clock.h), or the thread's APERF/MPERF group counted
 * over them (clock_aperf.h). */
#include <stdio.h>

#include "clock_aperf.h"
#include "core_clock.h"
#include "ctr.h"
#include "run_int.h"

/* A rejected clock sample of this thread: it counts as none (0), by its kind; the first reason is kept. */
static double clock_rejected(struct point_shared *sh, enum clock_reject why, const struct err *e)
{
#pragma omp critical
	{
		sh->clock_rejected_by[why]++;
		if (!sh->clock_why[0])
			snprintf(sh->clock_why, sizeof sh->clock_why, "%s", e->msg);
	}
	return 0;
}

/* One add-chain sample of this thread (core_clock.h). */
double run_clock_of(struct group_ctx *g)
{
	struct point_shared *sh = &g->sh;
	enum clock_reject why;
	struct err e;
	double ghz;

#pragma omp atomic
	sh->clock_samples++;
	if (clock_sample(g->s->tsc_hz, sh->clock_iters, &g->s->clock, &ghz, &why, &e) == 0)
		return ghz;
	return clock_rejected(sh, why, &e);
}

/* This thread's clock over its two calls, from the APERF/MPERF group started before them (clock_aperf.h). */
double run_clock_aperf_of(struct group_ctx *g, int tid)
{
	struct point_shared *sh = &g->sh;
	struct ctr_reading rd[2];
	enum clock_reject why = CLOCK_REJECT_UNREAD;
	struct err e;
	double ghz;

#pragma omp atomic
	sh->clock_samples++;
	if (ctr_stop(g->aperf[tid], &e) || ctr_read(g->aperf[tid], rd, &e) ||
	    clock_aperf_reading(rd, g->s->tsc_hz, &g->s->clock, &ghz, &why, &e))
		return clock_rejected(sh, why, &e);
	return ghz;
}

/* This thread's APERF/MPERF group, when the run counts the clock with them: one that cannot be opened
   leaves the thread on add-chain samples, whose rows then say how they were taken (record_clock_note),
   as machine.json's disturbance.points.repetitions_by_chains counts them. */
void run_clock_aperf_open(struct group_ctx *g, int tid)
{
	struct err e;

	g->aperf[tid] = NULL;
	if (g->s->aperf && ctr_open(&g->s->aperf->group, -1, &g->aperf[tid], &e))
		g->aperf[tid] = NULL;
}
