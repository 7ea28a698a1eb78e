/* speed_probe.h — the machine's own speed during a run. Before each point, its first thread times a small
 * L1 read (the kernel registered with KP_SPEED_PROBE, kern.h) on its CPU. Interference only slows that read,
 * so its best over the run is what the core can do, and how far the points' reads fall below the best is how
 * much slower the machine itself was at those moments: a neighbour on the SMT sibling, or the host moving
 * the clock, which steal time does not see. A slowdown that lasts through a point slows all its calls
 * alike, which no estimator inside the point can undo. On the development VM (Zen 5 guest, 2 vCPUs, quiet)
 * a --quick run's 224 probes read 90-97 % of their best at most points and below 90 % at one in ten,
 * scattered through the run rather than in phases; two consecutive such runs read some L2 bandwidths
 * 20-30 % apart. machine.json's disturbance.speed_probe keeps it; the report's Run quality and the run's
 * output say it.
 *
 * The memory probe is the same read of MEMORY_PROBE_BYTES, timed before each DRAM point of the plan (not
 * before a revisit, revisit.c): memory bandwidth is shared with every tenant of the host's sockets, so it
 * moves on its own while the cores' speed holds. On the development VM two consecutive --quick runs read the
 * memory probe's slow tenth 20 % and 28 % below its best, where their speed probes' were 8-10 % below
 * theirs, and their DRAM figures differed by up to 27 % with one thread: the memory probe says how much of
 * that the memory itself did. One thread misses a limit only several threads reach: four consecutive --quick
 * runs there read the same probe median (27.5-28.5 GB/s) while their two-thread non-temporal triads at DRAM
 * sizes read 64-67 GB/s in the first two and 121-143 in the last two; the one-thread ones read 37-69
 * throughout. So the same read, split over the threads, is also timed before each DRAM point of the most
 * threads (speed_probe_sample_threads).
 *
 * A host may also run a guest's vCPUs on one core of its own (SMT siblings, or one hardware thread in
 * turns), and the guest cannot tell: steal time stayed 0.0 %. In one of twelve --quick runs on the
 * development VM every two-thread L1 point read what one thread does (load.avx512 444 GB/s against 435;
 * 866 in the next run), and its two-thread DRAM points half of the other runs'. Its threads still ran
 * together (record_apart), so nothing flagged them. So the speed probe is also read by the most threads
 * any point has, each its own SPEED_PROBE_BYTES at once, before each point of as many threads: on cores of
 * their own they read about `threads` times one thread's speed (2.0-2.2x there), on one core about 1x. */
#ifndef PMUCHECK_SPEED_PROBE_H
#define PMUCHECK_SPEED_PROBE_H

#include <jansson.h>
#include <stdint.h>

#include "err.h"
#include "kern.h"
#include "noisy_why.h"

#define SPEED_PROBE_BYTES 16384u   /* fits every L1d */
#define SPEED_PROBE_SECONDS 0.0002 /* one call; the shorter of two is kept, 0.4 ms per point */
/* The size of the smallest DRAM points where the last-level cache is 32 MiB or less (harness/plan/plan.c: 4x
   a last-level cache of 32 MiB at least), so no cache holds it; three calls of a pass each, about 12 ms per
   DRAM point at 30 GB/s. Behind a larger shared L3, whose reported size the DRAM points reckon with up to
   128 MiB, part of it may come from that L3 (an Emerald Rapids guest's 300 MiB: one thread read 128 MiB at
   up to 1.05x its speed at 1 GiB, two threads 1.15x, a triad 1.38x), and the probe moves with the L3's
   other tenants too; as large as those points, 512 MiB, it would take 50 ms a DRAM point, 3 s of a --quick
   run. */
#define MEMORY_PROBE_BYTES (128ull << 20)

struct speed_probe {
	const struct kern_variant *v;
	const struct kern_family *f;
	uint64_t bytes; /* read per pass (written, by the path probe's stores: path_probe.h) */
	void *buf;      /* allocated, touched and prepared at the first sample */
	uint64_t reps;  /* passes per call; 0 until the first sample calibrates them */
	double tsc_hz;
	double *gbps; /* one per sample */
	int n, cap;
	/* speed_probe_init_threads: the threads that read together, each its slice of `bytes` */
	int threads;             /* 0 for speed_probe_init's one-thread probes */
	void **slice;            /* per thread, allocated, touched and prepared by it at its first sample */
	uint64_t *start, *ticks; /* [call 0-2][thread]: a sample's calls, for their spans (record_span) */
	int failed, again;       /* shared by the threads: a slice could not be had; calibration goes on */
	/* samples at which the threads shared a core (speed_probe_count_shared); whether any was judged */
	int shared, judged;
	/* speed_probe_waited: points before which the run waited for the machine, those after which it
	   read at speed again, and the seconds it waited; watched: the run waits on this probe */
	int watched, waited, recovered;
	double waited_s;
	/* GB/s this machine's recent runs reached (speed_history.h: machine_best), which the run's wait judges
	   against as well as its own samples; 0: none */
	double prior_best;
};

/* Threads that read their L1 slices together at less than this part of `threads` times one thread's
   speed shared a core: halfway between the two cases above (1x and threads x). */
#define SPEED_PROBE_SHARED 0.75

/* The kernel registered with `plot` (KP_SPEED_PROBE; KP_PATH_PROBE for path_probe.h), `bytes` per pass
   (SPEED_PROBE_BYTES or MEMORY_PROBE_BYTES for the speed and memory probes). E_RUNTIME when no kernel is
   registered. */
int speed_probe_init(struct speed_probe *sp, unsigned plot, uint64_t bytes, double tsc_hz, struct err *e);

/* Times the probe on the calling thread's CPU, the shorter of two calls, and keeps its GB/s; the first
   sample gets its buffer first. Nothing when out of memory (a run does not fail for its probe). */
void speed_probe_sample(struct speed_probe *sp);

/* The same by `threads` threads at once (threads > 1), each over its slice of `bytes` (the path probe:
   threads x PATH_PROBE_BYTES of stores, path_probe.h): of
   MEMORY_PROBE_BYTES, the memory bandwidth several threads get, which a limit on the host's shared path can
   cut while one thread's holds; of threads x SPEED_PROBE_BYTES, whether the threads have cores of their own
   (above). E_RUNTIME when no kernel is registered, out of memory. */
int speed_probe_init_threads(struct speed_probe *sp, unsigned plot, uint64_t bytes, double tsc_hz,
			     int threads, struct err *e);

/* Called by every thread (tid 0 .. threads - 1) of an OpenMP parallel region of exactly sp->threads
   threads, each pinned where it measures: they read their slices together, the shorter of two calls'
   spans (first start to last end) is kept as GB/s of the whole. Nothing when a slice cannot be had. */
void speed_probe_sample_threads(struct speed_probe *sp, int tid);

/* Whether the threads of `all` (a threaded probe of SPEED_PROBE_BYTES per thread) shared a core at its last
   sample, judged against `one`'s last sample (the one-thread probe, just before it); 0 when either has no
   sample. */
int speed_probe_shared(const struct speed_probe *all, const struct speed_probe *one);
/* Counts a point's judgement (speed_probe_shared, taken by the samples that stand as the point's) in
   all->shared, and sets all->judged; nothing when either probe has no sample. */
void speed_probe_count_shared(struct speed_probe *all, const struct speed_probe *one, int shared);

/* A point measured through a slowdown that lasts all of it is slower in every call alike, so its calls
   agree and it is confirmed at the slower figure: on the Zen 3 guest (2 vCPUs, other tenants on the
   host's cores) a --quick run's two-thread load.avx in L1 was confirmed at 185.7 GB/s and the next run's at
   322.5, and the one-thread probe read 66-69 % of its best at the median point of those runs. So before a
   point the run waits, briefly, while the probe reads below SPEED_PROBE_SLOW of its best so far or of this
   machine's over its recent runs (prior_best), whichever is higher, or the threads share a core,
   re-probing after each step (budget.h: budget_wait says how long). Its best so far alone left the first
   point of every run unjudged, and with it every run of one point (scripts/bench-compare.sh's), though
   once the run ended each point is judged against the machine's best too (run_judge_slow): on the Emerald
   Rapids guest (2026-11-30) a run of one L1 triad.avx512 point beside a loop of the same triad on the other
   vCPU read its probe at 49.9 GB/s against the machine's 70.4, measured without a wait and was marked slow
   afterwards; a point's own speed swings with such a neighbour (2 ms calls of the triad in a loop outside
   pmucheck: 285-305 GB/s where the probe read 40, 405-441 where it read 66). On the quiet development VM
   nine probes in ten read above 90 % of the best, so a quiet machine rarely waits. */
#define SPEED_PROBE_SLOW NOISY_SLOW_SHARE
/* Whether the last sample read below SPEED_PROBE_SLOW of the best before it or prior_best, whichever is
   higher; 0 without a sample or with neither. */
int speed_probe_slow(const struct speed_probe *sp);
/* Takes back the last sample (a wait's re-probe replaces it: one sample per point). */
void speed_probe_drop_last(struct speed_probe *sp);
/* Counts a point before which the run waited `seconds`, and whether the machine then read at speed. */
void speed_probe_waited(struct speed_probe *sp, double seconds, int recovered);

/* The samples' figures, sorted order; n == 0: none. */
struct speed_probe_figures {
	int n;
	double best, median, p10; /* GB/s: the fastest, the median, the 10th percentile from the slow end */
};
struct speed_probe_figures speed_probe_figures(const struct speed_probe *sp);

/* {"kernel", "bytes", "threads", "points", "gbps_best", "gbps_median", "gbps_p10"}, and "points_shared"
   (speed_probe_count_shared) with "shared_below" (SPEED_PROBE_SHARED) for a threaded probe that judged it;
   a watched one adds "slow_below" (SPEED_PROBE_SLOW), "points_waited", "points_recovered" and
   "waited_seconds" (speed_probe_waited); NULL when there is no sample. */
json_t *speed_probe_json(const struct speed_probe *sp);

void speed_probe_free(struct speed_probe *sp);

#endif
