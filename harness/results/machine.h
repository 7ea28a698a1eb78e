/* machine.h — builds machine.json: everything a reader needs to trust a run (docs/results-format.md). */
#ifndef PMUCHECK_MACHINE_H
#define PMUCHECK_MACHINE_H

#include <jansson.h>

#include "core_clock.h"
#include "sysinfo.h"
#include "topo.h"

struct machine_facts {
	const struct sysinfo *sys;
	const struct topo *topo;
	const char *command;            /* the command line */
	const char *started, *finished; /* UTC; finished NULL while running */
	double tsc_hz, core_ghz;        /* core_ghz 0: every sample was rejected, core_clock_note says why */
	double tsc_hz_end; /* the TSC's rate calibrated again as the measurements ended; 0: not */
	const char *core_clock_note;
	const struct clock_bounds *clock; /* borrowed: the bounds the samples were held to */
	const char *aperf_note; /* NULL: the repetitions' clock is APERF/MPERF; else why it is not */
	int threads_max;        /* for the per-thread cache shares */
	json_t *prefetch;       /* borrowed */
	json_t *counters;       /* borrowed: events, groups, availability */
	json_t *probe;          /* borrowed: the level probe (levels_json), NULL when not run */
	json_t *without_point; /* borrowed: the plan's levels with no point at some thread count, NULL: none */
	json_t *config;        /* borrowed: the architecture config used */
	json_t *preset;        /* borrowed: the preset run, NULL for a plain run */
	json_t *disturbance;   /* borrowed: disturb_json over the measurements, NULL until they end */
	int argc;              /* run's arguments (argv[0] = "run"), for --resume */
	char **argv;
	int resumed;
	int points; /* the plan's points, all experiments', for --resume to check; -1 before it is known */
	/* the CPUs the plan's points run on, in order, for --resume to check (nplan_cpus 0: not recorded) */
	const int *plan_cpus;
	int nplan_cpus;
	const char *levels_from; /* --levels-from DIR: whose measured level sizes the run took; else NULL */
};

json_t *machine_json(const struct machine_facts *m);
/* machine.json's clock, from m's tsc_hz, core_ghz, core_clock_note, clock and aperf_note alone: also
   `info --json`'s, so that both name and write the same figures alike. */
json_t *machine_clock_json(const struct machine_facts *m);

/* The library versions machine.json records and `pmucheck version` prints: PAPI's from papi.h, libpfm4's
   and hwloc's from the libraries loaded. */
struct lib_versions {
	char papi[32], libpfm4[32], hwloc[32];
};
void machine_lib_versions(struct lib_versions *v);
/* libpfm4's release, from the library loaded ("4.13.0"), else its API version ("API 4.0"). */
void machine_pfm_version(char *out, size_t len);

#endif
