/* core_clock.h — the core clock without a cycle counter: chains of dependent 1-cycle adds (kernels/clock.S)
 * timed with the TSC, made robust to preemption and bounded by what the CPU can do.
 *
 * A sample times CLOCK_TRIES runs of an N-iteration chain and as many of a 2N chain, interleaved.
 * Preemption (another tenant on the vCPU, an interrupt) only ever adds time, so the shortest run of each
 * length is the undisturbed one, and their difference cancels the call and timer overhead:
 *
 *     GHz = adds(N) / ((min(2N) - min(N)) / tsc_hz)
 *
 * That alone is not enough on a shared machine: when every N run of a sample was stretched, the difference
 * shrinks and the "clock" soars (17.4 GHz on a Zen 3 VM); when every 2N run was, it sinks. So the 2N runs
 * alone must tell the same clock, adds(2N) / min(2N) (the overhead moves that by well under 1 %); a sample
 * where the two disagree by more than CLOCK_AGREE had a disturbed run and is rejected. Last, an estimate
 * above the CPU's maximum clock or below a physical floor is rejected. A rejected sample is missing, never
 * a number.
 */
#ifndef PMUCHECK_CORE_CLOCK_H
#define PMUCHECK_CORE_CLOCK_H

#include <stdint.h>

#include "clock_words.h"
#include "cpu_id.h"
#include "err.h"

/* Runs of each length per sample. Measured on a shared 2-vCPU Zen 4 KVM guest (4000 samples of
   125 µs chains): with 2 tries and no agreement check the estimates ranged 1.8 .. 5.7 GHz around a
   3.69 GHz clock; with 4 tries and the check 3.55 .. 3.74 GHz, 0.5 % of the samples rejected. */
#define CLOCK_TRIES 4

/* How far the difference estimate and the 2N runs alone may disagree, and how far an estimate may lie
   above the CPU's maximum (it is as uncertain as that). */
#define CLOCK_AGREE 0.02

/* Where the sysfs tree is; tests pass a fake one. */
#define CLOCK_SYSFS_ROOT "/sys"

/* The clocks a sample may give. */
struct clock_bounds {
	double min_ghz, max_ghz;
	char source[160];     /* where max_ghz comes from */
	const char *max_from; /* the kind of that source: a CLOCK_MAX_FROM_* word (clock_words.h) */
};

/* The timings of one sample: TSC ticks of each run of the N-iteration chain and of the 2N chain. */
struct clock_runs {
	uint64_t iters; /* N */
	int tries;
	uint64_t n[CLOCK_TRIES], n2[CLOCK_TRIES];
};

/* The bounds for this machine: the largest cpuinfo_max_freq under sys_root/devices/system/cpu, else
   CPUID leaf 0x16 of an Intel CPU (id), else arch_max_ghz, the highest stock clock of its architecture
   that its config gives (0: none; arch_source, the config's path, names it), else a physical bound.
   Never fails: some bound always holds. A KVM guest has neither cpufreq nor, on AMD, leaf 0x16: the
   Zen 3 guest of issue 14 was bounded at 7 GHz, where no Zen 3 runs above 5. */
void clock_bounds_read(const char *sys_root, const struct cpuid_info *id, double arch_max_ghz,
		       const char *arch_source, struct clock_bounds *b);

/* Whether a clock estimate lies within the bounds (above max_ghz by up to CLOCK_AGREE is within): 0, or
   E_RUNTIME saying which bound it broke, and *why (CLOCK_REJECT_ABOVE_MAX or _BELOW_FLOOR; may be NULL). */
int clock_bounds_check(double ghz, const struct clock_bounds *b, enum clock_reject *why, struct err *e);

/* The clock of one sample (pure: timings in, GHz out). Returns 0 and sets *ghz, or E_RUNTIME with the
   reason the sample was rejected, *why its kind (may be NULL), and *ghz = 0. */
int clock_estimate(const struct clock_runs *r, double tsc_hz, const struct clock_bounds *b, double *ghz,
		   enum clock_reject *why, struct err *e);

/* The chain length N whose run takes about `seconds`. */
uint64_t clock_chain_iters(double tsc_hz, double seconds);

/* The clock over one run of an N-iteration chain, for a caller that brackets a timed call with two and keeps
   it only where they agree (harness levels.c): no difference of two lengths cancels its call overhead (tens
   of cycles, under 0.3 % of a 10 us chain, reading it that much low), and preemption reads it lower; 0
   outside the bounds. */
double clock_chain_ghz(double tsc_hz, uint64_t iters, const struct clock_bounds *b);

/* Times one sample with chains of N = iters and estimates it (clock_estimate). */
int clock_sample(double tsc_hz, uint64_t iters, const struct clock_bounds *b, double *ghz,
		 enum clock_reject *why, struct err *e);

/* The run's clock for machine.json and `pmucheck info`: the median of the samples that were not rejected,
   of CLOCK_SAMPLES, whose chains of N adds take ms/240 or up to twice that (ms in all, or up to twice
   that; 83-167 us for the 20 ms of a run). Short on purpose:
   on a 2-vCPU Zen 5 KVM guest the shortest of 20 chains read 3.61 GHz at 0.1-0.6 ms but 3.51-3.53 GHz
   at 1.2-5 ms, where every chain met some host event, so the 2N runs of 0.5-1 ms chains never agreed
   with the difference and every sample was rejected; chains below 0.6 ms miss it. E_RUNTIME with the
   last reason when every sample was rejected. */
#define CLOCK_SAMPLES 20
int clock_core_ghz(double tsc_hz, unsigned ms, const struct clock_bounds *b, double *ghz, struct err *e);

#endif
