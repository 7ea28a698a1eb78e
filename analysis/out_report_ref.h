/* out_report_ref.h — the seed papers' tables next to the measured ones, for a run made with a
 * preset (machine.json "preset": {"name", "reference": [CSV paths]}). */
#ifndef PMUCHECK_OUT_REPORT_REF_H
#define PMUCHECK_OUT_REPORT_REF_H

#include <stdio.h>

#include "out_report_data.h"

/* Writes a Markdown section per reference CSV: joined with peaks.csv row by row when the paper
   table has level (or resource) and access columns, else as the paper printed it. Nothing when the
   run used no preset. */
void out_report_references(FILE *f, const struct out_rdata *d);

#endif
