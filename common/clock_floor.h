/* clock_floor.h — the slowest core clock a run keeps: a plausibility floor, not a vendor fact. No core that
 * runs a benchmark is this slow; an add chain that reads slower lost its CPU for most of its runs
 * (harness/machine/core_clock.c rejects it), and the analysis refuses a raw.csv clock below it
 * (analysis/thresholds.h THR_MIN_GHZ: 0.01 GHz made a 7 ns L2 latency read 0.07 cycles, "ok"). */
#ifndef PMUCHECK_CLOCK_FLOOR_H
#define PMUCHECK_CLOCK_FLOOR_H

#define CLOCK_FLOOR_GHZ 0.2

#endif
