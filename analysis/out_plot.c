/* out_plot.c — gnuplot scripts with their data inline, and running gnuplot on them. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "num.h"
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

int out_series_add(struct out_series *s, double x, double y, int noisy)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		double *nx = realloc(s->x, cap * sizeof *nx), *ny;
		unsigned char *nn;
		if (!nx)
			return -1;
		s->x = nx;
		ny = realloc(s->y, cap * sizeof *ny);
		if (!ny)
			return -1;
		s->y = ny;
		nn = realloc(s->noisy, cap);
		if (!nn)
			return -1;
		s->noisy = nn;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->noisy[s->n] = noisy != 0;
	s->y[s->n++] = y;
	return 0;
}

static int drawable(const struct out_plot *p, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!p->logx || x > 0 || (p->xzero && x == 0)) &&
		(!p->logy || y > 0);
}

/* Where x = 0 goes on a log axis with xzero: half the smallest positive x drawn (1 when none). */
static double zero_at(const struct out_plot *p)
{
	double lo = INFINITY;

	for (unsigned i = 0; i < p->ns; i++)
		for (size_t j = 0; j < p->s[i].n; j++)
			if (p->s[i].x[j] > 0 && drawable(p, p->s[i].x[j], p->s[i].y[j]))
				lo = fmin(lo, p->s[i].x[j]);
	return isfinite(lo) ? lo / 2 : 1;
}

/* The drawn x of a point (x = 0 moved on a log axis). */
static double plot_x(const struct out_plot *p, double x, double zero)
{
	return p->logx && p->xzero && x == 0 ? zero : x;
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
		free(p->s[i].noisy);
	}
	free(p->s);
	p->s = NULL;
	p->ns = 0;
}

/* s in a gnuplot script, each control character a space: a line break would end the command (or the
   comment) and make the rest of a name from a results file a command of its own, `!...` a shell one.
   quoted: inside single quotes, each ' doubled. */
static void gp_text(FILE *f, const char *s, int quoted)
{
	if (quoted)
		fputc('\'', f);
	for (; *s; s++) {
		if (quoted && *s == '\'')
			fputc('\'', f);
		fputc(iscntrl((unsigned char)*s) ? ' ' : *s, f);
	}
	if (quoted)
		fputc('\'', f);
}

/* A gnuplot string in single quotes, a quote doubled: text as it is. In double quotes gnuplot runs
   `...` as a shell command and puts its output in the string (an event name EV`touch x`, read from a
   raw.csv, ran touch when the report drew its figure) and reads backslash escapes. */
static void gp_string(FILE *f, const char *s)
{
	gp_text(f, s, 1);
}

static void sort_series(struct out_series *s)
{
	/* insertion sort: series are short and often already in order */
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double t = s->x[j];
			unsigned char nz = s->noisy[j];
			s->x[j] = s->x[j - 1], s->x[j - 1] = t;
			t = s->y[j];
			s->y[j] = s->y[j - 1], s->y[j - 1] = t;
			s->noisy[j] = s->noisy[j - 1], s->noisy[j - 1] = nz;
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
			unsigned char noisy = 0;
			while (k < s->n && s->x[k] == s->x[j])
				noisy |= s->noisy[k++];
			s->x[out] = s->x[j];
			s->noisy[out] = noisy;
			s->y[out++] = stats_median(s->y + j, k - j);
			j = k;
		}
		s->n = out;
	}
}

/* Byte sizes as 4 KiB, 1 MiB ... at powers of 4: gnuplot's own %B rounds 1 MiB to "1023 kiB". */
static void size_tics(FILE *f, const struct out_plot *p)
{
	char label[32];
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
		fprintf(f, "%s\"%s\" %.0f", first ? "" : ", ", num_format_size(x, label, sizeof label), x);
		first = 0;
	}
	fputs(")\n", f);
}

/* What the script draws besides the series, for the caption. */
struct drawn {
	double xlo, xhi, ylo, yhi; /* drawable points, x as drawn */
	int reported, measured;    /* cache-limit lines inside the x range */
	unsigned noisy;            /* circled points */
	int zero;                  /* a point at x = 0 moved on the log axis */
	int negative;
};

static void extent(const struct out_plot *p, double zero, struct drawn *d)
{
	memset(d, 0, sizeof *d);
	d->xlo = d->ylo = INFINITY;
	d->xhi = d->yhi = -INFINITY;
	for (unsigned i = 0; i < p->ns; i++)
		for (size_t j = 0; j < p->s[i].n; j++) {
			double x = p->s[i].x[j], y = p->s[i].y[j];
			if (!drawable(p, x, y))
				continue;
			d->zero |= p->logx && p->xzero && x == 0;
			x = plot_x(p, x, zero);
			d->xlo = fmin(d->xlo, x), d->xhi = fmax(d->xhi, x);
			d->ylo = fmin(d->ylo, y), d->yhi = fmax(d->yhi, y);
			d->negative |= y < 0;
			d->noisy += p->s[i].noisy[j];
		}
}

/* Cache-limit lines inside the x range only: one outside it would not be drawn, and the caption
   would promise it. */
static void write_marks(FILE *f, const struct out_plot *p, struct drawn *d)
{
	for (unsigned i = 0; i < p->nmark; i++) {
		int m = p->mark[i].measured;
		if (p->mark[i].x < d->xlo || p->mark[i].x > d->xhi)
			continue;
		*(m ? &d->measured : &d->reported) = 1;
		fprintf(f, "set arrow from %.0f, graph 0 to %.0f, graph 1 nohead dt %d lc rgb \"%s\"\n",
			p->mark[i].x, p->mark[i].x, m ? 3 : 2, m ? "#b03030" : "gray40");
		fprintf(f, "set label ");
		gp_string(f, p->mark[i].label);
		fprintf(f,
			" at %.0f, graph %.2f rotate by 90 right offset -0.6,0 noenhanced tc rgb \"%s\" "
			"font \",8\"\n",
			p->mark[i].x, m ? 0.55 : 0.98, m ? "#b03030" : "gray30");
	}
}

/* Powers of two on a log2 axis (at most about a dozen), and 0 where x = 0 is drawn. */
static void zero_tics(FILE *f, const struct drawn *d, double zero)
{
	int lo = (int)ceil(log2(2 * zero)), hi = (int)floor(log2(d->xhi)); /* from the smallest x > 0 */
	int step = (hi - lo) / 12 + 1;

	fprintf(f, "set xtics (\"0\" %.9g", zero);
	for (int e2 = lo; e2 <= hi; e2 += step)
		fprintf(f, ", \"%.0f\" %.0f", ldexp(1, e2), ldexp(1, e2));
	fputs(")\n", f);
}

/* Room above the highest point (and below the lowest), so that no curve runs along the frame: gnuplot
   extends an autoscaled range only to the next tic, which is the data's maximum for a ratio of 1. A
   right axis (y2_scale) gets the same range, scaled. */
static void y_range(FILE *f, const struct out_plot *p, const struct drawn *d)
{
	double lo, hi;

	if (!(d->yhi >= d->ylo) || (!p->logy && !d->negative && !(d->yhi > 0))) {
		fputs("set yrange [0:*]\n", f);
		return;
	}
	if (p->logy)
		lo = d->ylo / 1.5, hi = d->yhi * 1.5;
	else if (d->negative) /* differenced counts of a noisy event can go below 0 */
		lo = d->ylo - 0.1 * (d->yhi - d->ylo + 1e-9),
		hi = fmax(d->yhi, 0) + 0.1 * (d->yhi - d->ylo + 1e-9);
	else
		lo = 0, hi = d->yhi * 1.15;
	fprintf(f, "set yrange [%.6g:%.6g]\n", lo, hi);
	if (!(p->y2_scale > 0))
		return;
	fprintf(f, "set ytics nomirror\nset y2tics\n%sset y2range [%.6g:%.6g]\nset y2label ",
		p->logy ? "set logscale y2 10\n" : "", lo * p->y2_scale, hi * p->y2_scale);
	gp_string(f, p->y2label);
	fputs(" noenhanced\n", f);
}

static void caption_add(struct out_plot *p, const char *text)
{
	size_t n = strlen(p->caption);

	snprintf(p->caption + n, sizeof p->caption - n, "%s%s", n ? " " : "", text);
}

/* The caption's account of the markers, from what the script drew. */
static void caption_drawn(struct out_plot *p, const struct drawn *d)
{
	if (d->reported)
		caption_add(p, "Grey dashed lines: the reported cache sizes (per thread).");
	if (d->measured)
		caption_add(p,
			    "Red dotted lines: the level limits the latency probe measured, where they "
			    "differ from the reported sizes.");
	if (d->noisy)
		caption_add(p,
			    "Black circles: disturbed points (raw.csv flag noisy: their time had not "
			    "settled); the verdicts leave them out.");
	if (d->zero)
		caption_add(p,
			    "The x axis is log2, where 0 has no place: x = 0 is drawn at the tick "
			    "labelled 0, one power of two below the smallest non-zero x.");
}

static void write_data(FILE *f, const struct out_plot *p, double zero)
{
	for (unsigned i = 0; i < p->ns; i++) {
		fprintf(f, "$d%u << EOD\n", i);
		sort_series(&p->s[i]);
		for (size_t j = 0; j < p->s[i].n; j++)
			if (drawable(p, p->s[i].x[j], p->s[i].y[j]))
				fprintf(f, "%.9g %.9g\n", plot_x(p, p->s[i].x[j], zero), p->s[i].y[j]);
		fputs("EOD\n", f);
	}
	fputs("$noisy << EOD\n", f);
	for (unsigned i = 0; i < p->ns; i++)
		for (size_t j = 0; j < p->s[i].n; j++)
			if (p->s[i].noisy[j] && drawable(p, p->s[i].x[j], p->s[i].y[j]))
				fprintf(f, "%.9g %.9g\n", plot_x(p, p->s[i].x[j], zero), p->s[i].y[j]);
	fputs("EOD\n", f);
}

/* All points at one x (a run of one size): gnuplot would widen the empty range itself, with a warning on
   the report's stderr; an octave either side on a log axis, one unit else, says the same quietly. On a log
   axis a range that ends at a tick may lose it to rounding (gnuplot 5.4 drew no "64 MiB" at the right
   edge of a sweep that ends at 64 MiB, nor 16, 256 MiB or 1 GiB there): 1 % more each side keeps it. */
static void x_range(FILE *f, const struct out_plot *p, const struct drawn *d)
{
	if (!isfinite(d->xlo))
		return;
	if (d->xlo != d->xhi) {
		if (p->logx && d->xlo > 0)
			fprintf(f, "set xrange [%.9g:%.9g]\n", d->xlo / 1.01, d->xhi * 1.01);
		return;
	}
	if (p->logx && d->xlo > 0)
		fprintf(f, "set xrange [%.9g:%.9g]\n", d->xlo / 2, d->xlo * 2);
	else
		fprintf(f, "set xrange [%.9g:%.9g]\n", d->xlo - 1, d->xlo + 1);
}

static void write_script(FILE *f, struct out_plot *p)
{
	unsigned drawn = 0;
	double zero = zero_at(p);
	struct drawn d;

	fputs("# pmucheck figure: ", f);
	gp_text(f, p->title, 0);
	fprintf(f, "\n# redraw: gnuplot %s.gp (in this directory)\n", p->name);
	write_data(f, p, zero);
	extent(p, zero, &d);
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
	y_range(f, p, &d);
	x_range(f, p, &d);
	if (p->xbytes)
		size_tics(f, p);
	else if (d.zero)
		zero_tics(f, &d, zero);
	write_marks(f, p, &d);
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
	if (d.noisy)
		fprintf(f,
			"%s$noisy using 1:2 with points pt 6 ps 2 lw 1.5 lc rgb \"black\" title "
			"\"disturbed point (noisy)\"",
			drawn++ ? ", \\\n     " : "");
	fprintf(f,
		"\nset terminal svg size 960,680 dynamic background rgb \"white\"\n"
		"set output \"%s.svg\"\nreplot\n",
		p->name);
	caption_drawn(p, &d);
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
