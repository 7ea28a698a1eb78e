/* raw_scan.h — where raw.csv's records and points begin: the one reading of that for the two readers
 * that cut an interrupted run's file at a point, `run --resume` (harness resume.c) and the analysis of a
 * PARTIAL run (analysis raw_read.c). Each keeps its own rule for what to cut; the scan is shared so that
 * both see the same records. A record is one line, but where a quoted field holds a line break (csv.c: a
 * clock_note may), and its first field is its point; the rows of one point are contiguous. */
#ifndef PMUCHECK_RAW_SCAN_H
#define PMUCHECK_RAW_SCAN_H

#include <stdio.h>

struct raw_scan {
	long header_end;       /* offset after the header record; 0: the file has no whole one */
	int last_point;        /* the point of the last whole row; -1: no whole row */
	long last_point_start; /* offset of that point's first row */
	long complete_end;     /* offset after the last whole record (the header's or a row's) */
	int torn;              /* bytes follow it: the file ends in a record its write was cut in */
	int torn_new_point;    /* that cut record names a point other than last_point, so the point
	                          before it is whole; 0 where it is too short to name one */
	long bad_line;         /* the first whole row that does not begin with a point number and a comma,
	                          whose point comes back after a later one began (each point's rows are
	                          together, in order), that has another number of fields than the header, a
	                          quote opening inside a field, or a NUL byte: the scan stops there; 0: none */
};

/* Scans f from its start to its end. Returns 0, or -1 when it cannot be read (errno says why). */
int raw_scan(FILE *f, struct raw_scan *out);

#endif
