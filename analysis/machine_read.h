/* machine_read.h — machine.json (docs/results-format.md) read once, typed: the one reader of the file
 * for every analysis command (analyze, report, export, merge). A member the file lacks is "" or the
 * documented "unknown" value below; only format and levels.reported are required. */
#ifndef PMUCHECK_MACHINE_READ_H
#define PMUCHECK_MACHINE_READ_H

#include "clock_words.h"
#include "err.h"
#include "kern.h"
#include "level.h"
#include "raw_read.h"

#define MACHINE_NCACHE LEVEL_DRAM /* the cache levels, L1, L2, L3 */
#define MACHINE_NTEXT 8           /* preset references, PMU names kept (the first ones) */
/* levels.disagreements kept: all a run writes (harness/run/levels.h, LEVELS_MAX_DISAGREEMENTS) */
#define MACHINE_NDISAGREEMENTS 11
#define MACHINE_NWITHOUT_POINT 8
#define MACHINE_CYCLES RQ_COUNT /* a hypothesis' quantity "cycles" (not a volume of raw.csv) */

/* The places and prefetcher states a hypothesis names, as bits 1 << these. */
enum machine_placement { MP_LOCAL, MP_REMOTE, MP_INTERLEAVE };
enum machine_prefetch { MPF_ON, MPF_OFF };
/* the config's scope: where its counts come from (cfg_json.c writes "core" or "socket"); MSCOPE_NONE in a
   machine.json written before the scope was recorded */
enum machine_scope { MSCOPE_NONE, MSCOPE_CORE, MSCOPE_SOCKET };

/* One config hypothesis (counters.experiments[].hypotheses), keyed by the raw.csv row it is for. */
struct machine_hypo {
	char event[256];
	char name[128];     /* the config's [event NAME] */
	int quantity;       /* enum raw_quantity, or MACHINE_CYCLES */
	double scale;       /* >= 0; 0: an unknown share of the quantity (a config's `* ?`) */
	unsigned levels;    /* LEVEL_BIT(enum level) */
	unsigned placement; /* bits 1 << enum machine_placement */
	unsigned prefetch;  /* bits 1 << enum machine_prefetch */
	int scope;          /* enum machine_scope */
};

/* One point of the level probe's latency sweep (levels.latency_curve). */
struct machine_latency {
	double bytes;
	struct level_probe_time t;
};

/* One cache of topology.caches. */
struct machine_cache {
	int level;
	char type[16]; /* "data", "instruction", "unified" */
	double size;   /* bytes */
};

/* One of the run's speed probes: its kernel and size, and the GB/s of its samples. */
struct machine_probe {
	char kernel[64];
	long long bytes;
	int threads; /* that read together; 1 when machine.json does not say (runs before it did) */
	int points;
	int points_shared; /* of the threaded speed probe: points whose threads shared a core; -1: not judged */
	double shared_below;      /* the part of threads x one thread's speed below which they did */
	double best, median, p10; /* GB/s */
	/* of the one-thread speed probe: the points the run waited for the machine before (-1: files from
	   before it did), those after which it read at speed again, the seconds, and the part of its best
	   below which it waited */
	int points_waited, points_recovered;
	double waited_seconds, slow_below;
	/* of the one-thread speed probe: its reading before each raw.csv point, by point number, 0 where it
	   has none (point_gbps; NULL in files from before it); machine_free frees it */
	double *point_gbps;
	unsigned npoint_gbps;
	/* of the one-thread speed probe: what each point was judged against, the higher of its best and the
	   machine's over its recent runs (judged_against_gbps; best in files from before it) */
	double judged_against;
};

/* disturbance.speed_history (harness speed_history.h): the speed probe's best over this machine's earlier
   runs of the last day. */
struct machine_speed_history {
	int runs;            /* of them; 0: none, or not recorded */
	double machine_best; /* GB/s; 0: none */
	char file[512];
	char not_kept[512]; /* why the run could not read it; "" */
};

/* The run's check that the last cache level held each of its points (harness level_check.h). */
struct machine_level_check {
	char level[8];    /* "L3"; "" when the run did not record it */
	int points, past; /* points checked; of them, past the level before and after (flagged noisy) */
	int bursts;       /* points past the level only before them (not flagged) */
	double past_ns, worst_ns;
	int by_probe; /* past_ns is where the level probe ended the level, not LEVEL_DRAM_NS */
	long long worst_bytes;
};

/* The run's path probe (harness path_probe.h, disturbance.path_probe): its threads' non-temporal stores
   together over one thread's, before each point of as many threads that reaches memory; points 0 when
   absent. */
struct machine_path_probe {
	char kernel[64];
	long long bytes; /* per thread */
	int threads, points;
	int points_shared; /* below shared_below x threads: the threads shared paths to memory */
	double shared_below;
	double ratio_best, ratio_median, ratio_p10;
	double gbps_one_best, gbps_best; /* one thread's, all the threads' */
	/* its ratio before each raw.csv point, by point number, 0 where it has none (point_ratio; NULL in files
	   from before it); machine_free frees it */
	double *point_ratio;
	unsigned npoint_ratio;
};

/* What `run --revisits` measured (harness revisit.h, disturbance.revisits); asked 0 when absent. */
struct machine_revisits {
	int asked, rounds, points;
	double seconds, apart_s; /* apart_s: the least time between two rounds' starts */
	double rival;            /* the first round's rivals: within this part of their row's best; 0 none */
	/* why the first round had no rivals where the run had them ("" else), and why fewer rounds than asked:
	   longer than any run writes (harness revisit.h), so never cut */
	char rivals_left_out[512], why_fewer[512];
};

/* The points the run measured and their repetitions, with those disturbed: a call more than `past` of
   the shortest of its length past it (harness run_job.c tally_points, disturbance.points); measured 0
   when absent (runs before it). */
struct machine_points {
	long long measured, reps, reps_disturbed;
	double past;
	/* repetitions some thread of which was clocked by add chains where APERF/MPERF was to clock them
	   (harness record_by_chains); 0 when absent */
	long long reps_by_chains;
	/* clock_samples (harness record_clock_tally): taken, rejected for each reason (clock_words.h), and the
	   repetitions left without a clock; taken -1 when absent (runs before it), or where a count is
	   missing or the rejected exceed the taken, which no run writes */
	long long clock_taken, clock_rejected_by[CLOCK_REJECTS], reps_without_clock;
};

/* The run's cgroup CPU quota and its throttling (harness cpu_limit.h, disturbance.cpu_limit). */
struct machine_cpu_limit {
	char cgroup[256]; /* "" when the run did not record it */
	double cpus;      /* CPUs' worth of time per period; 0 without a limit */
	long long period_us;
	long long periods, throttled; /* -1: not counted */
	double throttled_s;
	/* of the other cgroups with a quota on the path (limits[]), the one that stopped the run in the most
	   periods: a looser parent shared with other jobs stops it while the tightest shows no stop. cgroup ""
	   where none did */
	struct {
		char cgroup[256];
		double cpus;
		long long periods, throttled;
		double throttled_s;
	} parent;
};

struct machine {
	char host[128], cpu[256], vendor[32], microcode[64], started[64], finished[64];
	char command[1024], version[32], kernel[128], thp[64], governor[64], smt[32], arch[128];
	char config_path[1024];      /* the config the run used (config.path) */
	int family, model, stepping; /* -1: unknown */
	long long mem_total_kib;     /* -1: unknown */
	int sockets, cores, pus, numa_nodes;
	struct machine_cache caches[16];
	unsigned ncaches;
	/* Per-thread cache limits in bytes: the measured plateau limit when machine.json has one,
	   otherwise the reported share; 0 when the machine has no such level. */
	double limit[MACHINE_NCACHE];
	/* The two sources apart: hwloc's per-thread share (levels.reported) and the probe's limit
	   (levels.measured, 0 where it found none). */
	double reported[MACHINE_NCACHE], measured[MACHINE_NCACHE];
	/* Cores sharing each cache, from levels.reported / levels.reported_all_threads at threads_max
	   (at most threads_max); 0 when machine.json does not say. A point of N threads gets
	   limit / min(N, sharers) each, as the run's plan gave it (harness topo_cache_capacity; an L3 not
	   inclusive adds it to the L2's: common/level_capacity.h). */
	int sharers[MACHINE_NCACHE];
	/* Whether each cache holds the lines of the levels below it (topology.caches[].inclusive; UNKNOWN
	   where machine.json does not say): a point's level is reckoned from it as the run's plan was. */
	enum level_inclusion inclusion[MACHINE_NCACHE];
	char disagreements[MACHINE_NDISAGREEMENTS][512];
	/* levels.without_point: a level and thread count the plan had no point in, per experiment */
	char without_point[MACHINE_NWITHOUT_POINT][512];
	unsigned nwithout_point;
	unsigned ndisagreements;
	struct machine_latency *latency; /* levels.latency_curve, ascending sizes as written */
	unsigned nlatency;
	double core_ghz; /* clock.core_ghz: cycles for points that lack their own; 0 when null */
	/* config.ports: the core's L1 ports per cycle the run's config gave (kern.h), against which the run
	   judged a point too fast; a field 0 where not given, or out of what any core could have */
	struct kern_ports ports;
	double tsc_hz, tsc_hz_end; /* clock.tsc_hz and clock.tsc_hz_end (0 when absent: runs before it) */
	double max_ghz;       /* clock.bounds.max_ghz: the clock above which a sample was rejected; 0: none */
	char max_source[160]; /* clock.bounds.max_source: where that maximum came from */
	char max_from[16];    /* clock.bounds.max_from: its kind, a CLOCK_MAX_FROM_* word; "": not said */
	/* clock.aperf_mperf: why a run's repetitions were clocked by add chains rather than APERF/MPERF ("not
	   used: ..."); "" where they were APERF/MPERF's, or the file does not say (aperf_known 0) */
	char aperf_not_used[ERR_MSG_MAX]; /* "not used: " and a reason of up to CTR_REASON_MAX */
	int aperf_known;
	/* disturbance: steal_percent < 0 when the run did not record it */
	double steal_percent;
	long long steal_cpus; /* of the CPUs it was measured on; 0: all CPUs (runs before steal_cpus) */
	long long runnable_before, runnable_after;
	/* the same less pmucheck's own threads; -1 where not recorded (runs before them, no /proc/self/task) */
	long long others_runnable_before, others_runnable_after;
	double cpu_pressure_percent; /* disturbance.cpu_pressure_percent; < 0 when not recorded */
	struct machine_cpu_limit cpu_limit;
	/* disturbance.speed_probe, .speed_probe_threads, .memory_probe and .memory_probe_threads (harness
	   speed_probe.h): points 0 when the run did not record it */
	struct machine_probe speed, speed_all, memory, memory_all;
	struct machine_path_probe path;
	struct machine_speed_history speed_history;
	struct machine_level_check llc; /* disturbance.level_check */
	struct machine_revisits revisits;
	struct machine_points points;
	int hardware; /* counters.availability.hardware: 1, 0, or -1 when machine.json does not say */
	char counters_reason[512];
	char papi_pmus[MACHINE_NTEXT][64]; /* the PMUs of PAPI's perf_event component, when enabled */
	unsigned npapi_pmus;
	int prefetch_control;
	/* as long as the run's (run_prefetch.h): a reason cut short reads as a whole one in report.md */
	char prefetch_reason[ERR_MSG_MAX], prefetch_skipped[256], prefetch_left_running[256];
	/* prefetch.before ("0=0x0;1=0xf;..."), each value with how many CPUs had it: "0x0 on 126 CPUs, 0xf on 2
	   CPUs" (machine_read.c prefetch_values): a node's 128 CPUs' values did not fit, and a node whose
	   CPUs past the first 30 or so were off compared equal */
	char prefetch_before[256];
	char preset[64]; /* "" without --preset */
	char references[MACHINE_NTEXT][256];
	unsigned nreferences;
	struct machine_hypo *hypo; /* one per event, the first experiment's where several give one */
	unsigned nhypo;
};

/* Loads path. Bad JSON gives E_USAGE with "<path>:<line>:<column>: ...", a missing or mistyped member
   E_USAGE naming it. machine_free releases what it allocated (also after a failure). */
int machine_read(const char *path, struct machine *m, struct err *e);
void machine_free(struct machine *m);

/* The clock samples rejected for any reason (clock_rejected_by summed). */
long long machine_clock_rejected(const struct machine_points *p);

/* The hypothesis for the raw.csv row named event, or NULL. */
const struct machine_hypo *machine_hypo_find(const struct machine *m, const char *event);

#endif
