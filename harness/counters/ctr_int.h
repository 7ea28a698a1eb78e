/* ctr_int.h — what the counter layer's files share with each other and with the unit tests.
 * Nothing outside harness/ctr*.c and tests/unit/test_ctr_*.c should include this; use ctr.h. */
#ifndef PMUCHECK_CTR_INT_H
#define PMUCHECK_CTR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "ctr.h"
#include "ctr_syntax.h"

#define CTR_SYSFS_CPUS "/sys/devices/system/cpu"

struct ctr_set {
	struct ctr_group g;
	int cpu;                     /* socket scope: the CPU counted on; -1 for thread scope */
	int fd[CTR_GROUP_MAX];       /* perf: fd[0] is the group leader */
	uint64_t enabled0, running0; /* perf: the leader's times at the last start (ctr_perf_start) */
	int papi_set;                /* PAPI event set, PAPI_NULL when none */
	long long papi_values[CTR_GROUP_MAX];
	long long t_start, t_stop; /* PAPI: ns around PAPI_start..PAPI_stop */
};

/* ctr_spec.c: whether spec is perf syntax (PMU/terms/ or a perf symbolic name); anything else is a PAPI
   name. */
bool ctr_perf_syntax(const char *spec);
/* Resolves perf syntax: 0 when resolved (status CTR_OK, or CTR_NOT_MEASURED for a PMU this machine
   lacks), E_USAGE when malformed or not perf syntax. pmus is the sysfs directory of PMUs
   (CTR_SYSFS_PMUS; tests pass a fake tree). */
int ctr_perf_parse(const char *pmus, const char *spec, struct ctr_event *ev, struct err *e);
/* A PAPI name of a libpfm4 uncore event (skx_unc_imc0::UNC_M_CAS_COUNT:RD) whose PMU the sysfs tree pmus
   names, resolved for the perf backend instead of PAPI's perf_event_uncore component: perf groups the
   events of one box and reads their time_enabled/time_running, where PAPI opens each uncore event as its
   own leader and reports synthetic times. The attr is libpfm4's (pfm_get_os_event_encoding,
   PFM_OS_PERF_EVENT_EXT: the one PAPI would open); its type is matched with <pmus>/<pmu>/type, and the
   encoding says so (",via=libpfm4:<libpfm4 PMU>"). false: not such an event (PAPI resolves it). */
bool ctr_perf_from_pfm(const char *pmus, const char *spec, struct ctr_event *ev);
/* Space-separated entries of a directory (PMUs, format terms), all of them however many (a two-socket
   Sapphire Rapids has over 100 PMUs): "" where it cannot be read, NULL out of memory. free() it. */
char *ctr_dir_names(const char *dir);

/* ctr_avail.c: the PMUs of the sysfs tree pmus (CTR_SYSFS_PMUS; tests pass a fake tree), each with its
   type and scope, as machine.json's counters.availability.perf_event.pmus gives them. */
json_t *ctr_sysfs_pmus_json(const char *pmus);
/* ctr_list.c: the PMUs of pmus with their aliases, as `pmucheck list events --json` gives them. */
json_t *ctr_list_pmus_json(const char *pmus);

/* ctr_cpumask.c: the CPU to open socket-scope PMU `pmu` on for a run on run_cpu (-1: a probe, any CPU the mask takes), from
   <pmus>/<pmu>/cpumask and <cpus>/cpuN/topology/physical_package_id (CTR_SYSFS_PMUS and
   CTR_SYSFS_CPUS; tests pass fake trees). */
int ctr_cpumask_cpu(const char *pmus, const char *cpus, const char *pmu, int run_cpu);

/* ctr_papi.c: the pool (group-sharing key), counter limit, scope and encoding of a resolved PAPI event
   from its component; ev->spec, backend and papi_code are set. */
void ctr_papi_place(const char *component, int num_cntrs, struct ctr_event *ev);

/* ctr_box_counters.c: the general counters of one uncore box, from libpfm4's table of its PMU, or
   UNCORE_COUNTERS where libpfm4 has none. By libpfm4's name of the PMU ("skx_unc_ubo": 2, the part of a
   PAPI name before "::"), or by the perf type of a PMU of this machine's sysfs (uncore_ubox's type: the
   type libpfm4 encodes its events with, which it reads from CTR_SYSFS_PMUS). */
unsigned ctr_box_counters(const char *pfm_pmu);
unsigned ctr_box_counters_of_type(uint32_t type);

/* ctr_perf.c */
void ctr_perf_probe(struct ctr_event *ev); /* opens the event once; not countable -> CTR_NOT_MEASURED */
/* What an errno from perf_event_open means for the user, with what to do, into buf; pmus is the sysfs
   tree that tells a PMU that is absent (CTR_SYSFS_PMUS; tests pass a fake tree) from one that is here
   but has no such event. sibling: ev's place in the group being opened (0: its leader, or alone). */
void ctr_perf_explain(const char *pmus, int err, const struct ctr_event *ev, unsigned sibling, char *buf,
		      size_t len);
int ctr_perf_open(struct ctr_set *s, struct err *e);
int ctr_perf_start(struct ctr_set *s, struct err *e);
int ctr_perf_stop(struct ctr_set *s, struct err *e);
int ctr_perf_read(struct ctr_set *s, struct ctr_reading *r, struct err *e);
void ctr_perf_close(struct ctr_set *s);
/* Turns what read() returned for a PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING leader
   ({nr, enabled, running, value[nr]}, `bytes` long) into n classified readings. */
void ctr_perf_parse_group_read(const uint64_t *buf, size_t bytes, unsigned n, struct ctr_reading *r);
int ctr_perf_paranoid(void); /* /proc/sys/kernel/perf_event_paranoid, or 99 when unreadable */
/* Whether this process may count the kernel, as perf_event_open decides it (kernel/events/core.c,
   perf_allow_kernel): perf_event_paranoid <= 1, or CAP_PERFMON or CAP_SYS_ADMIN in effect. */
bool ctr_may_count_kernel(void);
/* Whether ev is perf's task-clock or cpu-clock: the task's (or CPU's) time, at every privilege level
   whatever its exclude bits say, and stale when read as a sibling of another software event. */
bool ctr_perf_sw_clock(const struct ctr_event *ev);
/* Whether perf type and config name one of the kernel's software clocks (task-clock, cpu-clock), as the perf
   backend and PAPI's perf_event component (libpfm4's perf::TASK-CLOCK) both open them. */
bool ctr_sw_clock(uint32_t type, uint64_t config);
/* The privilege domain every backend counts a thread-scope event in (ctr.h): "user+kernel" where
   permitted, else "user"; a :u or :k modifier narrows it; software clocks count "user+kernel" and
   socket scope (uncore) "all" always. */
const char *ctr_domain_name(const struct ctr_event *ev);

/* ctr_papi.c */
int ctr_papi_init(char *reason, size_t len); /* once per process; 0 or E_RUNTIME with the reason */
int ctr_papi_resolve(const char *spec, struct ctr_event *ev, struct err *e);
/* What decides a PAPI name's status, gathered by ctr_papi_resolve (tests fake them): PAPI's own view of
   the name and its component, and whether the kernel opens a hardware event at all. */
struct ctr_papi_facts {
	const char *component; /* the component the name belongs (or would belong) to */
	bool comp_disabled;
	const char *comp_reason;   /* PAPI's disabled_reason */
	int name_rc;               /* PAPI_event_name_to_code: PAPI_OK when PAPI knows the name */
	bool preset_unavailable;   /* a preset PAPI_query_event refuses */
	bool software;             /* libpfm4 encodes it as a kernel software event (perf::PAGE-FAULTS,
	                              perf::TASK-CLOCK: PERF_TYPE_SOFTWARE), which needs no PMU */
	bool kernel_hw;            /* ctr_hardware_available(), for the perf_event* components' hardware
	                              events */
	const char *kernel_reason; /* why not, when !kernel_hw */
	int probe_rc;              /* PAPI_add_event in a scratch set, in the run's domain: PAPI_OK when it
	                              opened */
	const char *probe_call;    /* the PAPI call that gave probe_rc; NULL: PAPI_add_event */
};
/* The status of a PAPI name from its facts: CTR_OK, CTR_NOT_MEASURED with the reason (component
   disabled, kernel without a PMU, preset unavailable, probe failed), or E_USAGE for a name PAPI does
   not know where it could check it. */
int ctr_papi_judge(const char *spec, const struct ctr_papi_facts *f, struct ctr_event *ev, struct err *e);
int ctr_papi_open(struct ctr_set *s, struct err *e);
int ctr_papi_start(struct ctr_set *s, struct err *e);
int ctr_papi_stop(struct ctr_set *s, struct err *e);
int ctr_papi_read(struct ctr_set *s, struct ctr_reading *r, struct err *e);
void ctr_papi_close(struct ctr_set *s);

/* The pool prefix of a software clock PAPI's perf_event component counts (perf::TASK-CLOCK): alone, as a
   clock read in a group of other events comes back stale (ctr_spec.c software_pool). */
#define CTR_PAPI_CLOCK_POOL "perf_event-clock:"

/* ctr_cpuid.c: core counters per logical CPU from CPUID (what the PMU has, before anyone uses them). */
void ctr_cpu_counters(unsigned *general, unsigned *fixed);
/* General-purpose counters left for us: CPUID's, minus the one the NMI watchdog holds when it runs. */
unsigned ctr_core_counters_free(void);
/* Whether the kernel counts an event of perf type `type` and config `config` on one of `fixed` fixed
   counters rather than a general one: Intel's fixed counter 0 holds instructions retired (generic
   instructions, raw event 0xc0 umask 0), 1 unhalted core cycles (cycles, raw 0x3c umask 0), 2 reference
   cycles (ref-cycles, the kernel's pseudo-encoding 0x0300) (Linux arch/x86/events/intel/core.c
   FIXED_EVENT_CONSTRAINT; AMD has none). 1 + the fixed counter's number, 0 when none holds it (a struct
   ctr_event's fixed_counter). ctr_on_fixed_counter asks it of this CPU's fixed counters. */
unsigned ctr_fixed_holds(unsigned fixed, uint32_t type, uint64_t config);
unsigned ctr_on_fixed_counter(uint32_t type, uint64_t config);
/* Whether a second event for that fixed counter (1 + its number) has no general counter to go to. */
bool ctr_fixed_only(unsigned fixed_counter);
int ctr_nmi_watchdog(void); /* /proc/sys/kernel/nmi_watchdog: 1, 0, or -1 when unreadable */

#endif
