/* ctr_papi.c — the PAPI backend: names as papi_native_avail lists them, PAPI presets, and SDE.
 *
 * PAPI is initialised once per process with thread support; each thread that counts opens its own
 * event set after PAPI_register_thread, as PAPI requires for per-thread counting. PAPI does not
 * multiplex unless asked (we never ask): a set that does not fit the counters is refused by
 * PAPI_add_event with PAPI_ECNFLCT, so an opened set always counts the whole time. PAPI does not report
 * time_enabled/time_running; the readings carry the wall time between PAPI_start and PAPI_stop as both.
 */
#define _GNU_SOURCE /* memmem */
#include <inttypes.h>
#include <papi.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ctr_int.h"

static pthread_once_t papi_once = PTHREAD_ONCE_INIT;
static int papi_rc;
static char papi_reason[CTR_REASON_MAX];

/* PAPI needs a unique id per thread; pthread_self is unique for every thread, in or outside an OpenMP
   team (omp_get_thread_num repeats across teams and outside parallel regions). */
static unsigned long thread_id(void)
{
	return (unsigned long)pthread_self();
}

static const char *papi_msg(int rc)
{
	const char *s = PAPI_strerror(rc);

	return s ? s : "unknown PAPI error";
}

static void papi_init_once(void)
{
	int rc = PAPI_library_init(PAPI_VER_CURRENT);

	if (rc != PAPI_VER_CURRENT) {
		papi_rc = E_RUNTIME;
		snprintf(papi_reason, sizeof papi_reason, "PAPI_library_init: %s (code %d)",
			 rc > 0 ? "header and library versions differ" : papi_msg(rc), rc);
		return;
	}
	rc = PAPI_thread_init(thread_id);
	if (rc != PAPI_OK) {
		papi_rc = E_RUNTIME;
		snprintf(papi_reason, sizeof papi_reason, "PAPI_thread_init: %s", papi_msg(rc));
	}
}

int ctr_papi_init(char *reason, size_t len)
{
	pthread_once(&papi_once, papi_init_once);
	if (papi_rc && reason)
		snprintf(reason, len, "%s", papi_reason);
	return papi_rc;
}

/* The component a name would belong to, to explain why PAPI does not know it. */
static int owner_component(const char *name)
{
	const char *sep = strstr(name, "::");

	if (!strncmp(name, "sde:::", 6))
		return PAPI_get_component_index("sde");
	if (sep && memmem(name, sep - name, "unc", 3))
		return PAPI_get_component_index("perf_event_uncore");
	return PAPI_get_component_index("perf_event");
}

/* PAPI's SDE component accepts any sde::: name as a placeholder for a library that may register it
   later, and reads such a placeholder as -1. We measure now, so a name that no loaded library has
   registered is a typo: ask PAPI which SDE events exist before naming one (naming creates it). */
static bool sde_registered(const char *name)
{
	int cidx = PAPI_get_component_index("sde"), code = PAPI_NATIVE_MASK;
	char n[PAPI_HUGE_STR_LEN];

	if (cidx < 0 || PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
		return false;
	do {
		if (PAPI_event_code_to_name(code, n) == PAPI_OK && !strcmp(n, name))
			return true;
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	return false;
}

/* PAPI components whose events the kernel counts in hardware (core or uncore PMUs); all but the kernel's
   software events, which libpfm4's "perf" PMU lists beside its generic hardware ones (perf::PAGE-FAULTS
   beside perf::CYCLES) and PAPI's perf_event component counts without any PMU. */
static bool hardware_component(const char *name)
{
	return !strncmp(name, "perf_event", 10);
}

int ctr_papi_judge(const char *spec, const struct ctr_papi_facts *f, struct ctr_event *ev, struct err *e)
{
	if (f->comp_disabled) {
		ev->status = CTR_NOT_MEASURED;
		snprintf(ev->reason, sizeof ev->reason,
			 "PAPI component %s is disabled (%s), so PAPI cannot count or check this name",
			 f->component, f->comp_reason);
		return 0;
	}
	/* libpfm4 knowing the CPU makes PAPI's perf_event component report itself enabled, also on a
	   VM whose kernel counts nothing: what the kernel opens decides, never the library's report. */
	if (hardware_component(f->component) && !f->software && !f->kernel_hw) {
		ev->status = CTR_NOT_MEASURED;
		snprintf(ev->reason, sizeof ev->reason,
			 "the kernel counts no hardware event here (%s); "
			 "PAPI's %s component reports itself enabled only because libpfm4 knows this "
			 "CPU%s",
			 f->kernel_reason, f->component,
			 f->name_rc != PAPI_OK ? ", and it does not know this name either" : "");
		return 0;
	}
	if (f->name_rc != PAPI_OK)
		return err_set(e, E_USAGE,
			       "event '%s': PAPI does not know this event (%s); see "
			       "papi_native_avail or 'pmucheck list events'",
			       spec, papi_msg(f->name_rc));
	if (f->preset_unavailable) {
		ev->status = CTR_NOT_MEASURED;
		snprintf(ev->reason, sizeof ev->reason,
			 "PAPI preset %s is not available on this machine "
			 "(papi_avail lists which are)",
			 spec);
		return 0;
	}
	if (f->probe_rc != PAPI_OK) {
		ev->status = CTR_NOT_MEASURED;
		snprintf(ev->reason, sizeof ev->reason, "PAPI could not open it on this machine (%s: %s)",
			 f->probe_call ? f->probe_call : "PAPI_add_event", papi_msg(f->probe_rc));
	}
	return 0;
}

/* A thread-scope set of PAPI's perf_event component counts in the domain perf counts in too
   (ctr_domain_name), where PAPI's own default is user only: set before any event is added, by the probe
   as by ctr_papi_open, so that an event is judged in the domain it is counted in. PAPI_OK, or PAPI's error
   with the call that gave it in *call. (A software clock's pool needs none: the clock ignores the
   exclude bits.) */
static int set_domain(int set, const struct ctr_event *ev, const char **call)
{
	PAPI_option_t opt;
	int rc;

	if (strcmp(ev->pool, "perf_event") || strcmp(ctr_domain_name(ev), "user+kernel"))
		return PAPI_OK;
	*call = "PAPI_assign_eventset_component";
	rc = PAPI_assign_eventset_component(set, PAPI_get_event_component(ev->papi_code));
	if (rc != PAPI_OK)
		return rc;
	memset(&opt, 0, sizeof opt);
	opt.domain.eventset = set;
	opt.domain.domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
	*call = "PAPI_set_opt(PAPI_DOMAIN)";
	return PAPI_set_opt(PAPI_DOMAIN, &opt);
}

/* Opens the event once in a scratch event set, as a run would, in the run's domain: PAPI's perf_event
   component calls perf_event_open when an event is added. Socket-scope (uncore) sets need a CPU attached
   first, which ctr_papi_open does; those are left to the run. *call: the call that gave the result. */
static int papi_probe(const struct ctr_event *ev, const char **call)
{
	int set = PAPI_NULL, rc;

	if (ev->scope == CTR_SCOPE_SOCKET)
		return PAPI_OK;
	*call = "PAPI_register_thread";
	if ((rc = PAPI_register_thread()) != PAPI_OK)
		return rc;
	*call = "PAPI_create_eventset";
	if ((rc = PAPI_create_eventset(&set)) != PAPI_OK)
		return rc;
	if ((rc = set_domain(set, ev, call)) == PAPI_OK) {
		*call = "PAPI_add_event";
		rc = PAPI_add_event(set, ev->papi_code);
	}
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	return rc;
}

/* The encoding a PAPI event's rows carry: its code, component and the domain it counts in. */
static void papi_encoding(struct ctr_event *ev, const char *component)
{
	snprintf(ev->encoding, sizeof ev->encoding, "papi=0x%x,component=%s,domain=%s",
		 (unsigned)ev->papi_code, component, ctr_domain_name(ev));
}

void ctr_papi_place(const char *component, int num_cntrs, struct ctr_event *ev)
{
	const char *colons = strstr(ev->spec, "::");

	snprintf(ev->pool, sizeof ev->pool, "%s", component);
	ev->counters = num_cntrs > 0 ? (unsigned)num_cntrs : 0;
	ev->uses_counter = ev->counters > 0;
	if (strstr(component, "uncore")) {
		ev->scope = CTR_SCOPE_SOCKET;
		/* perf_event_uncore's num_cntrs is the sum over every uncore PMU it found, while each box
		   (skx_unc_imc0, the part of the name before "::", libpfm4's name of its PMU) has its own
		   few counters: group per box, with one box's counters. */
		if (colons) {
			char box[CTR_NAME_MAX];
			snprintf(box, sizeof box, "%.*s", (int)(colons - ev->spec), ev->spec);
			snprintf(ev->pool, sizeof ev->pool, "%s:%s", component, box);
			ev->counters = ctr_box_counters(box);
		}
	}
	papi_encoding(ev, component);
}

/* The one native event behind a PAPI code: the native itself, a preset's only native, or NULL for a
   preset that sums or subtracts natives (no one encoding). */
static const char *single_native(int code, const PAPI_event_info_t *info)
{
	if (!IS_PRESET(code))
		return info->symbol;
	return info->count == 1 && !strcmp(info->derived, "NOT_DERIVED") ? info->name[0] : NULL;
}

/* The perf_event attr libpfm4 gives PAPI's perf_event component for a native event: PAPI opens the
   event with it (pfm_get_os_event_encoding in its perf_event component). false: libpfm4 encodes none. */
static bool pfm_attr(const char *native, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;

	memset(attr, 0, sizeof *attr);
	memset(&arg, 0, sizeof arg);
	arg.attr = attr;
	arg.size = sizeof arg;
	return pfm_get_os_event_encoding(native, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg) == PFM_SUCCESS;
}

/* Appends the hardware encoding libpfm4 gives PAPI's perf_event component for this event (a preset:
   for its one native event, whose attr is given; NULL where libpfm4 encodes none), so that exports can
   name the event as perf and LIKWID do, by event code and umask. */
static void hw_encoding(struct ctr_event *ev, const char *native, const struct perf_event_attr *attr)
{
	size_t n = strlen(ev->encoding);

	if (strcmp(ev->pool, "perf_event") || !native)
		return;
	if (IS_PRESET(ev->papi_code))
		n += (size_t)snprintf(ev->encoding + n, sizeof ev->encoding - n, ",native=%s", native);
	if (n >= sizeof ev->encoding || !attr || attr->type != PERF_TYPE_RAW)
		return;
	n += (size_t)snprintf(ev->encoding + n, sizeof ev->encoding - n, ",config=0x%" PRIx64,
			      (uint64_t)attr->config);
	if (attr->config1 && n < sizeof ev->encoding)
		snprintf(ev->encoding + n, sizeof ev->encoding - n, ",config1=0x%" PRIx64,
			 (uint64_t)attr->config1);
}

/* The core counters a perf_event component's event takes, as the perf backend reckons them (ctr_spec.c):
   PAPI's num_cntrs is libpfm4's general and fixed counters together (7 on a Skylake with SMT: 4 + 3) with
   the NMI watchdog's not taken off, so a group planned to it did not fit: the kernel refuses a pinned
   leader it cannot schedule, and every event of the group failed. A native the kernel puts on a fixed
   counter takes none (as the one event of its group there: fixed_counter, which ctr_plan_groups checks),
   nor one it counts in software; a preset derived from n natives takes n. attr: its one
   native's, NULL where it has none libpfm4 encodes. */
static void core_counters(struct ctr_event *ev, const PAPI_event_info_t *info,
			  const struct perf_event_attr *attr)
{
	if (strcmp(ev->pool, "perf_event"))
		return;
	ev->counters = ctr_core_counters_free();
	if (!attr) {
		ev->uses_counter = IS_PRESET(ev->papi_code) && info->count > 1 ? (unsigned)info->count : 1;
		return;
	}
	ev->fixed_counter = ctr_on_fixed_counter(attr->type, attr->config); /* 0 for a software one */
	ev->uses_counter = attr->type != PERF_TYPE_SOFTWARE && !ev->fixed_counter;
	/* a software clock read in a group of other events comes back stale, as the perf backend found
	   (ctr_spec.c software_pool): alone, in a pool of its own */
	if (ctr_sw_clock(attr->type, attr->config)) {
		snprintf(ev->pool, sizeof ev->pool, "%s%s", CTR_PAPI_CLOCK_POOL, ev->spec);
		papi_encoding(ev, "perf_event");
	}
}

/* The event's pool, counters and encoding, from its one native's perf attr, read once; returns whether the
   kernel counts it in software (perf::PAGE-FAULTS: no PMU needed). */
static bool traits(struct ctr_event *ev, const PAPI_event_info_t *info)
{
	const PAPI_component_info_t *c = PAPI_get_component_info(info->component_index);
	const char *native = single_native(ev->papi_code, info);
	struct perf_event_attr attr;
	bool have = native && pfm_attr(native, &attr);

	ctr_papi_place(c ? c->name : "?", c ? c->num_cntrs : 0, ev);
	core_counters(ev, info, have ? &attr : NULL);
	hw_encoding(ev, native, have ? &attr : NULL);
	return have && attr.type == PERF_TYPE_SOFTWARE;
}

int ctr_papi_resolve(const char *spec, struct ctr_event *ev, struct err *e)
{
	struct ctr_papi_facts f = {.name_rc = PAPI_OK, .probe_rc = PAPI_OK, .kernel_hw = true};
	const PAPI_component_info_t *c;
	char name[CTR_SPEC_MAX], kernel_reason[CTR_REASON_MAX] = "";
	PAPI_event_info_t info;
	int cidx, rc;

	ev->backend = CTR_PAPI;
	ev->scope = CTR_SCOPE_THREAD;
	ev->scale = 1.0;
	if (ctr_papi_init(ev->reason, sizeof ev->reason)) {
		ev->status = CTR_NOT_MEASURED;
		return 0;
	}
	if (!strncmp(spec, "sde:::", 6) && !sde_registered(spec))
		return err_set(e, E_USAGE,
			       "event '%s': PAPI's SDE component lists no such event (no "
			       "loaded library registered it)",
			       spec);
	snprintf(name, sizeof name, "%s", spec);
	f.name_rc = PAPI_event_name_to_code(name, &ev->papi_code);
	if (f.name_rc == PAPI_OK) {
		rc = PAPI_get_event_info(ev->papi_code, &info);
		if (rc != PAPI_OK)
			return err_set(e, E_RUNTIME, "event '%s': PAPI_get_event_info: %s", spec,
				       papi_msg(rc));
		f.software = traits(ev, &info);
		cidx = info.component_index;
	} else {
		cidx = owner_component(spec);
	}
	c = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
	f.component = c ? c->name : "perf_event";
	f.comp_disabled = c && c->disabled;
	f.comp_reason = c ? c->disabled_reason : "";
	if (hardware_component(f.component) && !f.software && !f.comp_disabled) {
		f.kernel_hw = ctr_hardware_available(kernel_reason, sizeof kernel_reason);
		f.kernel_reason = kernel_reason;
	}
	if (f.name_rc == PAPI_OK && !f.comp_disabled && f.kernel_hw) {
		/* Presets always have a code; whether this machine can count one is a separate question. */
		f.preset_unavailable = IS_PRESET(ev->papi_code) && PAPI_query_event(ev->papi_code) != PAPI_OK;
		if (!f.preset_unavailable)
			f.probe_rc = papi_probe(ev, &f.probe_call);
	}
	return ctr_papi_judge(spec, &f, ev, e);
}

static int fail(struct err *e, const char *what, const char *spec, int rc)
{
	return err_set(e, E_RUNTIME, "%s %s: %s", what, spec, papi_msg(rc));
}

/* Socket scope: the set counts the whole CPU (uncore), not the thread that opened it. */
static int attach_cpu(struct ctr_set *s, struct err *e)
{
	PAPI_option_t opt;
	int cidx = PAPI_get_event_component(s->g.ev[0]->papi_code), rc;

	rc = PAPI_assign_eventset_component(s->papi_set, cidx);
	if (rc != PAPI_OK)
		return fail(e, "PAPI_assign_eventset_component for", s->g.ev[0]->spec, rc);
	memset(&opt, 0, sizeof opt);
	opt.cpu.eventset = s->papi_set;
	opt.cpu.cpu_num = s->cpu;
	rc = PAPI_set_opt(PAPI_CPU_ATTACH, &opt);
	if (rc != PAPI_OK)
		return fail(e, "PAPI_set_opt(PAPI_CPU_ATTACH) for", s->g.ev[0]->spec, rc);
	return 0;
}

int ctr_papi_open(struct ctr_set *s, struct err *e)
{
	const char *call;
	char what[64];
	int rc;

	s->papi_set = PAPI_NULL;
	if (ctr_papi_init(e ? e->msg : NULL, ERR_MSG_MAX))
		return E_RUNTIME;
	/* Registering an already registered thread is a no-op. The thread stays registered after
	   ctr_close: OpenMP keeps its threads for the next group, and PAPI 7.0 crashes in later calls
	   (PAPI_enum_cmp_event) once the main thread was unregistered. */
	if (s->g.scope == CTR_SCOPE_THREAD && (rc = PAPI_register_thread()) != PAPI_OK)
		return fail(e, "PAPI_register_thread for", s->g.ev[0]->spec, rc);
	rc = PAPI_create_eventset(&s->papi_set);
	if (rc != PAPI_OK)
		return fail(e, "PAPI_create_eventset for", s->g.ev[0]->spec, rc);
	if (s->g.scope == CTR_SCOPE_SOCKET && (rc = attach_cpu(s, e)))
		return rc;
	if (s->g.scope == CTR_SCOPE_THREAD && (rc = set_domain(s->papi_set, s->g.ev[0], &call)) != PAPI_OK) {
		snprintf(what, sizeof what, "%s for", call);
		return fail(e, what, s->g.ev[0]->spec, rc);
	}
	for (unsigned i = 0; i < s->g.n; i++) {
		rc = PAPI_add_event(s->papi_set, s->g.ev[i]->papi_code);
		if (rc != PAPI_OK)
			return fail(e, "PAPI_add_event", s->g.ev[i]->spec, rc);
	}
	return 0;
}

int ctr_papi_start(struct ctr_set *s, struct err *e)
{
	int rc = PAPI_start(s->papi_set);

	if (rc != PAPI_OK)
		return fail(e, "PAPI_start for the group of", s->g.ev[0]->spec, rc);
	s->t_start = PAPI_get_real_nsec();
	return 0;
}

int ctr_papi_stop(struct ctr_set *s, struct err *e)
{
	int rc = PAPI_stop(s->papi_set, s->papi_values);

	s->t_stop = PAPI_get_real_nsec();
	if (rc != PAPI_OK)
		return fail(e, "PAPI_stop for the group of", s->g.ev[0]->spec, rc);
	return 0;
}

int ctr_papi_read(struct ctr_set *s, struct ctr_reading *r, struct err *e)
{
	(void)e;
	for (unsigned i = 0; i < s->g.n; i++) {
		r[i].count = (uint64_t)s->papi_values[i];
		r[i].time_enabled = r[i].time_running = (uint64_t)(s->t_stop - s->t_start);
		ctr_classify(&r[i]);
	}
	return 0;
}

void ctr_papi_close(struct ctr_set *s)
{
	if (s->papi_set != PAPI_NULL) {
		PAPI_cleanup_eventset(s->papi_set);
		PAPI_destroy_eventset(&s->papi_set);
	}
}
