/* out_plot_sets.c — which figures the data supports. Timing figures here, event figures in
 * out_plot_events.c; one per family whose points feed the figure's plot kind (raw.csv `plots`):
 *   bw_<family>        bw-size: bandwidth vs buffer size per variant, threads, prefetch state
 *                      (load, store, copy, triad)
 *   <family>_bw        bw-delay: bandwidth vs NOP delay (nopread; Helm & Taura, Fig. 3/4)
 *   <family>_time      time-offset: time per load vs offset in the line (splitread)
 *   <family>_latency   latency: latency vs buffer size for the chase plain / indep / dep
 *   level_probe        the run's latency sweep that located the level limits
 * Sizes on x are per-thread footprints (bytes x arrays), the quantity the levels are assigned by. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_plot_fig.h"

/* A point without a time (agg.h: seconds INFINITY) has no bandwidth: not drawn, rather than at 0 GB/s. */
static int timed(const struct agg_point *p)
{
	return p->seconds > 0 && isfinite(p->seconds);
}

static double gbps(const struct agg_point *p)
{
	return timed(p) ? (p->v[RQ_bytes_loaded] + p->v[RQ_bytes_stored]) / p->seconds / 1e9 : NAN;
}

static int bandwidth(const struct out_rdata *d, struct out_figures *f, const char *family)
{
	const struct agg *a = &d->a;
	struct out_plot *pl;
	char name[64], s[200];

	snprintf(name, sizeof name, "bw_%s", family);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s: bandwidth vs buffer size", family);
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size per thread (bytes x arrays)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "bandwidth [GB/s, 10^9 B/s]");
	snprintf(pl->caption, sizeof pl->caption,
		 "%s kernels: bytes loaded + stored per second over all "
		 "threads, over each point's min(2R) - min(R), or min(R) where shorter (a noisy point's "
		 "bound).",
		 family);
	pl->logx = pl->xbytes = 1;
	out_fig_mark_levels(d, pl);
	out_fig_clock_axis(d, pl, OUT_FIG_BYTES_PER_CYCLE);
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!out_fig_of(p, KP_BW_SIZE, family))
			continue;
		out_fig_series_name(s, sizeof s, p, p->variant);
		if (out_fig_add(pl, s, out_fig_footprint(p), gbps(p), 0, p->noisy))
			return -1;
	}
	out_fig_keep(f, 0);
	return 0;
}

static int delay_bandwidth(const struct out_rdata *d, struct out_figures *f, const char *family)
{
	const struct agg *a = &d->a;
	struct out_plot *pl;
	char name[64], s[240];

	snprintf(name, sizeof name, "%s_bw", family);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s: bandwidth vs NOP delay", family);
	snprintf(pl->xlabel, sizeof pl->xlabel, "delay D [NOPs after each group of 4 loads]");
	snprintf(pl->ylabel, sizeof pl->ylabel, "bandwidth [GB/s, lines read x 64 B / s]");
	snprintf(pl->caption, sizeof pl->caption,
		 "Four read streams, one load per line, then D NOPs "
		 "(Helm & Taura, Fig. 3/4): the delay throttles the demand bandwidth. Bandwidth counts whole "
		 "lines, since each load brings in one.");
	pl->logx = pl->xzero = 1; /* D = 0 .. 1024: on a linear axis most points crowd the left edge */
	out_fig_clock_axis(d, pl, OUT_FIG_BYTES_PER_CYCLE);
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!out_fig_of(p, KP_BW_DELAY, family) || !timed(p))
			continue;
		out_fig_level_series(s, sizeof s, p);
		if (out_fig_add(pl, s, (double)p->arg, p->v[RQ_lines_read] * 64 / p->seconds / 1e9, 0,
				p->noisy))
			return -1;
	}
	out_fig_keep(f, 0);
	return 0;
}

static int offset_time(const struct out_rdata *d, struct out_figures *f, const char *family)
{
	const struct agg *a = &d->a;
	struct out_plot *pl;
	char name[64], s[240];

	snprintf(name, sizeof name, "%s_time", family);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s: time per load vs offset in the line", family);
	snprintf(pl->xlabel, sizeof pl->xlabel, "offset of the 8-byte load in its 64-byte line [bytes]");
	snprintf(pl->ylabel, sizeof pl->ylabel, "time per load [ns]");
	snprintf(pl->caption, sizeof pl->caption,
		 "One 8-byte load per line at offset o: from o = 57 on "
		 "every load spans two lines (Larysch, Fig. 4).");
	out_fig_clock_axis(d, pl, OUT_FIG_CYCLES);
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!out_fig_of(p, KP_TIME_OFFSET, family))
			continue;
		out_fig_level_series(s, sizeof s, p);
		if (out_fig_add(pl, s, (double)p->arg, out_fig_ns_per(p, p->v[RQ_loads]), 0, p->noisy))
			return -1;
	}
	out_fig_keep(f, 0);
	return 0;
}

static int latency(const struct out_rdata *d, struct out_figures *f, const char *family)
{
	const struct agg *a = &d->a;
	struct out_plot *pl;
	char name[64], s[240];

	snprintf(name, sizeof name, "%s_latency", family);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "pointer chase: time per access vs buffer size (1 thread)");
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size (bytes)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "time per dependent load [ns]");
	snprintf(pl->caption, sizeof pl->caption,
		 "Latency per level: plain chase, with K independent "
		 "multiplies (hidden in the load's shadow) and K dependent ones (added to every access).");
	pl->logx = pl->xbytes = pl->logy = 1;
	out_fig_mark_levels(d, pl);
	out_fig_clock_axis(d, pl, OUT_FIG_CYCLES);
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		if (!out_fig_of(p, KP_LATENCY, family) || p->threads != 1)
			continue;
		out_fig_chase_series(s, sizeof s, p, "");
		if (out_fig_add(pl, s, out_fig_footprint(p), out_fig_ns_per(p, p->v[RQ_chase_accesses]), 0,
				p->noisy))
			return -1;
	}
	out_fig_keep(f, 0);
	return 0;
}

static int level_probe(const struct out_rdata *d, struct out_figures *f)
{
	struct out_plot *pl;

	if (!d->a.m.nlatency)
		return 0;
	if (!(pl = out_fig_new(f, "level_probe")))
		return -1;
	snprintf(pl->title, sizeof pl->title, "level probe: pointer-chase latency vs buffer size");
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size (bytes)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "latency [ns]");
	snprintf(pl->caption, sizeof pl->caption,
		 "The latency sweep `run` made to find where each cache "
		 "level really ends (machine.json levels.latency_curve); its plateaus give the measured "
		 "limits.");
	pl->logx = pl->xbytes = pl->logy = 1;
	out_fig_mark_levels(d, pl);
	out_fig_clock_axis(d, pl, OUT_FIG_CYCLES);
	for (unsigned i = 0; i < d->a.m.nlatency; i++)
		if (out_fig_add(pl, "latency per access", d->a.m.latency[i].bytes, d->a.m.latency[i].t.ns, 0,
				0))
			return -1;
	out_fig_keep(f, 0);
	return 0;
}

int out_figures_build(const struct out_rdata *d, struct out_figures *f, struct err *e)
{
	static const struct {
		unsigned plot;
		int (*draw)(const struct out_rdata *d, struct out_figures *f, const char *family);
	} sets[] = {
		{KP_BW_SIZE, bandwidth},
		{KP_BW_DELAY, delay_bandwidth},
		{KP_TIME_OFFSET, offset_time},
		{KP_LATENCY, latency},
	};
	const char *fams[OUT_FIG_MAX_FAMILIES];
	int rc = 0;

	memset(f, 0, sizeof *f);
	for (unsigned i = 0; i < sizeof sets / sizeof sets[0] && !rc; i++) {
		unsigned n = out_fig_families(&d->a, sets[i].plot, fams, OUT_FIG_MAX_FAMILIES);
		for (unsigned k = 0; k < n && !rc; k++)
			rc = sets[i].draw(d, f, fams[k]);
	}
	if (!rc)
		rc = out_fig_events(d, f);
	if (!rc)
		rc = out_fig_boxes(d, f);
	if (!rc)
		rc = level_probe(d, f);
	if (rc) {
		out_figures_free(f);
		return err_set(e, E_RUNTIME, "figures: out of memory");
	}
	return 0;
}
