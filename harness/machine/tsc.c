#include <time.h>

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
