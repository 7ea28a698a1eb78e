/* resume.h — continuing an interrupted run (pmucheck run --resume DIR).
 *
 * A run writes machine.json (with its argv and the measured level sizes) before the first point and
 * appends raw.csv one whole point at a time, so an interrupted run leaves everything needed: the same
 * arguments rebuild the same plan, and raw.csv says which points are done. A point whose rows were torn
 * by a crash in the middle of its write is cut off and measured again. */
#ifndef PMUCHECK_RESUME_H
#define PMUCHECK_RESUME_H

#include <stdint.h>

#include <jansson.h>

#include "err.h"
#include "sysinfo.h"
#include "topo.h"

#define RESUME_MAX_ARGS 128

struct resume_info {
	int argc;
	char *argv[RESUME_MAX_ARGS]; /* the interrupted run's arguments, argv[0] = "run" */
	char started[32];
	int points; /* machine.json "points": the points the run planned (-1: files from before it) */
	int prefetch_control; /* machine.json prefetch.control: 1 switched, 0 uncontrolled, -1 not recorded */
	/* machine.json "plan_cpus": the CPUs its points ran on, in order (ncpus -1: files from before it) */
	int cpus[TOPO_MAX_CPUS], ncpus;
	int last_point;                     /* last point raw.csv holds (-1: none) */
	long header_end;                    /* offset after the header line (0: raw.csv missing) */
	long last_point_start;              /* offset of the first row of the last point */
	long complete_end;                  /* offset after the last whole row */
	int torn;                           /* the file did not end with a whole row */
	uint64_t measured[TOPO_MAX_LEVELS]; /* levels.measured of machine.json, 0 = not measured */
	json_t *levels; /* machine.json's "levels" (the probe), kept for the rewritten one */
	char host[64];  /* machine.json's "host" and "cpu" (resume_cpu_text); "" where it has none */
	char cpu[192];
};

/* Reads DIR/machine.json and scans DIR/raw.csv. E_USAGE when DIR is not an unfinished pmucheck run. */
int resume_load(const char *dir, struct resume_info *ri, struct err *e);
/* Makes raw.csv end with whole points: cuts a torn last line, and the last point's rows, which are
   measured again. A point has as many repetitions as it needed (harness/run/budget.h), so no row count
   tells a whole last point from one whose write was cut at a row's end. Afterwards last_point is the
   last point kept. */
int resume_trim(const char *dir, struct resume_info *ri, struct err *e);
/* E_USAGE where the interrupted run was measured on another host or CPU than sys describes: its points and
   this machine's would share one machine.json, which describes one machine (and a requeued job on another
   node of the same model is another machine: its own results directory says so). */
int resume_same_machine(const char *dir, const struct resume_info *ri, const struct sysinfo *sys,
			struct err *e);
/* E_USAGE where the arguments plan the points on other CPUs here (cpus[0..n-1]) than the interrupted run
   recorded: its plan's default CPUs come from the affinity it was started with (taskset, a batch system's
   binding), and a point of N threads runs on the first N, so the points left would be measured on other
   CPUs than the first ones while the point count still agrees. A run from before machine.json recorded
   them (ncpus -1) passes, as a run without "points" passes that check. */
int resume_same_cpus(const char *dir, const struct resume_info *ri, const int *cpus, int n, struct err *e);
void resume_free(struct resume_info *ri);

#endif
