/* out_file.c — what every analysis table prints: the thresholds under it, CSV fields in it. */
#include <stdio.h>

#include "csv.h"
#include "out.h"
#include "thresholds.h"

void out_thresholds_md(FILE *f)
{
	fprintf(f,
		"\nThresholds (analysis/thresholds.h): *exact* = median ratio within %.0f %% of a simple "
		"scale, spread within %.0f %%, R^2 >= %.3f; *approximate* = within %.0f %%, R^2 >= %.2f; "
		"*overcounts/undercounts* = no simple scale but linear (R^2 >= %.2f); *prefetch-blind* = "
		"holds with prefetchers off, counts less with them on. Points whose per-thread footprint is "
		"within %.0f %% below or %.0f %% above a cache limit are excluded; an event needs %d points; "
		"counts below %.0f per measurement are noise. Sums: NNLS terms kept when they remove %.0f %% "
		"of the residual, at most %d terms, coefficients >= 1/%.0f.\n",
		THR_EXACT_ERROR * 100, THR_EXACT_ERROR * 100, THR_EXACT_R2, THR_APPROX_ERROR * 100,
		THR_APPROX_R2, THR_RELATED_R2, THR_BOUNDARY_BELOW * 100, THR_BOUNDARY_ABOVE * 100,
		THR_MIN_POINTS, THR_NOISE_COUNTS, THR_NNLS_GAIN * 100, THR_NNLS_MAX_TERMS,
		1 / THR_NNLS_MIN_COEF);
}

void out_csv_field(FILE *f, const char *s, int last)
{
	csv_field(f, s);
	fputc(last ? '\n' : ',', f);
}
