#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "machine_json.h"
#include "partial.h"
#include "plain_file.h"
#include "raw.h"
#include "raw_scan.h"
#include "resume.h"

/* machine.json's finished_utc says whether the run stopped: run writes it null before the first point and
   the time it ended once it finished (run_job.c); nothing else says it, so without it there is no telling. */
static int check_stopped(const char *dir, const char *path, const json_t *finished, struct err *e)
{
	if (!finished)
		return err_set(e, E_USAGE,
			       "--resume: %s: 'finished_utc' is missing (null in a stopped run, its end in a "
			       "finished one): not written by pmucheck run",
			       path);
	if (json_is_string(finished))
		return err_set(e, E_USAGE, "--resume: the run in %s finished at %s; nothing to resume", dir,
			       json_string_value(finished));
	if (!json_is_null(finished))
		return err_set(e, E_USAGE,
			       "--resume: %s: 'finished_utc' is neither null (a stopped run) nor a time (a "
			       "finished one)",
			       path);
	return 0;
}

/* "AuthenticAMD family 0x19 model 0x1 (AMD EPYC)": what tells one CPU model from another, as machine.json's
   "cpu" records it (sysinfo_cpu_json). */
static void cpu_text(const char *vendor, long long family, long long model, const char *name, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s family 0x%llx model 0x%llx (%s)", vendor, family, model, name);
}

static void machine_of(const json_t *m, struct resume_info *ri)
{
	const json_t *host = json_object_get(m, "host"), *cpu = json_object_get(m, "cpu");
	const char *vendor = json_string_value(json_object_get(cpu, "vendor"));
	const char *name = json_string_value(json_object_get(cpu, "model_name"));
	const json_t *family = json_object_get(cpu, "family"), *model = json_object_get(cpu, "model");

	snprintf(ri->host, sizeof ri->host, "%s", json_is_string(host) ? json_string_value(host) : "");
	ri->cpu[0] = '\0';
	if (vendor && name && json_is_integer(family) && json_is_integer(model))
		cpu_text(vendor, json_integer_value(family), json_integer_value(model), name, ri->cpu,
			 sizeof ri->cpu);
}

int resume_same_machine(const char *dir, const struct resume_info *ri, const struct sysinfo *sys,
			struct err *e)
{
	char here[sizeof ri->cpu];

	cpu_text(sys->cpu.vendor, sys->cpu.family, sys->cpu.model, sys->model_name, here, sizeof here);
	if (ri->host[0] && strcmp(ri->host, sys->host))
		return err_set(
			e, E_USAGE,
			"--resume: %s was measured on host '%s', this is '%s': a results directory holds "
			"one machine's points; measure again into a directory of this machine's",
			dir, ri->host, sys->host);
	if (ri->cpu[0] && strcmp(ri->cpu, here))
		return err_set(e, E_USAGE,
			       "--resume: %s was measured on CPU '%s', this one is '%s': a results directory "
			       "holds one "
			       "machine's points; measure again into a directory of this machine's",
			       dir, ri->cpu, here);
	return 0;
}

int resume_same_cpus(const char *dir, const struct resume_info *ri, const int *cpus, int n, struct err *e)
{
	char then[TOPO_LIST_CHARS], here[TOPO_LIST_CHARS];

	if (ri->ncpus < 0 || (ri->ncpus == n && !memcmp(ri->cpus, cpus, sizeof *cpus * (size_t)n)))
		return 0;
	topo_format_cpus(ri->cpus, ri->ncpus, ',', then, sizeof then);
	topo_format_cpus(cpus, n, ',', here, sizeof here);
	return err_set(e, E_USAGE,
		       "--resume: %s measured its points on CPUs %s, and its arguments plan them on CPUs %s "
		       "here (another CPU affinity: taskset, numactl or a batch system's binding): resume it "
		       "on the CPUs it ran on",
		       dir, then, here);
}

/* machine.json's "plan_cpus" into ri (none: ncpus -1). */
static int plan_cpus_of(const char *path, const json_t *list, struct resume_info *ri, struct err *e)
{
	size_t i;
	json_t *v;

	ri->ncpus = -1;
	if (!list)
		return 0;
	if (!json_is_array(list) || json_array_size(list) < 1 || json_array_size(list) > TOPO_MAX_CPUS)
		return err_set(e, E_USAGE,
			       "--resume: %s: 'plan_cpus' is no list of 1 to %d CPU numbers: not written by "
			       "pmucheck run",
			       path, TOPO_MAX_CPUS);
	ri->ncpus = 0;
	json_array_foreach(list, i, v)
	{
		if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= INT_MAX)
			return err_set(e, E_USAGE,
				       "--resume: %s: 'plan_cpus' item %zu is no CPU number: not written by "
				       "pmucheck run",
				       path, i);
		ri->cpus[ri->ncpus++] = (int)json_integer_value(v);
	}
	return 0;
}

static int load_machine(const char *dir, struct resume_info *ri, struct err *e)
{
	char path[4096];
	json_t *m, *argv, *started;
	size_t i;
	json_t *v;
	int rc;

	snprintf(path, sizeof path, "%s/machine.json", dir);
	/* run writes PARTIAL, then machine.json, before its first point: a run stopped between them
	   measured nothing, and its arguments are lost with it */
	if (access(path, F_OK) && partial_marked(dir))
		return err_set(e, E_USAGE,
			       "--resume: %s: the run was stopped before it recorded its arguments (no "
			       "machine.json) and measured nothing; start it again",
			       dir);
	if ((rc = machine_json_load(path, &m, e)))
		return err_wrap(e, rc, "--resume");
	argv = json_object_get(m, "argv");
	if (!json_is_array(argv) || json_array_size(argv) < 1 || json_array_size(argv) > RESUME_MAX_ARGS) {
		json_decref(m);
		return err_set(e, E_USAGE, "--resume: %s has no \"argv\": not written by pmucheck run", path);
	}
	if ((rc = check_stopped(dir, path, json_object_get(m, "finished_utc"), e))) {
		json_decref(m);
		return rc;
	}
	json_array_foreach(argv, i, v)
		ri->argv[ri->argc++] = strdup(json_is_string(v) ? json_string_value(v) : "");
	ri->prefetch_control = json_is_boolean(json_object_get(json_object_get(m, "prefetch"), "control"))
		? json_is_true(json_object_get(json_object_get(m, "prefetch"), "control"))
		: -1;
	ri->points = json_is_integer(json_object_get(m, "points"))
		? (int)json_integer_value(json_object_get(m, "points"))
		: -1;
	if ((rc = plan_cpus_of(path, json_object_get(m, "plan_cpus"), ri, e))) {
		json_decref(m);
		return rc;
	}
	started = json_object_get(m, "started_utc");
	snprintf(ri->started, sizeof ri->started, "%s",
		 json_is_string(started) ? json_string_value(started) : "");
	machine_of(m, ri);
	ri->levels = json_incref(json_object_get(m, "levels"));
	rc = machine_json_levels_measured(path, ri->levels, ri->measured, TOPO_MAX_LEVELS, e);
	json_decref(m);
	return rc ? err_wrap(e, rc, "--resume") : 0;
}

/* Finds the last point and where its rows begin (raw_scan.h), and checks that the header is this
   pmucheck's: rows of other columns appended to it would leave a file that no reader can split. */
static int scan_raw(const char *dir, struct resume_info *ri, struct err *e)
{
	const char *header = raw_header();
	char path[4096], *first = NULL;
	size_t cap = 0;
	struct raw_scan sc;
	FILE *f;
	int rc;

	ri->last_point = -1;
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	if (access(path, F_OK) && errno == ENOENT)
		return 0; /* interrupted before the first point */
	if ((rc = plain_fopen(path, 0, &f, e)))
		return err_wrap(e, rc, "--resume");
	rc = raw_scan(f, &sc);
	if (!rc && sc.header_end) {
		rewind(f);
		rc = getline(&first, &cap, f) < 0 ? -1 : 0;
	}
	if (rc) {
		rc = err_set(e, E_RUNTIME, "--resume: %s: %s", path, strerror(errno));
	} else if (sc.header_end && strcmp(first, header)) {
		rc = err_set(e, E_USAGE,
			     "--resume: %s has other columns than this pmucheck writes (a run of another "
			     "version): it cannot be continued; measure again",
			     path);
	} else if (sc.torn && !sc.header_end) {
		rc = err_set(e, E_USAGE, "--resume: %s has no complete header line", path);
	} else if (sc.bad_line) {
		rc = err_set(
			e, E_USAGE,
			"--resume: %s:%ld: not a row of a run (a point number first, as many fields as the "
			"header, each point's rows together and in order): nothing to continue from; "
			"'pmucheck analyze' says more",
			path, sc.bad_line);
	}
	free(first);
	fclose(f);
	ri->header_end = sc.header_end;
	ri->last_point = sc.last_point;
	ri->last_point_start = sc.last_point_start;
	ri->complete_end = sc.complete_end;
	ri->torn = sc.torn;
	return rc;
}

int resume_load(const char *dir, struct resume_info *ri, struct err *e)
{
	struct stat st;
	int rc;

	memset(ri, 0, sizeof *ri);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return err_set(e, E_USAGE, "--resume: %s is not a directory", dir);
	rc = load_machine(dir, ri, e);
	if (!rc)
		rc = scan_raw(dir, ri, e);
	if (rc)
		resume_free(ri);
	return rc;
}

int resume_trim(const char *dir, struct resume_info *ri, struct err *e)
{
	char path[4096];
	long keep = ri->complete_end;

	if (ri->last_point >= 0) {
		keep = ri->last_point_start;
		ri->last_point--;
	}
	if (!ri->torn && keep == ri->complete_end)
		return 0;
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	if (truncate(path, keep) != 0)
		return err_set(e, E_RUNTIME, "--resume: cannot cut %s: %s", path, strerror(errno));
	ri->torn = 0;
	ri->complete_end = keep;
	return 0;
}

void resume_free(struct resume_info *ri)
{
	json_decref(ri->levels);
	ri->levels = NULL;
	for (int i = 0; i < ri->argc; i++)
		free(ri->argv[i]);
	ri->argc = 0;
}
