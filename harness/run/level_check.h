/* level_check.h — whether the last cache level still held a point's working set while it was measured.
 *
 * The level probe (levels.h) finds where the last cache level ends once, before the sweep, and the sweep
 * places that level's points at up to 3/4 of it. On a guest that shares its L3 with other tenants the end
 * moves while the run goes on: 26 --quick probes over seven minutes on the development VM (Zen 5 guest,
 * 2 vCPUs) ended L3 at 5792 (once), 8192 (13 times), 11585 (11 times) and 16384 KiB (once); ending it at a
 * quarter of the step to DRAM instead of its middle moved 4 of 21 by one size and the spread not at all.
 * The chase at 11585 KiB read 25 to 152 ns from one probe to the next. A point placed from a probe that
 * found the larger end may then run partly from DRAM: in a default run there, whose probe had found L3 up
 * to 11585 KiB (20 ns at 8 MiB), the L3 chase point at 8688 KiB read 61.5 ns. Its bandwidth is then a
 * lower bound of the level's, and its counts mix two levels, which a verdict on a cache event would judge
 * as that level's.
 *
 * So before each point of the last cache level the first thread chases the point's working set (that of
 * all its threads that share the cache) with the level probe's chain. At the latency where the probe ended
 * the level (the middle of its step to DRAM; LEVEL_DRAM_NS where that is lower or the probe found no such
 * step) or slower, the same chase runs again after the point, and only when that one too is past, the
 * level did not hold the working set and the point is flagged noisy: its figures are taken as lower
 * bounds and the verdicts leave it out. One chase is not enough: the L3's neighbours come in bursts. In
 * seven --quick runs there, 14 of 371 chases before a point read past the level (up to 125 ns); those
 * points read 0.90-1.00 of their best bandwidth over the seven runs (0.71-1.00 where not past), their
 * fastest calls having missed the burst, and the six chases after them that were measured read 17-37 ns,
 * once 52. A point through which the level stayed short reads past both before and after it. */
#ifndef PMUCHECK_LEVEL_CHECK_H
#define PMUCHECK_LEVEL_CHECK_H

#include <jansson.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"
#include "kern.h"
#include "level.h"
#include "levels.h"
#include "plan.h"
#include "topo.h"

/* Each timed call of the check's chase lasts at least this long (the --quick level probe's), so a check
   costs 3 to 8 passes of the working set (levels_latency_ns): about 20 ms at 8 MiB, whether it reads 20 or
   60 ns. */
#define LEVEL_CHECK_SECONDS 0.0005

struct level_check {
	const struct kern_family *f;
	const struct kern_variant *v; /* the level probe's chain */
	const struct topo *t;
	enum level level; /* the last cache level: the points checked */
	double past_ns;   /* a chase this slow or slower: the level did not hold it */
	int by_probe;     /* past_ns is where the level probe ended the level (else LEVEL_DRAM_NS) */
	uint64_t cap;     /* the largest working set to check: buf's size */
	int cpu;          /* where the buffer is placed: the first thread's CPU */
	struct buf b;     /* allocated at the first check */
	double tsc_hz;
	int n, past;     /* points checked; of them, past the level before and after */
	int bursts;      /* points past the level only before them */
	double worst_ns; /* the slowest point: the faster of its chases (the one before when it was enough) */
	uint64_t worst_at; /* its working set */
	int failed;        /* the buffer or a chase failed: nothing more is checked */
};

/* The last cache level of t (at most L3: a fourth level counts as DRAM, plan.h); LEVEL_NONE without caches. */
enum level level_check_level(const struct topo *t);

/* The latency from which a chase is past the last cache level: the probe's step_ns, at most LEVEL_DRAM_NS;
   LEVEL_DRAM_NS without a probe (NULL: --reported-levels) or a step. */
double level_check_past_ns(const struct levels_probe *p);

/* The working set a check of a point of `threads` threads with `per_thread` bytes each chases: that of
   the threads sharing one last-level cache, as one thread alone fills it (topo_cache_alone: an L3 not
   inclusive holds what they keep past their L2s, and the chasing thread's own L2 the rest). */
uint64_t level_check_bytes(const struct topo *t, uint64_t per_thread, int threads);

/* The working set a check of plan point pt chases (level_check_bytes); 0 when pt is not checked: not of
   level_check_level(t), or a fresh-memory kernel's, whose working set is never cached. */
uint64_t level_check_point(const struct topo *t, const struct plan_point *pt);

/* Ready to check points of level_check_level(t) up to `cap` bytes (level_check_bytes), from `cpu`. E_RUNTIME
   when no chain kernel is registered. */
int level_check_init(struct level_check *c, const struct topo *t, const struct levels_probe *p, uint64_t cap,
		     int cpu, double tsc_hz, struct err *e);

/* Chases `bytes` (at most c->cap) on the calling thread, which must be pinned on c->cpu: its latency in ns;
   -1 when it could not be measured (c->failed: nothing more is chased) or is beyond c->cap. */
double level_check_chase(struct level_check *c, uint64_t bytes);

/* Whether a chase of ns is past the level. */
int level_check_past(const struct level_check *c, double ns);

/* Counts one point of `bytes` by its chase before (before_ns) and, where that one was past the level, the
   one after it (after_ns; ignored otherwise): 1 when both were past. */
int level_check_judge(struct level_check *c, uint64_t bytes, double before_ns, double after_ns);

/* {"kernel", "level", "points", "points_past", "points_burst", "past_ns", "past_by" ("level probe" or
   "DRAM-like"), "worst_ns", "worst_bytes"}; NULL before any check. */
json_t *level_check_json(const struct level_check *c);

void level_check_free(struct level_check *c);

#endif
