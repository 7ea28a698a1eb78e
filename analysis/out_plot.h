/* out_plot.h — one figure: named series of (x, y) points, cache-size markers, and the gnuplot
 * script that draws it as PNG and SVG. The script keeps its data inline, so plots/NAME.gp redraws
 * the figure without pmucheck. */
#ifndef PMUCHECK_OUT_PLOT_H
#define PMUCHECK_OUT_PLOT_H

#include <stddef.h>

#include "err.h"

#define OUT_PLOT_MARKS 8

struct out_series {
	char title[160];
	double *x, *y;
	unsigned char *noisy; /* the point was disturbed (raw.csv flag noisy): drawn circled */
	size_t n, cap;
	int dashed; /* a reference (known truth, measured time), not an event */
};

struct out_plot {
	char name[96]; /* file stem in plots/ */
	char title[200], xlabel[96], ylabel[96];
	char caption[1400]; /* what the figure shows, for the report */
	int logx, logy;
	int xbytes; /* x is a size in bytes: binary prefixes on the axis */
	int xzero; /* log2 x axis with x = 0 points (a NOP delay of 0): drawn at half the smallest positive x,
	               at a tick labelled 0, and the caption says so */
	/* A right axis with the left one's values times y2_scale (GB/s -> bytes per cycle, ns -> cycles);
	   0: none. */
	double y2_scale;
	char y2label[96];
	struct out_series *s;
	unsigned ns;
	struct {
		double x;
		char label[64];
		int measured; /* a measured level limit (else a reported cache size) */
	} mark[OUT_PLOT_MARKS];
	unsigned nmark;
};

/* The series titled title, added when new; NULL when out of memory. */
struct out_series *out_plot_series(struct out_plot *p, const char *title);
int out_series_add(struct out_series *s, double x, double y, int noisy);
/* Points with a finite positive y (and x > 0 on a log x axis) in all series. */
size_t out_plot_points(const struct out_plot *p);
/* One point per x and series: the median of the y values at that x (variants of one family), noisy
   when one of them was. */
void out_plot_collapse(struct out_plot *p);
void out_plot_mark(struct out_plot *p, double x, const char *label, int measured);
void out_plot_free(struct out_plot *p);

/* Sorts each series by x, writes plotdir/NAME.gp, then runs gnuplot on it in plotdir: NAME.png
   (pngcairo when gnuplot has it, else png) and NAME.svg. Appends to the caption what the script draws
   besides the series: the cache-limit lines inside the x range, the circled disturbed points, where
   x = 0 went on a log axis — so that the caption names only what is drawn. Returns E_RUNTIME when gnuplot fails; *missing set when gnuplot
   could not be started at all. */
int out_plot_draw(struct out_plot *p, const char *plotdir, int *missing, struct err *e);

#endif
