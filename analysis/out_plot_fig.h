/* out_plot_fig.h — what every figure builder shares: adding figures and series, the cache-size
 * markers, series titles, and the quantities on the axes. */
#ifndef PMUCHECK_OUT_PLOT_FIG_H
#define PMUCHECK_OUT_PLOT_FIG_H

#include "out_plot_sets.h"

/* A new, empty figure named name (made a safe, unique file stem); NULL when out of memory. */
struct out_plot *out_fig_new(struct out_figures *f, const char *name);
/* Keeps the last figure only if it has a drawable point (and, when zeros_are_empty, a non-zero one). */
void out_fig_keep(struct out_figures *f, int zeros_are_empty);
/* Reported cache sizes (grey) and, where they differ, measured level limits (red). */
void out_fig_mark_levels(const struct out_rdata *d, struct out_plot *p);
/* noisy: the point was disturbed (agg_point.noisy); it is drawn circled. */
int out_fig_add(struct out_plot *pl, const char *series, double x, double y, int dashed, int noisy);
/* A right axis beside ns or GB/s: core cycles (ns x GHz) or bytes per core cycle (GB/s / GHz) at the
   run's core clock (machine.json clock.core_ghz); without a clock the caption says there is none. */
enum out_fig_clock { OUT_FIG_CYCLES, OUT_FIG_BYTES_PER_CYCLE };
void out_fig_clock_axis(const struct out_rdata *d, struct out_plot *p, enum out_fig_clock kind);
void out_fig_not_drawn(struct out_figures *f, const char *what);

/* Series titles: "what, N threads, prefetch S[, placement]"; "L2, 512 KiB, ..."; "dep K=24, ..." (the
   chase's kind and multiplies, then the same). */
void out_fig_series_name(char *buf, size_t len, const struct agg_point *p, const char *what);
void out_fig_level_series(char *buf, size_t len, const struct agg_point *p);
void out_fig_chase_series(char *buf, size_t len, const struct agg_point *p, const char *what);

/* Figures are drawn per plot kind (kern.h enum kern_plot, raw.csv `plots`) and family: the families
   whose points feed `plot`, in order of first appearance (at most max; the names live as long as a);
   whether point p belongs to the figure of (plot, family). */
#define OUT_FIG_MAX_FAMILIES 64
unsigned out_fig_families(const struct agg *a, unsigned plot, const char **names, unsigned max);
int out_fig_of(const struct agg_point *p, unsigned plot, const char *family);
/* Per-thread footprint (bytes x arrays): what levels are assigned by. */
double out_fig_footprint(const struct agg_point *p);
/* Nanoseconds per access of one thread (the slowest thread's time over its share). */
double out_fig_ns_per(const struct agg_point *p, double quantity);

/* Events per quantity vs size, per load vs offset, per dependent load vs size. */
int out_fig_events(const struct out_rdata *d, struct out_figures *f);
/* Each box's share of a box wildcard's sum vs size (out_plot_boxes.c); -1 when out of memory. */
int out_fig_boxes(const struct out_rdata *d, struct out_figures *f);

#endif
