/* out_plot_sets.h — the figures a results directory supports (seed papers' figure styles). */
#ifndef PMUCHECK_OUT_PLOT_SETS_H
#define PMUCHECK_OUT_PLOT_SETS_H

#include "out_plot.h"
#include "out_report_data.h"

struct out_figures {
	struct out_plot *p;
	unsigned n, cap;
	char not_drawn[2048]; /* figures the data does not support, and why */
};

/* Builds every figure d supports; a figure without a drawable point is left out. */
int out_figures_build(const struct out_rdata *d, struct out_figures *f, struct err *e);
void out_figures_free(struct out_figures *f);

#endif
