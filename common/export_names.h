/* export_names.h — the names perf and LIKWID give the events a config counts, as configs/<arch>.ini's
 * [export] section lists them (configs/README.md): read by the config loader (harness cfg_export.c), looked
 * up by `pmucheck export` (analysis out_export_names.c). Kept in the configs, not in C, so that adding an
 * architecture stays one config file. Core events are keyed by what the counter is programmed with (event
 * code, umask, counter mask, offcore response), never by the spelling of a name. */
#ifndef PMUCHECK_EXPORT_NAMES_H
#define PMUCHECK_EXPORT_NAMES_H

struct export_core_name {
	unsigned event, umask, cmask;
	unsigned long long offcore;
	char *perf;   /* perf's pmu-events name, or NULL */
	char *likwid; /* LIKWID's event name (a PMC event), or NULL */
};

struct export_uncore_name {
	char *pmu; /* perf's PMU name without the box number: "amd_df" */
	unsigned event, umask;
	char *likwid, *lclass; /* LIKWID's name and counter class ("DFC", "CPMC", "MBOX") */
	unsigned lunits;       /* the boxes of that class LIKWID defines on the architecture; 0: not given */
};

struct export_names {
	char *likwid_dir; /* LIKWID's group directory for the architecture ("skylakeX"), or NULL */
	struct export_core_name *core;
	unsigned ncore;
	struct export_uncore_name *uncore;
	unsigned nuncore;
};

/* What a core counter is programmed with: the x86 PERFEVTSEL fields, the same on AMD and Intel, and the
   offcore response beside them (perf's config1). */
struct export_hw {
	unsigned event, umask, cmask, inv, edge;
	unsigned long long offcore;
};

/* The fields of a PERFEVTSEL value (perf's config; AMD's event bits 8-11 sit in bits 32-35) and config1. */
void export_hw_of(unsigned long long config, unsigned long long config1, struct export_hw *hw);

/* The names of a core event, or NULL when the list has none. n may be NULL (no list). */
const struct export_core_name *export_core_lookup(const struct export_names *n, unsigned event,
						  unsigned umask, unsigned cmask, unsigned long long offcore);
/* LIKWID's name of an uncore event given in perf syntax, or NULL. */
const struct export_uncore_name *export_uncore_lookup(const struct export_names *n, const char *pmu,
						      unsigned event, unsigned umask);
void export_names_free(struct export_names *n);

#endif
