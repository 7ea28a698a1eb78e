/* out_file.c — temporary output files, committed together or not at all. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "out.h"
#include "thresholds.h"

int out_open(struct out_files *o, const char *name, FILE **f, struct err *e)
{
	typeof(o->file[0]) *of;

	if (o->n == OUT_MAX_FILES)
		return err_set(e, E_RUNTIME, "too many output files");
	of = &o->file[o->n];
	snprintf(of->final, sizeof of->final, "%s/%s", o->dir, name);
	snprintf(of->tmp, sizeof of->tmp, "%s/.%s.%d.tmp", o->dir, name, (int)getpid());
	of->f = fopen(of->tmp, "w");
	if (!of->f)
		return err_set(e, E_RUNTIME, "%s: %s", of->tmp, strerror(errno));
	o->n++;
	*f = of->f;
	return 0;
}

int out_commit(struct out_files *o, struct err *e)
{
	for (unsigned i = 0; i < o->n; i++) {
		int bad = ferror(o->file[i].f);
		if (fclose(o->file[i].f) || bad) {
			o->file[i].f = NULL;
			err_set(e, E_RUNTIME, "%s: write failed", o->file[i].tmp);
			out_abort(o);
			return E_RUNTIME;
		}
		o->file[i].f = NULL;
	}
	for (unsigned i = 0; i < o->n; i++)
		if (rename(o->file[i].tmp, o->file[i].final)) {
			err_set(e, E_RUNTIME, "%s: %s", o->file[i].final, strerror(errno));
			out_abort(o);
			return E_RUNTIME;
		}
	o->n = 0;
	return 0;
}

void out_abort(struct out_files *o)
{
	for (unsigned i = 0; i < o->n; i++) {
		if (o->file[i].f)
			fclose(o->file[i].f);
		unlink(o->file[i].tmp);
	}
	o->n = 0;
}

void out_thresholds_md(FILE *f)
{
	fprintf(f, "\nThresholds (analysis/thresholds.h): *exact* = median ratio within %.0f %% of a simple "
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
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}
