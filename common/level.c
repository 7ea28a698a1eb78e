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

double level_probe_from(enum level l, double point_bytes, double below_bytes)
{
	if (l == LEVEL_L1)
		return 0;
	if ((l != LEVEL_L2 && l != LEVEL_L3) || below_bytes <= 0)
		return point_bytes;
	return fmin(point_bytes, LEVEL_CLEAR_BELOW * below_bytes);
}

struct level_probe_bound level_probe_fold(double from_bytes, double probe_bytes,
					  struct level_probe_time probe, struct level_probe_bound best)
{
	if (probe_bytes < from_bytes)
		return best;
	if (probe.ns > 0 && (best.ns == 0 || probe.ns < best.ns))
		best.ns = probe.ns;
	if (probe.cycles > 0 && (best.cycles == 0 || probe.cycles < best.cycles)) {
		best.cycles = probe.cycles;
		best.cycles_ns = probe.ns;
	}
	return best;
}

double level_probe_figure(double own_ns, struct level_probe_bound probe, double point_ghz, double run_ghz,
			  double *cyc, int *probed)
{
	*probed = probe.ns > 0 && probe.ns < own_ns;
	if (*probed)
		*cyc = probe.cycles > 0 && probe.cycles_ns <= probe.ns * LEVEL_PLATEAU_RISE
			? probe.cycles
			: probe.ns * fmax(run_ghz, point_ghz);
	else
		*cyc = own_ns * (point_ghz > 0 ? point_ghz : run_ghz);
	return *probed ? probe.ns : own_ns;
}
