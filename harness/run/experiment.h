/* experiment.h — what one run measures. A plain run is one experiment (the command line); a preset
 * (configs/presets.ini) is one experiment per step. Each has its plan options, its prefetcher states and
 * the events it counts: the ones named with --events (refused if bad), or the candidate events of the
 * architecture's config that its step asks for (recorded as not measured if this machine cannot count
 * them). */
#ifndef PMUCHECK_EXPERIMENT_H
#define PMUCHECK_EXPERIMENT_H

#include <limits.h>

#include "cfg.h"
#include "cpu_id.h"
#include "plan.h"
#include "run_events.h"
#include "topo.h"

struct experiment {
	char name[96];          /* "" for a plain run, else the preset step "molka2017.core" */
	char at[PATH_MAX + 16]; /* a preset step's file and the line of its [run] section: "presets.ini:12" */
	struct plan_opts opts;
	char kernels[256]; /* opts.kernels of a preset step */
	int reps;
	const char *reference; /* the paper's figures to show beside (a path), or NULL */
	const char *note;
	char skipped[512]; /* what of the step this machine cannot do, in words */
	struct plan plan;
	struct run_events ev;
	json_t *hypotheses; /* the config's hypothesis per event, keyed by its raw.csv name; NULL: --events */
};

/* The config for this machine: --config when given, else chosen by CPUID from the config directory.
   No config directory is not an error: *found is 0 and the run counts no candidate events. */
int experiment_load_config(const char *path, const struct cpuid_info *cpu, struct cfg *c, int *found,
			   char *chosen, size_t len, struct err *e);
/* The config's [arch] pmu beside libpfm4's core PMU on this machine (or the one LIBPFM_FORCE_PMU
   names), for machine.json's config.pmu: {"config", "libpfm4" (null where none), "agrees", "note"}.
   Where both are known and differ, warning gets why in words (else ""): the config's PAPI names
   without "pmu::" belong to the config's PMU, and libpfm4 resolves them against its own. */
json_t *experiment_pmu_json(const struct cfg *c, char *warning, size_t len);

/* One experiment from the command line: events from --events (strict) or, when none is given, every
   candidate event of the config (lenient). */
int experiment_plain(struct experiment *x, const struct plan_opts *base, int reps, const char *events,
		     int keep_going, const struct cfg *arch, struct err *e);

/* 0 where presets has one of that name, else E_USAGE naming the ones it has. */
int experiment_preset_known(const struct cfg *presets, const char *name, struct err *e);

/* Error r of experiment x as the user reads it: a preset step's prefixed with its file, line and name (the
   step's values are the file's, not options of the command line that the message may name); r itself. */
int experiment_error(const struct experiment *x, int r, struct err *e);
/* One experiment per step of preset `name` from the presets config, on this machine's topology. The
   steps of which nothing can run here are left out; they and the steps that run in part are named in
   `skipped`, a line each: "STEP here: why", "part of STEP here: what is left out". */
int experiment_preset(const struct cfg *presets, const char *name, const struct cfg *arch,
		      const struct plan_opts *base, int reps, const struct topo *t, struct experiment **out,
		      int *n, char *skipped, size_t len, struct err *e);

void experiment_free(struct experiment *x);

#endif
