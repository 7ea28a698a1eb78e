/* out_plot_events.c — figures of what events count, against what the kernels are known to do, by the
 * plot kinds of raw.csv's `plots` (one figure per family that feeds the kind):
 *   ev_<event>          ev-size: events per known quantity vs buffer size, per family and prefetcher
 *                       state (Molka et al., Fig. 3-6)
 *   <family>_ev_<ev>    time-offset (splitread): events per load vs the offset in the line, with the
 *                       known split loads (Larysch, Fig. 4)
 *   <family>_ev_<ev>    latency (chase): cycles per dependent load an event reports, next to the
 *                       measured cycles, for the chase plain / with independent / with dependent
 *                       multiplies (Molka Fig. 7/8)
 *   <family>_latency_<e> bw-delay (nopread): loaded latency vs bandwidth from a miss-occupancy event
 *                       (Helm Fig. 8-11) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_plot_fig.h"
#include "stall.h"

/* The volume an event is drawn against: its verdict's quantity when that is a single volume,
   else lines read (the papers' "events per cache line"). */
static int event_quantity(const struct out_rdata *d, const char *event)
{
	const char *q = json_string_value(json_object_get(out_event_verdict(d, event), "quantity"));

	for (int i = 0; q && i < RQ_COUNT; i++)
		if (strcmp(q, raw_quantity_names[i]) == 0)
			return i;
	return RQ_lines_read;
}

static int events_per_quantity(const struct out_rdata *d, struct out_figures *f, uint32_t ev)
{
	const struct agg *a = &d->a;
	const struct agg_event *e = &a->events[ev];
	int q = event_quantity(d, e->name);
	struct out_plot *pl;
	char name[160], s[240];

	snprintf(name, sizeof name, "ev_%s", e->name);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s per %s vs buffer size", e->name, raw_quantity_names[q]);
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size per thread (bytes x arrays)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "events per %s (median of repetitions)",
		 raw_quantity_names[q]);
	snprintf(pl->caption, sizeof pl->caption,
		 "%s divided by the known %s of each kernel (median over "
		 "the family's variants), per family and prefetcher state (a constant line at a simple "
		 "value is what a trustworthy event draws).",
		 e->name, raw_quantity_names[q]);
	pl->logx = pl->xbytes = 1;
	out_fig_mark_levels(d, pl);
	for (uint32_t c = 0; c < e->ncells; c++) {
		const struct agg_cell *cell = &a->cells[e->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		if (!(p->plots & KP_EV_SIZE) || !(p->v[q] > 0))
			continue;
		out_fig_series_name(s, sizeof s, p, p->kernel);
		if (out_fig_add(pl, s, out_fig_footprint(p), cell->median / p->v[q], 0, p->noisy))
			return -1;
	}
	out_plot_collapse(pl);
	out_fig_keep(f, 1);
	return 0;
}

/* Events per load against the offset, with the known split loads per load as the reference. */
static int offset_event(const struct out_rdata *d, struct out_figures *f, uint32_t ev, const char *family)
{
	const struct agg *a = &d->a;
	const struct agg_event *e = &a->events[ev];
	struct out_plot *pl;
	char name[160], s[240];

	snprintf(name, sizeof name, "%s_ev_%s", family, e->name);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s per load vs offset (%s)", e->name, family);
	snprintf(pl->xlabel, sizeof pl->xlabel, "offset of the 8-byte load in its 64-byte line [bytes]");
	snprintf(pl->ylabel, sizeof pl->ylabel, "events per load");
	snprintf(pl->caption, sizeof pl->caption,
		 "%s per load at each offset (Larysch, Fig. 4); the "
		 "dashed line is the known number of split loads per load.",
		 e->name);
	for (uint32_t c = 0; c < e->ncells; c++) {
		const struct agg_cell *cell = &a->cells[e->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		if (!out_fig_of(p, KP_TIME_OFFSET, family) || !(p->v[RQ_loads] > 0))
			continue;
		out_fig_level_series(s, sizeof s, p);
		if (out_fig_add(pl, s, (double)p->arg, cell->median / p->v[RQ_loads], 0, p->noisy) ||
		    out_fig_add(pl, "known: split loads per load", (double)p->arg,
				p->v[RQ_split_loads] / p->v[RQ_loads], 1, 0))
			return -1;
	}
	out_fig_keep(f, 1);
	return 0;
}

/* Cycles per load an event reports, next to the measured core cycles per load (Molka Fig. 7/8). */
static int latency_event(const struct out_rdata *d, struct out_figures *f, uint32_t ev, const char *family)
{
	const struct agg *a = &d->a;
	const struct agg_event *e = &a->events[ev];
	struct out_plot *pl;
	char name[160], s[240];

	snprintf(name, sizeof name, "%s_ev_%s", family, e->name);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s per dependent load (pointer chase)", e->name);
	snprintf(pl->xlabel, sizeof pl->xlabel, "buffer size (bytes)");
	snprintf(pl->ylabel, sizeof pl->ylabel, "events (cycles) per load");
	snprintf(pl->caption, sizeof pl->caption,
		 "%s per load for the plain chase and with independent "
		 "or dependent multiplies; dashed: measured core cycles per load. A memory-stall event "
		 "follows the plain curve for both multiply variants (Molka et al., Fig. 7/8).",
		 e->name);
	pl->logx = pl->xbytes = 1;
	out_fig_mark_levels(d, pl);
	for (uint32_t c = 0; c < e->ncells; c++) {
		const struct agg_cell *cell = &a->cells[e->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		double per = p->v[RQ_chase_accesses] / (double)p->threads;
		if (!out_fig_of(p, KP_LATENCY, family) || !(per > 0))
			continue;
		out_fig_chase_series(s, sizeof s, p, "");
		if (out_fig_add(pl, s, out_fig_footprint(p), cell->median / p->v[RQ_chase_accesses], 0,
				p->noisy))
			return -1;
		out_fig_chase_series(s, sizeof s, p, "measured cycles: ");
		if (p->core_ghz > 0 &&
		    out_fig_add(pl, s, out_fig_footprint(p), p->seconds * p->core_ghz * 1e9 / per, 1,
				p->noisy))
			return -1;
	}
	out_fig_keep(f, 1);
	return 0;
}

static int event_seen_in(const struct agg *a, const struct agg_event *e, unsigned plot, const char *family)
{
	for (uint32_t c = 0; c < e->ncells; c++)
		if (out_fig_of(&a->points[a->cells[e->cells[c]].point], plot, family))
			return 1;
	return 0;
}

/* Events whose count per dependent load matched the measured chase latency beyond L1 (stall.h):
   they count miss occupancy, so count / misses is the average miss latency (Little's law). */
static int latency_events(const struct agg *a, unsigned char *is_lat)
{
	struct stall_row *rows;
	unsigned n;

	if (stall_compute(a, &rows, &n))
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (rows[i].level != LV_L1)
			is_lat[rows[i].event] = rows[i].matches_latency && is_lat[rows[i].event] != 2 ? 1 : 2;
	for (uint32_t e = 0; e < a->nevents; e++)
		is_lat[e] = is_lat[e] == 1;
	free(rows);
	return 0;
}

/* Loaded latency vs bandwidth (Helm & Taura, Fig. 8-11): nopread reads every line of a buffer
   beyond L1 once, so each line is one L1 miss; the latency event's count per line is the average
   miss latency at the bandwidth the NOP delay allows. */
static int delay_latency(const struct out_rdata *d, struct out_figures *f, uint32_t ev, const char *family)
{
	const struct agg *a = &d->a;
	const struct agg_event *e = &a->events[ev];
	struct out_plot *pl;
	char name[160], s[240];

	snprintf(name, sizeof name, "%s_latency_%s", family, e->name);
	if (!(pl = out_fig_new(f, name)))
		return -1;
	snprintf(pl->title, sizeof pl->title, "%s: loaded latency vs bandwidth (%s per line)", family,
		 e->name);
	snprintf(pl->xlabel, sizeof pl->xlabel, "bandwidth [GB/s, lines read x 64 B / s]");
	snprintf(pl->ylabel, sizeof pl->ylabel, "latency per L1 miss [ns]");
	snprintf(pl->caption, sizeof pl->caption,
		 "%s per line read by %s, in ns at the measured "
		 "core clock, against the bandwidth of the same point (one point per NOP delay; Helm & "
		 "Taura, Fig. 8-11). %s counted as many cycles per dependent load as the pointer chase "
		 "took, so it measures miss occupancy.",
		 e->name, family, e->name);
	out_fig_clock_axis(d, pl, OUT_FIG_CYCLES);
	for (uint32_t c = 0; c < e->ncells; c++) {
		const struct agg_cell *cell = &a->cells[e->cells[c]];
		const struct agg_point *p = &a->points[cell->point];
		double ghz = p->core_ghz > 0 ? p->core_ghz : a->m.core_ghz;
		if (!out_fig_of(p, KP_BW_DELAY, family) || p->level == LV_L1 || !(p->v[RQ_lines_read] > 0) ||
		    !(p->seconds > 0) || !isfinite(p->seconds) || !(ghz > 0))
			continue;
		out_fig_level_series(s, sizeof s, p);
		if (out_fig_add(pl, s, p->v[RQ_lines_read] * 64 / p->seconds / 1e9,
				cell->median / p->v[RQ_lines_read] / ghz, 0, p->noisy))
			return -1;
	}
	out_fig_keep(f, 1);
	return 0;
}

typedef int (*event_fig_fn)(const struct out_rdata *d, struct out_figures *f, uint32_t ev,
			    const char *family);

/* Draws fig for event ev once per family of plot kind `plot` the event was counted with. Returns the
   figures kept, or -1 when out of memory. */
static int per_family(const struct out_rdata *d, struct out_figures *f, uint32_t ev, unsigned plot,
		      event_fig_fn fig)
{
	const char *fams[OUT_FIG_MAX_FAMILIES];
	unsigned n = out_fig_families(&d->a, plot, fams, OUT_FIG_MAX_FAMILIES), before = f->n;

	for (unsigned k = 0; k < n; k++)
		if (event_seen_in(&d->a, &d->a.events[ev], plot, fams[k]) && fig(d, f, ev, fams[k]))
			return -1;
	return (int)(f->n - before);
}

int out_fig_events(const struct out_rdata *d, struct out_figures *f)
{
	const struct agg *a = &d->a;
	const char *delay_family;
	unsigned before = f->n, latency = 0;
	unsigned char *is_lat = calloc(a->nevents + 1, 1);

	if (!is_lat || latency_events(a, is_lat))
		goto oom;
	for (uint32_t ev = 0; ev < a->nevents; ev++) {
		/* a box of a wildcard is drawn beside its siblings in boxes_<sum> (out_plot_boxes.c); its sum
		   here */
		if (!a->events[ev].ncells || a->events[ev].box_of >= 0)
			continue;
		if (events_per_quantity(d, f, ev) || per_family(d, f, ev, KP_TIME_OFFSET, offset_event) < 0 ||
		    per_family(d, f, ev, KP_LATENCY, latency_event) < 0)
			goto oom;
		if (is_lat[ev]) {
			int n = per_family(d, f, ev, KP_BW_DELAY, delay_latency);
			if (n < 0)
				goto oom;
			latency += (unsigned)n;
		}
	}
	if (f->n == before)
		out_fig_not_drawn(f,
				  "Events per cache line, per load and per dependent load: no event has a "
				  "non-zero count (events not measured here are listed above).");
	if (!latency && out_fig_families(a, KP_BW_DELAY, &delay_family, 1))
		out_fig_not_drawn(
			f,
			"Latency vs bandwidth (Helm Fig. 8-11): needs an event counted with "
			"nopread whose count per dependent load matched the measured pointer-chase "
			"latency beyond L1 (a miss-occupancy event; see stalls.md); there is none.");
	free(is_lat);
	return 0;
oom:
	free(is_lat);
	return -1;
}
