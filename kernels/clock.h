/* clock.h — the core-clock calibration chain (clock.S), for machines without a cycle counter.
 *
 * kern_clock_chain(iters) executes iters x KERN_CLOCK_ADDS dependent register-to-register adds.
 * Each add needs the previous one's result and takes exactly one core cycle on every x86-64 core
 * (no CPU eliminates reg-reg adds), and the loop counter is on another register, so the call takes
 * iters x KERN_CLOCK_ADDS core cycles plus a small constant. Timed with the TSC for two values of
 * iters, the difference gives core cycles per TSC cycle (the harness does the timing).
 */
#ifndef PMUCHECK_CLOCK_H
#define PMUCHECK_CLOCK_H

#include <stdint.h>

#define KERN_CLOCK_ADDS 64u /* dependent adds per loop iteration (clock.S) */

/* Returns iters x KERN_CLOCK_ADDS (the chain's sum), so the call cannot be optimised away. */
uint64_t kern_clock_chain(uint64_t iters);

/* Core cycles the chain takes for iters iterations (one per add). */
static inline uint64_t kern_clock_chain_adds(uint64_t iters)
{
	return iters * KERN_CLOCK_ADDS;
}

#endif
