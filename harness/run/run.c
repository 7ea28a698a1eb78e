/* run.c — the measurement loop. See run.h for the method. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "budget.h"
#include "buf.h"
#include "core_clock.h"
#include "cpu_limit.h"
#include "fresh_fail.h"
#include "noisy_why.h"
#include "progress.h"
#include "run.h"
#include "run_events.h"
#include "run_int.h"
#include "run_record.h"
#include "stats.h"
#include "timed_call.h"

void run_judge_slow(struct run_point_result *res, int n, double best)
{
	for (int i = 0; i < n; i++)
		if (!(res[i].noisy_why & 1u << NW_SLOW) && noisy_why_slow(res[i].speed_gbps, best)) {
			res[i].noisy_why |= 1u << NW_SLOW;
			res[i].r_call = 0;
			res[i].gbps = res[i].bound_gbps;
			res[i].ns = res[i].bound_ns;
		}
}

/* The call whose time and counts are recorded. Thread-scope counters start right before the kernel and
   stop right after it, so barrier spinning is never counted. */
static uint64_t counted_call(const struct kern_variant *v, void *buf, uint64_t bytes, uint64_t reps,
			     uint64_t arg, uint64_t *start, uint64_t *ret, struct ctr_set *set,
			     struct ctr_reading *rd, unsigned n)
{
	struct err e;
	uint64_t t;

	if (set && ctr_start(set, &e)) {
		run_counters_mark_failed(rd, n, e.msg);
		set = NULL;
	}
	t = timed_call(v, buf, bytes, reps, arg, start, ret);
	if (set)
		run_counters_stop_read(set, rd, n);
	return t;
}

/* How often the CPU quotas of the run's cgroup and its parents have stopped the run so far (cpu.stat
   nr_throttled, cpu_limit_stops); 0 without one. */
static unsigned long long quota_stops(const struct run_state *s)
{
	struct cpu_throttle t;

	return s->limit && !cpu_limit_sample(s->limit, &t, NULL) ? cpu_limit_stops(&t) : 0;
}

static void fail_shared(struct point_shared *sh, const struct err *e)
{
#pragma omp critical
	{
		if (!sh->failed) /* the first failure says why; a later one follows from it */
			sh->err = *e;
		sh->failed = 1;
	}
}

/* Where a resumable kernel's call puts the line its thread's next call goes on from (g->at); NULL for
   any other kernel, whose calls all begin at the buffer. */
static uint64_t *resume_at(struct group_ctx *g, const struct plan_point *pt, int tid)
{
	return pt->fam->flags & KF_RESUMABLE ? &g->at[tid] : NULL;
}

/* One timed pass: the R call (hi = 0) or the 2R call (hi = 1); for fresh kernels N or 2N bytes of new
   memory. Socket-scope counters span the barriers around all threads' calls. */
static void pass(struct group_ctx *g, const struct plan_point *pt, const struct ctr_group *grp, int tid,
		 int hi)
{
	struct point_shared *sh = &g->sh;
	int fresh = pt->fam->flags & KF_FRESH_BUFFER, sock = grp && grp->scope == CTR_SCOPE_SOCKET;
	void *buf = fresh ? g->fresh[tid][hi].base : (void *)(uintptr_t)g->at[tid];
	uint64_t bytes = fresh && hi ? 2 * sh->span : sh->span;
	uint64_t reps = fresh ? 1 : (hi ? 2 : 1) * sh->reps;
	uint64_t *t = hi ? &sh->hi[tid] : &sh->lo[tid];
	struct pass_counters *pc = &g->pc[tid][hi];
	int started[MAX_UNCORE_UNITS] = {0}; /* the master's: a set that did not start is not read, which
	                                       would overwrite its failure with a count of 0, status ok */

#pragma omp master
	for (int k = 0; sock && k < g->nuncore; k++) {
		struct err e;
		started[k] = g->sock[k][hi].set && !ctr_start(g->sock[k][hi].set, &e);
		if (g->sock[k][hi].set && !started[k])
			run_counters_mark_failed(g->sock[k][hi].rd, grp->n, e.msg);
	}
#pragma omp barrier
	*t = counted_call(pt->var, buf, bytes, reps, pt->arg, &sh->start[hi][tid], resume_at(g, pt, tid),
			  sock ? NULL : pc->set, pc->rd, grp ? grp->n : 0);
#pragma omp barrier
#pragma omp master
	for (int k = 0; sock && k < g->nuncore; k++)
		if (started[k])
			run_counters_stop_read(g->sock[k][hi].set, g->sock[k][hi].rd, grp->n);
}

static int alloc_fresh(struct group_ctx *g, const struct plan_point *pt, int tid)
{
	const struct buf_place *place = &g->s->cfg->plan.places[pt->place];
	int cpu = g->s->cfg->plan.cpus[tid];
	struct err e;

	if (fresh_fail_check(tid, &e) ||
	    buf_alloc(&g->fresh[tid][0], pt->bytes, place, g->s->topo, cpu, 0, &e) ||
	    buf_alloc(&g->fresh[tid][1], 2 * pt->bytes, place, g->s->topo, cpu, 0, &e)) {
		fail_shared(&g->sh, &e);
		return -1;
	}
	return 0;
}

static void free_fresh(struct group_ctx *g, int tid)
{
	buf_free(&g->fresh[tid][0]);
	buf_free(&g->fresh[tid][1]);
}

/* Warm-up and calibration: double the call (kern_call_longer: R, or first the part of the buffer a
   resumable kernel's pass covers) until the R call takes min_seconds on the slowest thread, in the
   shorter of two calls (a call stretched by preemption must not stop the doubling early). A resumable
   kernel's calls over parts of its buffer decide only once the calls before them went over all of it:
   cold, they last longer than they will warm (a 4 MiB chase that L3 holds, calibrated cold, stopped at a
   quarter of it and 0.4-0.8 ms calls, under the 2 ms of --quick). Fresh kernels run once on new memory,
   which warms the code and the page-fault path. */
static void calibrate(struct group_ctx *g, const struct plan_point *pt, int tid)
{
	struct run_state *s = g->s;
	struct point_shared *sh = &g->sh;
	int fresh = pt->fam->flags & KF_FRESH_BUFFER;
	uint64_t covered = 0; /* bytes of the buffer the calls went over (master) */

	do {
#pragma omp barrier
		if (fresh) {
			if (alloc_fresh(g, pt, tid) == 0)
				sh->lo[tid] = timed_call(pt->var, g->fresh[tid][0].base, pt->bytes, 1,
							 pt->arg, NULL, NULL);
			free_fresh(g, tid);
		} else {
			sh->lo[tid] = timed_call(pt->var, (void *)(uintptr_t)g->at[tid], sh->span, sh->reps,
						 pt->arg, NULL, resume_at(g, pt, tid));
#pragma omp barrier
			sh->hi[tid] = timed_call(pt->var, (void *)(uintptr_t)g->at[tid], sh->span, sh->reps,
						 pt->arg, NULL, resume_at(g, pt, tid));
		}
#pragma omp barrier
#pragma omp master
		{
			uint64_t shorter = record_longest(sh->lo, pt->threads),
				 hi = record_longest(sh->hi, pt->threads);
			if (!fresh && hi < shorter)
				shorter = hi;
			int brief = !fresh && shorter < s->cfg->min_seconds * s->tsc_hz;
			int warm = !(pt->fam->flags & KF_RESUMABLE) || covered >= pt->bytes;
			covered += 2 * sh->span * sh->reps;
			sh->again = brief || !warm;
			if (brief)
				kern_call_longer(pt->fam, pt->bytes, &sh->span, &sh->reps);
		}
#pragma omp barrier
	} while (sh->again && !sh->failed);
}

/* After a repetition (master): whether the point repeats, by budget.h's rule; why it stops is kept. */
static int goes_on(struct group_ctx *g, int done)
{
	struct run_state *s = g->s;
	struct stats_mindiff calls = record_calls(&g->rec);
	double now = progress_now(), spent = now - g->point_start;
	int fresh = s->plan->points[g->ipt].fam->flags & KF_FRESH_BUFFER;
	struct budget_point b = {
		.reps_done = done,
		.reps_max = fresh && g->rec.cap > BUDGET_FRESH_REPS ? BUDGET_FRESH_REPS : g->rec.cap,
		.confirmed = s->plan->points[g->ipt].level == LEVEL_DRAM ? BUDGET_CONFIRMED_DRAM
									 : BUDGET_CONFIRMED_CACHE,
		.spent_s = spent,
		.rep_s = now - g->rep_start,
		.over_s = s->cfg->time_budget * BUDGET_RESERVE * BUDGET_OVER};

	budget_calls(&b, &calls);
	s->results[g->ipt].visit_seconds = spent;
	if (done == 1) {
		int threads = s->plan->points[g->ipt].threads;
		double unit[LEVEL_COUNT], floors_after;

		s->results[g->ipt].first_seconds = spent;
		g->floors.s[g->floors.n] = spent / threads;
		g->floors.level[g->floors.n++] = s->plan->points[g->ipt].level;
		for (int l = 0; l < LEVEL_COUNT; l++)
			unit[l] = budget_floor_unit(&g->floors, l);
		/* the later experiments' points, whose levels this plan does not hold, at all levels' median */
		floors_after = s->threads_after * budget_floor_unit(&g->floors, -1);
		for (int i = g->ipt + 1; i < s->plan->npoints; i++)
			floors_after += s->plan->points[i].threads * unit[s->plan->points[i].level];
		g->share = budget_share(s->cfg->time_budget, g->point_start - s->budget_start, g->weight_left,
					threads, floors_after, spent);
	}
	b.share_s = g->share;
	g->rep_start = now;
	g->stop = budget_next(&b);
	return g->stop == BUDGET_GO;
}

/* The repetitions of a point, every event group each, until budget.h says stop. Each thread samples its
   core clock just before and after a repetition's two calls: on a machine whose clock wanders (turbo, a
   VM's host) the clock of the repetition itself turns its time into cycles, where one reading per point
   or run would not. */
static void measure_reps(struct group_ctx *g, const struct plan_point *pt, struct point_record *rec, int tid)
{
	const struct ctr_plan *cp = g->s->events && g->s->events->plan.ngroups ? &g->s->events->plan : NULL;
	struct point_shared *sh = &g->sh;
	int fresh = pt->fam->flags & KF_FRESH_BUFFER;

	/* sh->failed is read right after the barrier that follows the only calls that set it (a thread's
	   fresh memory): read anywhere else, one thread could see a failure another set later and leave the
	   loop while the other waited at a barrier the first never reached (a two-thread touch point whose
	   mmap failed on one thread hung) */
	for (int rep = 0;; rep++) {
		int failed = 0;
		for (int gi = 0; gi < rec->npass && !failed; gi++) {
			const struct ctr_group *grp = cp ? &cp->groups[gi] : NULL;
			double clock[2];
			struct err ce;
			int by_aperf;

			if (fresh)
				alloc_fresh(g, pt, tid);
			if (grp)
				run_counters_open(g, grp, tid);
#pragma omp master
			{
				sh->clock_samples = sh->clock_chains = 0;
				memset(sh->clock_rejected_by, 0, sizeof sh->clock_rejected_by);
				sh->clock_why[0] = '\0';
			}
#pragma omp barrier
			failed = sh->failed;
			if (failed)
				goto next;
			/* APERF/MPERF where this thread has them (a group that cannot start: add chains) */
			by_aperf = g->aperf[tid] && ctr_start(g->aperf[tid], &ce) == 0;
			if (!by_aperf && g->s->aperf) {
#pragma omp atomic
				sh->clock_chains++;
			}
			if (!by_aperf)
				clock[0] = run_clock_of(g);
			pass(g, pt, grp, tid, 0);
			pass(g, pt, grp, tid, 1);
			if (by_aperf)
				clock[0] = clock[1] = run_clock_aperf_of(g, tid);
			else
				clock[1] = run_clock_of(g);
			sh->ghz[tid] = stats_mean_positive(clock,
							   2); /* a rejected sample (0) does not count */
#pragma omp barrier
#pragma omp master
			{
				struct rec_pass *p = record_pass(rec, rep, gi);
				record_pass_calls(p, sh->start[0], sh->lo, sh->start[1], sh->hi, pt->threads);
				p->ghz = stats_mean_positive(sh->ghz, pt->threads);
				p->clock_samples = sh->clock_samples;
				memcpy(p->clock_rejected_by, sh->clock_rejected_by,
				       sizeof p->clock_rejected_by);
				p->clock_chains = sh->clock_chains;
				snprintf(p->clock_why, sizeof p->clock_why, "%s", sh->clock_why);
				for (unsigned k = 0; grp && k < grp->n; k++)
					run_counters_event(g, grp, k, pt->threads, &p->ev[k]);
			}
		next:
			if (grp)
				run_counters_close(g, grp, tid);
			if (fresh)
				free_fresh(g, tid);
#pragma omp barrier
		}
#pragma omp master
		sh->again = !failed && goes_on(g, rep + 1);
#pragma omp barrier
		if (!sh->again)
			break;
	}
}

/* Whether the last cache level did not hold the point's working set: its chase before the point read past
   the level, and the same chase after it does too (level_check.h says why both). */
static int last_level_short(const struct group_ctx *g)
{
	struct level_check *c = g->s->llc;
	double after_ns = level_check_past(c, g->check_ns) ? level_check_chase(c, g->check_bytes) : -1;

	return level_check_judge(c, g->check_bytes, g->check_ns, after_ns);
}

/* The speed probes before a point (speed_probe.h), and the wait they may call for: while the machine is
   behind, every thread idles a step (budget_wait: how long in all) and the probes read again, their new
   samples replacing the old. Every thread takes part, since the threaded probe reads on all of them. */
static void probe_machine(struct group_ctx *g, const struct plan_point *pt, int tid)
{
	struct run_state *s = g->s;
	/* a probe without its slices takes no sample: nothing to judge */
	int threaded = s->speed && s->speed_all && pt->threads == s->speed_all->threads;
	const struct timespec step = {0, (long)(BUDGET_WAIT_STEP * 1e9)};

	for (int again = 1; again;) {
		int had = threaded ? s->speed_all->n : 0;
#pragma omp master
		if (s->speed)
			speed_probe_sample(s->speed);
		if (threaded)
			speed_probe_sample_threads(s->speed_all, tid);
#pragma omp master
		{
			double now = progress_now(), since = g->wait_start > 0 ? now - g->wait_start : 0;

			g->sampled = threaded && s->speed_all->n > had;
			/* the machine is worth waiting for where its speed probe reads slow or (the threaded
			   probe read too) the threads share a core; the last reading, taken without a wait,
			   stands as the point's */
			g->slow = s->speed && speed_probe_slow(s->speed);
			g->shared = s->speed && g->sampled && s->own_cores &&
				speed_probe_shared(s->speed_all, s->speed);
			g->behind = g->slow || g->shared;
			g->waits = g->behind &&
				budget_wait(since, s->speed->waited_s + since, s->cfg->time_budget);
			if (g->waits && !(g->wait_start > 0))
				g->wait_start = now;
			if (g->waits) {
				speed_probe_drop_last(s->speed);
				if (g->sampled)
					speed_probe_drop_last(s->speed_all);
			}
		}
#pragma omp barrier
		again = g->waits;
#pragma omp barrier
		if (again)
			nanosleep(&step, NULL);
	}
#pragma omp master
	{
		if (g->wait_start > 0)
			speed_probe_waited(s->speed, progress_now() - g->wait_start, !g->behind);
		g->wait_start = 0;
		if (g->sampled && s->own_cores)
			speed_probe_count_shared(s->speed_all, s->speed, g->shared);
	}
}

static void measure_point(struct group_ctx *g, int ipt, int tid)
{
	struct run_state *s = g->s;
	const struct plan_point *pt = &s->plan->points[ipt];
	struct point_shared *sh = &g->sh;
	int fresh = pt->fam->flags & KF_FRESH_BUFFER;

	if (pt->fam->prepare && !fresh) {
		struct kern_params p = {pt->bytes, 1, pt->arg};
		pt->fam->prepare(pt->var, &p, g->bufs[tid].base, s->cfg->seed + (uint64_t)tid);
	}
	g->at[tid] = (uint64_t)(uintptr_t)g->bufs[tid].base;
#pragma omp master
	{
		sh->reps = 1;
		/* the whole buffer but for a resumable kernel */
		sh->span = kern_first_span(pt->fam, pt->bytes);
		/* a clock sample (CLOCK_TRIES runs of N and of 2N adds) costs about 12/80 of the shortest
		   timed call */
		sh->clock_iters = clock_chain_iters(s->tsc_hz, s->cfg->min_seconds / 80);
		g->labels.thp_share = fresh ? 0 : g->thp_share;
		g->ipt = ipt;
		g->check_ns = -1;
		g->weight_left = s->threads_after;
		for (int i = ipt; i < s->plan->npoints; i++)
			g->weight_left += s->plan->points[i].threads;
	}
	probe_machine(g, pt, tid);
#pragma omp master
	{
		/* the point's time starts after any wait: budget_wait caps what the waits cost the run. So do
		   its quota stops: while the run waits, a parent's quota goes on stopping a sibling job */
		g->point_start = progress_now();
		g->stops = quota_stops(s);
		if (s->memory && pt->level == LEVEL_DRAM)
			speed_probe_sample(s->memory);
		g->check_bytes = s->llc ? level_check_point(s->topo, pt) : 0;
		if (g->check_bytes)
			g->check_ns = level_check_chase(s->llc, g->check_bytes);
	}
	if (s->memory_all && pt->level == LEVEL_DRAM && pt->threads == s->memory_all->threads)
		speed_probe_sample_threads(s->memory_all, tid);
	if (s->path && pt->threads == s->path->all.threads && path_probe_point(pt)) {
		double ratio = path_probe_sample(s->path, tid);
#pragma omp master
		s->results[ipt].path_ratio = ratio; /* the results are zeroed: 0 where none was taken */
	}
	calibrate(g, pt, tid);
#pragma omp master
	{
		record_begin(&g->rec, pt, sh->span, sh->reps);
		g->rep_start = progress_now();
	}
#pragma omp barrier
	measure_reps(g, pt, &g->rec, tid);
#pragma omp master
	{
		if (!sh->failed) {
			int past = g->check_ns >= 0 && last_level_short(g);
			/* First-touch time is page-fault time, which varies by tens of percent from call to call
			   whatever the machine does; what such a point is for is its counts, not its time. A
			   confirmed point faster than any core (record_impossibly_fast), one whose threads never
			   ran together (record_threads_apart), one whose threads shared a core as it began
			   (speed_probe_shared), one whose working set the last cache level did not hold
			   before and after it (level_check.h), or one begun while the machine read slow
			   (speed_probe_slow), was still disturbed. */
			unsigned why = 0;
			if (!fresh) {
				why |= (unsigned)(g->stop == BUDGET_MAX) << NW_AT_REPS;
				why |= (unsigned)(g->stop == BUDGET_SPENT) << NW_AT_BUDGET;
				why |= (unsigned)record_impossibly_fast(&g->rec,
									record_seconds(&g->rec, s->tsc_hz, 0),
									s->run_ghz, pt->threads)
					<< NW_TOO_FAST;
				why |= (unsigned)record_threads_apart(&g->rec) << NW_APART;
				why |= (unsigned)(g->shared != 0) << NW_SHARED_CORE;
				why |= (unsigned)past << NW_LEVEL;
				why |= (unsigned)g->slow << NW_SLOW;
				why |= (unsigned)(why && quota_stops(s) > g->stops) << NW_QUOTA;
			}
			record_write(s, ipt, &g->rec, &g->labels, why);
			record_summarise(&s->results[ipt], &g->rec, pt->threads, s->tsc_hz, why != 0);
			s->results[ipt].noisy_why = why;
			/* fresh memory's time is page faults', which no judgement of the machine's speed makes
			   truer (above) */
			s->results[ipt].speed_gbps = !fresh && s->speed && s->speed->n
				? s->speed->gbps[s->speed->n - 1]
				: 0;
			s->results[ipt].core_ghz = record_ghz(&g->rec);
			s->results[ipt].thp_share = g->labels.thp_share;
			s->results[ipt].cv = record_cv(&g->rec);
			s->results[ipt].reps = g->rec.nreps;
			s->results[ipt].reps_judged = record_judged(&g->rec);
			s->results[ipt].reps_disturbed = record_disturbed(&g->rec);
			s->results[ipt].reps_by_chains = record_by_chains(&g->rec);
			s->results[ipt].clock = record_clock_tally(&g->rec);
			if (raw_flush(s->raw, &sh->err))
				sh->failed = 1;
		}
		progress_step(g->prog, pt->var->name, pt->threads, pt->bytes * pt->fam->arrays,
			      level_name(pt->level));
	}
#pragma omp barrier
}

/* The largest buffer any point of the group needs per thread. */
static uint64_t group_bytes(const struct run_state *s, int first, int last)
{
	uint64_t need = 0;
	for (int i = first; i < last; i++) {
		const struct plan_point *pt = &s->plan->points[i];
		if (!(pt->fam->flags & KF_FRESH_BUFFER) && pt->bytes * pt->fam->arrays > need)
			need = pt->bytes * pt->fam->arrays;
	}
	return need;
}

static void group_labels(struct group_ctx *g, const struct plan_point *pt)
{
	const struct run_config *c = g->s->cfg;
	int nodes[MAX_THREADS];

	g->labels = (struct record_labels){g->cpus, g->mem_nodes, g->placement, g->msr, g->s->tsc_hz, 0, ""};
	topo_format_cpus(c->plan.cpus, pt->threads, ';', g->cpus, sizeof g->cpus);
	buf_format_placement(&c->plan.places[pt->place], g->placement, sizeof g->placement);
	for (int i = 0; i < pt->threads; i++)
		buf_place_node(&c->plan.places[pt->place], g->s->topo, c->plan.cpus[i], &nodes[i], NULL);
	if (nodes[0] < 0)
		snprintf(g->mem_nodes, sizeof g->mem_nodes, "all");
	else
		topo_format_cpus(nodes, pt->threads, ';', g->mem_nodes, sizeof g->mem_nodes);
	g->nuncore = topo_sockets_used(g->s->topo, c->plan.cpus, nodes, pt->threads, g->uncore);
	if (g->nuncore == 0) /* hwloc names no package: the first CPU's uncore, as perf stat -a would */
		g->uncore[g->nuncore++] = (struct topo_socket_use){0, c->plan.cpus[0], 1, 1};
	topo_format_sockets(g->uncore, g->nuncore, g->uncore_label, sizeof g->uncore_label);
	g->labels.uncore = g->uncore_label;
	run_counters_add_l3_units(g, c->plan.cpus, pt->threads);
}

static int measure_group(struct group_ctx *g, struct err *e)
{
	struct run_state *s = g->s;
	const struct plan_point *pt0 = &s->plan->points[g->first];
	const struct buf_place *place = &s->cfg->plan.places[pt0->place];
	uint64_t need = group_bytes(s, g->first, g->last);
	int nt = pt0->threads;

	const struct ctr_plan *cp = s->events ? &s->events->plan : NULL;

	memset(&g->sh, 0, sizeof g->sh);
	group_labels(g, pt0);
	g->pc = calloc((size_t)nt, sizeof *g->pc);
	if (!g->pc || record_init(&g->rec, s->cfg->reps, cp && cp->ngroups ? (int)cp->ngroups : 1)) {
		free(g->pc);
		return err_set(e, E_RUNTIME, "out of memory");
	}
	omp_set_dynamic(0);
#pragma omp parallel num_threads(nt)
	{
		int tid = omp_get_thread_num();
		struct err te;

		/* A team smaller than asked (OMP_THREAD_LIMIT) left the missing threads' readings zeroed, which
		   is status ok and a count of 0: the point's events undercounted without a word. */
		if (omp_get_num_threads() != nt) {
			err_set(&te, E_RUNTIME,
				"OpenMP ran %d threads of the %d asked (OMP_THREAD_LIMIT limits them): a "
				"point "
				"of %d threads cannot be measured",
				omp_get_num_threads(), nt, nt);
			fail_shared(&g->sh, &te);
		} else if (topo_pin_self(s->cfg->plan.cpus[tid], &te))
			fail_shared(&g->sh, &te);
		else if (need) {
			if (buf_alloc(&g->bufs[tid], need, place, s->topo, s->cfg->plan.cpus[tid],
				      s->cfg->thp, &te))
				fail_shared(&g->sh, &te);
			else
				buf_first_touch(&g->bufs[tid]);
		}
		run_clock_aperf_open(g, tid);
#pragma omp barrier
		/* Once for the group's points, which share the buffer: buf_thp_share reads /proc/self/smaps,
		   whose every read walks the page tables of all the run's memory, 8.2 ms a point on the Zen 3
		   guest (2.9 s of a 55 s `--quick` run, 2026-12-01). The pages are huge from their first touch
		   where the kernel has them; khugepaged may merge more later, which the share then understates,
		   and an understated share only keeps the level probe from standing for a point
		   (level_probe_stands_for). */
#pragma omp master
		g->thp_share = need && !g->sh.failed ? buf_thp_share(&g->bufs[0], g->bufs[0].len) : 0;
#pragma omp barrier
		for (int i = g->first; i < g->last && !g->sh.failed; i++)
			if (s->point_base + i > s->resume_after)
				measure_point(g, i, tid);
		if (g->aperf[tid])
			ctr_close(g->aperf[tid]);
		if (need)
			buf_free(&g->bufs[tid]);
	}
	free(g->pc);
	g->pc = NULL;
	record_free(&g->rec);
	if (g->sh.failed) {
		*e = g->sh.err;
		return E_RUNTIME;
	}
	return 0;
}

static int same_group(const struct plan_point *a, const struct plan_point *b)
{
	return a->threads == b->threads && a->place == b->place && a->pf == b->pf;
}

static int done_before(const struct run_state *s)
{
	int n = s->resume_after - s->point_base + 1;
	return n < 0 ? 0 : n > s->plan->npoints ? s->plan->npoints : n;
}

int run_measure(struct run_state *s, struct err *e)
{
	struct group_ctx *g = calloc(1, sizeof *g);
	int rc = 0, pf_now = -1;

	if (g) {
		g->floors.s = calloc((size_t)s->plan->npoints + 1, sizeof *g->floors.s);
		g->floors.level = calloc((size_t)s->plan->npoints + 1, sizeof *g->floors.level);
	}
	if (!g || !g->floors.s || !g->floors.level) {
		if (g) {
			free(g->floors.s);
			free(g->floors.level);
		}
		free(g);
		return err_set(e, E_RUNTIME, "out of memory");
	}
	g->s = s;
	fresh_fail_init();
	g->prog = progress_new(s->plan->npoints - done_before(s),
			       s->run_end > 0 ? s->run_end : s->budget_start + s->cfg->time_budget,
			       s->show_progress, s->progress_ctx);
	for (int first = 0; first < s->plan->npoints && !rc;) {
		int last = first + 1;
		while (last < s->plan->npoints && same_group(&s->plan->points[first], &s->plan->points[last]))
			last++;
		if (s->point_base + last - 1 <= s->resume_after) { /* all done before an interruption */
			first = last;
			continue;
		}
		if (s->set_prefetch && s->plan->points[first].pf != pf_now) {
			pf_now = s->plan->points[first].pf;
			rc = s->set_prefetch(s->pf_ctx, pf_now, g->msr, sizeof g->msr, e);
		}
		g->first = first;
		g->last = last;
		if (!rc)
			rc = measure_group(g, e);
		first = last;
	}
	progress_done(g->prog);
	free(g->floors.s);
	free(g->floors.level);
	free(g);
	return rc;
}
