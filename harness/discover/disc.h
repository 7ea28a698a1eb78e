/* disc.h — discovery: every event a CPU can name, as candidates for a run that finds what each counts.
 *
 * Candidates come from three sources, each recorded per event (docs/discover.md):
 *   disc_sysfs   the kernel's aliases of every PMU (<pmus>/<pmu>/events/<alias>, with .scale and .unit)
 *   disc_pfm     libpfm4's table of the detected PMUs (or of the PMUs named, with LIBPFM_FORCE_PMU /
 *                LIBPFM_ENCODE_INACTIVE=1 for another CPU's, with the uncore PMUs its config's
 *                [arch] pmu_uncore names): every event with libpfm4's default umasks, each umask
 *                alone, and the unions of umasks libpfm4 ORs
 *   disc_vendor  a vendor event file: Intel's perfmon JSON or the kernel's tools/perf/pmu-events JSON
 * then filtered (disc_filter) and planned into groups that fit the counters (disc_plan). The run itself
 * is an ordinary run of these events; candidates.json in the results directory keeps each one's source
 * for the analysis, which writes the discovered config.
 */
#ifndef PMUCHECK_DISC_H
#define PMUCHECK_DISC_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "ctr.h"
#include "err.h"

#define DISC_NAME_MAX 128
#define DISC_SOURCE_MAX 320
#define DISC_DESC_MAX 200
/* More entries than any one CPU's event file holds (Intel's Sapphire Rapids uncore file, the largest,
   has about 1700; a perf pmu-events file a few hundred): beyond it the file is refused, not read. */
#define DISC_VENDOR_MAX 20000

enum disc_origin { DISC_SYSFS, DISC_LIBPFM, DISC_VENDOR, DISC_GIVEN, DISC_ORIGINS };
extern const char *const disc_origin_names[DISC_ORIGINS]; /* "sysfs", "libpfm4", "vendor", "given" */

struct disc_cand {
	char name[DISC_NAME_MAX]; /* the config's [event NAME]: L2_RQSTS.ALL_DEMAND_DATA_RD, cas_count_read */
	char spec[CTR_SPEC_MAX];  /* what the counter layer is given: skx::L2_RQSTS:ALL_DEMAND_DATA_RD,
	                             cpu/event=0x24,umask=0xe7/, uncore_imc_0/cas_count_read/ */
	char pmu[CTR_NAME_MAX];   /* its PMU: libpfm4's (skx), sysfs's (uncore_imc_0) or perf's (cpu) */
	enum disc_origin origin;
	char source[DISC_SOURCE_MAX]; /* where exactly: the sysfs file, libpfm4 version and PMU, the file */
	char desc[DISC_DESC_MAX];
	bool uncore;              /* counted once per socket */
	bool has_config;          /* config/config1 known (libpfm4, vendor files): the raw encoding */
	uint64_t config, config1; /* perf_event_attr's, as perf would program the core PMU */
	unsigned counters;        /* general counters of its PMU; 0: free-running (software, msr) */
	uint32_t counter_mask;    /* counters it may use, 0: any */
	double scale;             /* sysfs .scale, vendor ScaleUnit; 1 when none */
	char unit[16];
};

struct disc_list {
	struct disc_cand *c;
	unsigned n, cap;
	unsigned *index, index_size; /* spec hash -> candidate + 1, for duplicates in linear time */
	unsigned skipped; /* entries of the sources that are no countable event (metrics, fixed-only,
	                     encodings libpfm4 refuses), for the summary */
};

/* Adds c unless an event with the same spec is already listed (the first source wins). */
int disc_add(struct disc_list *l, const struct disc_cand *c, struct err *e);
void disc_free(struct disc_list *l);

/* The aliases of every PMU in the sysfs tree pmus (CTR_SYSFS_PMUS or a fake one). */
int disc_sysfs(const char *pmus, struct disc_list *l, struct err *e);

/* libpfm4's events of the PMUs whose names match one of the comma-separated fnmatch patterns
   (NULL: the PMUs libpfm4 detects here, its generic "perf" tables left out, and the uncore PMUs of
   uncore, the architecture config's [arch] pmu_uncore list, NULL: none). A kind of numbered boxes of
   that list ("skx_unc_imc*") is read once, as the box wildcard. *npmus gets how many PMUs were read;
   version names libpfm4's version ("4.13"). */
int disc_pfm(const char *pmu_patterns, const char *uncore, struct disc_list *l, unsigned *npmus,
	     char *version, size_t len, struct err *e);

/* A vendor event file (JSON array of events, or Intel's {"Header", "Events"}). E_USAGE naming the file,
   the entry and the field for anything that is no such file; nothing is added then. */
int disc_vendor(const char *path, struct disc_list *l, struct err *e);

/* Extra events given by name (perf or PAPI syntax), source "given". */
int disc_given(const char *list, struct disc_list *l, struct err *e);

/* Keeps the candidates that pass: pmu_patterns (their PMU), only (name or spec, case-insensitive
   fnmatch patterns; NULL: the default of memory-hierarchy, stall and memory-uncore events, unless
   all), then at most max of them (0: no limit). Patterns are comma-separated. */
struct disc_filter {
	const char *pmus;
	const char *only;
	bool all;
	unsigned max;
};
int disc_filter_apply(struct disc_list *l, const struct disc_filter *f, struct err *e);
/* Whether s matches one of the comma-separated fnmatch patterns, case ignored. */
bool disc_patterns_match(const char *patterns, const char *s);

/* The plan of groups for the CPU the candidates belong to (not this machine): each candidate with its
   PMU's counters, counter mask and filter conflicts, grouped as a run groups them (ctr_plan_groups). */
struct disc_plan {
	struct ctr_event *evs; /* one per candidate, same order */
	unsigned nev;
	struct ctr_plan groups;
};
int disc_plan_build(const struct disc_list *l, struct disc_plan *p, struct err *e);
void disc_plan_free(struct disc_plan *p);

/* Seconds a run of `points` points with `groups` event groups takes at least (one repetition of every
   group) and typically (three, when a point settles at once): every point has a warm-up of about
   two calls, then per repetition and group an R-pass and a 2R-pass call of at least min_s each;
   call_s[i] is point i's one-pass time where a pass outlasts min_s (a DRAM sweep). */
void disc_estimate(const double *call_s, unsigned points, unsigned groups, double min_s, double *least_s,
		   double *typical_s);

/* candidates.json: every candidate with its source, and the plan's groups. */
json_t *disc_json(const struct disc_list *l, const struct disc_plan *p);

#endif
