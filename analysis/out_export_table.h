/* out_export_table.h — perf's and LIKWID's names for a core event, looked up by its encoding. */
#ifndef PMUCHECK_OUT_EXPORT_TABLE_H
#define PMUCHECK_OUT_EXPORT_TABLE_H

/* What a core counter is programmed with (x86 PERFEVTSEL fields, offcore response in config1). */
struct out_hw {
	unsigned event, umask, cmask, inv, edge;
	unsigned long long config1;
};

struct out_event_name {
	const char *arch; /* configs/<arch>.ini stem */
	unsigned event, umask, cmask;
	unsigned long long offcore;
	const char *perf;   /* perf's pmu-events name, or NULL */
	const char *likwid; /* LIKWID's event name (a PMC event), or NULL */
};

struct out_uncore_name {
	const char *arch, *pmu; /* perf's PMU name without the box number: "amd_df" */
	unsigned event, umask;
	const char *likwid, *lclass; /* LIKWID's name and counter class ("DFC", "CPMC", "MBOX") */
};

/* 0 and *hw when encoding (raw.csv's spelling) programs a core counter; -1 otherwise. */
int out_hw_decode(const char *encoding, struct out_hw *hw);
/* The names of that event on arch, or NULL when neither table has it. */
const struct out_event_name *out_event_lookup(const char *arch, const struct out_hw *hw);
/* LIKWID's name of an uncore event given in perf syntax, or NULL. */
const struct out_uncore_name *out_uncore_lookup(const char *arch, const char *pmu, unsigned event,
						unsigned umask);
/* LIKWID's group directory for arch ("skylakeX"), or NULL when no LIKWID names are derived for it. */
const char *out_likwid_dir(const char *arch);

#endif
