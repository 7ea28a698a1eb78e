/* run_job_int.h — what run_job.c (one run, from the checked options to the results directory) and
 * run_job_say.c (what the run says to the user) share: the run's state and the functions one calls in
 * the other. Nothing else should include this; use cli_run.h. */
#ifndef PMUCHECK_RUN_JOB_INT_H
#define PMUCHECK_RUN_JOB_INT_H

#include <jansson.h>

#include "cli_run.h"
#include "clock_aperf.h"
#include "core_clock.h"
#include "cpu_limit.h"
#include "ctr.h"
#include "disturb.h"
#include "experiment.h"
#include "level_check.h"
#include "levels.h"
#include "levels_history.h"
#include "machine.h"
#include "path_probe.h"
#include "progress_line.h"
#include "raw.h"
#include "revisit.h"
#include "run_prefetch.h"
#include "speed_history.h"
#include "speed_probe.h"
#include "sysinfo.h"
#include "topo.h"

/* The points this process measured (a resumed run's after it resumed), revisits included, those left
   noisy, and their repetitions record_disturbed judges (record_judged) and those it found disturbed:
   machine.json disturbance.points. */
struct run_tally {
	long points, noisy, reps, reps_disturbed, reps_by_chains;
	struct run_clock_tally clock;
};

/* Everything a run holds between the checks and the end. */
struct run_job {
	int dir_lock; /* results_lock_dir's, -1: none */
	struct sysinfo sys;
	struct cfg arch, presets;
	char config_path[4096];
	struct experiment *xs;
	int nxs;
	struct run_pf pf;
	struct levels_probe probe; /* the level probe; on --resume only its curve, the interrupted run's
				      (levels_curve_read) */
	int probed;
	struct levels_history history; /* the probes before it on this machine (levels_history.h) */
	struct raw_writer raw;
	struct machine_facts mf;
	struct clock_bounds clock;
	struct clock_machine mclock;  /* the run's clock, and APERF/MPERF for each repetition where counted */
	struct disturb_sample before; /* /proc/stat as the measurements start; procs_running -1: unread */
	struct cpu_limit limit;       /* the cgroup's CPU quota; version 0: not known */
	struct cpu_throttle throttle[2]; /* its throttling as the measurements start and end */
	int throttle_read[2];
	struct speed_probe speed;           /* the machine's own speed before each point (speed_probe.h) */
	struct speed_history speed_history; /* its best in this machine's recent runs (speed_history.h) */
	struct speed_probe speed_all;       /* the same by the most threads any point has, before those */
	struct speed_probe memory;          /* the memory's, before each DRAM point */
	struct speed_probe memory_all; /* the same by the most threads any DRAM point has, before those */
	struct path_probe path;        /* whether the most threads of the points that reach memory had paths
					  of their own, before those (path_probe.h) */
	struct level_check llc; /* whether the last cache level held each of its points (level_check.h) */
	struct revisit_done revisits; /* --revisits: what its rounds measured (revisit.h) */
	struct run_tally tally;       /* how disturbed its points and their repetitions were (tally_points) */
	double *point_gbps;  /* by raw.csv point: the speed probe's reading that stood for it; 0: none */
	double *point_ratio; /* the same of the path probe's ratio taken before it (path_probe.h); 0: none */
	int npoint_gbps;     /* of both */
	char started[32], finished[32], command[2048];
	double budget_start; /* progress_now() as the run began: --time-budget counts from here */
	struct progress_line progress;
};

/* Which points run_job_most_threads looks at */
enum most_of {
	MOST_OF_ALL,
	MOST_OF_DRAM,
	MOST_OF_PATH, /* those that reach memory (path_probe_point) */
};
/* run_job.c: the most threads any point of `of` has. */
int run_job_most_threads(const struct run_job *j, enum most_of of);

/* run_job_say.c: on stdout the plan and the figures below the summaries, on stderr the warnings. */
/* revisits: --revisits N, said after the plan (its rounds' points depend on the measured outcomes) */
void run_job_say_plan(const struct run_job *j, int revisits);
/* level_probe: the run would measure where each level ends first and plan again (no --reported-levels or
   --levels-from), which the plan's JSON says (level_probe; level_history: the sizes of t taken from j's
   history, levels_history_preview) and run_job_say_probe_ahead tells on stderr. */
void run_job_say_plan_json(const struct run_job *j, const struct topo *t, int level_probe, int revisits);
void run_job_say_probe_ahead(const struct run_job *j, const struct topo *t);
void run_job_say_skipped(const struct run_job *j, const struct topo *t);
json_t *run_job_say_levels_without_point(const struct run_job *j);
void run_job_say_short_of_dram(const struct run_job *j);
void run_job_say_unlike_cores(const struct run_cli *rc, const struct run_job *j, const struct topo *t);
void run_job_say_speed(const struct run_job *j);
void run_job_say_revisits(const struct run_job *j);
void run_job_say_cpu_limit(const struct run_job *j, int after, int threads);

#endif
