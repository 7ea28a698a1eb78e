/* raw_read.h — reading raw.csv (docs/results-format.md) one row at a time.
 *
 * raw_read streams the file: each row is parsed, checked and handed to a callback, and nothing is
 * kept, so a file of any length costs the same memory. Columns are found by name in the header;
 * columns this reader does not know are ignored (the format may grow).
 */
#ifndef PMUCHECK_RAW_READ_H
#define PMUCHECK_RAW_READ_H

#include <stdint.h>

#include "err.h"
#include "kern.h"

/* The known volumes, in kern.h order: raw.csv columns v_<name>. */
enum raw_quantity {
#define RAW_Q_ENUM(n, presence) RQ_##n,
	KERN_VOLUME_FIELDS(RAW_Q_ENUM)
#undef RAW_Q_ENUM
		RQ_COUNT
};
extern const char *const raw_quantity_names[RQ_COUNT];

enum raw_status { RS_OK, RS_MULTIPLEXED, RS_NOT_MEASURED, RS_FAILED, RS_COUNT };
extern const char *const raw_status_names[RS_COUNT];

/* One row. Strings point into the reader's line buffer: valid only during the callback. */
struct raw_row {
	unsigned long line; /* line of the file the row starts on */
	int64_t point, rep, group;
	enum kern_access access;
	unsigned plots, traits; /* enum kern_plot bits, enum kern_flag bits */
	const char *kernel, *variant, *arg_name, *diff, *cpus, *placement, *mem_nodes, *prefetch, *msr,
		*level, *flag, *event, *backend, *encoding, *scope, *reason;
	const char *clock_note, *experiment, *uncore; /* "" in files from before these columns */
	unsigned noisy_why; /* enum noisy_why bits (noisy_why.h); 0 in files from before the column */
	int64_t width, arg, bytes, arrays, reps, threads, tsc, time_enabled, time_running;
	int64_t tsc_lo, tsc_hi; /* 0 in files from before these columns */
	int64_t span;           /* bytes one pass of a call covered; 0 in files from before the column */
	double thp_share, seconds;
	double core_ghz;    /* 0 when the repetition has no clock (empty field) */
	double v[RQ_COUNT]; /* NAN: a volume the file has no column for (an OPTIONAL one, kern.h) */
	int has_count;
	double count;
	enum raw_status status;
};

/* Returns 0 to go on, or a negative status (with e filled) to stop reading. */
typedef int (*raw_row_fn)(const struct raw_row *row, void *ctx, struct err *e);

/* Reads path, calls fn for every data row. A malformed or truncated file gives E_USAGE with
   "<path>:<line>: ..." in e; an unreadable one E_RUNTIME. Sets *rows to the rows read. */
int raw_read(const char *path, raw_row_fn fn, void *ctx, unsigned long *rows, struct err *e);

/* The same over the first `limit` bytes of the file only (raw_read: limit -1, all of it). */
int raw_read_upto(const char *path, long limit, raw_row_fn fn, void *ctx, unsigned long *rows, struct err *e);

/* Where the rows of an interrupted run's last point begin when the file ends in a torn row, -1 when it
   ends with a line end (or cannot be read: raw_read says why). A run writes each point's rows at once,
   but a signal that kills the run (or a crash) within that write leaves a prefix of them: the point of the
   cut row is left out, all of it, and --resume measures it again (harness resume.c; both find the rows by
   raw_scan.h). Where the cut row is too short to name its point, the point of the row before is left out
   too. A file that ends inside a quoted field ends in a cut row. */
long raw_torn_point(const char *path);

#endif
