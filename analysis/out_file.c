/* out_file.c — what every analysis table prints: the thresholds under it, CSV fields in it. */
#include <stdio.h>

#include "csv.h"
#include "out.h"
#include "thresholds.h"

void out_thresholds_md(FILE *f)
{
	fprintf(f,
		"\nThresholds (analysis/thresholds.h), rules in docs/verdicts.md: per level x "
		"prefetch "
		"group, the ratio count/quantity of each point (median of its repetitions); a minority (<= "
		"%.0f "
		"%% of a group of >= %d) further than %.0f robust sigmas and %.0f %% from the median is left "
		"out, as is one where the quantity is 0 and the event counts at %.0f %% or more of the "
		"group's median rate; a background growing with time is subtracted where it makes the event "
		"hold better (it "
		"may explain at most %.0f %% of a count). *exact* = median ratio within %.0f %% of a simple "
		"scale, spread within %.0f %%, R^2 >= %.3f; *approximate* = within %.0f %%, R^2 >= %.2f; "
		"*overcounts/undercounts* = ratio consistent (spread within %.0f %%) but no simple scale, "
		"linear (R^2 >= %.2f), direction by the measured ratio; *prefetch-blind* = holds with "
		"prefetchers off, counts less with them on. Points whose per-thread footprint (the cache's "
		"share per thread at the point's thread count) is within %.0f %% below or %.0f %% above a "
		"cache limit are excluded; an event needs %d points; counts below %.0f per measurement are "
		"noise; readings above %.0f events per cycle and counting unit at %.0f GHz, below -%.0f (an "
		"idle event's differenced counts straddle 0) or stuck at all ones are rejected. Sums: NNLS "
		"terms kept when they remove %.0f %% of the "
		"residual, at most %d terms, coefficients >= 1/%.0f.\n",
		THR_OUTLIER_SHARE * 100, THR_OUTLIER_MIN_POINTS, THR_OUTLIER_SIGMAS, THR_OUTLIER_MIN * 100,
		THR_UNEXPLAINED_RATE * 100, THR_BACKGROUND_MAX * 100, THR_EXACT_ERROR * 100,
		THR_EXACT_ERROR * 100, THR_EXACT_R2, THR_APPROX_ERROR * 100, THR_APPROX_R2,
		THR_APPROX_ERROR * 100, THR_RELATED_R2, THR_BOUNDARY_BELOW * 100, THR_BOUNDARY_ABOVE * 100,
		THR_MIN_POINTS, THR_NOISE_COUNTS, THR_MAX_EVENTS_PER_CYCLE, THR_MAX_GHZ, THR_NOISE_COUNTS,
		THR_NNLS_GAIN * 100, THR_NNLS_MAX_TERMS, 1 / THR_NNLS_MIN_COEF);
}

const char *out_md_text(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		buf[n++] = *s == '|' ? '/' : (*s == '\n' || *s == '\r') ? ' ' : *s;
	if (len)
		buf[n] = '\0';
	return buf;
}

void out_csv_field(FILE *f, const char *s, int last)
{
	csv_field(f, s);
	fputc(last ? '\n' : ',', f);
}
