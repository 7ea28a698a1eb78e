/* plan.h — what a run measures: the list of points, built from the options and the topology before
 * anything is measured, so every bad input is found before the first byte is written. */
#ifndef PMUCHECK_PLAN_H
#define PMUCHECK_PLAN_H

#include <stdint.h>

#include "buf.h"
#include "err.h"
#include "kern.h"
#include "level.h"
#include "topo.h"

#define PLAN_MAX_SIZES 64
#define PLAN_MAX_ARGS 128
#define PLAN_MAX_THREADS 16 /* distinct thread counts */
#define PLAN_MAX_PLACES 8
#define PLAN_MAX_PF 8

/* The user's choices (CLI, config, preset); zero values mean "the default". */
struct plan_opts {
	int quick;
	const char *kernels;            /* comma list of families or family.variant; NULL = all */
	uint64_t sizes[PLAN_MAX_SIZES]; /* working set per thread; empty = sweep from the topology */
	int nsizes;
	int cpus[TOPO_MAX_CPUS]; /* CPUs of the widest run, in order; empty = topo_default_cpus' */
	int ncpus;
	int threads[PLAN_MAX_THREADS]; /* thread counts; empty = 1 and all of cpus */
	int nthreads;
	struct buf_place places[PLAN_MAX_PLACES];
	int nplaces;                     /* empty = local */
	char pf_states[PLAN_MAX_PF][64]; /* "on", "off", "off:l2-stream;l1-ip" */
	int npf;
	uint64_t args[PLAN_MAX_ARGS]; /* family argument values; empty = the family's default set */
	int nargs;
	int explicit_kernels; /* the user named kernels: a width the CPU lacks is an error */
	unsigned level_mask;  /* LEVEL_BIT(l) | ...: keep only points of these levels; 0 = all */
};

/* The DRAM points of a kernel that streams reckon with no less than the reported last-level cache, up to
   this much, however short the probe found it (plan.c, DRAM_LLC_FLOOR beside it): an Emerald Rapids
   guest told of the host's 300 MiB L3, its end measured at 8-16 MiB (a chase DRAM-like from 16 MiB),
   read per thread with load.avx at 64 MiB 26.5 GB/s (its L3 points 26-28), at 128 MiB and
   more 16.6-17.6 with one thread; with two, 128 MiB in all read 13.5 per thread, 256 MiB 15.8 (triad.avx
   1.38x and 1.18x its speed at 2 GiB), 512 MiB to 2 GiB 11.3-11.8 (triad 12.7-13.0). So 4x this, 512
   MiB, is the first DRAM point that such an L3 no longer serves in part. Not all of a large reported
   L3: a guest may be told of one it does not have (a Zen 5 guest of 508 MiB, a socket's sixteen 32 MiB
   L3s as one), and 4x 300 MiB would take about 0.9 s a DRAM point there (a warm-up and three repetitions
   of three passes at 17 GB/s). A machine whose probe finds the whole of a larger L3 (a quiet host)
   reckons with all of it. */
#define PLAN_DRAM_REPORTED_LLC_CAP (128ull << 20)

struct plan_point {
	const struct kern_family *fam;
	const struct kern_variant *var;
	uint64_t bytes; /* per array per thread */
	uint64_t arg;
	int threads;      /* uses opts.cpus[0 .. threads-1] */
	int place;        /* index into opts.places */
	int pf;           /* index into opts.pf_states */
	enum level level; /* plan_level: the measured cache sizes where the level probe found them */
	int boundary;     /* plan_on_boundary: in no level for the analysis nor the summary */
	/* A point of --sizes the plan calls DRAM, of a kernel that streams, below the sweep's smallest DRAM
	   point of it (its working set per thread; 0: not such a point): a last-level cache may serve a
	   part of it (plan.c DRAM_REPORTED_LLC_CAP), which the run says. */
	uint64_t dram_from;
	int order; /* position before grouping */
};

struct plan {
	struct plan_point *points;
	int npoints;
	char skipped[2048]; /* variants skipped because the CPU lacks their ISA, for the user */
	char no_level[512]; /* cache levels the sweep has no point in at a thread count, for the user */
};

/* Validates opts against the machine and fills in defaults. */
int plan_check_opts(struct plan_opts *o, const struct topo *t, struct err *e);
/* What needs no machine: E_USAGE, naming `option`, for a name that is no kernel family or family.variant
   ('pmucheck list kernels'), or a working set of 0 bytes. */
int plan_kernel_known(const char *option, const char *name, struct err *e);
int plan_size_ok(const char *option, uint64_t bytes, struct err *e);
int plan_build(const struct plan_opts *o, const struct topo *t, struct plan *p, struct err *e);
void plan_free(struct plan *p);

/* Level a per-thread working set falls in, given `threads` sharing caches. A fourth cache level (eDRAM,
   a memory-side cache) counts as DRAM: raw.csv, the configs and the analysis know L1 to L3 only. */
enum level plan_level(const struct topo *t, uint64_t working_set, int threads);

/* Whether a per-thread working set lies on a cache's boundary (common/level.h level_on_boundary) at
   `threads` sharing caches, the levels taken in order up to the first that holds it: the analysis assigns
   such a point to no level, nor does the run's summary. Only a user's --sizes place one there. */
int plan_on_boundary(const struct topo *t, uint64_t working_set, int threads);

/* What a sweep's points of the level above level `below` keep clear of (LEVEL_CLEAR_BELOW times it), and the
   sizes from which the level probe's time stands for that level's latency (common/level.h level_probe_from):
   the level's capacity at `threads`, as reported where the level probe or its history found it smaller. The
   level history takes a size a neighbour sometimes shortens a level to (levels_history.h), which keeps the
   level's own points inside it, but points of the next level from twice that size still ran partly from it
   whenever the neighbour did not: on the Emerald Rapids guest (2 MiB L2) a default run took L2 at 1 MiB from
   its history, and its one-thread L3 points began at 2 MiB, where load.avx512 read 44.6 GB/s against
   22.8-24.1 from 3 to 6 MiB, and its L3 read peak was 56.9 GB/s against the next run's 29.4. A size reported
   larger than a guest can use has been seen only of the last level (a guest told of its host's 300 MiB L3),
   which has no cache level above it; DRAM is sized apart (sweep_sizes). */
uint64_t plan_clear_of(const struct topo *t, int below, int threads);

/* The most buffer memory the plan's run holds at once: at each thread count, every thread's buffer for the
   largest working set of its points, and a fresh-memory point's two buffers beside it (harness/run/run.c
   measure_group, alloc_fresh); *threads: the thread count of that most (0 for an empty plan). */
uint64_t plan_memory(const struct plan *p, int *threads);

/* Refuses (E_USAGE) a plan whose buffers (plan_memory), with `beside` bytes the run holds with them (its
   probes' buffers: commands/run_job.c), exceed the memory proc's meminfo says is available (MemAvailable;
   proc: SYSINFO_PROC, tests pass a fake tree): its run would swap or be killed while it measures, with a
   prefetcher state written. 0 where the file or the line is missing (nothing to go by). */
int plan_check_memory(const struct plan *p, uint64_t beside, const char *proc, struct err *e);

#endif
