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

#define TSC_SAMPLES 3

/* TSC ticks per second, measured against CLOCK_MONOTONIC_RAW over about `ms` milliseconds (tsc_hz_of its
   TSC_SAMPLES intervals). */
double tsc_calibrate_hz(unsigned ms);

/* The median rate of TSC_SAMPLES intervals of ticks[i] TSC ticks in ns[i] nanoseconds. */
double tsc_hz_of(const uint64_t ticks[TSC_SAMPLES], const double ns[TSC_SAMPLES]);

#endif
