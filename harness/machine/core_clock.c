/* core_clock.c — the core clock from timed add chains (see core_clock.h for the method). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "clock_floor.h"
#include "core_clock.h"
#include "num.h"
#include "stats.h"
#include "tsc.h"

/* No x86 CPU is sold to run faster: the highest stock clock is the 6.2 GHz turbo of Intel's Core
   i9-14900KS (ark.intel.com, 2024). Generous on purpose, it still rejects the 17 GHz of a preempted
   chain where nothing better is known. */
#define CLOCK_PHYSICAL_MAX_GHZ 7.0

/* acpi-cpufreq may give only the highest non-boost P-state as cpuinfo_max_freq when the firmware has no
   CPPC (Linux commit 16fb8d8a, "acpi-cpufreq: use DMI max speed when CPPC is unavailable": a Zen 1
   reported 3350 MHz for a 3600 MHz boost), so its maximum is no bound. */
static int driver_max_is_boost(const char *cpufreq_dir)
{
	char path[4096], name[64] = "";
	FILE *f;

	snprintf(path, sizeof path, "%s/scaling_driver", cpufreq_dir);
	if ((f = fopen(path, "r"))) {
		if (!fgets(name, sizeof name, f))
			name[0] = '\0';
		fclose(f);
	}
	return strncmp(name, "acpi-cpufreq", 12) != 0;
}

/* The largest cpuinfo_max_freq (kHz) of the CPUs whose driver reports its boost clock; 0 when none. */
static double sysfs_max_khz(const char *sys_root)
{
	char pattern[4096], path[4096];
	double best = 0;
	glob_t g;

	snprintf(pattern, sizeof pattern, "%s/devices/system/cpu/cpu[0-9]*/cpufreq", sys_root);
	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		double khz;
		snprintf(path, sizeof path, "%s/cpuinfo_max_freq", g.gl_pathv[i]);
		khz = num_read_file(path, 0);
		if (khz > best && driver_max_is_boost(g.gl_pathv[i]))
			best = khz;
	}
	globfree(&g);
	return best;
}

void clock_bounds_read(const char *sys_root, const struct cpuid_info *id, double arch_max_ghz,
		       const char *arch_source, struct clock_bounds *b)
{
	double khz = sysfs_max_khz(sys_root);

	b->min_ghz = CLOCK_FLOOR_GHZ;
	if (khz > 0) {
		b->max_from = CLOCK_MAX_FROM_CPUFREQ;
		b->max_ghz = khz * 1e-6;
		snprintf(b->source, sizeof b->source, "cpuinfo_max_freq in %s/devices/system/cpu", sys_root);
	} else if (id->max_mhz > 0) {
		b->max_from = CLOCK_MAX_FROM_CPUID;
		b->max_ghz = id->max_mhz * 1e-3;
		snprintf(b->source, sizeof b->source, "CPUID leaf 0x16 (maximum frequency)");
	} else if (arch_max_ghz > 0) {
		const char *file = strrchr(arch_source, '/');
		b->max_from = CLOCK_MAX_FROM_CONFIG;
		b->max_ghz = arch_max_ghz;
		snprintf(b->source, sizeof b->source, "%s max_ghz (the highest stock clock of its CPUs)",
			 file ? file + 1 : arch_source);
	} else {
		b->max_from = CLOCK_MAX_FROM_PHYSICAL;
		b->max_ghz = CLOCK_PHYSICAL_MAX_GHZ;
		snprintf(b->source, sizeof b->source,
			 "no CPU maximum known: the highest stock x86 clock, with margin");
	}
}

static uint64_t min_of(const uint64_t *v, int n)
{
	uint64_t m = UINT64_MAX;

	for (int i = 0; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

int clock_estimate(const struct clock_runs *r, double tsc_hz, const struct clock_bounds *b, double *ghz,
		   enum clock_reject *why, struct err *e)
{
	uint64_t t1 = min_of(r->n, r->tries), t2 = min_of(r->n2, r->tries);
	double adds = (double)kern_clock_chain_adds(r->iters), diff, whole;

	*ghz = 0;
	if (why)
		*why = CLOCK_REJECT_DISTURBED;
	if (r->tries < 1 || t2 <= t1)
		return err_set(e, E_RUNTIME, "the 2N chain was no longer than the N chain");
	diff = adds / ((double)(t2 - t1) / tsc_hz) * 1e-9;
	whole = 2 * adds / ((double)t2 / tsc_hz) * 1e-9;
	if (diff > whole * (1 + CLOCK_AGREE) || diff < whole * (1 - CLOCK_AGREE))
		return err_set(e, E_RUNTIME,
			       "%.3g GHz, but %.3g GHz from the 2N chain alone: a run was disturbed", diff,
			       whole);
	if (clock_bounds_check(diff, b, why, e))
		return E_RUNTIME;
	*ghz = diff;
	return 0;
}

int clock_bounds_check(double ghz, const struct clock_bounds *b, enum clock_reject *why, struct err *e)
{
	enum clock_reject unused;

	why = why ? why : &unused;
	*why = CLOCK_REJECT_ABOVE_MAX;
	if (ghz > b->max_ghz * (1 + CLOCK_AGREE))
		return err_set(e, E_RUNTIME, "%.3g GHz, above the CPU's %.3g GHz maximum", ghz, b->max_ghz);
	*why = CLOCK_REJECT_BELOW_FLOOR;
	if (ghz < b->min_ghz)
		return err_set(e, E_RUNTIME, "%.3g GHz, below the %.3g GHz floor", ghz, b->min_ghz);
	return 0;
}

static uint64_t chain_ticks(uint64_t iters)
{
	uint64_t t0 = tsc_begin();
	kern_clock_chain(iters);
	return tsc_end() - t0;
}

uint64_t clock_chain_iters(double tsc_hz, double seconds)
{
	uint64_t iters = 1024;

	while ((double)chain_ticks(iters) < tsc_hz * seconds && iters < (1ull << 40))
		iters *= 2;
	return iters;
}

double clock_chain_ghz(double tsc_hz, uint64_t iters, const struct clock_bounds *b)
{
	double ghz = (double)kern_clock_chain_adds(iters) / ((double)chain_ticks(iters) / tsc_hz) * 1e-9;
	struct err e;

	return clock_bounds_check(ghz, b, NULL, &e) ? 0 : ghz;
}

int clock_sample(double tsc_hz, uint64_t iters, const struct clock_bounds *b, double *ghz,
		 enum clock_reject *why, struct err *e)
{
	struct clock_runs r = {.iters = iters, .tries = CLOCK_TRIES};

	/* Interleaved, so a burst of preemption stretches runs of both lengths rather than all of one. */
	for (int i = 0; i < CLOCK_TRIES; i++) {
		r.n[i] = chain_ticks(iters);
		r.n2[i] = chain_ticks(2 * iters);
	}
	return clock_estimate(&r, tsc_hz, b, ghz, why, e);
}

int clock_core_ghz(double tsc_hz, unsigned ms, const struct clock_bounds *b, double *ghz, struct err *e)
{
	/* a sample runs CLOCK_TRIES chains of N and of 2N adds: 3 N each */
	uint64_t iters = clock_chain_iters(tsc_hz, ms * 1e-3 / (CLOCK_SAMPLES * CLOCK_TRIES * 3));
	double g[CLOCK_SAMPLES];
	int n = 0;

	for (int i = 0; i < CLOCK_SAMPLES; i++)
		if (clock_sample(tsc_hz, iters, b, &g[n], NULL, e) == 0)
			n++;
	*ghz = stats_median(g, n);
	return n ? 0 : E_RUNTIME;
}
