/* out_plot.c — gnuplot scripts with their data inline, and running gnuplot on them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "out_plot.h"
#include "stats.h"

struct out_series *out_plot_series(struct out_plot *p, const char *title)
{
	struct out_series *s;

	for (unsigned i = 0; i < p->ns; i++)
		if (strcmp(p->s[i].title, title) == 0)
			return &p->s[i];
	s = realloc(p->s, (p->ns + 1) * sizeof *s);
	if (!s)
		return NULL;
	p->s = s;
	s = &p->s[p->ns++];
	memset(s, 0, sizeof *s);
	snprintf(s->title, sizeof s->title, "%s", title);
	return s;
}

int out_series_add(struct out_series *s, double x, double y)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		double *nx = realloc(s->x, cap * sizeof *nx), *ny;
		if (!nx)
			return -1;
		s->x = nx;
		ny = realloc(s->y, cap * sizeof *ny);
		if (!ny)
			return -1;
		s->y = ny;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n++] = y;
	return 0;
}

static int drawable(const struct out_plot *p, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!p->logx || x > 0) && (!p->logy || y > 0);
}

size_t out_plot_points(const struct out_plot *p)
{
	size_t n = 0;

	for (unsigned i = 0; i < p->ns; i++)
		for (size_t j = 0; j < p->s[i].n; j++)
			n += drawable(p, p->s[i].x[j], p->s[i].y[j]);
	return n;
}

void out_plot_mark(struct out_plot *p, double x, const char *label, int measured)
{
	if (p->nmark == OUT_PLOT_MARKS || !(x > 0))
		return;
	p->mark[p->nmark].x = x;
	p->mark[p->nmark].measured = measured;
	snprintf(p->mark[p->nmark].label, sizeof p->mark[0].label, "%s", label);
	p->nmark++;
}

void out_plot_free(struct out_plot *p)
{
	for (unsigned i = 0; i < p->ns; i++) {
		free(p->s[i].x);
		free(p->s[i].y);
	}
	free(p->s);
	p->s = NULL;
	p->ns = 0;
}

/* A gnuplot string in double quotes: backslash and double quote escaped. */
static void gp_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void sort_series(struct out_series *s)
{
	/* insertion sort: series are short and often already in order */
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double t = s->x[j];
			s->x[j] = s->x[j - 1], s->x[j - 1] = t;
			t = s->y[j];
			s->y[j] = s->y[j - 1], s->y[j - 1] = t;
		}
}

void out_plot_collapse(struct out_plot *p)
{
	for (unsigned i = 0; i < p->ns; i++) {
		struct out_series *s = &p->s[i];
		size_t out = 0;
		sort_series(s);
		for (size_t j = 0; j < s->n;) {
			size_t k = j;
			while (k < s->n && s->x[k] == s->x[j])
				k++;
			s->x[out] = s->x[j];
			s->y[out++] = stats_median(s->y + j, k - j);
			j = k;
		}
		s->n = out;
	}
}

/* Byte sizes as 4 KiB, 1 MiB ... at powers of 4: gnuplot's own %B rounds 1 MiB to "1023 kiB". */
static void size_tics(FILE *f, const struct out_plot *p)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double lo = INFINITY, hi = 0;
	int first = 1;

	for (unsigned i = 0; i < p->ns; i++)
		for (size_t j = 0; j < p->s[i].n; j++)
			if (p->s[i].x[j] > 0) {
				lo = fmin(lo, p->s[i].x[j]);
				hi = fmax(hi, p->s[i].x[j]);
			}
	if (!(hi > 0))
		return;
	fputs("set xtics (", f);
	for (int e2 = 0; e2 < 50; e2 += 2) {
		double x = ldexp(1, e2);
		if (x < lo / 2 || x > hi * 2)
			continue;
		fprintf(f, "%s\"%.0f %s\" %.0f", first ? "" : ", ", ldexp(1, e2 % 10), unit[e2 / 10], x);
		first = 0;
	}
	fputs(")\n", f);
}

static void write_marks(FILE *f, const struct out_plot *p)
{
	for (unsigned i = 0; i < p->nmark; i++) {
		fprintf(f, "set arrow from %.0f, graph 0 to %.0f, graph 1 nohead dt %d lc rgb \"%s\"\n",
			p->mark[i].x, p->mark[i].x, p->mark[i].measured ? 3 : 2,
			p->mark[i].measured ? "#b03030" : "gray40");
		fprintf(f, "set label ");
		gp_string(f, p->mark[i].label);
		fprintf(f,
			" at %.0f, graph %.2f rotate by 90 right offset -0.6,0 noenhanced tc rgb \"%s\" "
			"font \",8\"\n",
			p->mark[i].x, p->mark[i].measured ? 0.55 : 0.98,
			p->mark[i].measured ? "#b03030" : "gray30");
	}
}

static int has_negative(const struct out_plot *p)
{
	for (unsigned i = 0; i < p->ns; i++)
		for (size_t j = 0; j < p->s[i].n; j++)
			if (drawable(p, p->s[i].x[j], p->s[i].y[j]) && p->s[i].y[j] < 0)
				return 1;
	return 0;
}

static void write_script(FILE *f, struct out_plot *p)
{
	unsigned drawn = 0;

	fprintf(f, "# pmucheck figure: %s\n# redraw: gnuplot %s.gp (in this directory)\n", p->title, p->name);
	for (unsigned i = 0; i < p->ns; i++) {
		fprintf(f, "$d%u << EOD\n", i);
		sort_series(&p->s[i]);
		for (size_t j = 0; j < p->s[i].n; j++)
			if (drawable(p, p->s[i].x[j], p->s[i].y[j]))
				fprintf(f, "%.9g %.9g\n", p->s[i].x[j], p->s[i].y[j]);
		fputs("EOD\n", f);
	}
	fputs("if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) { set terminal pngcairo size 960,680 "
	      "font \"sans,10\" } else { set terminal png size 960,680 }\n",
	      f);
	fprintf(f, "set output \"%s.png\"\nset title ", p->name);
	gp_string(f, p->title);
	fputs(" noenhanced\nset xlabel ", f);
	gp_string(f, p->xlabel);
	fputs(" noenhanced\nset ylabel ", f);
	gp_string(f, p->ylabel);
	fputs(" noenhanced\nset grid\nset key below box noenhanced\n", f);
	if (p->logx)
		fputs("set logscale x 2\n", f);
	if (p->logy)
		fputs("set logscale y 10\n", f);
	else if (has_negative(p))
		fputs("set yrange [*:*]\n", f); /* differenced counts of a noisy event can go below 0 */
	else
		fputs("set yrange [0:*]\n", f);
	if (p->xbytes)
		size_tics(f, p);
	write_marks(f, p);
	fputs("plot ", f);
	for (unsigned i = 0; i < p->ns; i++) {
		size_t n = 0;
		for (size_t j = 0; j < p->s[i].n; j++)
			n += drawable(p, p->s[i].x[j], p->s[i].y[j]);
		if (!n)
			continue; /* gnuplot would warn about an empty data block */
		/* gnuplot cycles 8 colours: the next 8 series get another dash pattern and point */
		if (p->s[i].dashed)
			fprintf(f, "%s$d%u using 1:2 with linespoints dt 3 lw 2 pt 0 title ",
				drawn++ ? ", \\\n     " : "", i);
		else
			fprintf(f, "%s$d%u using 1:2 with linespoints lw 1.5 dt %u pt %u ps 0.7 title ",
				drawn++ ? ", \\\n     " : "", i, 1 + i / 8 % 2 * 4, 7 + i / 8 % 4 * 2);
		gp_string(f, p->s[i].title);
	}
	fprintf(f,
		"\nset terminal svg size 960,680 dynamic background rgb \"white\"\n"
		"set output \"%s.svg\"\nreplot\n",
		p->name);
}

/* gnuplot NAME.gp in plotdir; its messages go to the caller's stderr. */
static int run_gnuplot(const char *plotdir, const char *script, int *missing, struct err *e)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return err_set(e, E_RUNTIME, "fork: %s", strerror(errno));
	if (pid == 0) {
		if (chdir(plotdir) == 0)
			execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return err_set(e, E_RUNTIME, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		*missing = 1;
		return err_set(e, E_RUNTIME, "gnuplot could not be started (install gnuplot-nox)");
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return err_set(e, E_RUNTIME, "%s/%s: gnuplot failed", plotdir, script);
	return 0;
}

int out_plot_draw(struct out_plot *p, const char *plotdir, int *missing, struct err *e)
{
	char path[4200], script[128];
	FILE *f;
	int bad;

	snprintf(script, sizeof script, "%s.gp", p->name);
	snprintf(path, sizeof path, "%s/%s", plotdir, script);
	f = fopen(path, "w");
	if (!f)
		return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	write_script(f, p);
	bad = ferror(f);
	if (fclose(f) || bad)
		return err_set(e, E_RUNTIME, "%s: write failed", path);
	return run_gnuplot(plotdir, script, missing, e);
}
