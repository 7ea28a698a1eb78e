/* machine_read.h — the parts of machine.json (docs/results-format.md) the analysis uses. */
#ifndef PMUCHECK_MACHINE_READ_H
#define PMUCHECK_MACHINE_READ_H

#include "err.h"
#include "level.h"

#define MACHINE_NCACHE LEVEL_DRAM /* the cache levels, L1, L2, L3 */
#define MACHINE_NEXPECT 512       /* events whose expected quantity is kept */

struct machine {
	char host[128], cpu[256], started[64];
	/* Per-thread cache limits in bytes: the measured plateau limit when machine.json has one,
	   otherwise the reported share; 0 when the machine has no such level. */
	double limit[MACHINE_NCACHE];
	int limit_measured[MACHINE_NCACHE];
	/* Cores sharing each cache, from levels.reported / levels.reported_all_threads at threads_max
	   (at most threads_max); 0 when machine.json does not say. A point of N threads gets
	   limit / min(N, sharers) each, as the run's plan gave it (harness topo_cache_share). */
	int sharers[MACHINE_NCACHE];
	double core_ghz; /* clock.core_ghz: cycles for points that lack their own; 0 when null */
	int sockets, cores, pus;
	int hardware; /* counters.hardware: 1, 0, or -1 when machine.json does not say */
	char counters_reason[512];
	char prefetch_reason[256];
	int prefetch_control;
	/* What the config expected of each event (counters.experiments[].hypotheses: quantity and scale, "lines_read x
	   9"): the analysis prefers it where the data cannot decide. Absent in older files. */
	struct machine_expect {
		char spec[160];
		char quantity[32];
		double scale;
	} expect[MACHINE_NEXPECT];
	unsigned nexpect;
};

/* Loads path. Bad JSON gives E_USAGE with "<path>:<line>:<column>: ...", a missing or mistyped member
   E_USAGE naming it. */
int machine_read(const char *path, struct machine *m, struct err *e);

#endif
