/* analyze.h — `pmucheck analyze DIR`: raw.csv + machine.json in, verdict and peak tables out. */
#ifndef PMUCHECK_ANALYZE_H
#define PMUCHECK_ANALYZE_H

#include "err.h"
#include "verdict.h"

struct analyze_summary {
	unsigned long rows;
	unsigned points, events, stall_rows, box_rows;
	unsigned classes[VC_COUNT];
	int torn; /* a partial run's raw.csv ended in a cut row: its last point was left out */
};

/* Reads DIR/raw.csv and DIR/machine.json and writes events.{csv,json,md}, peaks.{csv,md}, when
   stall-like events were counted with the chase variants stalls.md, and when a box wildcard's sum was
   counted boxes.{csv,md}. Bad input: E_USAGE and nothing
   written. sum may be NULL. */
int analyze_dir(const char *dir, struct analyze_summary *sum, struct err *e);

#endif
