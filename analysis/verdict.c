/* verdict.c — classifies one event. See verdict.h for the method and thresholds.h for the numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "thresholds.h"
#include "verdict_int.h"

const char *const verdict_class_names[VC_COUNT] = {
	"exact", "approximate", "prefetch-blind", "overcounts", "undercounts", "unrelated", "not measured",
};

/* Samples where the quantity holds, counted only when the event is also linear in it there. */
static size_t support(const struct eval *ev)
{
	return ev->held && ev->r2 >= THR_RELATED_R2 ? ev->held_samples : 0;
}

/* Most support wins; at equal support the quantity the event is most linear in over all points
   (page-faults: pages, not stores, although touch does one store per page); then lower error. */
static int better(const struct eval *x, const struct eval *y)
{
	if (support(x) != support(y))
		return support(x) > support(y);
	if (!isnan(x->global_r2) && (isnan(y->global_r2) || x->global_r2 > y->global_r2 + 1e-9))
		return 1;
	if (isnan(y->global_r2) || y->global_r2 > x->global_r2 + 1e-9)
		return 0;
	return x->error < y->error;
}

static void set_pred_quantity(const struct agg *a, struct samples *S, int q)
{
	for (size_t i = 0; i < S->n; i++)
		S->pred[i] = a->points[S->s[i].point].v[q];
}

/* The class from the evaluation of the chosen quantity (thresholds.h); when it holds nowhere, the
   slope over all points against the nearest simple value (which *scale receives). */
static enum verdict_class classify(const struct eval *ev, double *scale)
{
	double r2 = ev->r2, slope = ev->slope;

	if (!ev->held) {
		r2 = ev->global_r2;
		slope = ev->global_slope;
		*scale = fit_nearest_simple(slope);
	}
	if (ev->held && ev->prefetch_blind && r2 >= THR_APPROX_R2)
		return VC_PREFETCH_BLIND;
	if (ev->held && ev->error <= THR_EXACT_ERROR && ev->spread <= THR_EXACT_ERROR && r2 >= THR_EXACT_R2)
		return VC_EXACT;
	if (ev->held && r2 >= THR_APPROX_R2)
		return VC_APPROXIMATE;
	if (isnan(r2) || r2 < THR_RELATED_R2 || *scale <= 0)
		return VC_UNRELATED;
	return slope > *scale ? VC_OVERCOUNTS : VC_UNDERCOUNTS;
}

static void fill_from_eval(const struct eval *ev, struct verdict *v)
{
	v->scale = ev->s;
	v->cls = classify(ev, &v->scale);
	v->measured = ev->held ? ev->measured : ev->global_slope;
	v->slope = ev->held ? ev->slope : ev->global_slope;
	v->r2 = ev->held ? ev->r2 : ev->global_r2;
	v->error = ev->held ? ev->error : (v->scale > 0 ? fabs(v->slope / v->scale - 1) : NAN);
	v->spread = ev->spread;
	v->points = ev->points;
	v->levels = v->prefetch = 0;
	for (int b = 0; b < NBUCKET; b++)
		if (ev->held & (1ul << b)) {
			v->levels |= 1u << bucket_level(b);
			v->prefetch |= 1u << bucket_pf(b);
		}
}

/* The usable counts of one event, ordered by group (a counting sort: pass 0 counts, pass 1 places),
   and the tally of the points left out. */
static int collect(const struct agg *a, const struct agg_event *ev, int use_noisy, struct samples *S,
		   struct verdict *v)
{
	size_t count[NBUCKET] = {0}, pos[NBUCKET];

	S->n = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			S->start[0] = 0;
			for (int b = 0; b < NBUCKET; b++)
				S->start[b + 1] = S->start[b] + count[b];
			memcpy(pos, S->start, sizeof pos);
			S->n = S->start[NBUCKET];
			S->s = malloc((S->n + 1) * sizeof *S->s);
			S->pred = malloc((S->n + 1) * sizeof *S->pred);
			S->tmp = malloc((S->n + 1) * sizeof *S->tmp);
			if (!S->s || !S->pred || !S->tmp)
				return -1;
		}
		for (uint32_t k = 0; k < ev->ncells; k++) {
			const struct agg_cell *c = &a->cells[ev->cells[k]];
			const struct agg_point *p = &a->points[c->point];
			int b;
			if (p->level == LV_EXCLUDED || (p->noisy && !use_noisy)) {
				if (pass == 0) {
					v->boundary_points += p->level == LV_EXCLUDED;
					v->noisy_points += p->level != LV_EXCLUDED && p->noisy;
				}
				continue;
			}
			b = p->level * PF_COUNT + p->pf;
			if (pass == 0) {
				count[b] += c->n;
				continue;
			}
			for (uint32_t r = 0; r < c->n; r++)
				S->s[pos[b]++] = (struct sample){c->counts[r], c->point, (uint8_t)b};
		}
	}
	return 0;
}

static void not_measured(const struct agg_event *ev, struct verdict *v)
{
	size_t len = 0;

	v->cls = VC_NOT_MEASURED;
	len = (size_t)snprintf(v->note, sizeof v->note, "no reading with status ok");
	for (int s = RS_MULTIPLEXED; s < RS_COUNT && len < sizeof v->note; s++)
		if (ev->rows[s])
			len += (size_t)snprintf(v->note + len, sizeof v->note - len, "; %lu %s: %s",
						ev->rows[s], raw_status_names[s],
						ev->reason[s] && *ev->reason[s] ? ev->reason[s]
										: "no reason given");
}

static unsigned count_points(const struct samples *S)
{
	unsigned n = 0;

	/* samples of a point are adjacent (a point lies in one bucket) */
	for (size_t i = 0; i < S->n; i++)
		n += i == 0 || S->s[i].point != S->s[i - 1].point;
	return n;
}

/* Returns the support (samples where it holds) of the chosen quantity. */
static size_t single_quantity(const struct agg *a, struct samples *S, struct verdict *v)
{
	struct eval ev[RQ_COUNT];
	int best_q = RQ_COUNT - 1;

	/* From the last quantity to the first: kern.h lists the volumes every kernel has first and the ones
	   few kernels have last, so on a tie the more specific explanation wins (touch does one store per
	   page; a page-fault event is about pages). */
	for (int q = RQ_COUNT - 1; q >= 0; q--) {
		set_pred_quantity(a, S, q);
		verdict_evaluate(S, 0, &ev[q]);
		if (better(&ev[q], &ev[best_q]))
			best_q = q;
	}
	/* Held nowhere: the quantity the event is most linear in decides over/under/unrelated. */
	if (!support(&ev[best_q]))
		for (int q = 0; q < RQ_COUNT; q++)
			if (!isnan(ev[q].global_r2) &&
			    (isnan(ev[best_q].global_r2) || ev[q].global_r2 > ev[best_q].global_r2))
				best_q = q;
	v->quantity = best_q;
	snprintf(v->quantity_text, sizeof v->quantity_text, "%s", raw_quantity_names[best_q]);
	fill_from_eval(&ev[best_q], v);
	if (!support(&ev[best_q]))
		v->points = count_points(S);
	if (v->cls == VC_UNRELATED) {
		snprintf(v->note, sizeof v->note, "best linear fit: %s, R^2 %.3f", raw_quantity_names[best_q],
			 v->r2);
		v->quantity = -1;
		v->quantity_text[0] = '\0';
		v->scale = 0;
	}
	return support(&ev[best_q]);
}

/* A sum replaces the single quantity when it really uses two quantities and holds on more
   measurements. */
static void try_sum(const struct agg *a, struct samples *S, struct verdict *v, size_t single)
{
	struct eval ev;
	int quantities = verdict_sum(a, S, v);

	if (!quantities)
		return;
	verdict_evaluate(S, 1, &ev);
	v->decomp_error = ev.held ? ev.error : NAN;
	v->decomp_r2 = ev.held ? ev.r2 : NAN;
	if (quantities < 2 || ev.error > THR_APPROX_ERROR || support(&ev) <= single)
		return;
	v->quantity = -1;
	v->note[0] = '\0';
	snprintf(v->quantity_text, sizeof v->quantity_text, "%s", v->decomposition);
	fill_from_eval(&ev, v);
}

int verdict_event(const struct agg *a, uint32_t event, struct verdict *v, struct err *e)
{
	const struct agg_event *ev = &a->events[event];
	struct samples S = {0};
	double ymax = 0;
	int rc = 0;

	memset(v, 0, sizeof *v);
	v->event = event;
	v->quantity = -1;
	for (uint32_t k = 0; k < ev->ncells; k++)
		v->max_rate = fmax(v->max_rate, a->cells[ev->cells[k]].max_rate);
	if (!ev->rows[RS_OK]) {
		not_measured(ev, v);
		return 0;
	}
	if (collect(a, ev, 0, &S, v))
		goto oom;
	if (count_points(&S) < THR_MIN_POINTS && v->noisy_points) {
		free(S.s), free(S.pred), free(S.tmp);
		memset(&S, 0, sizeof S);
		v->noisy_only = 1;
		v->boundary_points = 0; /* counted again by the second pass */
		if (collect(a, ev, 1, &S, v))
			goto oom;
	}
	if (count_points(&S) < THR_MIN_POINTS) {
		v->cls = VC_NOT_MEASURED;
		snprintf(v->note, sizeof v->note,
			 "only %u usable points (need %d; %u near a level boundary, %u noisy)",
			 count_points(&S), THR_MIN_POINTS, v->boundary_points, v->noisy_points);
		goto out;
	}
	for (size_t i = 0; i < S.n; i++)
		ymax = fmax(ymax, fabs(S.s[i].y));
	if (ymax < THR_NOISE_COUNTS) {
		v->cls = VC_UNRELATED;
		snprintf(v->note, sizeof v->note, "never counts (at most %.0f per measurement)", ymax);
		goto out;
	}
	try_sum(a, &S, v, single_quantity(a, &S, v));
	goto out;
oom:
	rc = err_set(e, E_RUNTIME, "out of memory analysing event %s", ev->name);
out:
	free(S.s);
	free(S.pred);
	free(S.tmp);
	return rc;
}

void verdict_levels_text(unsigned levels, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int l = 0; l < LV_COUNT && n < len; l++)
		if (levels & (1u << l))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", point_level_name(l));
}

const char *verdict_prefetch_text(unsigned prefetch)
{
	unsigned on = prefetch & (1u << PF_ON), off = prefetch & (1u << PF_OFF);

	if (on && off)
		return "both";
	if (on)
		return "on";
	if (off)
		return "off";
	if (prefetch & (1u << PF_UNCONTROLLED))
		return "uncontrolled";
	return prefetch ? "partial" : "";
}
