/* clock_aperf.h — the core clock from APERF and MPERF, where the kernel's perf `msr` PMU offers them.
 *
 * Linux's msr PMU (arch/x86/events/msr.c) has the events `aperf` and `mperf` when CPUID leaf 6 says the
 * CPU has them; a KVM guest usually gets only `tsc` (the development VM does). Counted per thread around
 * each repetition's two calls, their ratio is the clock the thread ran at while it ran:
 *
 *     GHz = TSC GHz x dAPERF / dMPERF
 *
 * because MPERF counts at a fixed rate, the TSC's (Intel SDM Vol. 3B, "Hardware Coordination Feedback":
 * IA32_MPERF increments at the TSC frequency; AMD APM Vol. 2, "Effective frequency interface": MPERF at
 * the P0 frequency, which is also the TSC's), which is how Linux turns them into a frequency
 * (arch/x86/kernel/cpu/aperfmperf.c). Where they exist they replace the add chains (core_clock.h): they
 * cost no time, and preemption cannot stretch them, since a task's msr events count only while it runs.
 * The estimate is held to the same bounds as a chain sample (clock_bounds). */
#ifndef PMUCHECK_CLOCK_APERF_H
#define PMUCHECK_CLOCK_APERF_H

#include <stddef.h>
#include <stdint.h>

#include "core_clock.h"
#include "ctr.h"

/* The pair of events, described against a sysfs tree of PMUs, and the group they are counted in. */
struct clock_aperf {
	struct ctr_event ev[2]; /* msr/aperf/, msr/mperf/ */
	struct ctr_group group;
};

/* Where clock_aperf_find looks: $PMUCHECK_CLOCK_PMUS (tests: a fake tree) or CTR_SYSFS_PMUS. */
const char *clock_aperf_pmus(void);

/* Describes msr/aperf/ and msr/mperf/ against the PMU tree `pmus` (CTR_SYSFS_PMUS; tests pass a fake
   one). Returns 0, or -1 with why they are not there ("the msr PMU has no aperf event (it has: tsc)"). */
int clock_aperf_find(const char *pmus, struct clock_aperf *c, char *why, size_t len);

/* Whether the calling thread can count them: opens, starts, stops, reads and closes the group once.
   Returns 0, or -1 with the reason (perf_event_paranoid, a kernel that rejects them). */
int clock_aperf_try(const struct clock_aperf *c, char *why, size_t len);

/* The machine's clock as a run takes it and `info` shows it, measured on the calling thread's CPU (run it
   through topo_on_cpu): the add-chain clock (clock_core_ghz) and whether APERF/MPERF can clock each
   repetition. tsc_hz and bounds are the caller's. */
struct clock_machine {
	double tsc_hz;
	const struct clock_bounds *bounds;
	int no_clock; /* every chain sample rejected: why says why */
	double ghz;
	struct err why;
	struct clock_aperf aperf;
	int use_aperf;
	char aperf_why[CTR_REASON_MAX]; /* why APERF/MPERF is not used */
};

/* Fills arg, a struct clock_machine; 0 always (a clock that cannot be measured is a note, not an error). */
int clock_machine_measure(void *arg, struct err *e);

/* The clock of one interval (pure): GHz from the two counts and the TSC rate, or E_RUNTIME with the
   reason the estimate was rejected (no MPERF count: CLOCK_REJECT_UNREAD; outside the bounds), its kind in
   *why (may be NULL), and *ghz = 0. */
int clock_aperf_ghz(uint64_t aperf, uint64_t mperf, double tsc_hz, const struct clock_bounds *b, double *ghz,
		    enum clock_reject *why, struct err *e);

/* The clock of one counted interval of an opened group (ctr_read's two readings): clock_aperf_ghz, or
   the reading's own failure (CLOCK_REJECT_UNREAD). */
int clock_aperf_reading(const struct ctr_reading rd[2], double tsc_hz, const struct clock_bounds *b,
			double *ghz, enum clock_reject *why, struct err *e);

#endif
