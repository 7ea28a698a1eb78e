/* raw.h — the raw.csv writer (format: docs/results-format.md). A point's rows are collected in memory and
 * appended with one write and an fsync when the point is complete, so a run interrupted at any moment
 * (signal, crash, power loss) leaves a raw.csv of whole points only. */
#ifndef PMUCHECK_RAW_H
#define PMUCHECK_RAW_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "kern.h"

struct raw_out_row {
	int point, rep, group;
	const char *kernel, *variant;
	enum kern_access access;
	unsigned plots, traits; /* enum kern_plot bits, enum kern_flag bits */
	unsigned width;
	const char *arg_name;
	uint64_t arg, bytes;
	unsigned arrays;
	uint64_t reps;
	uint64_t span; /* bytes one pass of a call covers: `bytes`, or a part of it (kern.h KF_RESUMABLE) */
	const char *diff;
	int threads;
	const char *cpus, *placement, *mem_nodes, *prefetch, *msr, *level;
	double thp_share, seconds; /* seconds < 0 when the longer call was faster (noise) */
	int64_t tsc;
	uint64_t tsc_lo, tsc_hi; /* the two calls of the difference */
	double core_ghz;         /* 0 = none: written as an empty field */
	const char *clock_note;  /* why the clock is missing or which samples were rejected; "" */
	const char *flag;
	unsigned noisy_why; /* enum noisy_why bits (noisy_why.h), 0 for a clean point */
	struct kern_volumes v;
	/* event part; event == NULL or "" when no event was counted */
	const char *event, *backend, *encoding, *scope;
	int has_count;
	int64_t count;
	uint64_t time_enabled, time_running;
	const char *status, *reason;
	const char *experiment;
	const char *
		uncore; /* socket-scope events: the sockets counted and why ("0:threads;1:memory"), else "" */
};

struct raw_writer {
	int fd;      /* raw.csv, append only */
	FILE *point; /* the rows of the current point (open_memstream) */
	char *buf;
	size_t len;
	char path[4096];
};

/* The header line raw.csv begins with, "\n" included. */
const char *raw_header(void);
/* Creates dir/raw.csv (must not exist) and writes the header. */
int raw_create(struct raw_writer *w, const char *dir, struct err *e);
/* Opens an existing dir/raw.csv to append to (pmucheck run --resume). */
int raw_append(struct raw_writer *w, const char *dir, struct err *e);
/* Adds a row to the current point. */
void raw_write(struct raw_writer *w, const struct raw_out_row *r);
/* Appends the current point's rows to raw.csv and makes them durable. */
int raw_flush(struct raw_writer *w, struct err *e);
int raw_close(struct raw_writer *w, struct err *e);

#endif
