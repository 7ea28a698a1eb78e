/* run_record.h — one point's measurements, kept in memory until the point is done, then judged for
 * noise and written as raw rows. Keeping them lets a noisy point be measured again without leaving its
 * first attempt in raw.csv, and lets the rows of the final attempt carry the noise flag. */
#ifndef PMUCHECK_RUN_RECORD_H
#define PMUCHECK_RUN_RECORD_H

#include "ctr.h"
#include "plan.h"
#include "run.h"
#include "stats.h"

struct rec_event {
	int has_count;
	int64_t count; /* R-pass difference, summed over threads (thread scope) */
	uint64_t time_enabled, time_running;
	enum ctr_status status;
	char reason[CTR_REASON_MAX];
};

struct rec_pass {
	int64_t ticks;           /* 2R call minus R call (record_span) */
	uint64_t lo, hi;         /* the two calls themselves, all threads (record_span) */
	uint64_t lo_own, hi_own; /* the longest thread's own R call and 2R call: no start skew */
	int apart;               /* a call's threads did not run together (record_apart) */
	double ghz;              /* core clock around the two calls, mean over threads; 0 = none */
	int clock_samples;       /* clock samples taken (core_clock.h) */
	int clock_rejected_by[CLOCK_REJECTS]; /* of those, rejected, by why */
	int clock_chains; /* threads clocked by add chains where APERF/MPERF was to (their group did not start) */
	char clock_why[160]; /* the first rejection's reason */
	struct rec_event ev[CTR_GROUP_MAX];
};

struct point_record {
	int nreps, npass;      /* repetitions measured so far, event groups */
	int cap;               /* repetitions allocated (--reps) */
	uint64_t reps;         /* R of the differenced call (1 for fresh-memory kernels) */
	uint64_t span;         /* bytes one of its passes covers: the point's, or a part (KF_RESUMABLE) */
	int by_size, spans;    /* its calls differ in memory (touch), are spans of threads (stats_mindiff) */
	struct kern_volumes v; /* of the differenced call, all threads */
	struct rec_pass *pass; /* [rep * npass + group] */
};

int record_init(struct point_record *r, int nreps, int npass);
void record_free(struct point_record *r);
/* Repetition rep (< cap) of a group; the record then holds at least rep + 1 repetitions. */
struct rec_pass *record_pass(struct point_record *r, int rep, int group);

/* A call of n threads, in TSC ticks: from the first thread's start to the last thread's end, so that the
   threads' bytes are divided by the time in which they all moved. The longest thread's own ticks, taken
   before, let interference make a point faster: a thread that a preempted vCPU started late runs alone
   after the other has finished, each at its one-thread speed, and the sum of their bytes over the longer
   of them reads up to twice the bandwidth the threads have together in a shared L3 or DRAM. On the quiet
   development VM the two threads started within 1-2 us of each other in calls of 10 ms, so quiet figures
   do not move. Never less than the longest thread's ticks, even with TSCs out of step across CPUs: it
   contains every thread's call. start[i], ticks[i]: thread i's. */
uint64_t record_span(const uint64_t *start, const uint64_t *ticks, int n);

/* Whether a call's threads ran apart rather than together: its span more than RECORD_APART times its
   longest thread's call. A host that runs a guest's vCPUs one after the other gives the threads of a point
   no more than one thread's bandwidth, and the span shows it; a point none of whose repetitions (group 0)
   had both calls together was disturbed (record_threads_apart), and is flagged noisy. Two --quick
   runs on the development VM read 2-thread DRAM read at 41.4 and 78.2 GB/s, the first as slow as its
   one thread (42.4). Quiet, threads start within 1-2 us of each other in calls of 2-10 ms. */
#define RECORD_APART 1.05
int record_apart(uint64_t span, uint64_t longest, int n); /* longest: the longest of the n threads' calls */
int record_threads_apart(const struct point_record *r);

/* The longest of n threads' calls, ticks. */
uint64_t record_longest(const uint64_t *ticks, int n);

/* A repetition's two calls into p, from each of n threads' start and ticks of its R call (start_lo, lo)
   and 2R call (start_hi, hi): their spans (record_span) and difference, their longest thread's own calls
   (which hold no start skew: stats_mindiff_add_spans), and whether the threads ran apart. */
void record_pass_calls(struct rec_pass *p, const uint64_t *start_lo, const uint64_t *lo,
		       const uint64_t *start_hi, const uint64_t *hi, int n);

/* The known volumes of (2R call) - (R call), passes of `span` bytes, or of (2N bytes) - (N bytes) for
   fresh-memory kernels, times the threads. */
void record_volumes(const struct plan_point *pt, uint64_t span, uint64_t reps, struct kern_volumes *out);
/* Starts the record of point pt once its calls are calibrated (R passes of `span` bytes; fresh-memory
   kernels take one pass of fresh memory): its volumes, R, span, by_size and spans, no repetition yet. */
void record_begin(struct point_record *r, const struct plan_point *pt, uint64_t span, uint64_t reps);

/* Coefficient of variation of the repetitions' differenced times (group 0): how disturbed they were. */
double record_cv(const struct point_record *r);

/* How far past the shortest call of its length a call must be for its repetition to count as disturbed: a
   part of that shortest call. Interference only lengthens a call, and a call further past the shortest
   than an undisturbed one's spread met some: a call holds one timer tick more or less than another
   (9-20 us: up to 1 % of a 2 ms call, 4 % of a revisit's R call of 0.5 ms), and a quiet --quick run's
   DRAM points' two shortest differenced times lie a median 3.5-5 % apart (budget.h); so 10 %, past
   both. */
#define RECORD_DISTURBED 0.10

/* How many of the repetitions (group 0) were disturbed: a call of which took more than RECORD_DISTURBED
   longer than the shortest call of its length (R or 2R), for several threads their longest thread's own
   calls, which hold no start skew (a span's skew moves from call to call without interference: up to
   11.8 % of the R call, README). A lower bound of the repetitions interference met: a stretch through
   every call of a point, or of its one repetition, leaves none past the shortest. 0 for fresh-memory points
   (by_size), whose calls' page-fault times spread by tens of percent without any interference.
   machine.json's disturbance.points sums them over the run. */
int record_disturbed(const struct point_record *r);
/* The repetitions record_disturbed judges, the whole of which it counts a part: all of them but for
   fresh-memory points, none of whose are. */
int record_judged(const struct point_record *r);

/* The repetitions some thread of which (in any event group's pass) was clocked by add chains where
   APERF/MPERF was to clock them: its group did not open or start. machine.json's
   disturbance.points.repetitions_by_chains sums them over the run, so that "each repetition's clock is
   APERF/MPERF's" is not said of them. */
int record_by_chains(const struct point_record *r);
/* The point's clock samples over all its passes, by why they were rejected, and its repetitions whose clock
   (the first group's pass, raw.csv core_ghz) is none. */
struct run_clock_tally record_clock_tally(const struct point_record *r);
/* Adds one tally to a sum of them (the run's: machine.json; the summary's). */
void record_clock_tally_add(struct run_clock_tally *sum, const struct run_clock_tally *t);
/* raw.csv's clock_note of a repetition's pass: why its clock is missing, or that some of its samples were
   left out, and how many threads took add chains where APERF/MPERF was to clock them. */
void record_clock_note(const struct rec_pass *p, char *buf, size_t len);

/* The point's core clock: the highest of its repetitions' (group 0), 0 when none was measured. A clock
   sample is a chain of dependent adds, which interference only slows, so a sample can read too low but
   not too high (clock_bounds rejects what no core of this CPU reaches); and the point's shortest call,
   which its time comes from, ran at the highest clock more likely than at a typical one. Per point on
   the development VM the highest is a median 0.2-0.7 % above the median, and up to 12 %; it lowered two
   default runs' peaks in bytes per cycle by a median 0.2-0.4 %, and by up to 8.8 %. */
double record_ghz(const struct point_record *r);
/* Whether the point moved more bytes, or ran more of its loads or stores (r->v), per core cycle than any core
   can (kern_impossibly_fast) in `seconds`, at its own clock (record_ghz), or at the run's (run_ghz,
   machine.json clock.core_ghz) when none of its clock samples was accepted, as the analysis judges it
   (analysis/agg.c), so that the run's summary and the report count the same disturbed points; 0 when there is
   no clock at all. (The core's own ports judge a point's clock, not its time: the analysis does that.) */
int record_impossibly_fast(const struct point_record *r, double seconds, double run_ghz, int threads);

/* The shortest R and 2R calls of the repetitions (group 0), in TSC ticks, and their second shortest, with
   the record's by_size and spans (stats_mindiff: touch keeps the difference; spans hold their R call to
   the 2R calls), and for spans the shortest of their longest thread's own calls (stats_mindiff_add_spans). */
struct stats_mindiff record_calls(const struct point_record *r);

/* The point's time in seconds: min(2R call) - min(R call) over the repetitions, or min(R call) where that is
   shorter (group 0; stats_mindiff), 0 when the difference is not positive; for a disturbed point (its minima
   unconfirmed, or impossibly fast) the bound no disturbance can shorten (stats_mindiff_bound). The analysis
   takes the same figures of raw.csv's tsc_lo and tsc_hi (analysis/agg.c), so the run's summary and the peaks
   agree. */
double record_seconds(const struct point_record *r, double tsc_hz, int disturbed);

/* The point's figures for the summary (res): of its time (record_seconds: stats_mindiff, or a disturbed
   point's bound), whether that is its R call (r_call), and at the bound, which stand where the run later
   finds it slow (run_judge_slow). */
void record_summarise(struct run_point_result *res, const struct point_record *r, int threads, double tsc_hz,
		      int noisy);

/* The labels a point's rows share. */
struct record_labels {
	const char *cpus, *mem_nodes, *placement, *msr;
	double tsc_hz, thp_share;
	const char
		*uncore; /* the sockets socket-scope events are counted and summed on (topo_format_sockets) */
};

/* Writes every row of the point: per repetition and group, one row per counted event (or one row without
   event when nothing is counted), plus rows for the events that are not counted. noisy_why: the point's
   enum noisy_why bits; any bit flags it noisy. */
void record_write(struct run_state *s, int ipt, const struct point_record *r, const struct record_labels *l,
		  unsigned noisy_why);

#endif
