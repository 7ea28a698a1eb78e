/* verdict.c — classifies one event. See verdict.h for the method and thresholds.h for the numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "thresholds.h"
#include "verdict.h"

const char *const verdict_class_names[VC_COUNT] = {
	"exact", "approximate", "prefetch-blind", "overcounts", "undercounts", "unrelated", "not measured",
};

#define NBUCKET (LV_COUNT * PF_COUNT) /* groups: level x prefetch state */

struct sample {
	double y;
	uint32_t point;
	uint8_t bucket;
};

/* The samples of one event, ordered by bucket; start[b] .. start[b + 1] is bucket b. */
struct samples {
	struct sample *s;
	size_t n;
	size_t start[NBUCKET + 1];
	double *pred; /* the predictor under test, one per sample */
	double *tmp;
};

/* How well count = scale * pred holds, per bucket and overall. */
struct eval {
	double s;
	unsigned long held; /* bucket mask */
	size_t held_samples;
	double median[NBUCKET];
	int evaluated[NBUCKET];
	double error, spread, r2, slope, intercept, measured;
	double global_r2, global_slope;
	int prefetch_blind;
	unsigned points;
};

static int bucket_level(int b)
{
	return b / PF_COUNT;
}

static int bucket_pf(int b)
{
	return b % PF_COUNT;
}

/* Ratios of bucket b into tmp; returns how many (samples with pred > 0 only). */
static size_t bucket_ratios(const struct samples *S, int b, double *tmp)
{
	size_t k = 0;

	for (size_t i = S->start[b]; i < S->start[b + 1]; i++)
		if (S->pred[i] > 0)
			tmp[k++] = S->s[i].y / S->pred[i];
	return k;
}

/* A group holds when its ratios sit close to the scale: median and spread both within the
   approximate error (a mixture of kernels that only averages out to a simple value does not). */
static int holds(double median, double spread, double s)
{
	return s > 0 && median > 0 && fabs(median / s - 1) <= THR_APPROX_ERROR &&
	       spread <= THR_APPROX_ERROR;
}

/* The scale held by the most samples; ties go to the scale prefetch-off groups hold (the truth
   without prefetch traffic), then to the scale nearest 1. */
static double choose_scale(const struct eval *ev, const double *bs, const size_t *bn)
{
	double best = 0, best_score = 0;
	int best_off = 0;

	for (unsigned k = 0; k < fit_nsimple; k++) {
		double s = fit_simple_values[k], score = 0;
		int off = 0;
		for (int b = 0; b < NBUCKET; b++) {
			if (!ev->evaluated[b] || bs[b] != s)
				continue;
			score += (double)bn[b];
			off |= bucket_pf(b) == PF_OFF;
		}
		if (score <= 0)
			continue;
		if (score > best_score || (score == best_score && off > best_off) ||
		    (score == best_score && off == best_off && fabs(log(s)) < fabs(log(best)))) {
			best = s;
			best_score = score;
			best_off = off;
		}
	}
	return best;
}

static void fit_buckets(const struct samples *S, unsigned long mask, double *a, double *b, double *r2)
{
	struct fit_line f = {0};

	for (int k = 0; k < NBUCKET; k++)
		if (mask & (1ul << k))
			for (size_t i = S->start[k]; i < S->start[k + 1]; i++)
				fit_line_add(&f, S->pred[i], S->s[i].y);
	fit_line_solve(&f, a, b, r2);
}

/* A level where prefetch off holds and prefetch on counts less: the event misses prefetched lines. */
static int prefetch_blind(const struct eval *ev)
{
	for (int l = 0; l < LV_COUNT; l++) {
		int off = l * PF_COUNT + PF_OFF, on = l * PF_COUNT + PF_ON;
		if ((ev->held & (1ul << off)) && ev->evaluated[on] && !(ev->held & (1ul << on)) &&
		    ev->median[on] < ev->s * (1 - THR_APPROX_ERROR))
			return 1;
	}
	return 0;
}

/* Evaluates S->pred as predictor; forced > 0 fixes the scale (a fitted sum has scale 1). */
static void evaluate(const struct samples *S, double forced, struct eval *ev)
{
	double bs[NBUCKET] = {0}, p10[NBUCKET], p90[NBUCKET];
	size_t bn[NBUCKET] = {0}, k = 0;
	uint32_t last = UINT32_MAX;

	memset(ev, 0, sizeof *ev);
	for (int b = 0; b < NBUCKET; b++) {
		bn[b] = bucket_ratios(S, b, S->tmp);
		if (!bn[b])
			continue;
		ev->evaluated[b] = 1;
		ev->median[b] = fit_quantile(S->tmp, bn[b], 0.5);
		p10[b] = fit_quantile(S->tmp, bn[b], 0.1);
		p90[b] = fit_quantile(S->tmp, bn[b], 0.9);
		bs[b] = forced > 0 ? forced : fit_nearest_simple(ev->median[b]);
		if (!holds(ev->median[b], (p90[b] - p10[b]) / 2 / ev->median[b], bs[b]))
			bs[b] = 0;
	}
	fit_buckets(S, ~0ul, &ev->global_slope, &ev->intercept, &ev->global_r2);
	ev->s = forced > 0 ? forced : choose_scale(ev, bs, bn);
	for (int b = 0; b < NBUCKET; b++) {
		if (!ev->evaluated[b] || bs[b] != ev->s || ev->s <= 0)
			continue;
		ev->held |= 1ul << b;
		ev->held_samples += bn[b];
		ev->error = fmax(ev->error, fabs(ev->median[b] / ev->s - 1));
		ev->spread = fmax(ev->spread, (p90[b] - p10[b]) / 2 / ev->median[b]);
		k += bucket_ratios(S, b, S->tmp + k);
		for (size_t i = S->start[b]; i < S->start[b + 1]; i++) {
			if (S->s[i].point != last)
				ev->points++;
			last = S->s[i].point;
		}
	}
	if (!ev->held)
		return;
	ev->measured = fit_quantile(S->tmp, k, 0.5);
	fit_buckets(S, ev->held, &ev->slope, &ev->intercept, &ev->r2);
	ev->prefetch_blind = prefetch_blind(ev);
}

/* Samples where the quantity holds, counted only when the event is also linear in it there. */
static size_t support(const struct eval *ev)
{
	return ev->held && ev->r2 >= THR_RELATED_R2 ? ev->held_samples : 0;
}

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
	if (ev->held && ev->error <= THR_EXACT_ERROR && ev->spread <= THR_EXACT_ERROR &&
	    r2 >= THR_EXACT_R2)
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

/* ---- sums: forward-stepwise NNLS over quantities and over lines split by level ---- */

#define NSPLIT 2 /* lines_read and lines_written, split by level */
#define NBASE (RQ_COUNT - 2) /* bytes_* are loads/stores times the width: left out */
#define NCOL (NBASE + NSPLIT * LV_COUNT)

static const int base_q[NBASE] = {RQ_instructions, RQ_loads, RQ_stores, RQ_lines_read,
				  RQ_lines_written, RQ_split_loads, RQ_chase_accesses,
				  RQ_multiplies, RQ_nops, RQ_pages};
static const int split_q[NSPLIT] = {RQ_lines_read, RQ_lines_written};

static double column(const struct agg_point *p, int c)
{
	if (c < NBASE)
		return p->v[base_q[c]];
	c -= NBASE;
	return p->level == c % LV_COUNT ? p->v[split_q[c / LV_COUNT]] : 0;
}

static int column_quantity(int c)
{
	return c < NBASE ? base_q[c] : split_q[(c - NBASE) / LV_COUNT];
}

static void column_name(int c, char *buf, size_t len)
{
	if (c < NBASE)
		snprintf(buf, len, "%s", raw_quantity_names[base_q[c]]);
	else
		snprintf(buf, len, "%s@%s", raw_quantity_names[split_q[(c - NBASE) / LV_COUNT]],
			 level_names[(c - NBASE) % LV_COUNT]);
}

/* Weighted normal equations; each sample is scaled by the size of its volumes so that small and
   large points weigh alike (relative least squares). */
static void normal_equations(const struct agg *a, const struct samples *S, int only_off, double *G,
			     double *h, double *yy)
{
	double x[NCOL];

	memset(G, 0, sizeof(double) * NCOL * NCOL);
	memset(h, 0, sizeof(double) * NCOL);
	*yy = 0;
	for (size_t i = 0; i < S->n; i++) {
		const struct agg_point *p = &a->points[S->s[i].point];
		double norm = 0, w;
		if (only_off && p->pf != PF_OFF)
			continue;
		for (int c = 0; c < NCOL; c++) {
			x[c] = column(p, c);
			norm += x[c] * x[c];
		}
		w = norm > 0 ? 1 / norm : 1 / fmax(S->s[i].y * S->s[i].y, 1);
		for (int r = 0; r < NCOL; r++) {
			if (x[r] == 0)
				continue;
			h[r] += w * x[r] * S->s[i].y;
			for (int c = 0; c < NCOL; c++)
				G[r * NCOL + c] += w * x[r] * x[c];
		}
		*yy += w * S->s[i].y * S->s[i].y;
	}
}

/* NNLS restricted to the columns in sel; returns the residual sum of squares. */
static double nnls_subset(const double *G, const double *h, double yy, const int *sel, unsigned n,
			  double *coef)
{
	double g[FIT_NNLS_MAX * FIT_NNLS_MAX], hh[FIT_NNLS_MAX], rss = yy;

	for (unsigned i = 0; i < n; i++) {
		hh[i] = h[sel[i]];
		for (unsigned j = 0; j < n; j++)
			g[i * n + j] = G[sel[i] * NCOL + sel[j]];
	}
	if (fit_nnls(g, hh, n, coef))
		return INFINITY;
	for (unsigned i = 0; i < n; i++) {
		rss -= 2 * coef[i] * hh[i];
		for (unsigned j = 0; j < n; j++)
			rss += coef[i] * g[i * n + j] * coef[j];
	}
	return rss;
}

/* Picks up to THR_NNLS_MAX_TERMS columns; fills sel/coef, returns how many. */
static unsigned stepwise(const double *G, const double *h, double yy, int *sel, double *coef)
{
	double rss = yy, c[FIT_NNLS_MAX];
	unsigned n = 0;

	while (n < THR_NNLS_MAX_TERMS) {
		double best = INFINITY, best_c[FIT_NNLS_MAX];
		int best_col = -1;
		for (int col = 0; col < NCOL; col++) {
			int used = G[col * NCOL + col] <= 0;
			for (unsigned i = 0; i < n && !used; i++)
				used = sel[i] == col;
			if (used)
				continue;
			sel[n] = col;
			double r = nnls_subset(G, h, yy, sel, n + 1, c);
			if (r < best) {
				best = r;
				best_col = col;
				memcpy(best_c, c, sizeof c);
			}
		}
		if (best_col < 0 || best > rss * (1 - THR_NNLS_GAIN))
			break;
		sel[n++] = best_col;
		memcpy(coef, best_c, sizeof best_c);
		rss = best;
		if (rss <= 1e-12 * yy)
			break;
	}
	return n;
}

/* Rounds the terms to simple values, writes the text, sets S->pred to the sum; returns the number
   of distinct quantities it uses. */
static int decomposition(const struct agg *a, struct samples *S, struct verdict *v)
{
	double G[NCOL * NCOL], h[NCOL], yy, coef[FIT_NNLS_MAX];
	int sel[FIT_NNLS_MAX], only_off = 0;
	unsigned n, quantities = 0, kept = 0;
	size_t len = 0;

	for (size_t i = 0; i < S->n && !only_off; i++)
		only_off = a->points[S->s[i].point].pf == PF_OFF;
	normal_equations(a, S, only_off, G, h, &yy);
	n = stepwise(G, h, yy, sel, coef);
	memset(S->pred, 0, S->n * sizeof *S->pred);
	v->decomposition[0] = '\0';
	for (unsigned t = 0; t < n; t++) {
		char name[64], sc[16];
		double s = coef[t] >= THR_NNLS_MIN_COEF ? fit_nearest_simple(coef[t]) : 0;
		if (s <= 0)
			continue;
		for (size_t i = 0; i < S->n; i++)
			S->pred[i] += s * column(&a->points[S->s[i].point], sel[t]);
		column_name(sel[t], name, sizeof name);
		fit_format_scale(s, sc, sizeof sc);
		len += (size_t)snprintf(v->decomposition + len, sizeof v->decomposition - len, "%s%s%s%s",
					kept ? " + " : "", s != 1 ? sc : "", s != 1 ? " " : "", name);
		if (len >= sizeof v->decomposition)
			len = sizeof v->decomposition - 1;
		kept++;
		/* level splits of one quantity are still one quantity */
		int dup = 0;
		for (unsigned u = 0; u < t; u++)
			dup |= column_quantity(sel[u]) == column_quantity(sel[t]);
		quantities += !dup;
	}
	return kept ? (int)quantities : 0;
}

/* ---- collecting the samples ---- */

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
						ev->reason[s] && *ev->reason[s] ? ev->reason[s] : "no reason given");
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
	struct eval best, cur;
	int best_q = -1;

	for (int q = 0; q < RQ_COUNT; q++) {
		set_pred_quantity(a, S, q);
		evaluate(S, 0, &cur);
		if (best_q < 0 || better(&cur, &best)) {
			best = cur;
			best_q = q;
		}
	}
	/* Held nowhere: the quantity the event is most linear in decides over/under/unrelated. */
	if (!support(&best))
		for (int q = 0; q < RQ_COUNT; q++) {
			set_pred_quantity(a, S, q);
			evaluate(S, 0, &cur);
			if (!isnan(cur.global_r2) && (isnan(best.global_r2) || cur.global_r2 > best.global_r2)) {
				best = cur;
				best_q = q;
			}
		}
	v->quantity = best_q;
	snprintf(v->quantity_text, sizeof v->quantity_text, "%s", raw_quantity_names[best_q]);
	fill_from_eval(&best, v);
	if (!support(&best))
		v->points = count_points(S);
	if (v->cls == VC_UNRELATED) {
		snprintf(v->note, sizeof v->note, "best linear fit: %s, R^2 %.3f", raw_quantity_names[best_q],
			 v->r2);
		v->quantity = -1;
		v->quantity_text[0] = '\0';
		v->scale = 0;
	}
	return support(&best);
}

/* A sum replaces the single quantity when it really uses two quantities and holds on more
   measurements. */
static void try_sum(const struct agg *a, struct samples *S, struct verdict *v, size_t single)
{
	struct eval ev;
	int quantities = decomposition(a, S, v);

	if (!quantities)
		return;
	evaluate(S, 1, &ev);
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
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", level_names[l]);
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
