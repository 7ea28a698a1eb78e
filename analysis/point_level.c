/* point_level.c — assigns levels from sizes. The run's own `level` column is not used: it follows the
 * reported sizes only, while machine.json may hold measured limits, and the analysis must drop
 * points that sit on a boundary. */
#include <string.h>

#include "point_level.h"
#include "thresholds.h"

const char *const pf_names[PF_COUNT] = {"on", "off", "partial", "uncontrolled"};

const char *point_level_name(enum point_level l)
{
	static const char *const beyond[] = {"remote DRAM", "other DRAM", "any"};

	if (l >= LV_DRAM_REMOTE && l < LV_COUNT)
		return beyond[l - LV_DRAM_REMOTE];
	return level_name((enum level)l);
}

static enum point_level dram_level(const char *placement)
{
	if (strcmp(placement, "remote") == 0)
		return LV_DRAM_REMOTE;
	if (strcmp(placement, "local") == 0 || !*placement)
		return LV_DRAM;
	return LV_DRAM_OTHER;
}

enum point_level point_level_assign(const struct machine *m, const struct raw_row *row)
{
	double foot = (double)row->bytes * (double)(row->arrays > 0 ? row->arrays : 1);

	/* First-touch page faults: the data comes from the OS, not from a cache. */
	if (row->access == KA_FAULT)
		return LV_ANY;
	for (int i = 0; i < MACHINE_NCACHE; i++) {
		double lim = m->limit[i];
		if (lim <= 0)
			continue;
		if (foot > lim * (1 - THR_BOUNDARY_BELOW) && foot < lim * (1 + THR_BOUNDARY_ABOVE))
			return LV_EXCLUDED;
		if (foot <= lim)
			return (enum point_level)i;
	}
	return dram_level(row->placement);
}

enum pf_state point_level_prefetch(const char *prefetch)
{
	if (strcmp(prefetch, "on") == 0)
		return PF_ON;
	if (strcmp(prefetch, "off") == 0)
		return PF_OFF;
	if (strncmp(prefetch, "off:", 4) == 0)
		return PF_PARTIAL;
	return PF_UNCONTROLLED;
}
