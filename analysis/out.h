/* out.h — the files analyze writes. All are written to temporary names in the results directory and
 * renamed only when every one is complete, so a failed analysis leaves the directory as it was. */
#ifndef PMUCHECK_OUT_H
#define PMUCHECK_OUT_H

#include <stdio.h>

#include "agg.h"
#include "fileset.h"
#include "peak.h"
#include "stall.h"
#include "verdict.h"

/* The thresholds of thresholds.h as a Markdown paragraph, printed under every table. */
void out_thresholds_md(FILE *f);
/* One field of an analysis table (csv_field), then its separator: "," or, after the last, a line end. */
void out_csv_field(FILE *f, const char *s, int last);
/* s for a Markdown table cell, in buf: '|' (which the report's HTML splits cells at too) as '/', line ends
   as spaces; an event's name may hold any of them. */
const char *out_md_text(const char *s, char *buf, size_t len);

/* Verdicts are indexed by event; order lists event indices in table order. */
int out_events(struct fileset *o, const struct agg *a, const struct verdict *v, const uint32_t *order,
	       struct err *e);
int out_peaks(struct fileset *o, const struct agg *a, const struct verdict *v, const struct peak_table *t,
	      struct err *e);
/* boxes.csv and boxes.md when raw.csv holds a box wildcard's sum with its boxes (*written: their rows). */
int out_boxes(struct fileset *o, const struct agg *a, unsigned *written, struct err *e);
int out_stalls(struct fileset *o, const struct agg *a, const struct stall_row *rows, unsigned n,
	       struct err *e);

#endif
