/* disturb.c — steal time and runnable tasks from /proc/stat (proc(5)): the per-CPU lines (or the aggregate)
 * "cpuN user nice system idle iowait irq softirq steal guest guest_nice" in jiffies, and
 * "procs_running N". guest and guest_nice are already inside user and nice, so they are not added.
 * /proc/pressure/cpu (Documentation/accounting/psi.rst): "some avg10=.. avg60=.. avg300=.. total=US",
 * the time in which at least one runnable task waited for a CPU, cumulative since boot. */
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
	s->has_steal = 1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	s->at_s = (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
	s->pressure_us = pressure_us(proc);
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

json_t *disturb_json(const struct disturb_sample *before, const struct disturb_sample *after)
{
	double steal = disturb_steal_percent(before, after),
	       pressure = disturb_pressure_percent(before, after);
	char source[640], cpus[96];

	if (after->ncpus == 1)
		snprintf(cpus, sizeof cpus, "the CPU measured on (its cpuN line)");
	else if (after->ncpus)
		snprintf(cpus, sizeof cpus, "the %d CPUs measured on (their cpuN lines)", after->ncpus);
	else
		snprintf(cpus, sizeof cpus, "all CPUs (the aggregate cpu line)");
	snprintf(source, sizeof source,
		 "/proc/stat: steal jiffies over all jiffies of %s between the samples%s; procs_running at "
		 "each sample, pmucheck's sampling thread included, and after the run any of its OpenMP "
		 "threads still spinning at the end of the last point; /proc/pressure/cpu: the growth of its "
		 "\"some\" total (time in which a runnable task waited for a CPU) over the time between the "
		 "samples",
		 cpus,
		 before->has_steal && after->has_steal ? "" : " (this kernel's lines have no steal field)");
	return json_pack("{s:o, s:i, s:i, s:i, s:o, s:s}", "steal_percent",
			 steal >= 0 ? json_real(steal) : json_null(), "steal_cpus", after->ncpus,
			 "runnable_before", before->procs_running, "runnable_after", after->procs_running,
			 "cpu_pressure_percent", pressure >= 0 ? json_real(pressure) : json_null(), "source",
			 source);
}
