/* level.h — the memory levels a point exercises, and their one name table: "L1", "L2", "L3", "DRAM", as
   raw.csv's `level` column, the config files' `levels` and peaks.csv spell them. Harness and analysis
   both name and compare levels through this enum, never by their strings. */
#ifndef PMUCHECK_LEVEL_H
#define PMUCHECK_LEVEL_H

enum level {
	LEVEL_L1,
	LEVEL_L2,
	LEVEL_L3,
	LEVEL_DRAM,
	LEVEL_COUNT,
	LEVEL_NONE = -1, /* not a level name */
};

/* Whether a cache holds every line of the levels below it: EDX bit 1 of its CPUID leaf 4 (Intel) or 0x8000001D
   (AMD) subleaf, which hwloc's x86 backend records as the info "Inclusive" ("1" or "0") of each cache object
   (hwloc/topology-x86.c), and machine.json as topology.caches[].inclusive. UNKNOWN, what a zeroed struct
   holds, where neither says (hwloc without the x86 backend, a synthetic topology, files written before). */
enum level_inclusion {
	LEVEL_INCLUSION_UNKNOWN,
	LEVEL_INCLUSIVE,
	LEVEL_NOT_INCLUSIVE,
};

/* The level's name; "" for LEVEL_NONE or anything out of range. */
const char *level_name(enum level l);

/* The level named s (exactly as level_name spells it); LEVEL_NONE for anything else. */
enum level level_parse(const char *s);

/* No cache level's load-to-use latency is this slow (L3: 10-15 ns on Zen 2-5, 20-40 ns on Haswell-EP to
   Sapphire Rapids in the seed papers' tables and the vendors' optimization manuals; local DRAM 70-150 ns).
   The level probe ends its sweep on it, and a pointer chase at a cache level that is this slow measured
   DRAM, not that level: on a VM whose L3 is shared with other tenants a --quick run's 4 MiB "L3" chase
   read 133 ns where the probe a few seconds before had found 16.9 ns up to 8 MiB. */
#define LEVEL_DRAM_NS 60.0

/* Whether a pointer-chase latency of ns measured at level l is DRAM-like: a cache level at LEVEL_DRAM_NS
   or slower. Such a figure is never reported as that level's latency. */
int level_latency_dram_like(enum level l, double ns);

/* The level probe chases on transparent huge pages (harness levels.c; below this share of its chain, a
   disagreement says a TLB's reach may show as a level); a latency point whose buffer had a smaller share of
   them (raw.csv thp_share; --no-thp gives 0) met TLB misses the probe did not, so the probe's time cannot
   stand for it (level_probe_stands_for). */
#define LEVEL_PROBE_THP_SHARE 0.9

/* Whether the level probe's time per access at a latency point's size can stand for the point's: only
   in the state the probe ran in, local memory (local), prefetchers on or not controlled (pf_on: the probe
   runs before any is switched off, and one off could make the chase slower) and huge pages
   (LEVEL_PROBE_THP_SHARE). The run's summary (commands/summary.c) and the peaks (analysis/peak.c) both
   ask it. */
int level_probe_stands_for(int local, int pf_on, double thp_share);

/* The smallest of the level probe's sizes whose time may stand for a latency point of level l and
   point_bytes. A chase over more memory of the same hierarchy misses no less often (more lines share each
   cache and TLB), so every probe time at the point's size or larger, itself an upper bound of that size's,
   bounds the point's too; a smaller size's bounds nothing (an L2-sized chase hits L1 the more often, the
   smaller it is). But a level's latency is that of its hits, and a cyclic chase over LEVEL_CLEAR_BELOW times
   the level below or more leaves that level no hit to keep, so in a cache level the probe's sizes from there
   up stand for every point at least as large: past them, what a chase meets besides the level only slows it.
   On the Emerald Rapids guest (48 KiB L1, 2 MiB L2; 2026-11-30) five probes read the L2 at 16.0-16.2 cycles
   at 128 and 181 KiB (three of them up to 362 KiB), then 17.9-19.7 at 512 KiB, 19.4-20.5 at 724 and 20.4-21.3
   at 1 MiB, the --quick plan's L2 point: not the L2's time but what a chase meets beside it (a first-level
   TLB that reaches 384 KiB, a host's 4 KiB pages under the guest's huge ones, at 7 cycles a miss fits a finer
   probe's curve within 0.25 cycles from 430 KiB to 1 MiB, by my reading). So: for L1 0, every size (no level
   below it to hit in); for L2 and L3 the smaller of the point's size and LEVEL_CLEAR_BELOW x below_bytes (the
   level below's capacity per thread, the larger of measured and reported, as the plan keeps its points clear
   of it: harness plan_clear_of), the point's size where below_bytes is 0 (not known); for DRAM its own size,
   since the probe's sizes past the measured end of a shared L3 may still hit in the part of it the probe did
   not find (11.6 MiB found of a guest's reported 300). The probe's sizes step by 2^(1/4) from 4 KiB (2^(1/2)
   with --quick; harness levels.c) and one size's fastest call may itself have been slowed (a --quick probe
   read 1.215 ns at 32 KiB and 1.12-1.14 ns at the six L1 sizes below): the fastest of them is the tightest.
   The run's summary and the peaks both choose with it. */
#define LEVEL_CLEAR_BELOW 2.0
double level_probe_from(enum level l, double point_bytes, double below_bytes);

/* The level probe's time at one size (machine.json levels.latency_curve): its fastest time per access, ns,
   and its cycles per access, the fewest two of its sweeps reach at the clock their calls ran at (harness
   levels.h: levels_cycles), 0 where it has none (a probe before it kept them; fewer than two sweeps timed
   a call at a steady clock there). */
struct level_probe_time {
	double ns, cycles;
};

/* What the level probe's curve gives a latency point, folded over its sizes from level_probe_from's up
   (level_probe_fold): the fastest time per access there (ns), and the fewest cycles per access there
   (cycles) with the time of the size they are at (cycles_ns); 0 where none. Each is the tightest of its
   own bounds: the ns of one size and the cycles of another, since a size at a level's end can read its
   fastest call in the level and its cycles, the fewest two sweeps reach, in the next (an Emerald Rapids
   guest's --quick probe read its 45 KiB, of a 48 KiB L1, at 5.00 cycles in two sweeps, 7.55 in one and
   13.8-14.0 in three), and the sizes of one level all but tie in ns: pairing a size's cycles with its ns
   made one run's L1 latency 2.9 times the next run's, each at the same ns (2026-11-30; their curves were not
   kept). */
struct level_probe_bound {
	double ns, cycles, cycles_ns;
};

/* One step over the probe's curve, for a point whose figure the probe's sizes from from_bytes up may stand
   for (level_probe_from): best with the time at probe_bytes (probe) taken in where probe_bytes is at least
   from_bytes (best = {0}: none yet). Both readers of the curve (the summary, the peaks) fold it over their
   own layout of it with this. */
struct level_probe_bound level_probe_fold(double from_bytes, double probe_bytes,
					  struct level_probe_time probe, struct level_probe_bound best);

/* A size's cycles are the same level's as the fastest time where that size's own time is at most this much
   above the fastest: a point joins a plateau while its latency rises by less than this over the point
   before it (latency creeps inside a level and jumps between levels; harness levels.c finds the plateaus
   with it). */
#define LEVEL_PLATEAU_RISE 1.30

/* A latency point's figure, ns: its own time per access (own_ns), or the level probe's (probe.ns, the fastest
   at the sizes level_probe_from allows; 0 where it has none or level_probe_stands_for says no)
   where that is faster, *probed set. The probe chases the same chain over a grid of sizes, at least three
   sweeps and more until it has lasted 6 s (12 s in the default run; at most twelve), each size keeping its
   fastest call (harness levels.h): every call bounds the time per access from above, and the fastest of so
   many spread over seconds is rarely disturbed, where a point's repetitions all fall within its own fraction
   of a second, so a slowdown that lasts a whole point is confirmed with it: on the Zen 3 guest (2026-11-28) a
   --quick run's 256 KiB chase point was confirmed, clean, at 5.99 ns, where its probe read 3.71 ns there
   (12.0 cycles, Zen 3's documented L2 latency) and the next run's point 3.90. *cyc: the figure in cycles, the
   point's own at its clock (point_ghz, the highest of its repetitions'; where it has none, the run's, as the
   analysis takes it: analysis/agg.c settle_time), the probe's its own (probe.cycles): a host moves the clock
   within milliseconds, so the probe's time at a clock read after it is not its cycles (a --quick run on an
   Emerald Rapids guest put its L1 chase, 5 cycles, at 4.91: the probe's 1.79 ns at 2.74 GHz, the higher of
   its point's clock and the run's, 2.67, both read after the probe). Where the probe has none at the
   point's level (none at the sizes level_probe_from allows, or only at a size whose time is more than
   LEVEL_PLATEAU_RISE above the fastest, another level's; a run before it kept none), the higher of
   point_ghz and the run's clock (run_ghz, measured just after the probe); 0 where no clock is known. */
double level_probe_figure(double own_ns, struct level_probe_bound probe, double point_ghz, double run_ghz,
			  double *cyc, int *probed);

/* Level boundaries: a point whose per-thread footprint lies within 25 % below or 50 % above a cache's
   share is assigned to neither level (caches start missing before they are full, and adaptive replacement
   keeps some lines a little beyond). The analysis leaves such points out of every level (analysis/
   point_level.c), the run's summary too (commands/summary.c), and the plan places none there of its own
   (harness/plan/plan.c); a user's --sizes may. */
#define LEVEL_BOUNDARY_BELOW 0.25
#define LEVEL_BOUNDARY_ABOVE 0.50

/* Whether a per-thread footprint of `footprint` bytes lies on the boundary of a cache share of `limit`
   bytes (LEVEL_BOUNDARY_*); never where the limit is unknown (0). */
int level_on_boundary(double footprint, double limit);

/* The bit of a level in a level mask (configs' `levels`, the plan's level filter). */
#define LEVEL_BIT(l) (1u << (l))

#endif
