/* ctr.h — the counter layer: one interface, two backends (perf_event and PAPI).
 *
 * Life of an event list, as the run loop uses it:
 *
 *   ctr_resolve_list(specs)      every spec -> struct ctr_event; all malformed ones named in one error (E_USAGE)
 *   ctr_fixed_events()           cycles, instructions, ref-cycles where this machine counts them
 *   ctr_plan_groups()            events -> groups that fit the counters; never multiplexed
 *   per group, per thread:       ctr_open -> (ctr_start, kernel call, ctr_stop, ctr_read)... -> ctr_close
 *
 * The backend is chosen from the spec's syntax (see ctr_resolve). A resolved event that this machine cannot
 * count is not an error: its status is CTR_NOT_MEASURED with the reason, it is left out of the groups, and
 * its rows say so. Only a malformed or unknown spec is E_USAGE.
 *
 * raw.csv columns from these structs: event = ev.spec, backend = ctr_backend_name(ev.backend),
 * encoding = ev.encoding, scope = ctr_scope_name(ev.scope); count, time_enabled, time_running, status
 * and reason from the ctr_reading, or status and reason from the event when ev.status != CTR_OK.
 *
 * perf's u and k modifiers after the closing '/' set exclude_kernel / exclude_user (ctr_syntax.h).
 * Not supported (yet): hybrid PMUs' per-type fixed events, PAPI's time_running (see ctr_papi.c).
 *
 * Counts are raw: exactly what the counter says, never scaled or extrapolated. Where sysfs gives a scale
 * (uncore aliases such as cas_count_read: 6.103515625e-5 MiB per count) it is kept in the event, and the
 * value in `unit` is count x scale.
 */
#ifndef PMUCHECK_CTR_H
#define PMUCHECK_CTR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "err.h"

#define CTR_SPEC_MAX 256
#define CTR_NAME_MAX 64
#define CTR_ENC_MAX 160
/* a not-measured reason: the longest, an unknown PAPI name on a machine without a PMU, is ~400 bytes */
#define CTR_REASON_MAX 512
#define CTR_GROUP_MAX 16 /* events in one group, fixed events included */
#define CTR_FIXED_MAX 6
/* counters of one uncore box where libpfm4 has no table of its PMU (ctr_box_counters.c): Intel's IMC and CHA
   and AMD's DF and UMC boxes have at least 4 */
#define UNCORE_COUNTERS 4

enum ctr_backend {
	CTR_PERF, /* perf_event_open: perf syntax, sysfs aliases, software events */
	CTR_PAPI, /* PAPI native or preset names, SDE */
};

enum ctr_scope {
	CTR_SCOPE_THREAD, /* counts the thread that opened it, on whatever CPU it runs */
	CTR_SCOPE_SOCKET, /* uncore: counts the whole socket, opened once on one of its CPUs */
};

enum ctr_status {
	CTR_OK,
	CTR_MULTIPLEXED,  /* time_running != time_enabled: extrapolated by the kernel, never used */
	CTR_NOT_MEASURED, /* this machine cannot count it (no PMU, component disabled, permissions) */
	CTR_FAILED,       /* opening or reading failed while measuring */
};

struct ctr_event {
	char spec[CTR_SPEC_MAX]; /* as the user wrote it */
	enum ctr_backend backend;
	enum ctr_scope scope;
	/* Events share a group only within one pool: the perf PMU ("cpu", "software", "uncore_imc_0") or
	   the PAPI component ("perf_event", "sde"). */
	char pool[CTR_NAME_MAX];
	unsigned counters;           /* events of this pool a group can hold; 0: no limit (software) */
	unsigned uses_counter;       /* how many of `counters` it takes: 1; 0 for software events and fixed
	                                counters; a PAPI preset that sums or subtracts n natives, n */
	unsigned fixed_counter;      /* 1 + the Intel fixed counter it is on (uses_counter 0), else 0: one
	                                event of a group has it, another takes a general counter */
	bool fixed;                  /* a reference event ctr_plan_groups adds to every group of its pool */
	uint32_t counter_mask;       /* general counters it may use (bit i: counter i), as the vendor's
	                                "Counter" field says ("0,1,2,3"); 0: any. Callers set it */
	char conflict[CTR_NAME_MAX]; /* events with the same non-empty tag go to different groups: they
	                                share a filter register. Set to "<pmu>:filter" for perf events
	                                that use config1/config2 (Intel offcore response, uncore filters);
	                                callers may set their own tags after resolving */
	char sum_of[CTR_SPEC_MAX];   /* the config's box wildcard this event is one box of (a '*' in place of
	                              the box number), else "": raw.csv gets a row of that name per
	                              repetition with the sum over the boxes, which is what the config's
	                              hypothesis describes (run_record.c) */
	char encoding[CTR_ENC_MAX];  /* as resolved: "type=4,config=0x1003c" or "papi=0x40000012" */
	double scale;                /* value in `unit` = count x scale; 1 when sysfs gives none */
	char unit[16];
	struct {
		uint32_t type;
		uint64_t config, config1, config2;
		bool exclude_kernel; /* the :u modifier, or perf_event_paranoid forbids counting the kernel */
		bool exclude_user;   /* the :k modifier */
	} perf;
	int papi_code;
	enum ctr_status status; /* CTR_OK: countable here; CTR_NOT_MEASURED: see reason */
	char reason[CTR_REASON_MAX];
};

/* One reading of one event: the counter over one start..stop interval. */
struct ctr_reading {
	uint64_t count;        /* raw count; meaningful only when status == CTR_OK */
	uint64_t time_enabled; /* ns */
	uint64_t time_running; /* ns */
	enum ctr_status status;
	char reason[CTR_REASON_MAX];
};

struct ctr_group {
	enum ctr_backend backend;
	enum ctr_scope scope;
	char pool[CTR_NAME_MAX];
	unsigned n;
	const struct ctr_event *ev[CTR_GROUP_MAX]; /* point into the caller's events and fixed events */
};

struct ctr_plan {
	unsigned ngroups;
	struct ctr_group *groups;
};

struct ctr_set; /* an opened group: perf file descriptors or a PAPI event set */

/* Resolves one spec. The backend follows from the syntax:
 *   pmu/term=val,.../    perf; terms from /sys/bus/event_source/devices/<pmu>/format, plus config=,
 *                        config1=, config2=; a term without a value is 1 (inv, edge)
 *   pmu/alias/           perf; /sys/.../<pmu>/events/<alias>, with its .scale and .unit
 *   page-faults, minor-faults, major-faults, task-clock, context-switches, cpu-migrations   perf software
 *   cycles, instructions, ref-cycles, branches, branch-misses, cache-references, cache-misses  perf generic
 *   anything else        a PAPI name (papi_native_avail: L1D:REPLACEMENT, perf::PAGE-FAULTS, sde:::lib::x)
 * Returns E_USAGE naming the event when the spec is malformed or names no event; 0 otherwise, with
 * ev->status CTR_OK or CTR_NOT_MEASURED and the reason. */
int ctr_resolve(const char *spec, struct ctr_event *ev, struct err *e);

/* What ctr_resolve would make of a perf spec (pmu/terms/, pmu/alias/, a perf name) against the sysfs
   tree `pmus` (CTR_SYSFS_PMUS, or a copy of another machine's; tests pass a fake one), without opening
   it: encoding, pool, counters, scope, scale and unit. For discovery, which plans for events it cannot
   count here. */
#define CTR_SYSFS_PMUS "/sys/bus/event_source/devices"
int ctr_describe_sysfs(const char *pmus, const char *spec, struct ctr_event *ev, struct err *e);

/* Resolves n specs into evs[n]. Returns E_USAGE when any is malformed, with every bad one named in e
   (so a run can stop before measuring); the good ones are still resolved. */
int ctr_resolve_list(const char *const *specs, unsigned n, struct ctr_event *evs, struct err *e);

/* Splits a comma-separated event list, keeping the commas inside perf's /.../ together
   ("cpu/event=0x3c,umask=0/,page-faults" -> 2 specs). *specs is one allocation; free() it. */
int ctr_split_list(const char *list, char ***specs, unsigned *n, struct err *e);

/* The reference events this machine can count, ready for ctr_plan_groups: perf cycles, instructions,
   ref-cycles and PAPI's PAPI_TOT_CYC, PAPI_TOT_INS, PAPI_REF_CYC. Returns how many (0 here, no PMU). */
unsigned ctr_fixed_events(struct ctr_event fixed[CTR_FIXED_MAX]);

/* Splits the countable events (status CTR_OK) into groups of one backend, scope and pool, each holding
   at most the pool's `counters` counter-using events, no two with the same conflict tag, and only
   events that can each have a counter of their counter_mask at once, in the order given; then adds the fixed events of the group's pool to every group. Events not CTR_OK are left
   out (their rows are written from the event itself). */
int ctr_plan_groups(const struct ctr_event *evs, unsigned n, const struct ctr_event *fixed, unsigned nfixed,
		    struct ctr_plan *plan, struct err *e);
void ctr_plan_free(struct ctr_plan *plan);

/* Opens a group for counting, pinned (it must always be on the counters, or it reads as failed).
 * Thread scope: counts the calling thread (perf pid=0, cpu=-1; PAPI registers the thread), so each
 * OpenMP thread opens its own. Socket scope: counts the socket of `cpu` system-wide; open it once per
 * socket. cpu is ignored for thread scope. Returns E_RUNTIME with the reason when it cannot be opened. */
int ctr_open(const struct ctr_group *g, int cpu, struct ctr_set **set, struct err *e);
/* The CPU a socket-scope group asked to count from `cpu` is really opened on (a perf uncore PMU takes
   only the CPUs of its cpumask: an AMD UMC box the one of its own socket): two sockets that give the
   same CPU would count the same box twice. */
int ctr_open_cpu(const struct ctr_group *g, int cpu);
int ctr_start(struct ctr_set *set, struct err *e); /* resets and enables */
int ctr_stop(struct ctr_set *set, struct err *e);
/* One reading per event of the group, in group order (r[g->n]). A reading whose time_running differs
   from time_enabled is CTR_MULTIPLEXED and must not be used. */
int ctr_read(struct ctr_set *set, struct ctr_reading *r, struct err *e);
void ctr_close(struct ctr_set *set);

/* Classifies one reading from its times: CTR_OK, CTR_MULTIPLEXED, or CTR_FAILED when the event never
   ran (a pinned group the PMU could not schedule). Fills r->status and r->reason. */
void ctr_classify(struct ctr_reading *r);

const char *ctr_status_name(enum ctr_status s);   /* "ok", "multiplexed", "not_measured", "failed" */
const char *ctr_backend_name(enum ctr_backend b); /* "perf", "papi" */
const char *ctr_scope_name(enum ctr_scope s);     /* "thread", "socket" */

/* What this machine can count, backend by backend (pmucheck list events): perf's software and
   generic events with their status, the sysfs PMUs with their aliases, PAPI's components with their
   native events or the reason they are disabled. The JSON is documented in docs/results-format.md
   ("JSON on stdout"); the text listing prints the same object. */
json_t *ctr_list_events_json(void);
void ctr_list_events_print(const json_t *list, FILE *f);

/* Counter availability, in words, with what to do about each problem (pmucheck info, machine.json).
   ctr_hardware_available returns 1 when hardware events can be counted, else 0 and the reason (len 0:
   none). */
int ctr_hardware_available(char *reason, size_t len);
/* libpfm4's core PMU here (its first present one whose names, looked up without "pmu::", are its own:
   "skx", "amd64_fam17h_zen1" and not its deprecated alias amd64_fam17h, or the one LIBPFM_FORCE_PMU
   names), the PMU a PAPI name without "pmu::" belongs to; 1 with its name, 0 when libpfm4 detects none
   (a VM without a PMU) or fails. */
int ctr_pfm_core_pmu(char *name, size_t len);
void ctr_availability_print(FILE *f);
json_t *ctr_availability_json(void);

#endif
