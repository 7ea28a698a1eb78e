/* speed_probe.h — the machine's own speed during a run. Before each point, its first thread times a small
 * L1 read (the kernel registered with KP_SPEED_PROBE, kern.h) on its CPU. Interference only slows that read,
 * so its best over the run is what the core can do, and how far the points' reads fall below the best is how
 * much slower the machine itself was at those moments: a neighbour on the SMT sibling, or the host moving
 * the clock, which steal time does not see. A slowdown that lasts through a point slows all its calls
 * alike, which no estimator inside the point can undo. On the development VM (Zen 5 guest, 2 vCPUs, quiet)
 * a --quick run's 224 probes read 90-97 % of their best at most points and below 90 % at one in ten,
 * scattered through the run rather than in phases; two consecutive such runs read some L2 bandwidths
 * 20-30 % apart. machine.json's disturbance.speed_probe keeps it; the report's Run quality and the run's
 * output say it. */
#ifndef PMUCHECK_SPEED_PROBE_H
#define PMUCHECK_SPEED_PROBE_H

#include <jansson.h>
#include <stdint.h>

#include "err.h"
#include "kern.h"

#define SPEED_PROBE_BYTES 16384u   /* fits every L1d */
#define SPEED_PROBE_SECONDS 0.0002 /* one call; the shorter of two is kept, 0.4 ms per point */

struct speed_probe {
	const struct kern_variant *v;
	const struct kern_family *f;
	void *buf;
	uint64_t reps; /* passes per call; 0 until the first sample calibrates them */
	double tsc_hz;
	double *gbps; /* one per sample */
	int n, cap;
};

/* The registered kernel and its buffer. E_RUNTIME when no kernel is registered or out of memory. */
int speed_probe_init(struct speed_probe *sp, double tsc_hz, struct err *e);

/* Times the probe on the calling thread's CPU, the shorter of two calls, and keeps its GB/s; nothing when
   out of memory (a run does not fail for its probe). */
void speed_probe_sample(struct speed_probe *sp);

/* The samples' figures, sorted order; n == 0: none. */
struct speed_probe_figures {
	int n;
	double best, median, p10; /* GB/s: the fastest, the median, the 10th percentile from the slow end */
};
struct speed_probe_figures speed_probe_figures(const struct speed_probe *sp);

/* {"kernel", "bytes", "points", "gbps_best", "gbps_median", "gbps_p10"}; NULL when there is no sample. */
json_t *speed_probe_json(const struct speed_probe *sp);

void speed_probe_free(struct speed_probe *sp);

#endif
