/* out_report_md.h — report.md: what was not measured first, then figures and the analysis tables. */
#ifndef PMUCHECK_OUT_REPORT_MD_H
#define PMUCHECK_OUT_REPORT_MD_H

#include <stdio.h>

#include "out_plot_sets.h"
#include "out_report_data.h"

/* Writes the report to f; figures holds the drawn figures (plots/NAME.png and .svg exist), or none
   with why_no_plots saying why. Returns the number of not-measured events listed. */
unsigned out_report_md(FILE *f, const struct out_rdata *d, const struct out_figures *figs,
		       const char *why_no_plots);

#endif
