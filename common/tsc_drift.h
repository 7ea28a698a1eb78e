/* tsc_drift.h — whether the TSC's rate as a run's measurements ended lies too far from its rate as they
 * began: a guest without invariant-TSC scaling moved to a host of another TSC rate counts at the new rate, and
 * every time in raw.csv is converted at the first. The run warns (harness run_job.c) and the report says so
 * (analysis out_report_md.c), from machine.json's clock.tsc_hz and clock.tsc_hz_end. */
#ifndef PMUCHECK_TSC_DRIFT_H
#define PMUCHECK_TSC_DRIFT_H

#include <math.h>

/* Twenty calibrations of 30 ms each on the Zen 3 guest (a neighbour on the cores) lay within 0.03 % of each
   other; half a percent is far past that. */
#define TSC_DRIFT 0.005

/* Whether both rates are known and lie more than TSC_DRIFT apart. */
static inline int tsc_drifted(double begin_hz, double end_hz)
{
	return begin_hz > 0 && end_hz > 0 && fabs(end_hz / begin_hz - 1) > TSC_DRIFT;
}

#endif
