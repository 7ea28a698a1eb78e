/* out_report_csv.h — small CSV tables (peaks.csv, the papers' reference tables) read whole. */
#ifndef PMUCHECK_OUT_REPORT_CSV_H
#define PMUCHECK_OUT_REPORT_CSV_H

/* Columns kept; later ones are dropped. peaks.csv has 17 (its last, quality, is read by merge). */
#define OUT_CSV_COLS 32

struct out_csv {
	char *cols[OUT_CSV_COLS];
	unsigned ncols;
	char ***rows; /* rows[i][c], "" where a row is short */
	unsigned nrows;
	unsigned *line;    /* rows[i]'s line in the file */
	unsigned *nfields; /* the fields rows[i] had (more than ncols: ncols + 1) */
	char *comments;    /* the '#' lines without their '#', joined */
	/* the first line that is no whole record (a quote never closed, a NUL byte, no line end at the end of
	   the file) and why; 0 and NULL when there is none. Such a line is read as far as it goes. */
	unsigned bad_line;
	const char *bad_why;
};

/* Reads path: '#' lines are comments, the first other line the header. Returns 0, or -1 when the
   file cannot be read or has no header. */
int out_csv_read(const char *path, struct out_csv *t);
void out_csv_free(struct out_csv *t);
/* Index of the column called name, or -1. */
int out_csv_col(const struct out_csv *t, const char *name);
/* Index of peaks.csv's indicator rate of suffix "1_core" or "all_cores", or -1. A peaks.csv written before
   the two were split (e83ce2e) has one, indicator_max_events_per_s, which stands for both. */
int out_csv_peak_rate_col(const struct out_csv *t, const char *suffix);

#endif
