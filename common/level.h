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

/* The level probe chases on transparent huge pages (harness levels.c); a latency point whose buffer had a
   smaller share of them (raw.csv thp_share; --no-thp gives 0) met TLB misses the probe did not, so the
   probe's time cannot stand for it (analysis/peak.c: probe_ns). */
#define LEVEL_PROBE_THP_SHARE 0.9

/* The bit of a level in a level mask (configs' `levels`, the plan's level filter). */
#define LEVEL_BIT(l) (1u << (l))

#endif
