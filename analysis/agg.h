/* agg.h — what the analysis keeps of raw.csv: per point its parameters, volumes and best time; per
 * event its status tallies; per (point, event) the counts of the repetitions and the highest rate.
 * Rows themselves are not kept, so memory grows with points x events, not with rows. */
#ifndef PMUCHECK_AGG_H
#define PMUCHECK_AGG_H

#include <stdint.h>

#include "level.h"
#include "machine.h"
#include "raw.h"

struct agg_point {
	int used;
	char kernel[16], variant[48], placement[24], prefetch[48];
	int64_t width, arg, bytes, arrays, reps, threads;
	enum level level;
	enum pf_state pf;
	int noisy;
	double v[RQ_COUNT];
	double seconds; /* fastest measurement of the point (any group) */
	double tsc;     /* its TSC cycles */
	double core_ghz;
	unsigned long first_line;
};

struct agg_cell {
	uint32_t point, event;
	uint32_t n, cap;
	double *counts;   /* one per repetition with status ok */
	double max_rate;  /* highest count / seconds of a single measurement, events/s */
};

struct agg_event {
	char *name, *backend, *encoding, *scope;
	unsigned long rows[RS_COUNT];
	char *reason[RS_COUNT]; /* the first reason given per status */
	uint32_t *cells;
	uint32_t ncells, cap;
};

struct agg {
	struct machine m;
	struct agg_point *points;
	uint32_t npoints, points_cap;
	struct agg_event *events;
	uint32_t nevents, events_cap;
	struct agg_cell *cells;
	uint32_t ncells, cells_cap;
	uint32_t *event_hash, event_hash_size; /* index + 1, 0 = empty */
	uint32_t *cell_hash, cell_hash_size;
	unsigned long rows;
	const char *path; /* the file being read, for messages */
};

/* Reads raw.csv into a, whose m must already hold the machine. */
int agg_read(struct agg *a, const char *raw_path, struct err *e);
void agg_free(struct agg *a);

#endif
