/* disturb.c — steal time and runnable tasks from /proc/stat (proc(5)): the aggregate line
 * "cpu user nice system idle iowait irq softirq steal guest guest_nice" in jiffies, and
 * "procs_running N". guest and guest_nice are already inside user and nice, so they are not added. */
#include <stdio.h>
#include <string.h>

#include "disturb.h"

#define STAT_FIELDS 8 /* user .. steal */

int disturb_read(const char *path, struct disturb_sample *s, struct err *e)
{
	unsigned long long v[STAT_FIELDS];
	char line[512];
	int have_cpu = 0;
	FILE *f = fopen(path, "r");

	memset(s, 0, sizeof *s);
	s->procs_running = -1;
	if (!f)
		return err_set(e, E_RUNTIME, "%s: cannot read it", path);
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "cpu ", 4)) {
			/* kernels before 2.6.11 have no steal field: then it stays 0 */
			memset(v, 0, sizeof v);
			if (sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
				   &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
				break;
			for (int i = 0; i < STAT_FIELDS; i++)
				s->total += v[i];
			s->steal = v[7];
			have_cpu = 1;
		} else if (sscanf(line, "procs_running %d", &s->procs_running) == 1) {
			continue;
		}
	}
	fclose(f);
	if (!have_cpu)
		return err_set(e, E_RUNTIME, "%s: no aggregate 'cpu' line", path);
	return 0;
}

double disturb_steal_percent(const struct disturb_sample *before, const struct disturb_sample *after)
{
	if (after->total <= before->total || after->steal < before->steal)
		return -1;
	return 100.0 * (double)(after->steal - before->steal) / (double)(after->total - before->total);
}

json_t *disturb_json(const struct disturb_sample *before, const struct disturb_sample *after)
{
	double steal = disturb_steal_percent(before, after);

	return json_pack("{s:o, s:i, s:i, s:s}", "steal_percent", steal >= 0 ? json_real(steal) : json_null(),
			 "runnable_before", before->procs_running, "runnable_after", after->procs_running,
			 "source",
			 "/proc/stat: steal jiffies over all jiffies between the samples; procs_running "
			 "at each sample, pmucheck's sampling thread included");
}
