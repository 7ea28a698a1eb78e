/* disturb.c — steal time and runnable tasks from /proc/stat (proc(5)): the per-CPU lines (or the aggregate)
 * "cpuN user nice system idle iowait irq softirq steal guest guest_nice" in jiffies, and
 * "procs_running N". guest and guest_nice are already inside user and nice, so they are not added.
 * /proc/pressure/cpu (Documentation/accounting/psi.rst): "some avg10=.. avg60=.. avg300=.. total=US",
 * the time in which at least one runnable task waited for a CPU, cumulative since boot.
 * /proc/self/task/TID/stat: "TID (comm) S ...", a thread's state S after the last ')' (comm may hold
 * either parenthesis), 'R' for running or runnable, as procs_running counts. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "disturb.h"

#define STAT_FIELDS 8 /* user .. steal */

/* pressure/cpu's "some" total, us; -1 where the kernel has none. */
static long long pressure_us(const char *proc)
{
	char path[512];
	long long us = -1;
	FILE *f;

	snprintf(path, sizeof path, "%s/pressure/cpu", proc);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fscanf(f, "some avg10=%*f avg60=%*f avg300=%*f total=%lld", &us) != 1)
		us = -1;
	fclose(f);
	return us;
}

/* This process's threads in state R: procs_running counts them with the others, and after the last point
   libgomp's threads may still spin (GOMP_SPINCOUNT) for a while. -1 where the task directory cannot be
   read (a fake tree without one). */
static int own_running(const char *proc)
{
	char path[512], line[512];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof path, "%s/self/task", proc);
	if (!(dir = opendir(path)))
		return -1;
	while ((d = readdir(dir))) {
		char *paren;
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/self/task/%s/stat", proc, d->d_name);
		/* a thread that ended since readdir is not running */
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(line, sizeof line, f) && (paren = strrchr(line, ')')) && paren[1] == ' ' &&
		    paren[2] == 'R')
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

int disturb_others_running(const struct disturb_sample *s)
{
	/* the two are read a moment apart, this process's threads first: after a parallel region they can only
	   stop running (a libgomp thread's spin times out), so one that stopped between the reads is left out
	   of procs_running too, and the figure can only be too low, never another's task; 0 at least */
	if (s->procs_running < 0 || s->own_running < 0)
		return -1;
	return s->procs_running > s->own_running ? s->procs_running - s->own_running : 0;
}

const char *disturb_proc_dir(void)
{
	const char *dir = getenv("PMUCHECK_PROC_DIR");

	return dir && *dir ? dir : DISTURB_PROC;
}

/* Whether stat's line is one the sample reads: "cpu " where n is 0, else "cpuN " of a CPU in cpus. */
static int line_wanted(const char *line, const int *cpus, int n)
{
	char *end;
	long cpu;

	if (strncmp(line, "cpu", 3))
		return 0;
	if (!n)
		return line[3] == ' ';
	if (line[3] < '0' || line[3] > '9')
		return 0;
	cpu = strtol(line + 3, &end, 10);
	for (int i = 0; i < n && *end == ' '; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

int disturb_read(const char *proc, const int *cpus, int n, struct disturb_sample *s, struct err *e)
{
	unsigned long long v[STAT_FIELDS];
	char path[512], line[512];
	int lines = 0;
	struct timespec now;
	FILE *f;

	memset(s, 0, sizeof *s);
	s->procs_running = -1;
	s->own_running = -1;
	s->has_steal = 1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	s->at_s = (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
	s->pressure_us = pressure_us(proc);
	s->own_running = own_running(proc); /* before procs_running: disturb_others_running says why */
	snprintf(path, sizeof path, "%s/stat", proc);
	if (!(f = fopen(path, "r")))
		return err_set(e, E_RUNTIME, "%s: cannot read it", path);
	while (fgets(line, sizeof line, f)) {
		if (line_wanted(line, cpus, n)) {
			int fields;
			memset(v, 0, sizeof v);
			fields = sscanf(line + strcspn(line, " "), "%llu %llu %llu %llu %llu %llu %llu %llu",
					&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
			if (fields < 4)
				continue;
			for (int i = 0; i < STAT_FIELDS; i++)
				s->total += v[i];
			s->steal += v[7];
			s->has_steal &= fields == STAT_FIELDS;
			lines++;
		} else {
			sscanf(line, "procs_running %d", &s->procs_running);
		}
	}
	fclose(f);
	s->ncpus = n ? lines : 0;
	if (!lines)
		return err_set(e, E_RUNTIME,
			       n ? "%s: no line of the CPUs measured on" : "%s: no aggregate 'cpu' line",
			       path);
	return 0;
}

double disturb_steal_percent(const struct disturb_sample *before, const struct disturb_sample *after)
{
	/* steal beyond the growth of all fields: one fell back (proc(5): iowait "may decrease"), and the
	   pair says nothing of the share, which is never above 100 % */
	if (!before->has_steal || !after->has_steal || before->ncpus != after->ncpus ||
	    after->total <= before->total || after->steal < before->steal ||
	    after->steal - before->steal > after->total - before->total)
		return -1;
	return 100.0 * (double)(after->steal - before->steal) / (double)(after->total - before->total);
}

double disturb_pressure_percent(const struct disturb_sample *before, const struct disturb_sample *after)
{
	if (before->pressure_us < 0 || after->pressure_us < before->pressure_us ||
	    after->at_s <= before->at_s)
		return -1;
	return 100.0 * (double)(after->pressure_us - before->pressure_us) * 1e-6 /
		(after->at_s - before->at_s);
}

static json_t *count_or_null(int n)
{
	return n >= 0 ? json_integer(n) : json_null();
}

json_t *disturb_json(const struct disturb_sample *before, const struct disturb_sample *after)
{
	double steal = disturb_steal_percent(before, after),
	       pressure = disturb_pressure_percent(before, after);
	char source[896], cpus[96];

	if (after->ncpus == 1)
		snprintf(cpus, sizeof cpus, "the CPU measured on (its cpuN line)");
	else if (after->ncpus)
		snprintf(cpus, sizeof cpus, "the %d CPUs measured on (their cpuN lines)", after->ncpus);
	else
		snprintf(cpus, sizeof cpus, "all CPUs (the aggregate cpu line)");
	snprintf(source, sizeof source,
		 "/proc/stat: steal jiffies over all jiffies of %s between the samples%s; procs_running at "
		 "each sample, pmucheck's own threads included (its sampling thread, and after the run any "
		 "OpenMP thread still spinning); others_runnable: procs_running less pmucheck's threads in "
		 "state R (/proc/self/task/*/stat) read a moment before, low by any that stopped in between; "
		 "/proc/pressure/cpu: the growth of "
		 "its \"some\" total (time in which a runnable task waited for a CPU) over the time between "
		 "the samples",
		 cpus,
		 before->has_steal && after->has_steal ? "" : " (this kernel's lines have no steal field)");
	return json_pack("{s:o, s:i, s:i, s:i, s:o, s:o, s:o, s:s}", "steal_percent",
			 steal >= 0 ? json_real(steal) : json_null(), "steal_cpus", after->ncpus,
			 "runnable_before", before->procs_running, "runnable_after", after->procs_running,
			 "others_runnable_before", count_or_null(disturb_others_running(before)),
			 "others_runnable_after", count_or_null(disturb_others_running(after)),
			 "cpu_pressure_percent", pressure >= 0 ? json_real(pressure) : json_null(), "source",
			 source);
}
