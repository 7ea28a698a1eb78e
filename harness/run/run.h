/* run.h — the one measurement loop every kernel goes through (no kernel times itself).
 *
 * Per point: pin one thread per CPU, place and first-touch each thread's buffer from that thread,
 * prepare it (the chase chain), find the pass count R that makes a call last long enough, then for each
 * repetition and event group time a call with R passes and one with 2R passes between barriers and
 * record their difference: the fixed cost of the call, the timer and the counter reads cancels.
 *
 * A point is measured in one stretch. A second round over the plan (each point again at its R, the
 * shortest calls of both rounds kept) was built and dropped: in the same time budget two runs agreed no
 * better, since what slows a point on a shared host outlasts a round (README, "Noise and the time budget").
 * What more time buys is `--revisits`: the rows' best points (in the first round their rivals' too, where
 * the budget holds them) measured again, rounds seconds apart, each visit a point of its own (revisit.h). */
#ifndef PMUCHECK_RUN_H
#define PMUCHECK_RUN_H

#include <stdio.h>

#include "clock_aperf.h"
#include "core_clock.h"
#include "err.h"
#include "plan.h"
#include "level_check.h"
#include "path_probe.h"
#include "speed_probe.h"
#include "progress.h"
#include "raw.h"
#include "topo.h"

struct cpu_limit;
struct run_events;

struct run_config {
	struct plan_opts plan;
	int reps; /* most repetitions recorded per point (after the warm-up); budget.h says when fewer */
	double min_seconds; /* the R-pass call lasts at least this long */
	uint64_t seed;      /* chase permutations */
	int thp;            /* advise huge pages for the buffers */
	double time_budget; /* seconds the run may take (--time-budget); repetitions adapt to it (budget.h) */
	int revisits;       /* --revisits: rounds of the rows' best points after the plan (revisit.h) */
};

/* Clock samples (core_clock.h) over a point or a run: taken, rejected by kind, and the repetitions left
   without any clock (their raw.csv core_ghz empty; fresh-memory points' too), as machine.json's
   disturbance.points gives them. */
struct run_clock_tally {
	long long samples, rejected_by[CLOCK_REJECTS], reps_without;
};

/* The outcome of one point, for the summary the run prints. */
struct run_point_result {
	double gbps; /* bandwidth of the point's time (record_seconds) */
	double ns;   /* per chase access of one thread (latency kernels) */
	double core_ghz;
	double thp_share;
	double cv;          /* spread of the repetitions' differenced times */
	int reps;           /* repetitions measured */
	int reps_judged;    /* of them, those judged for interference (record_judged) */
	int reps_disturbed; /* of those, the ones a call of which met interference (record_disturbed) */
	int reps_by_chains; /* repetitions clocked by add chains on some thread though APERF/MPERF was to */
	struct run_clock_tally clock; /* its clock samples (record_clock_tally) */
	int r_call; /* clean, and its time is its R call, every 2R call stretched (stats_mindiff_r_call) */
	unsigned noisy_why; /* enum noisy_why bits (noisy_why.h); any flags it noisy */
	double speed_gbps; /* the one-thread speed probe's reading that stood for it (speed_probe.h); 0: none */
	double path_ratio;           /* the path probe's ratio taken before it (path_probe.h); 0: none */
	double bound_gbps, bound_ns; /* gbps and ns at the bound of its shortest call, as a noisy point's are:
					what it reads if it is found slow once the run ended (noisy_why_slow) */
	double first_seconds; /* from after the speed probes' wait to its first repetition's end: what a revisit
				 of it is reckoned at (revisit.h), with the plan's events and calls above what
				 one costs */
	double visit_seconds; /* the same to its last repetition's end: what its repetitions after the first
				 took is visit_seconds - first_seconds (revisit_round_floor) */
};

/* Flags noisy (NW_SLOW) each of the n points whose speed probe read slow against `best`, the probe's best
   once the run ended (noisy_why_slow), its figures then at their bound as a noisy point's: the first
   points were judged against few samples, the first against none. */
void run_judge_slow(struct run_point_result *res, int n, double best);

struct run_state {
	const struct run_config *cfg;
	const struct topo *topo;
	const struct plan *plan;
	struct raw_writer *raw;
	double tsc_hz;
	double run_ghz;                   /* the run's core clock (machine.json clock.core_ghz), 0: none */
	struct clock_bounds clock;        /* what a core clock sample may give */
	const struct clock_aperf *aperf;  /* the clock from APERF/MPERF (clock_aperf.h); NULL: add chains */
	struct run_point_result *results; /* one per plan point */
	struct speed_probe *speed;        /* sampled before each point (speed_probe.h); NULL: not sampled */
	struct speed_probe *speed_all;    /* read by all its threads before each point of as many threads;
					     NULL: not sampled */
	int own_cores;                    /* the run's CPUs are each a core of its own (topo_distinct_cores):
					     a point whose threads shared one anyway is flagged noisy; else
					     nothing is judged (speed_probe_count_shared) */
	struct speed_probe *memory;       /* sampled before each DRAM point; NULL: not sampled */
	struct speed_probe *memory_all; /* read by all its threads before each DRAM point of as many threads;
					     NULL: not sampled */
	struct path_probe *path;        /* timed before each point of path->all.threads threads that reaches
					   memory (path_probe.h); NULL: not sampled */
	struct level_check *llc;        /* chased before each point of the last cache level (level_check.h): a
					    point it did not hold is flagged noisy; NULL: not checked */
	const struct cpu_limit *limit;  /* the cgroup's CPU quota, its throttling read around each point: a
					    noisy point it stopped says so (NW_QUOTA); NULL: no quota */
	const struct run_events *events; /* NULL when no events are counted */
	int point_base;                  /* raw.csv point number of plan point 0 */
	int resume_after;                /* points numbered up to this are done already (-1: none) */
	const char *experiment;          /* raw.csv experiment column: the preset step, or "" */
	double budget_start;             /* progress_now() when the time budget began (the run's start) */
	double run_end; /* when the run's budget ends, for the progress line; 0: at budget_start + the budget
			   (a revisit round's budget is its part of the run's, revisit.c) */
	int threads_after; /* the threads of the points of the experiments after this one, summed: the budget
			      weighs points by their threads (budget.h) */
	/* Puts prefetch state `state` (index into cfg->plan.pf_states) in force and writes the MSR values
	   now in force to msr ("" when unknown). NULL: the prefetchers are not controlled. */
	int (*set_prefetch)(void *ctx, int state, char *msr, size_t len, struct err *e);
	void *pf_ctx;
	progress_fn show_progress; /* after each point; NULL: nothing is shown */
	void *progress_ctx;
};

/* Measures every point of the plan in order, writing raw rows. Returns 0 or a negative error. */
int run_measure(struct run_state *s, struct err *e);

#endif
