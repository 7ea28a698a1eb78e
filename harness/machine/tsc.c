#include <time.h>

#include "stats.h"
#include "tsc.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double tsc_hz_of(const uint64_t ticks[TSC_SAMPLES], const double ns[TSC_SAMPLES])
{
	double hz[TSC_SAMPLES];

	for (int i = 0; i < TSC_SAMPLES; i++)
		hz[i] = (double)ticks[i] / (ns[i] * 1e-9);
	/* Median: one preempted endpoint pair does not move it. */
	return stats_median(hz, TSC_SAMPLES);
}

double tsc_calibrate_hz(unsigned ms)
{
	uint64_t ticks[TSC_SAMPLES];
	double ns[TSC_SAMPLES];

	for (int i = 0; i < TSC_SAMPLES; i++) {
		double t0 = now_ns(), t1;
		uint64_t c0 = tsc_begin(), c1;

		do {
			t1 = now_ns();
			c1 = tsc_end();
		} while (t1 - t0 < ms * 1e6 / TSC_SAMPLES);
		ticks[i] = c1 - c0;
		ns[i] = t1 - t0;
	}
	return tsc_hz_of(ticks, ns);
}
