/* agg.h — what the analysis keeps of raw.csv: per point its parameters, volumes and best time; per
 * event its status tallies; per (point, event) the counts of the repetitions and their rate.
 * Rows themselves are not kept, so memory grows with points x events, not with rows. */
#ifndef PMUCHECK_AGG_H
#define PMUCHECK_AGG_H

#include <stdint.h>

#include "point_level.h"
#include "machine_read.h"
#include "raw_read.h"
#include "stats.h"

/* A point's time is min(2R call) - min(R call) over its repetitions, or min(R call) where that is shorter,
   touch's (raw.csv diff "size") the difference alone (stats_mindiff; common/stats.h says why); files
   from before raw.csv had tsc_lo and tsc_hi give the median of their first AGG_REP_TIMES differences. */
#define AGG_REP_TIMES 8

struct agg_point {
	int64_t id;                                          /* `point` in raw.csv */
	const char *kernel, *variant, *placement, *prefetch; /* interned: one copy per distinct text */
	enum kern_access access;
	unsigned plots, traits; /* enum kern_plot bits, enum kern_flag bits (kern.h) */
	int64_t width, arg, bytes, arrays, reps, threads;
	enum point_level level;
	enum pf_state pf;
	int noisy;   /* raw.csv's flag, or faster per core cycle than any core (kern_impossibly_fast) */
	int bounded; /* noisy, and its time is the bound of its shortest call (stats_mindiff_bound) */
	int r_call;  /* clean, and its time is its R call, every 2R call stretched (stats_mindiff_r_call) */
	int past_ports;  /* its time was past the core's ports at its clock (machine.json config.ports;
			    agg.c settle_time): a clean one's difference, which gave way to its bound, or
			    that bound */
	int ports_clock; /* and so was its bound: its clock read low, or the core does more than the config's
			    CPU; it has no clock (core_ghz 0) */
	unsigned noisy_why; /* enum noisy_why bits (noisy_why.h): raw.csv's, and too-fast where the analysis
			       finds it; 0 for a noisy point of a file from before the column */
	double v[RQ_COUNT];
	double seconds; /* stats_mindiff of the repetitions (group 0), a noisy point's bound; INFINITY when
			   not > 0, or faster than any core without calls to bound it (agg.c settle_time) */
	struct stats_mindiff calls;  /* while reading: the shortest R and 2R calls, TSC ticks */
	double sec_per_tick;         /* seconds / tsc of the rows: the run's TSC period (agg.c settle_time) */
	double ticks[AGG_REP_TIMES]; /* while reading: the first repetitions' seconds / tsc */
	float rep_secs[AGG_REP_TIMES]; /* while reading: the first repetitions' times (old files) */
	uint8_t nrep_secs, nticks;
	int64_t last_rep;
	double core_ghz; /* the highest of all its repetitions' clocks (group 0), as the run takes it (harness
			    record_ghz), else the run's; 0 when none, or when it read low (agg.c settle_time) */
	int clock_of_run; /* none of its repetitions had a clock: it was judged at the run's (none where the
			     run has none) */
	double thp_share; /* raw.csv thp_share of its first row: the share of its buffer on huge pages */
	double path_ratio; /* the path probe's ratio before it (machine.json path_probe.point_ratio); 0: none */
	unsigned long first_line;
};

struct agg_cell {
	uint32_t point, event; /* indices into points[] and events[] */
	uint32_t n, cap;
	double *counts; /* one per repetition with status ok */
	double median; /* the median of counts, the count every figure takes (agg.c settle_cells); NAN: none */
	double rate;   /* events/s: median over the point's time (settle_cells); 0: none */
};

struct agg_event {
	char *name, *backend, *encoding, *scope;
	unsigned long rows[RS_COUNT];
	char *reason[RS_COUNT];    /* the first reason given per status */
	unsigned long rejected;    /* readings with status ok that no counter could produce (reading.h) */
	const char *reject_reason; /* the first one's reason (static text) */
	unsigned long reject_line; /* and its line in raw.csv */
	char domain[16];           /* the encoding's ",domain=": user+kernel, user, kernel, all; "" none */
	int32_t box_of;  /* a box of a config's box wildcard: the index of the summed row, else -1 */
	uint32_t nboxes; /* the summed row of a box wildcard: its boxes in raw.csv, else 0 */
	int hyp_q;       /* enum raw_quantity the config expected (machine.json), -1: none */
	double hyp_scale;
	uint32_t *cells;
	uint32_t ncells, cap;
};

/* Open-addressing index from a key to an array position (position + 1 stored, 0 = empty). */
struct agg_index {
	uint32_t *slot;
	uint32_t size;
};

struct agg {
	struct machine m;
	struct agg_point *points; /* in order of first appearance */
	uint32_t npoints, points_cap;
	struct agg_event *events;
	uint32_t nevents, events_cap;
	struct agg_cell *cells;
	uint32_t ncells, cells_cap;
	char **strs; /* interned texts */
	uint32_t nstrs, strs_cap;
	struct agg_index point_ix, event_ix, cell_ix, str_ix;
	uint32_t last_point; /* while reading: the point of the last row */
	unsigned long rows;
	unsigned unknown_q; /* bits of the volumes some point has no value for (a raw.csv from before the
	                      volume's column): no verdict or hypothesis can use them */
	const char *path;   /* the file being read, for messages */
	/* set by agg_read: raw.csv's directory still holds PARTIAL (the run did not finish), and then
	   whether its raw.csv ended in a cut row, whose point was left out (raw_torn_point) */
	int partial, torn;
	/* raw.csv's size as agg_read began, -1 where stat failed: events.json records it, so that report,
	   export and merge know an analysis older than its raw.csv (a run resumed after it) */
	long long raw_bytes;
};

/* Reads raw.csv into a, whose m must already hold the machine; of a partial run, up to a last point its
   interruption cut (analyze and report alike). A row whose encoding says "sum of N
   boxes" is a box wildcard's sum (harness run_record.c); the rows named as its wildcard with the '*' a
   box number are its boxes (box_of, nboxes). */
int agg_read(struct agg *a, const char *raw_path, struct err *e);
void agg_free(struct agg *a);

#endif
