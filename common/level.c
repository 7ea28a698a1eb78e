#include <math.h>
#include <string.h>

#include "level.h"

static const char *const names[LEVEL_COUNT] = {"L1", "L2", "L3", "DRAM"};

const char *level_name(enum level l)
{
	return (unsigned)l < LEVEL_COUNT ? names[l] : "";
}

enum level level_parse(const char *s)
{
	for (int l = 0; l < LEVEL_COUNT; l++)
		if (s && !strcmp(s, names[l]))
			return (enum level)l;
	return LEVEL_NONE;
}

int level_latency_dram_like(enum level l, double ns)
{
	return l != LEVEL_DRAM && ns >= LEVEL_DRAM_NS;
}

int level_on_boundary(double footprint, double limit)
{
	return limit > 0 && footprint > limit * (1 - LEVEL_BOUNDARY_BELOW) &&
		footprint < limit * (1 + LEVEL_BOUNDARY_ABOVE);
}

int level_probe_stands_for(int local, int pf_on, double thp_share)
{
	return local && pf_on && thp_share >= LEVEL_PROBE_THP_SHARE;
}

int level_probe_bounds(double point_bytes, double probe_bytes)
{
	return probe_bytes >= point_bytes;
}

double level_probe_fold(double point_bytes, double probe_bytes, double probe_ns, double best)
{
	return level_probe_bounds(point_bytes, probe_bytes) && (best == 0 || probe_ns < best) ? probe_ns
											      : best;
}

double level_probe_figure(double own_ns, double probe_ns, double point_ghz, double run_ghz, double *cyc,
			  int *probed)
{
	*probed = probe_ns > 0 && probe_ns < own_ns;
	*cyc = *probed ? probe_ns * fmax(run_ghz, point_ghz) : own_ns * (point_ghz > 0 ? point_ghz : run_ghz);
	return *probed ? probe_ns : own_ns;
}
