/* point_level.c — assigns levels from sizes. A point's footprint per thread is compared with each
 * cache's capacity per thread at the point's thread count (a socket's L3 shared by 12 threads gives each a
 * twelfth; one not inclusive of the L2 adds that twelfth to the L2: common/level_capacity.h), from the
 * measured limits where machine.json has them; points on a boundary are dropped.
 * Where machine.json does not say how many cores share a cache, a point of several threads takes the
 * `level` its run recorded (the run knew the topology). */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "level_capacity.h"
#include "point_level.h"

const char *const pf_names[PF_COUNT] = {"on", "off", "partial", "uncontrolled"};

const char *point_level_name(enum point_level l)
{
	static const char *const beyond[] = {"remote DRAM", "other DRAM", "any"};

	if (l >= LV_DRAM_REMOTE && l < LV_COUNT)
		return beyond[l - LV_DRAM_REMOTE];
	return level_name((enum level)l);
}

enum level point_level_common(enum point_level l)
{
	if (l >= LV_DRAM && l <= LV_DRAM_OTHER)
		return LEVEL_DRAM;
	return l >= LV_L1 && l < LV_DRAM ? (enum level)l : LEVEL_NONE;
}

static enum point_level dram_level(const char *placement)
{
	if (strcmp(placement, "remote") == 0)
		return LV_DRAM_REMOTE;
	if (strcmp(placement, "local") == 0 || !*placement)
		return LV_DRAM;
	return LV_DRAM_OTHER;
}

/* The bytes of cache level `level` each of `threads` threads can keep, by the rule the run's plan sized its
   points with (common/level_capacity.h). */
static double share(const struct machine *m, int level, int64_t threads)
{
	struct level_cache c[MACHINE_NCACHE];

	for (int l = 0; l <= level; l++)
		c[l] = (struct level_cache){m->limit[l], m->measured[l] > 0, m->sharers[l], m->inclusion[l]};
	return level_capacity(c, (enum level)level, threads > INT_MAX ? INT_MAX : (int)threads);
}

double point_level_clear_of(const struct machine *m, enum level below)
{
	struct level_cache c[MACHINE_NCACHE];

	if (below < LEVEL_L1 || below >= MACHINE_NCACHE)
		return 0;
	for (int l = 0; l <= below; l++)
		c[l] = (struct level_cache){m->reported[l], 0, m->sharers[l], m->inclusion[l]};
	return fmax(share(m, below, 1), level_capacity(c, below, 1));
}

enum point_level point_level_assign(const struct machine *m, const struct raw_row *row)
{
	double foot = (double)row->bytes * (double)(row->arrays > 0 ? row->arrays : 1);
	enum level recorded = level_parse(row->level);

	/* First-touch page faults: the data comes from the OS, not from a cache. */
	if (row->access == KA_FAULT)
		return LV_ANY;
	if (row->threads > 1 && recorded != LEVEL_NONE) {
		int known = 1;
		for (int i = 0; i < MACHINE_NCACHE; i++)
			known &= m->limit[i] <= 0 || m->sharers[i] > 0;
		if (!known)
			return recorded == LEVEL_DRAM ? dram_level(row->placement)
						      : (enum point_level)recorded;
	}
	for (int i = 0; i < MACHINE_NCACHE; i++) {
		double lim = share(m, i, row->threads);
		if (lim <= 0)
			continue;
		if (level_on_boundary(foot, lim))
			return LV_EXCLUDED;
		if (foot <= lim)
			return (enum point_level)i;
	}
	return dram_level(row->placement);
}

/* "off:all" is off: runs from before it was recorded as "off" (harness/run/run_prefetch.c) wrote it as given,
   and taken for a subset it left a demand-only event measured with on,off:all exact, not prefetch-blind.
   "off:" with every name of the CPU's table was off too, but which names those are the analysis cannot tell
   (the tables are the harness's), so such a state stays a subset. */
enum pf_state point_level_prefetch(const char *prefetch)
{
	if (strcmp(prefetch, "on") == 0)
		return PF_ON;
	if (strcmp(prefetch, "off") == 0 || strcmp(prefetch, "off:all") == 0)
		return PF_OFF;
	if (strncmp(prefetch, "off:", 4) == 0)
		return PF_PARTIAL;
	return PF_UNCONTROLLED;
}
