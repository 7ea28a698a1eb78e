/* level_capacity.h — the bytes of a cache level each of N threads can keep: the one rule by which the run's
 * plan sizes its points (harness plan.c) and the analysis labels them (analysis/point_level.c), so that a
 * point planned in a level is analysed as that level's.
 *
 * A level's part per thread is its size over the threads that share one instance. An L3 that is not
 * inclusive of the L2 is filled with the L2's victims, not with the lines the core fetches, so a thread's
 * data lies in its L2 and in its part of the L3 at once, and it keeps the two together. On the Skylake-SP
 * and later Xeons the L3 is non-inclusive and holds mostly lines the L2s evicted, so a socket keeps about
 * its L2s and its L3 together (Cornell Virtual Workshop, Cluster Architecture, "Last level cache";
 * AnandTech's Skylake-SP review tables its L2 inclusive, its L3 non-inclusive); every Zen's L3 is a victim
 * cache of the L2s of its CCX (AMD's Software Optimization Guides for families 17h and 19h, their L3
 * sections). All 28 threads of a Skylake-SP socket then keep 1 MiB + 1.375 MiB each, where an inclusive
 * L3's 1.375 MiB parts leave no size clear of the L2 below them.
 *
 * The L3 alone: an L2 that CPUID calls not inclusive (Intel's since Nehalem; the development VM's Zen 5
 * guest reports its L2 so) is still filled on every L1 miss (non-inclusive, not exclusive), so it holds
 * what the L1 holds and adds nothing of it. A level whose inclusion is not known is taken as inclusive, as
 * every level was before machine.json recorded it.
 *
 * Taken on trust: that every L3 CPUID calls not inclusive is filled from the L2's victims. Intel's clients
 * since Tiger Lake call theirs so too, and whether they also fill it on a miss is not documented; where
 * they do, a thread keeps less than this, and the run's last-level check (harness level_check.h) flags the
 * points the L3 did not hold (level-not-held) rather than letting them stand as L3 figures. */
#ifndef PMUCHECK_LEVEL_CAPACITY_H
#define PMUCHECK_LEVEL_CAPACITY_H

#include "level.h"

/* One cache level as the rule takes it. */
struct level_cache {
	/* one thread's bytes in it alone: the end the level probe measured, else one instance's reported
	   size; 0 where the machine has no such level */
	double size;
	/* size is the probe's end: one thread's chase, which in an L3 not inclusive already kept the L2 too */
	int measured;
	int sharers; /* cores sharing one instance; below 1: taken as 1 */
	enum level_inclusion inclusion;
};

/* The bytes each of `threads` threads keeps in level l of c (c[0] is L1, and c holds every level up to
   l): its part, size over min(threads, sharers); for an L3 known not to be inclusive, the L2's capacity
   at `threads` plus its part of the L3 beyond that, where the L3 reaches past the L2 at all. */
double level_capacity(const struct level_cache *c, enum level l, int threads);

/* The working set one thread alone fills level l with as `threads` threads of `per_thread` bytes each fill
   one instance of it: per_thread times the threads sharing it (min(threads, sharers)); for an L3 known not
   to be inclusive, the L2's capacity of one thread plus what each of those threads keeps past its L2. The
   run's last-level check chases it from one thread (harness level_check.c): a chase of all 28 threads'
   1.6 MiB would pass a Skylake-SP's 38.5 MiB L3 and its L2 where the threads' points fit in theirs. */
double level_capacity_alone(const struct level_cache *c, enum level l, double per_thread, int threads);

#endif
