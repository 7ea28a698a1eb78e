#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <papi.h>
#include <perfmon/pfmlib.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "version.h"

/* pfm_get_version() gives libpfm4's API version, 4.0 in every 4.x release, and its headers name no
   release. The release is in the file name of the library loaded (libpfm.so.4.13.0, Debian 12), which
   matters: each release changes the event tables a discovery or an encoding came from. */
void machine_pfm_version(char *out, size_t len)
{
	Dl_info info;
	char path[PATH_MAX];
	const char *so;
	int api = pfm_get_version();

	if (dladdr((void *)pfm_get_version, &info) && info.dli_fname && realpath(info.dli_fname, path) &&
	    (so = strstr(path, "libpfm.so.")) && so[10] >= '0' && so[10] <= '9') {
		snprintf(out, len, "%s", so + 10);
		return;
	}
	snprintf(out, len, "API %d.%d", PFM_MAJ_VERSION(api), PFM_MIN_VERSION(api));
}

void machine_lib_versions(struct lib_versions *v)
{
	unsigned hw = hwloc_get_api_version();

	snprintf(v->papi, sizeof v->papi, "%d.%d.%d.%d", PAPI_VERSION_MAJOR(PAPI_VERSION),
		 PAPI_VERSION_MINOR(PAPI_VERSION), PAPI_VERSION_REVISION(PAPI_VERSION),
		 PAPI_VERSION_INCREMENT(PAPI_VERSION));
	machine_pfm_version(v->libpfm4, sizeof v->libpfm4);
	snprintf(v->hwloc, sizeof v->hwloc, "%u.%u.%u", hw >> 16, (hw >> 8) & 0xff, hw & 0xff);
}

static json_t *libraries_json(void)
{
	struct lib_versions v;

	machine_lib_versions(&v);
	return json_pack("{s:s, s:s, s:s}", "papi", v.papi, "libpfm4", v.libpfm4, "hwloc", v.hwloc);
}

/* The per-thread shares of hwloc's reported cache sizes, for 1 thread and for all threads, and apart from
   them the sizes the latency probe measured where it found a level smaller than reported (the sweeps were
   built from those): docs/results-format.md keeps the two apart. */
static json_t *levels_json(const struct machine_facts *m)
{
	json_t *one = json_object(), *all = json_object(), *probe;

	for (int l = 1; l <= m->topo->ncaches; l++) {
		char key[8];
		snprintf(key, sizeof key, "L%d", l);
		json_object_set_new(one, key, json_integer((json_int_t)topo_reported_share(m->topo, l, 1)));
		json_object_set_new(
			all, key, json_integer((json_int_t)topo_reported_share(m->topo, l, m->threads_max)));
	}
	probe = m->probe ? json_deep_copy(m->probe) : json_pack("{s:[]}", "disagreements");
	json_object_set_new(probe, "reported", one);
	json_object_set_new(probe, "reported_all_threads", all);
	json_object_set_new(probe, "threads_max", json_integer(m->threads_max));
	json_object_set_new(probe, "measured", topo_measured_json(m->topo));
	if (m->levels_from)
		json_object_set_new(probe, "from", json_string(m->levels_from));
	if (m->without_point)
		json_object_set(probe, "without_point", m->without_point);
	return probe;
}

/* A rejected clock is null with the reason beside it, never 0 GHz. */
json_t *machine_clock_json(const struct machine_facts *m)
{
	static const char chains[] =
		"chains of dependent 1-cycle adds timed with the TSC: the shortest runs of N and of 2N adds, "
		"differenced; rejected where the 2N runs alone disagree or outside the bounds";
	json_t *c = json_pack(
		"{s:f, s:o, s:s, s:s}", "tsc_hz", m->tsc_hz, "core_ghz",
		m->core_ghz > 0 ? json_real(m->core_ghz) : json_null(), "core_clock_method", chains,
		"repetition_clock_method",
		m->aperf_note ? chains
			      : "APERF/MPERF through the perf msr PMU, per thread around each "
				"repetition's two calls: TSC GHz x dAPERF / dMPERF; rejected outside the "
				"bounds");

	if (m->tsc_hz_end > 0)
		json_object_set_new(c, "tsc_hz_end", json_real(m->tsc_hz_end));
	if (m->aperf_note)
		json_object_set_new(c, "aperf_mperf", json_sprintf("not used: %s", m->aperf_note));
	if (m->core_clock_note)
		json_object_set_new(c, "core_clock_note", json_string(m->core_clock_note));
	if (m->clock) {
		json_t *b = json_pack("{s:f, s:f, s:s}", "min_ghz", m->clock->min_ghz, "max_ghz",
				      m->clock->max_ghz, "max_source", m->clock->source);
		if (b && m->clock->max_from)
			json_object_set_new(b, "max_from", json_string(m->clock->max_from));
		json_object_set_new(c, "bounds", b);
	}
	return c;
}

json_t *machine_json(const struct machine_facts *m)
{
	json_t *root = json_object(), *argv = json_array();

	json_object_set_new(root, "format", json_integer(1));
	json_object_set_new(root, "pmucheck", json_string(PMUCHECK_VERSION));
	json_object_set_new(root, "host", json_string(m->sys->host));
	json_object_set_new(root, "command", json_string(m->command));
	for (int i = 0; i < m->argc; i++)
		json_array_append_new(argv, json_string(m->argv[i]));
	json_object_set_new(root, "argv", argv);
	if (m->resumed)
		json_object_set_new(root, "resumed", json_true());
	if (m->points >= 0)
		json_object_set_new(root, "points", json_integer(m->points));
	if (m->nplan_cpus > 0) {
		json_t *cpus = json_array();
		for (int i = 0; i < m->nplan_cpus; i++)
			json_array_append_new(cpus, json_integer(m->plan_cpus[i]));
		json_object_set_new(root, "plan_cpus", cpus);
	}
	json_object_set_new(root, "started_utc", json_string(m->started));
	json_object_set_new(root, "finished_utc", m->finished ? json_string(m->finished) : json_null());
	json_object_set_new(root, "cpu", sysinfo_cpu_json(m->sys));
	json_object_set_new(root, "os", sysinfo_os_json(m->sys));
	json_object_set_new(root, "libraries", libraries_json());
	json_object_set_new(root, "topology", topo_json(m->topo));
	json_object_set_new(root, "clock", machine_clock_json(m));
	json_object_set_new(root, "levels", levels_json(m));
	if (m->disturbance)
		json_object_set(root, "disturbance", m->disturbance);
	if (m->prefetch)
		json_object_set(root, "prefetch", m->prefetch);
	if (m->counters)
		json_object_set(root, "counters", m->counters);
	if (m->config)
		json_object_set(root, "config", m->config);
	if (m->preset)
		json_object_set(root, "preset", m->preset);
	return root;
}
