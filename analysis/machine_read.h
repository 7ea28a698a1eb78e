/* machine_read.h — the parts of machine.json (docs/results-format.md) the analysis uses. */
#ifndef PMUCHECK_MACHINE_READ_H
#define PMUCHECK_MACHINE_READ_H

#include "err.h"
#include "level.h"

#define MACHINE_NCACHE LEVEL_DRAM /* the cache levels, L1, L2, L3 */

struct machine {
	char host[128], cpu[256], started[64];
	/* Per-thread cache limits in bytes: the measured plateau limit when machine.json has one,
	   otherwise the reported share; 0 when the machine has no such level. */
	double limit[MACHINE_NCACHE];
	int limit_measured[MACHINE_NCACHE];
	double core_ghz; /* clock.core_ghz: cycles for points that lack their own; 0 when null */
	int sockets, cores, pus;
	int hardware; /* counters.hardware: 1, 0, or -1 when machine.json does not say */
	char counters_reason[512];
	char prefetch_reason[256];
	int prefetch_control;
};

/* Loads path. Bad JSON gives E_USAGE with "<path>:<line>:<column>: ...", a missing or mistyped member
   E_USAGE naming it. */
int machine_read(const char *path, struct machine *m, struct err *e);

#endif
