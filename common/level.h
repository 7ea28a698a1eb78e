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

/* The bit of a level in a level mask (configs' `levels`, the plan's level filter). */
#define LEVEL_BIT(l) (1u << (l))

#endif
