/* run_int.h — what the files of the measurement loop share: the state of one group of points (run.c),
 * their counters (run_counters.c) and their core clock samples (run_clock.c). Nothing outside them
 * should include this; use run.h. */
#ifndef PMUCHECK_RUN_INT_H
#define PMUCHECK_RUN_INT_H

#include <stdint.h>

#include "budget.h"
#include "buf.h"
#include "ctr.h"
#include "progress.h"
#include "run.h"
#include "run_record.h"

#define MAX_THREADS TOPO_MAX_CPUS

/* Where socket-scope groups open: the sockets used, and the further L3 domains the threads run under. */
#define MAX_UNCORE_UNITS (TOPO_MAX_SOCKETS + TOPO_MAX_L3_DOMAINS)

/* What the threads of one point share; written by each thread in its own slot, read by the master after
   a barrier. */
struct point_shared {
	uint64_t reps;                  /* R, chosen by the master */
	uint64_t span;                  /* bytes of the buffer one pass covers (kern_call_longer), too */
	int again;                      /* calibration, or the repetitions, go on */
	uint64_t lo[MAX_THREADS];       /* TSC ticks of the R call, per thread */
	uint64_t hi[MAX_THREADS];       /* TSC ticks of the 2R call */
	uint64_t start[2][MAX_THREADS]; /* TSC when each thread began the R [0] and the 2R [1] call */
	double ghz[MAX_THREADS];        /* core clock around the two calls, per thread; 0 = none */
	uint64_t clock_iters;           /* chain length of those clock samples */
	int clock_samples;              /* samples of this repetition, all threads */
	int clock_rejected_by[CLOCK_REJECTS]; /* of those, rejected, by why (core_clock.h) */
	int clock_chains; /* threads clocked by add chains where APERF/MPERF was to clock them (their group did
			     not open or start) */
	char clock_why[160]; /* the first one's reason */
	int failed;          /* a thread could not be pinned or get its memory */
	struct err err;
};

/* The counters of one pass (the R call or the 2R call) of one event group. */
struct pass_counters {
	struct ctr_set *set; /* this thread's set (thread scope), or the socket's */
	struct ctr_reading rd[CTR_GROUP_MAX];
};

struct group_ctx {
	struct run_state *s;
	int first, last; /* plan points [first, last) share threads, placement and prefetch state */
	struct buf bufs[MAX_THREADS];
	uint64_t at[MAX_THREADS];         /* the address each thread's next call begins at: its buffer, or
	                                     for a KF_RESUMABLE kernel where its last call stopped */
	struct buf fresh[MAX_THREADS][2]; /* KF_FRESH_BUFFER kernels: never-touched memory per call */
	struct point_shared sh;
	struct pass_counters (*pc)[2];      /* [thread][lo/hi] */
	struct ctr_set *aperf[MAX_THREADS]; /* each thread's APERF/MPERF group; NULL: add-chain samples */
	/* socket-scope groups, opened by the master on every socket the threads or the memory are on
	   (remote placement: the lines pass the other socket's memory controllers); their counts are
	   summed over those sockets */
	struct pass_counters sock[MAX_UNCORE_UNITS][2];
	struct topo_socket_use uncore[MAX_UNCORE_UNITS];
	int nuncore;
	int sock_dup[MAX_UNCORE_UNITS]; /* the group's counters for this unit are another unit's */
	char cpus[TOPO_LIST_CHARS], mem_nodes[TOPO_LIST_CHARS], placement[32], msr[512],
		uncore_label[TOPO_SOCKETS_CHARS];
	struct record_labels labels;
	double thp_share; /* the share of its buffer on huge pages, read once it is touched (measure_group) */
	struct point_record rec;
	double point_start, share;   /* when the point began (progress_now), its share of the budget */
	double rep_start;            /* when its repetition now measured began */
	int ipt;                     /* the point measured now */
	struct budget_floors floors; /* warm-up and first repetition of each point so far, per thread, s */
	double weight_left;          /* threads of the points left in the run, this one included */
	enum budget_next stop;       /* why its repetitions stopped */
	int shared;                  /* its threads shared a core as it began (run_state.own_cores) */
	int sampled;                 /* probe_machine: the threaded probe read before it */
	int behind;                  /* the machine was behind (probe_machine) */
	int waits;                   /* and the run waits another step for it */
	int slow;                    /* the speed probe read slow as it began, after any wait */
	double wait_start;           /* when its wait began (progress_now); 0: it did not wait */
	double check_ns;             /* the last-level chase before it (run_state.llc), -1: none */
	unsigned long long stops; /* the CPU quotas' stops (cpu_limit_stops) as it began (run_state.limit) */
	uint64_t check_bytes;     /* the working set it chased */
	struct progress *prog;
};

/* run_counters.c: the event groups of a pass, opened, read and closed around the calls. */
void run_counters_mark_failed(struct ctr_reading *rd, unsigned n, const char *why);
void run_counters_stop_read(struct ctr_set *set, struct ctr_reading *rd, unsigned n);
void run_counters_open(struct group_ctx *g, const struct ctr_group *grp, int tid);
void run_counters_close(struct group_ctx *g, const struct ctr_group *grp, int tid);
void run_counters_event(const struct group_ctx *g, const struct ctr_group *grp, unsigned k, int nt,
			struct rec_event *out);
void run_counters_add_l3_units(struct group_ctx *g, const int *cpus, int threads);

/* run_clock.c: each thread's core clock around a repetition's two calls. */
double run_clock_of(struct group_ctx *g);
double run_clock_aperf_of(struct group_ctx *g, int tid);
void run_clock_aperf_open(struct group_ctx *g, int tid);

#endif
