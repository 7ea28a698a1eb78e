/* ctr_avail.c — why this machine can or cannot count, in words, and what to do about each problem.
 *
 * Everything is gathered once into JSON (machine.json's "counters" object); the text for `pmucheck info`
 * is printed from that same JSON, so the two never disagree. libpfm4's detected PMUs are taken from
 * PAPI's perf_event component, which is the libpfm4 that PAPI uses.
 */
#include <papi.h>
#include <perfmon/pfmlib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctr_int.h"
#include "num.h"

static void add_problem(json_t *problems, const char *what, const char *todo)
{
	json_array_append_new(problems, json_pack("{s:s, s:s}", "problem", what, "todo", todo));
}

static const char *component_todo(const char *name)
{
	if (!strcmp(name, "perf_event"))
		return "the kernel exposes no core PMU or libpfm4 does not know this CPU: on a VM enable "
		       "the virtual PMU (KVM: -cpu host,pmu=on); on a CPU newer than libpfm4 use perf "
		       "syntax (cpu/event=0x..,umask=0x../) with the perf backend";
	if (!strcmp(name, "perf_event_uncore"))
		return "uncore events need uncore PMUs in /sys/bus/event_source/devices (bare metal) and "
		       "root or perf_event_paranoid <= 0; sysfs aliases (uncore_imc_0/cas_count_read/) "
		       "work through the perf backend";
	if (!strcmp(name, "sde"))
		return "only programs linking libsde have software-defined events; pmucheck needs none "
		       "(the test suite's tests/sde library exercises this path)";
	return "not used by pmucheck";
}

static json_t *papi_json(json_t *problems)
{
	json_t *o = json_object(), *comps = json_array();
	char reason[CTR_REASON_MAX];
	int v;

	if (ctr_papi_init(reason, sizeof reason)) {
		json_object_set_new(o, "error", json_string(reason));
		add_problem(problems, reason, "check that libpapi matches papi.h (Debian libpapi-dev)");
		json_decref(comps);
		return o;
	}
	v = PAPI_get_opt(PAPI_LIB_VERSION, NULL);
	json_object_set_new(o, "version",
			    json_sprintf("%d.%d.%d.%d", PAPI_VERSION_MAJOR(v), PAPI_VERSION_MINOR(v),
					 PAPI_VERSION_REVISION(v), PAPI_VERSION_INCREMENT(v)));
	for (int i = 0; i < PAPI_num_components(); i++) {
		const PAPI_component_info_t *c = PAPI_get_component_info(i);
		json_t *pmus = json_array();
		/* A component that PAPI disables after its init found PMUs (perf_event_uncore as a user
		   that perf_event_paranoid stops) has freed the names but left the pointers behind. */
		for (int k = 0; !c->disabled && k < PAPI_PMU_MAX && c->pmu_names[k]; k++)
			json_array_append_new(pmus, json_string(c->pmu_names[k]));
		json_array_append_new(
			comps,
			json_pack("{s:s, s:b, s:s, s:i, s:i, s:o}", "name", c->name, "enabled", !c->disabled,
				  "disabled_reason", c->disabled ? c->disabled_reason : "", "counters",
				  c->num_cntrs, "native_events", c->num_native_events, "pmus", pmus));
		if (c->disabled && !strncmp(c->name, "perf_event", 10)) {
			char what[PAPI_HUGE_STR_LEN + 64];
			snprintf(what, sizeof what, "PAPI component %s disabled: %s", c->name,
				 c->disabled_reason);
			add_problem(problems, what, component_todo(c->name));
		}
	}
	json_object_set_new(o, "components", comps);
	return o;
}

static const char *paranoid_meaning(int p)
{
	if (p <= -1)
		return "all events for everyone";
	if (p == 0)
		return "user and kernel, system-wide allowed";
	if (p == 1)
		return "user and kernel of own processes; system-wide (uncore) needs root";
	if (p == 2)
		return "user space of own processes only (kernel excluded for non-root)";
	return "restricted (Debian's 3 and above: no perf_event_open for non-root)";
}

json_t *ctr_sysfs_pmus_json(const char *pmus)
{
	char *names = ctr_dir_names(pmus), *save, *t, path[512], type[32];
	json_t *a = json_array();

	for (t = names ? strtok_r(names, " ", &save) : NULL; t; t = strtok_r(NULL, " ", &save)) {
		FILE *f;
		snprintf(path, sizeof path, "%s/%s/type", pmus, t);
		type[0] = '\0';
		if ((f = fopen(path, "r"))) {
			if (!fgets(type, sizeof type, f))
				type[0] = '\0';
			fclose(f);
		}
		snprintf(path, sizeof path, "%s/%s/cpumask", pmus, t);
		json_array_append_new(a,
				      json_pack("{s:s, s:i, s:s}", "name", t, "type", atoi(type), "scope",
						access(path, R_OK) ? "thread" : "socket"));
	}
	free(names);
	return a;
}

/* /sys/.../cpu/rdpmc: 0 off, 1 for tasks that mmap an event, 2 always; absent without a core PMU. */
static int rdpmc_mode(void)
{
	return (int)num_read_file(CTR_SYSFS_PMUS "/cpu/rdpmc", -1);
}

static json_t *perf_json(json_t *problems)
{
	int paranoid = ctr_perf_paranoid(), nmi = ctr_nmi_watchdog(), rdpmc = rdpmc_mode();
	unsigned general, fixed;

	if (paranoid > 0 && geteuid() != 0)
		add_problem(problems, "perf_event_paranoid restricts counting",
			    "run as root or 'sysctl kernel.perf_event_paranoid=0' (uncore needs <= 0)");
	if (nmi == 1)
		add_problem(problems, "the NMI watchdog holds one core counter on every CPU",
			    "'sysctl kernel.nmi_watchdog=0' for the run frees it; pmucheck plans one "
			    "counter fewer meanwhile");
	ctr_cpu_counters(&general, &fixed);
	return json_pack("{s:i, s:s, s:o, s:i, s:i, s:s, s:{s:i, s:i}}", "paranoid", paranoid,
			 "paranoid_meaning", paranoid_meaning(paranoid), "pmus",
			 ctr_sysfs_pmus_json(CTR_SYSFS_PMUS), "nmi_watchdog", nmi, "rdpmc", rdpmc,
			 "rdpmc_meaning",
			 rdpmc < 0            ? "no core PMU, no rdpmc"
				 : rdpmc == 0 ? "disabled"
				 : rdpmc == 1 ? "for tasks with an mmapped event"
					      : "for every task",
			 "cpuid_counters", "general", general, "fixed", fixed);
}

static pthread_once_t hw_once = PTHREAD_ONCE_INIT;
static int hw_ok;
static char hw_reason[CTR_REASON_MAX];

/* Once per process: every PAPI name resolved asks (ctr_papi_resolve), and the answer cannot change. */
static void probe_hardware(void)
{
	struct ctr_event ev;

	hw_ok = ctr_resolve("instructions", &ev, NULL) == 0 && ev.status == CTR_OK;
	if (!hw_ok)
		snprintf(hw_reason, sizeof hw_reason, "perf 'instructions': %s", ev.reason);
}

int ctr_hardware_available(char *reason, size_t len)
{
	pthread_once(&hw_once, probe_hardware);
	if (!hw_ok && len)
		snprintf(reason, len, "%s", hw_reason);
	return hw_ok;
}

/* Whether a name of PMU p's table without "pmu::" resolves to p itself (its first event, looked up as
   PAPI passes it): not so for libpfm4 4.13's deprecated amd64_fam17h, present beside amd64_fam17h_zen1
   on a Zen 1 with the same table, whose names libpfm4 resolves against amd64_fam17h_zen1. */
static int pfm_names_resolve_to(int p, const pfm_pmu_info_t *pi)
{
	pfm_event_info_t ev;
	int idx;

	memset(&ev, 0, sizeof ev);
	ev.size = sizeof ev;
	if (pi->first_event < 0 || pfm_get_event_info(pi->first_event, PFM_OS_NONE, &ev) != PFM_SUCCESS ||
	    !ev.name)
		return 1; /* nothing to look up: the PMU stands */
	idx = pfm_find_event(ev.name);
	memset(&ev, 0, sizeof ev);
	ev.size = sizeof ev;
	return idx < 0 || pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS || (int)ev.pmu == p;
}

int ctr_pfm_core_pmu(char *name, size_t len)
{
	char first[CTR_NAME_MAX] = "";

	*name = '\0';
	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.name || !pi.is_present ||
		    pi.type != PFM_PMU_TYPE_CORE)
			continue;
		if (pfm_names_resolve_to(p, &pi)) {
			snprintf(name, len, "%s", pi.name);
			return 1;
		}
		if (!*first)
			snprintf(first, sizeof first, "%s", pi.name);
	}
	if (!*first)
		return 0;
	snprintf(name, len, "%s", first); /* none takes its own names: the first, as libpfm4 lists them */
	return 1;
}

json_t *ctr_availability_json(void)
{
	json_t *o = json_object(), *problems = json_array();
	char reason[CTR_REASON_MAX] = "";
	int hw;

	json_object_set_new(o, "papi", papi_json(problems));
	json_object_set_new(o, "perf_event", perf_json(problems));
	hw = ctr_hardware_available(reason, sizeof reason);
	json_object_set_new(o, "hardware", json_boolean(hw));
	json_object_set_new(o, "reason", json_string(hw ? "" : reason));
	if (!hw)
		add_problem(problems, reason,
			    "hardware events will be recorded as not_measured; software "
			    "events (page-faults, task-clock) are still counted");
	json_object_set_new(o, "problems", problems);
	return o;
}

static void print_papi(FILE *f, const json_t *papi)
{
	const json_t *c;
	size_t i;

	if (json_object_get(papi, "error")) {
		fprintf(f, "  PAPI: %s\n", json_string_value(json_object_get(papi, "error")));
		return;
	}
	fprintf(f, "  PAPI %s components:\n", json_string_value(json_object_get(papi, "version")));
	json_array_foreach(json_object_get(papi, "components"), i, c)
	{
		const json_t *pmus = json_object_get(c, "pmus"), *p;
		size_t k;
		if (json_is_true(json_object_get(c, "enabled")))
			fprintf(f, "    %-18s enabled, %lld counters, %lld native events\n",
				json_string_value(json_object_get(c, "name")),
				json_integer_value(json_object_get(c, "counters")),
				json_integer_value(json_object_get(c, "native_events")));
		else
			fprintf(f, "    %-18s disabled: %s\n", json_string_value(json_object_get(c, "name")),
				json_string_value(json_object_get(c, "disabled_reason")));
		if (!strcmp(json_string_value(json_object_get(c, "name")), "perf_event")) {
			fprintf(f, "    %-18s libpfm4 detected PMUs:", "");
			bool cpu_pmu = false;
			json_array_foreach(pmus, k, p)
			{
				const char *name = json_string_value(p);
				fprintf(f, " %s", name);
				cpu_pmu |= strcmp(name, "perf") && strcmp(name, "perf_raw");
			}
			/* "perf" and "perf_raw" are libpfm4's generic tables, present everywhere. */
			fprintf(f, "%s\n", cpu_pmu ? "" : " (no CPU PMU: only libpfm4's generic tables)");
		}
	}
}

static void print_perf(FILE *f, const json_t *perf)
{
	const json_t *p, *cpuid = json_object_get(perf, "cpuid_counters");
	size_t i;

	fprintf(f, "  perf_event_paranoid %lld: %s\n", json_integer_value(json_object_get(perf, "paranoid")),
		json_string_value(json_object_get(perf, "paranoid_meaning")));
	fprintf(f, "  PMUs in " CTR_SYSFS_PMUS ":");
	json_array_foreach(json_object_get(perf, "pmus"), i, p)
		fprintf(f, " %s(%s)", json_string_value(json_object_get(p, "name")),
			json_string_value(json_object_get(p, "scope")));
	fprintf(f, "\n  NMI watchdog: %s\n",
		json_integer_value(json_object_get(perf, "nmi_watchdog")) == 1 ? "on (holds a counter)"
									       : "off or absent");
	fprintf(f, "  rdpmc: %s\n", json_string_value(json_object_get(perf, "rdpmc_meaning")));
	fprintf(f, "  core counters (CPUID): %lld general, %lld fixed\n",
		json_integer_value(json_object_get(cpuid, "general")),
		json_integer_value(json_object_get(cpuid, "fixed")));
}

void ctr_availability_print(FILE *f)
{
	json_t *o = ctr_availability_json(), *p;
	size_t i;

	fprintf(f, "counters:\n");
	print_papi(f, json_object_get(o, "papi"));
	print_perf(f, json_object_get(o, "perf_event"));
	fprintf(f, "  hardware events: %s\n",
		json_is_true(json_object_get(o, "hardware"))
			? "countable"
			: json_string_value(json_object_get(o, "reason")));
	json_array_foreach(json_object_get(o, "problems"), i, p) fprintf(
		f, "  problem: %s\n    what to do: %s\n", json_string_value(json_object_get(p, "problem")),
		json_string_value(json_object_get(p, "todo")));
	json_decref(o);
}
