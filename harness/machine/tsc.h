/* tsc.h — time with the TSC, fenced.
 *
 * rdtsc is not ordered with the instructions around it. The lfence before it waits until every earlier
 * instruction (the kernel's loads) has completed locally; the lfence after it keeps the kernel's first
 * instructions from starting before the timestamp is taken. Stores may still drain from the store buffer
 * after the end stamp; differencing R and 2R passes cancels that constant tail.
 */
#ifndef PMUCHECK_TSC_H
#define PMUCHECK_TSC_H

#include <stdint.h>

static inline uint64_t tsc_begin(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_end(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* TSC ticks per second, measured against CLOCK_MONOTONIC_RAW over about `ms` milliseconds (median of 3). */
double tsc_calibrate_hz(unsigned ms);

#endif
