#include <time.h>

#include "clock.h"
#include "tsc.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double tsc_calibrate_hz(unsigned ms)
{
	double hz[3];

	for (int i = 0; i < 3; i++) {
		double t0 = now_ns(), t1;
		uint64_t c0 = tsc_begin(), c1;

		do {
			t1 = now_ns();
			c1 = tsc_end();
		} while (t1 - t0 < ms * 1e6 / 3);
		hz[i] = (double)(c1 - c0) / ((t1 - t0) * 1e-9);
	}
	/* Median of three: one preempted endpoint pair does not move it. */
	if ((hz[0] <= hz[1]) == (hz[1] <= hz[2]))
		return hz[1];
	if ((hz[1] <= hz[0]) == (hz[0] <= hz[2]))
		return hz[0];
	return hz[2];
}

static uint64_t chain_ticks(uint64_t iters)
{
	uint64_t t0 = tsc_begin();
	kern_clock_chain(iters);
	return tsc_end() - t0;
}

uint64_t tsc_chain_iters(double tsc_hz, double seconds)
{
	uint64_t iters = 1024;

	while ((double)chain_ticks(iters) < tsc_hz * seconds && iters < (1ull << 40))
		iters *= 2;
	return iters;
}

double tsc_chain_ghz(double tsc_hz, uint64_t iters, int tries)
{
	uint64_t t1 = UINT64_MAX, t2 = UINT64_MAX;

	/* The shortest run of each length, then their difference: preemption only adds time, and the
	   difference of two shortest runs is not fooled by a stretched shorter run as a shortest
	   difference would be. */
	for (int i = 0; i < tries; i++) {
		uint64_t a = chain_ticks(iters), b = chain_ticks(2 * iters);
		t1 = a < t1 ? a : t1;
		t2 = b < t2 ? b : t2;
	}
	if (t2 <= t1)
		return 0;
	return (double)kern_clock_chain_adds(iters) / ((double)(t2 - t1) / tsc_hz) * 1e-9;
}

double tsc_core_ghz(double tsc_hz, unsigned ms)
{
	/* one run about ms/10: two lengths, five tries each */
	return tsc_chain_ghz(tsc_hz, tsc_chain_iters(tsc_hz, ms * 1e-3 / 10), 5);
}
