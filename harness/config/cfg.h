/* cfg.h — per-architecture candidate events and experiment presets, read from INI files.
 *
 * configs/<arch>.ini holds one [arch] section (which CPUs it is for), one [event NAME] section per
 * candidate event with the hypothesis to test, and an [export] section with perf's and LIKWID's names for
 * them; configs/presets.ini holds [preset NAME] sections and their [run PRESET.STEP] experiments.
 * configs/README.md documents every key.
 *
 * Loading is all or nothing: any unknown section or key, duplicate, bad number or missing required key
 * returns E_USAGE with "file:line: message" and leaves *out empty. Whether this machine can count an
 * event is not the loader's business: that is decided (and reported as "not measured") at run time.
 */
#ifndef PMUCHECK_CFG_H
#define PMUCHECK_CFG_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "err.h"
#include "export_names.h"
#include "kern.h"
#include "level.h"

/* Cache levels an event or a run is about (bit mask). */
enum cfg_level {
	CFG_L1 = LEVEL_BIT(LEVEL_L1),
	CFG_L2 = LEVEL_BIT(LEVEL_L2),
	CFG_L3 = LEVEL_BIT(LEVEL_L3),
	CFG_DRAM = LEVEL_BIT(LEVEL_DRAM),
	CFG_LEVELS_ALL = CFG_L1 | CFG_L2 | CFG_L3 | CFG_DRAM,
};

/* Prefetcher states (bit mask). */
enum cfg_prefetch {
	CFG_PF_ON = 1u << 0,
	CFG_PF_OFF = 1u << 1,
	CFG_PF_BOTH = CFG_PF_ON | CFG_PF_OFF,
};

/* Memory placements relative to the measuring CPU (bit mask). */
enum cfg_placement {
	CFG_LOCAL = 1u << 0,
	CFG_REMOTE = 1u << 1,
	CFG_INTERLEAVE = 1u << 2,
};

enum cfg_scope {
	CFG_SCOPE_CORE,   /* counted per thread, summed over the threads of a point */
	CFG_SCOPE_SOCKET, /* uncore: counted once per socket */
};

enum cfg_backend {
	CFG_PAPI, /* a PAPI / libpfm4 name: "L1D:REPLACEMENT", "hswep_unc_imc0::UNC_M_CAS_COUNT:RD" */
	CFG_PERF, /* perf syntax "pmu/term=value,.../" or a perf symbolic name ("page-faults") */
};

/* What an event is expected to count: a kernel volume (kern.h KERN_VOLUME_FIELDS, same order) or the
   core cycles of the point (measured, for stall events). */
enum cfg_quantity {
#define CFG_Q_ENUM(f, presence) CFG_Q_##f,
	KERN_VOLUME_FIELDS(CFG_Q_ENUM)
#undef CFG_Q_ENUM
		CFG_Q_cycles,
	CFG_Q_COUNT,
};

/* "family:model", "family:lo-hi" or "family:*" (models 0..0xff). */
struct cfg_match {
	unsigned family;
	unsigned model_lo, model_hi;
};

#define CFG_MATCH_MAX 32

struct cfg_arch {
	char *name;       /* file stem, e.g. "hsw_ep" */
	char *title;      /* "Intel Haswell-EP (Xeon E5 v3)" */
	char *vendor;     /* CPUID vendor string, or "any" */
	char *pmu;        /* libpfm4 core PMU for PAPI names without "pmu::" (NULL: none) */
	char *pmu_uncore; /* libpfm4 uncore PMUs of this architecture, "skx_unc_imc*,skx_unc_pcu": a
	                     trailing '*' is a kind of numbered boxes (NULL: none) */
	char *prefetch;   /* prefetcher MSR table: intel-1a4, amd-c0000108, none */
	double max_ghz;   /* the highest stock clock of the CPUs it matches, the core clock's bound where
			     neither cpufreq nor CPUID gives this CPU's own (core_clock.h); 0: not given */
	struct kern_ports ports; /* what one core's L1 ports pass per cycle (kern.h); a field 0: not given */
	char *note;
	struct cfg_match match[CFG_MATCH_MAX];
	unsigned nmatch;
	int match_any; /* "match = any": the generic fallback */
	unsigned line;
};

struct cfg_event {
	char *name; /* section name: [event NAME] */
	char *spec; /* what the counter backend is given */
	enum cfg_backend backend;
	enum cfg_quantity quantity;
	double scale; /* expected count = scale x quantity; 0: an unknown share of it (`* ?`) */
	enum cfg_scope scope;
	unsigned levels;    /* enum cfg_level bits where the hypothesis should hold */
	unsigned prefetch;  /* enum cfg_prefetch bits where it should hold */
	unsigned placement; /* enum cfg_placement bits where it should hold */
	char *conflict;     /* events with the same tag share a filter register: never in one group */
	char *unverified;   /* why no table could check the name (NULL: checked) */
	char *note;         /* why this event, and the source of its encoding */
	char *source;       /* where the event came from (pmucheck discover: sysfs, libpfm4, a vendor
	                       file); NULL when the file does not say */
	unsigned line;
};

#define CFG_THREADS_SOCKET 0u /* "socket" in a threads list: every core of the first socket */

struct cfg_list {
	unsigned long long *v;
	unsigned n;
};
/* The most sizes, arguments and thread counts a [run] step may list: a run's (plan.h PLAN_MAX_SIZES,
   PLAN_MAX_ARGS, PLAN_MAX_THREADS; experiment.c asserts they agree), each value once. */
#define CFG_RUN_MAX_SIZES 64
#define CFG_RUN_MAX_ARGS 128
#define CFG_RUN_MAX_THREADS 16

struct cfg_preset {
	char *name;
	char *title;
	char *note;
	unsigned first_run, nruns; /* its runs: cfg.runs[first_run .. first_run + nruns - 1] */
	unsigned line;
};

/* One experiment of a preset: the cross product of its lists. */
struct cfg_run {
	char *name;      /* "PRESET.STEP" */
	unsigned preset; /* index into cfg.presets */
	char **kernels;  /* "family" (every variant) or "family.variant" */
	unsigned nkernels;
	unsigned levels;         /* enum cfg_level bits; sizes are taken from the topology */
	struct cfg_list sizes;   /* explicit sizes in bytes per thread (instead of levels) */
	struct cfg_list threads; /* thread counts; CFG_THREADS_SOCKET = the whole socket */
	struct cfg_list args;    /* the kernel family's argument values (delay, offset, k) */
	unsigned placement;      /* enum cfg_placement bits */
	unsigned prefetch;       /* enum cfg_prefetch bits */
	unsigned quantities;     /* events to count: those expecting one of these (bit per
	                             enum cfg_quantity); 0 = none, ~0u = all */
	unsigned repeat;         /* repetitions per point; 0 = the harness default */
	char *reference;         /* paper figures to show beside, resolved against the file's dir */
	char *note;
	unsigned line;
};

struct cfg {
	char *path;
	struct cfg_arch arch;
	int has_arch;
	struct cfg_event *events;
	unsigned nevents;
	struct cfg_preset *presets;
	unsigned npresets;
	struct cfg_run *runs;
	unsigned nruns;
	struct export_names exports; /* [export]: perf's and LIKWID's names of its events */
	int has_export;
};

/* Loads path into *out (zeroed first). Returns 0, E_USAGE ("file:line: message") or E_RUNTIME
   (cannot read the file). On error *out holds nothing to free. */
int cfg_load(const char *path, struct cfg *out, struct err *e);
/* The same from an open stream; name is used in messages and to resolve reference files. */
int cfg_load_stream(FILE *f, const char *name, struct cfg *out, struct err *e);
void cfg_free(struct cfg *c);

const struct cfg_event *cfg_event_find(const struct cfg *c, const char *name);
const struct cfg_preset *cfg_preset_find(const struct cfg *c, const char *name);
const char *cfg_quantity_name(enum cfg_quantity q);
/* An event's hypothesis for machine.json: {name, quantity, scale, levels, prefetch, placement, scope,
   note}, the masks as word lists ("L1", "on", "local"). */
json_t *cfg_event_hypothesis_json(const struct cfg_event *ev);
/* Whether run r asks for events expecting quantity q. */
int cfg_run_wants(const struct cfg_run *r, enum cfg_quantity q);

/* Perf event syntax "pmu/term[=value],.../[modifiers]" or a perf symbolic name. */
int cfg_perf_symbolic(const char *spec);
int cfg_perf_check(const char *spec, struct err *e);
/* Whether a term name is one of the perf format terms of the x86 PMUs (sysfs format/ files). */
int cfg_perf_term_known(const char *term, size_t len);

/* The config directory: $PMUCHECK_CONFIG_DIR, else configs/ next to the running binary or up to three
   directories above it (build/, build/tests/unit/ ...), else ../share/pmucheck/configs from the binary's
   directory (an installed one). The error names every place looked. */
int cfg_dir(char *buf, size_t len, struct err *e);
/* The path of a file in the config directory. */
int cfg_dir_file(const char *name, char *buf, size_t len, struct err *e);
/* The [export] names of configs/<arch>.ini in the config directory, for `pmucheck export`; none (0, *out
   empty) where the directory has no such file (a config of the user's own, or pmucheck discover's).
   E_USAGE where that file is malformed or no config directory is found. */
int cfg_export_names(const char *arch, struct export_names *out, struct err *e);
/* Chooses the architecture config for a CPU from the [arch] match lists of the .ini files in dir
   (NULL: cfg_dir()): an exact family:model beats a model range, which beats family:*, which beats the
   "match = any" fallback. */
int cfg_select_for_cpu(const char *dir, const char *vendor, unsigned family, unsigned model, char *path,
		       size_t len, struct err *e);
/* The config whose [arch] pmu names libpfm4's core PMU pmu (the first in name order), into path;
   *found is 0 when no file names it (not an error). */
int cfg_select_for_pmu(const char *dir, const char *pmu, char *path, size_t len, int *found, struct err *e);

#endif
