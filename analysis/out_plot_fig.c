/* out_plot_fig.c — helpers every figure builder uses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "out_plot_fig.h"

double out_fig_footprint(const struct agg_point *p)
{
	return (double)p->bytes * (double)(p->arrays > 0 ? p->arrays : 1);
}

/* Per access of one thread: the slowest thread's time over its share of the accesses. */
double out_fig_ns_per(const struct agg_point *p, double quantity)
{
	return quantity > 0 && p->seconds > 0 ? p->seconds * 1e9 / (quantity / (double)p->threads) : NAN;
}

/* Whether the last figure's file name is an earlier figure's. */
static int name_taken(const struct out_figures *f, const struct out_plot *p)
{
	for (unsigned i = 0; i + 1 < f->n; i++)
		if (strcmp(f->p[i].name, p->name) == 0)
			return 1;
	return 0;
}

struct out_plot *out_fig_new(struct out_figures *f, const char *name)
{
	struct out_plot *p;
	char base[sizeof p->name];

	if (f->n == f->cap) {
		unsigned cap = f->cap ? 2 * f->cap : 16;
		p = realloc(f->p, cap * sizeof *p);
		if (!p)
			return NULL;
		f->p = p;
		f->cap = cap;
	}
	p = &f->p[f->n++];
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	/* file names: letters, digits, '_', '-', '.' only */
	for (char *c = p->name; *c; c++)
		if (!(('a' <= *c && *c <= 'z') || ('A' <= *c && *c <= 'Z') || ('0' <= *c && *c <= '9') ||
		      *c == '-' || *c == '.'))
			*c = '_';
	/* Names equal once made file names, or once cut to fit (two long libpfm4 names that differ only at
	   their end): numbered, the number inside the name's room, else the second figure would overwrite
	   the first and the report show it under both titles. */
	snprintf(base, sizeof base, "%s", p->name);
	for (unsigned k = f->n; name_taken(f, p); k++) {
		char sfx[16];
		int ls = snprintf(sfx, sizeof sfx, "_%u", k);
		snprintf(p->name, sizeof p->name, "%.*s%s", (int)(sizeof p->name - 1 - (size_t)ls), base,
			 sfx);
	}
	return p;
}

/* Drops the last figure when it has nothing to draw (or only zeros, for event figures). A timing figure
   whose kernels were measured but whose points have nothing to draw (no time: none positive, or faster
   than any core) is said not drawn, with why: it once vanished from the report without a word. */
void out_fig_keep(struct out_figures *f, int zeros_are_empty)
{
	struct out_plot *p = &f->p[f->n - 1];
	int nonzero = 0;
	size_t had = 0;
	char why[400];

	for (unsigned i = 0; i < p->ns; i++)
		for (size_t j = 0; j < p->s[i].n; j++) {
			nonzero |= !p->s[i].dashed && p->s[i].y[j] != 0 && isfinite(p->s[i].y[j]);
			had++;
		}
	if (out_plot_points(p) && (nonzero || !zeros_are_empty))
		return;
	if (had && !zeros_are_empty) {
		snprintf(why, sizeof why,
			 "%s: none of its %zu points has a figure to draw (no time: none positive, or faster "
			 "than any core; peaks.csv says 'no time').",
			 p->title, had);
		out_fig_not_drawn(f, why);
	}
	out_plot_free(p);
	f->n--;
}

void out_fig_mark_levels(const struct out_rdata *d, struct out_plot *p)
{
	char label[64], size[32];

	for (int i = LEVEL_L1; i < LEVEL_DRAM; i++) {
		const char *name = level_name((enum level)i);
		double r = d->a.m.reported[i], m = d->a.m.measured[i];
		snprintf(label, sizeof label, "%s %s", name, num_format_size(r, size, sizeof size));
		out_plot_mark(p, r, label, 0);
		if (m > 0 && fabs(m - r) > 0.01 * r) {
			snprintf(label, sizeof label, "%s measured %s", name,
				 num_format_size(m, size, sizeof size));
			out_plot_mark(p, m, label, 1);
		}
	}
}

/* "load.avx, 2 threads, prefetch off" (what: variant, family or nothing) */
void out_fig_series_name(char *buf, size_t len, const struct agg_point *p, const char *what)
{
	int local = strcmp(p->placement, "local") == 0;

	snprintf(buf, len, "%s%s%lld thread%s, prefetch %s%s%s", what, *what ? ", " : "",
		 (long long)p->threads, p->threads == 1 ? "" : "s", p->prefetch, local ? "" : ", ",
		 local ? "" : p->placement);
}

int out_fig_add(struct out_plot *pl, const char *series, double x, double y, int dashed, int noisy)
{
	struct out_series *s = out_plot_series(pl, series);

	if (!s)
		return -1;
	s->dashed = dashed;
	return out_series_add(s, x, y, noisy);
}

void out_fig_clock_axis(const struct out_rdata *d, struct out_plot *p, enum out_fig_clock kind)
{
	double ghz = d->a.m.core_ghz;
	size_t n = strlen(p->caption);
	const char *what = kind == OUT_FIG_CYCLES ? "core cycles" : "bytes per core cycle (all threads)";

	if (!(ghz > 0)) {
		snprintf(p->caption + n, sizeof p->caption - n,
			 " No %s axis: machine.json records no core clock (clock.core_ghz is null).",
			 kind == OUT_FIG_CYCLES ? "cycles" : "bytes-per-cycle");
		return;
	}
	p->y2_scale = kind == OUT_FIG_CYCLES ? ghz : 1 / ghz;
	snprintf(p->y2label, sizeof p->y2label, "%s at %.3g GHz", what, ghz);
	snprintf(p->caption + n, sizeof p->caption - n,
		 " Right axis: the same in %s at the run's core clock, %.3g GHz (machine.json "
		 "clock.core_ghz).",
		 what, ghz);
}

void out_fig_level_series(char *buf, size_t len, const struct agg_point *p)
{
	char rest[160];
	char size[32];

	out_fig_series_name(rest, sizeof rest, p, "");
	snprintf(buf, len, "%s, %s, %s", p->level >= 0 ? point_level_name(p->level) : "at a level boundary",
		 num_format_size(out_fig_footprint(p), size, sizeof size), rest);
}

/* Threads and placement as every other series has them: without them, local and remote chases of one
   kind drew one line zig-zagging between 90 and 144 ns, and the events' figure (which takes every thread
   count) joined one thread's points with two threads'. */
void out_fig_chase_series(char *buf, size_t len, const struct agg_point *p, const char *what)
{
	const char *kind = strchr(p->variant, '.') ? strchr(p->variant, '.') + 1 : p->variant;
	char name[128];

	if (p->arg)
		snprintf(name, sizeof name, "%s%s K=%lld", what, kind, (long long)p->arg);
	else
		snprintf(name, sizeof name, "%s%s", what, kind);
	out_fig_series_name(buf, len, p, name);
}

void out_fig_not_drawn(struct out_figures *f, const char *what)
{
	size_t n = strlen(f->not_drawn);

	snprintf(f->not_drawn + n, sizeof f->not_drawn - n, "%s%s", n ? "\n" : "", what);
}

void out_figures_free(struct out_figures *f)
{
	for (unsigned i = 0; i < f->n; i++)
		out_plot_free(&f->p[i]);
	free(f->p);
	f->p = NULL;
	f->n = f->cap = 0;
}

int out_fig_of(const struct agg_point *p, unsigned plot, const char *family)
{
	return (p->plots & plot) && strcmp(p->kernel, family) == 0;
}

unsigned out_fig_families(const struct agg *a, unsigned plot, const char **names, unsigned max)
{
	unsigned n = 0;

	for (uint32_t i = 0; i < a->npoints && n < max; i++) {
		unsigned k = 0;
		if (!(a->points[i].plots & plot))
			continue;
		while (k < n && strcmp(names[k], a->points[i].kernel) != 0)
			k++;
		if (k == n)
			names[n++] = a->points[i].kernel;
	}
	return n;
}
