/* verdict.c — classifies one event. See verdict.h for the method and thresholds.h for the numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "thresholds.h"
#include "verdict_int.h"

const char *const verdict_class_names[VC_COUNT] = {
	"exact",       "approximate", "prefetch-blind", "overcounts",
	"undercounts", "unrelated",   "not measured",   "box",
};

/* Points where the quantity holds, and points where its ratio is at least consistent (held ones
   included), counted only when the event is also linear in it there. */
static size_t support(const struct eval *ev)
{
	return ev->held && !(ev->r2 < THR_RELATED_R2) ? ev->held_samples : 0;
}

static size_t consistent_support(const struct eval *ev)
{
	return ev->consistent && !(ev->r2 < THR_RELATED_R2) ? ev->consistent_samples : 0;
}

/* Most consistent points win (the quantity the counts are proportional to on most points: an event
   that overcounts lines by 30 % everywhere is about lines, not about the multiplies of the few points
   where 1.3 per line happens to be 1/12 per multiply), then most held points, then the quantity the
   event is most linear in over all points (page-faults: pages, not stores, although touch does one
   store per page), then the lower error. */
static int better(const struct eval *x, const struct eval *y)
{
	if (consistent_support(x) != consistent_support(y))
		return consistent_support(x) > consistent_support(y);
	if (support(x) != support(y))
		return support(x) > support(y);
	if (!isnan(x->global_r2) && (isnan(y->global_r2) || x->global_r2 > y->global_r2 + 1e-9))
		return 1;
	if (isnan(y->global_r2) || y->global_r2 > x->global_r2 + 1e-9)
		return 0;
	return x->error + x->spread < y->error + y->spread;
}

/* Q_TIME: the pseudo-quantity "time" (thread-seconds for a core event, seconds for a socket one). An
   event proportional to time on more points than to any volume counts cycles or clock ticks: no
   volume, whatever ratio a level's steady bandwidth gives it. */
#define Q_TIME RQ_COUNT

static void set_pred_quantity(const struct agg *a, const struct agg_event *aev, struct samples *S, int q)
{
	int socket = aev->scope[0] == 's';

	for (size_t i = 0; i < S->n; i++) {
		const struct agg_point *p = &a->points[S->s[i].point];
		S->pred[i] = q < RQ_COUNT ? p->v[q] : S->s[i].t * (socket ? 1 : (double)p->threads);
	}
}

/* Whether `x` (with a background) explains the event better than `y` (without): more points held, or
   as many with a smaller error and spread; the background must matter somewhere and stay a minority
   everywhere (thresholds.h). */
static int background_helps(const struct eval *x, const struct eval *y)
{
	if (x->bg_share > THR_BACKGROUND_MAX || x->bg_share < THR_EXACT_ERROR)
		return 0;
	if (support(x) != support(y))
		return support(x) > support(y);
	if (consistent_support(x) != consistent_support(y))
		return consistent_support(x) > consistent_support(y);
	return x->error + x->spread < 0.8 * (y->error + y->spread);
}

/* Evaluates S->pred without and with the candidate backgrounds (none for time itself); keeps the best
   in ev. */
static void evaluate_best(struct samples *S, double hyp, int time, struct eval *ev)
{
	double cand[2];
	int n;

	verdict_evaluate(S, 0, hyp, 0, ev);
	/* held on every group within the exact error: no background can do better; and a thread's counter
	   sees no other core's traffic (verdict_background.c), so a part of its count that grows with time is
	   no background but something else it counts, cycles or interrupts: subtracted, an event counting
	   lines plus 2e8 a second read exact */
	n = time || !S->socket ||
			(ev->held && ev->held == ev->consistent && ev->error <= THR_EXACT_ERROR &&
			 ev->spread <= THR_EXACT_ERROR)
		? 0
		: verdict_background(S, cand);
	for (int c = 0; c < n; c++) {
		struct eval x;
		verdict_evaluate(S, 0, hyp, cand[c], &x);
		if (background_helps(&x, ev))
			*ev = x;
	}
}

/* The class from the evaluation of the chosen quantity (thresholds.h), and the scale the direction
   of an over/undercount is judged against: the config's expected scale for its quantity, else the
   nearest simple value of the median ratio of its consistent groups (verdict_eval.c, direction_scale).
   The direction is the measured ratio against it, never a fitted slope. */
static enum verdict_class classify(const struct eval *ev, double hyp, double *scale)
{
	double r2 = ev->r2;

	if (ev->held) {
		*scale = ev->s;
		/* counting, where the quantity is 0 throughout a group, what it does not explain, the event
		   counts more than the quantity, however well it holds where the quantity is not 0 */
		if (ev->unexplained)
			return VC_OVERCOUNTS;
		if (ev->prefetch_blind && !(r2 < THR_APPROX_R2))
			return VC_PREFETCH_BLIND;
		if (ev->error <= THR_EXACT_ERROR && ev->spread <= THR_EXACT_ERROR && !(r2 < THR_EXACT_R2))
			return VC_EXACT;
		if (!(r2 < THR_APPROX_R2))
			return VC_APPROXIMATE;
	} else {
		*scale = ev->direction_scale;
	}
	/* without a hypothesis, a ratio beyond the simple values by more than twice is no miscount of
	   the quantity but another thing (600 cycles per page) */
	if (!ev->consistent || r2 < THR_RELATED_R2 || !(*scale > 0) || !(ev->measured > 0) ||
	    ev->measured == *scale ||
	    (!(hyp > 0) &&
	     (ev->measured > 2 * fit_simple_values[fit_nsimple - 1] ||
	      ev->measured < fit_simple_values[0] / 2)))
		return VC_UNRELATED;
	return ev->measured > *scale ? VC_OVERCOUNTS : VC_UNDERCOUNTS;
}

/* "L3/on, DRAM/on": the groups of mask; with counts, each followed by how many of its points lie off of
   how many ("DRAM/on 13 of 42"). */
static void groups_text(unsigned long mask, const struct eval *counts, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int b = 0; b < NBUCKET && n < len; b++) {
		if (!(mask & (1ul << b)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s/%s", n ? ", " : "",
				      point_level_name(bucket_level(b)), pf_names[bucket_pf(b)]);
		if (counts && n < len)
			n += (size_t)snprintf(buf + n, len - n, " %u of %u", counts->split_off[b],
					      counts->split_of[b]);
	}
}

/* "DRAM/on 13 of 42, L3/off 5 of 16": the groups of ev split into two populations whose majority
   (the median) holds the scale held elsewhere; a group of noise around nothing is no split. */
static void split_text(const struct eval *ev, char *buf, size_t len)
{
	unsigned long mask = 0;

	for (int b = 0; b < NBUCKET; b++)
		if (ev->split_off[b] && ev->s > 0 && fabs(ev->median[b] / ev->s - 1) <= THR_APPROX_ERROR)
			mask |= 1ul << b;
	groups_text(mask, ev, buf, len);
}

/* "L1/on 6 of 6, DRAM/off 4 of 5": the groups where the quantity is 0 throughout and the event counts what
   it does not explain, each with how many of its points do (verdict_eval.c zero_groups). */
static void zero_text(const struct eval *ev, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int b = 0; b < NBUCKET && n < len; b++)
		if (ev->unexplained & (1ul << b))
			n += (size_t)snprintf(buf + n, len - n, "%s%s/%s %u of %u", n ? ", " : "",
					      point_level_name(bucket_level(b)), pf_names[bucket_pf(b)],
					      ev->zero_off[b], ev->zero_of[b]);
}

static void fill_from_eval(const struct eval *ev, double hyp, struct verdict *v)
{
	unsigned long mask = ev->judged;

	v->cls = classify(ev, hyp, &v->scale);
	v->measured = ev->measured;
	v->slope = ev->slope;
	v->intercept = ev->intercept;
	v->r2 = ev->r2;
	v->error = v->scale > 0 ? fabs(ev->measured / v->scale - 1) : NAN;
	if (ev->held)
		v->error = ev->error;
	v->spread = ev->spread;
	v->points = ev->points;
	v->outliers = ev->outliers;
	v->background = ev->background;
	v->background_share = ev->bg_share;
	v->levels = v->prefetch = 0;
	v->groups = mask;
	for (int b = 0; b < NBUCKET; b++)
		if (mask & (1ul << b)) {
			v->levels |= 1u << bucket_level(b);
			v->prefetch |= 1u << bucket_pf(b);
		}
	split_text(ev, v->split, sizeof v->split);
	zero_text(ev, v->unexplained, sizeof v->unexplained);
	groups_text(v->cls == VC_OVERCOUNTS || v->cls == VC_UNDERCOUNTS ? ev->opposite : 0, NULL, v->opposite,
		    sizeof v->opposite);
}

/* An unrelated event tracks no quantity: no field of one stays behind. */
static void clear_quantity(struct verdict *v)
{
	v->quantity = -1;
	v->quantity_text[0] = '\0';
	v->scale = 0;
	v->measured = v->error = v->spread = v->slope = v->intercept = NAN;
	v->levels = v->prefetch = 0;
	v->groups = 0;
	v->background = v->background_share = 0;
	v->outliers = 0;
	v->decomposition[0] = '\0';
	v->split[0] = '\0';
	v->opposite[0] = '\0';
	v->unexplained[0] = '\0';
}

/* The usable points of one event, ordered by group (a counting sort: pass 0 counts, pass 1 places),
   and the tally of the points left out. */
static int collect(const struct agg *a, const struct agg_event *ev, int use_noisy, struct samples *S,
		   struct verdict *v)
{
	size_t count[NBUCKET] = {0}, pos[NBUCKET];

	S->n = 0;
	S->socket = ev->scope[0] == 's';
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
			S->tmp2 = malloc((S->n + 1) * sizeof *S->tmp2);
			if (!S->s || !S->pred || !S->tmp || !S->tmp2)
				return -1;
		}
		for (uint32_t k = 0; k < ev->ncells; k++) {
			const struct agg_cell *c = &a->cells[ev->cells[k]];
			const struct agg_point *p = &a->points[c->point];
			int b;
			if (p->level == LV_EXCLUDED || (p->noisy && !use_noisy) || !c->n) {
				if (pass == 0 && c->n) {
					v->boundary_points += p->level == LV_EXCLUDED;
					v->noisy_points += p->level != LV_EXCLUDED && p->noisy;
				}
				continue;
			}
			b = p->level * PF_COUNT + p->pf;
			if (pass == 0) {
				count[b]++;
				continue;
			}
			S->s[pos[b]++] = (struct sample){c->median, isfinite(p->seconds) ? p->seconds : 0,
							 c->point};
		}
	}
	return 0;
}

/* No reading with status ok: add_notes gives the statuses the readings had and their reasons. */
static void not_measured(const struct agg_event *ev, struct verdict *v)
{
	v->cls = VC_NOT_MEASURED;
	snprintf(v->note, sizeof v->note, "no reading with status ok%s",
		 ev->rejected ? " that was possible" : "");
}

static unsigned count_points(const struct samples *S)
{
	return (unsigned)S->n; /* one sample per point */
}

/* Whether quantities q and r cannot be told apart on the event's points: their ratio is the same on
   every point, within THR_TIE (a quantity that is 0 where the other is not can be told apart). */
static int proportional(const struct agg *a, const struct samples *S, int q, int r)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < S->n; i++) {
		const double *vv = a->points[S->s[i].point].v;
		double x;
		if (vv[q] <= 0 && vv[r] <= 0)
			continue;
		if (vv[q] <= 0 || vv[r] <= 0)
			return 0;
		x = vv[q] / vv[r];
		lo = fmin(lo, x);
		hi = fmax(hi, x);
	}
	return hi > 0 && hi <= lo * (1 + THR_TIE);
}

/* The quantities indistinguishable from the chosen one: the config's hypothesis among them wins,
   else the most specific (the last in kern.h order: the volumes every kernel has come first). The
   note names the others. */
static int break_tie(const struct agg *a, const struct agg_event *aev, const struct samples *S,
		     const struct eval *ev, int best, struct verdict *v)
{
	unsigned long mask = ev[best].held ? ev[best].held : ev[best].consistent;
	int tied[RQ_COUNT], n = 0, choice = best;
	size_t len;

	if (!mask)
		return best;
	for (int q = 0; q < RQ_COUNT; q++)
		if (q == best ||
		    (!(a->unknown_q & (1u << q)) && support(&ev[q]) == support(&ev[best]) &&
		     consistent_support(&ev[q]) == consistent_support(&ev[best]) &&
		     (ev[q].held ? ev[q].held : ev[q].consistent) == mask && proportional(a, S, q, best)))
			tied[n++] = q;
	if (n < 2)
		return best;
	choice = tied[n - 1];
	for (int i = 0; i < n; i++)
		if (tied[i] == aev->hyp_q)
			choice = tied[i];
	len = strlen(v->note);
	len += (size_t)snprintf(v->note + len, sizeof v->note - len, "%sthe data cannot tell %s from",
				len ? "; " : "", raw_quantity_names[choice]);
	for (int i = 0, k = 0; i < n && len < sizeof v->note; i++)
		if (tied[i] != choice)
			len += (size_t)snprintf(v->note + len, sizeof v->note - len, "%s %s", k++ ? "," : "",
						raw_quantity_names[tied[i]]);
	if (len < sizeof v->note)
		snprintf(v->note + len, sizeof v->note - len, " (%s)",
			 choice == aev->hyp_q ? "the config's hypothesis taken" : "the more specific taken");
	return choice;
}

/* A socket's counter sees the node's other traffic besides the kernels' (verdict_background.c), which is all
   it counts at the points whose traffic does not reach it (an IMC counter in L1-L3): those are consistent
   with time, and outnumber the DRAM points, yet the counter counts the quantity where it holds, and time
   only in the background. A clock counts time at those points as well, all of their count: so time's rate
   (the per-second figure time was consistent at) is a background where, at the median point where the
   quantity holds, it makes less of the count than all but the approximate error (in the generated
   UNC_M_CAS_COUNT.WR, 1e6 lines/s beside the written lines, 51 %; a clock's, 100 %). A thread's counter
   sees no other traffic. */
static int time_is_background(const struct samples *S, const struct eval *q, const struct eval *time)
{
	size_t n = 0;

	if (!S->socket || !q->held || !(time->measured > 0))
		return 0;
	for (int b = 0; b < NBUCKET; b++)
		if (q->held & (1ul << b))
			for (size_t i = S->start[b]; i < S->start[b + 1]; i++)
				if (S->s[i].y > 0)
					S->tmp[n++] = time->measured * S->s[i].t / S->s[i].y;
	return n && stats_median_select(S->tmp, n) < 1 - THR_APPROX_ERROR;
}

/* Returns the support (points where it holds or is consistent) of the chosen quantity, or of time where
   the event counts time. */
static size_t single_quantity(const struct agg *a, const struct agg_event *aev, struct samples *S,
			      struct verdict *v)
{
	struct eval ev[RQ_COUNT + 1];
	int best_q = RQ_COUNT - 1;
	double hyp;

	/* From the last quantity to the first: on a full tie the more specific explanation wins. A
	   volume the raw.csv has no column for is no candidate. */
	for (int q = RQ_COUNT - 1; q >= 0; q--) {
		if (a->unknown_q & (1u << q)) {
			ev[q] = (struct eval){.r2 = NAN, .global_r2 = NAN, .error = NAN, .spread = NAN};
			continue;
		}
		set_pred_quantity(a, aev, S, q);
		evaluate_best(S, q == aev->hyp_q ? aev->hyp_scale : 0, 0, &ev[q]);
		if (better(&ev[q], &ev[best_q]))
			best_q = q;
	}
	set_pred_quantity(a, aev, S, Q_TIME);
	evaluate_best(S, 0, 1, &ev[Q_TIME]);
	if (!time_is_background(S, &ev[best_q], &ev[Q_TIME]) &&
	    consistent_support(&ev[Q_TIME]) > consistent_support(&ev[best_q])) {
		snprintf(v->note, sizeof v->note,
			 "counts time, not a volume: %.4g per %s-second on %zu of %u points (cycles or clock "
			 "ticks)",
			 ev[Q_TIME].measured, aev->scope[0] == 's' ? "socket" : "thread",
			 consistent_support(&ev[Q_TIME]), count_points(S));
		v->cls = VC_UNRELATED;
		v->r2 = ev[Q_TIME].r2;
		v->points = count_points(S);
		clear_quantity(v);
		/* time's support: a sum of volumes replaces it only where it holds on more points */
		return consistent_support(&ev[Q_TIME]);
	}
	best_q = break_tie(a, aev, S, ev, best_q, v);
	hyp = best_q == aev->hyp_q ? aev->hyp_scale : 0;
	v->quantity = best_q;
	snprintf(v->quantity_text, sizeof v->quantity_text, "%s", raw_quantity_names[best_q]);
	fill_from_eval(&ev[best_q], hyp, v);
	if (v->cls == VC_UNRELATED) {
		/* the quantity the event is most linear in, for the note only */
		for (int q = 0; q < RQ_COUNT; q++)
			if (!isnan(ev[q].global_r2) &&
			    (isnan(ev[best_q].global_r2) || ev[q].global_r2 > ev[best_q].global_r2))
				best_q = q;
		snprintf(v->note, sizeof v->note,
			 "best linear fit: %s, R^2 %.3f over the %u of %u points where it is not 0",
			 raw_quantity_names[best_q], ev[best_q].global_r2, ev[best_q].global_n,
			 count_points(S));
		v->r2 = ev[best_q].global_r2;
		v->points = count_points(S);
		clear_quantity(v);
		return 0;
	}
	return consistent_support(&ev[v->quantity]);
}

/* Whether every term of the sum is a level split of quantity q ("lines_read@L2 + lines_read@DRAM"
   restates lines_read at two levels). */
static int splits_of(const char *sum, int q)
{
	const char *name = raw_quantity_names[q], *p = sum;
	size_t len = strlen(name);

	while (*p) {
		const char *t = strstr(p, " + "), *term = p;
		size_t tl = t ? (size_t)(t - p) : strlen(p);
		while (tl && (*term == ' ' || (*term >= '0' && *term <= '9') || *term == '/'))
			term++, tl--;
		if (tl <= len || strncmp(term, name, len) || term[len] != '@')
			return 0;
		p = t ? t + 3 : p + strlen(p);
	}
	return 1;
}

/* A sum replaces the single quantity when it really uses two quantities and holds on more points.
   The decomposition is kept only when adopted, or when it restates the chosen quantity by level. */
static void try_sum(const struct agg *a, struct samples *S, struct verdict *v, size_t single)
{
	struct eval ev;
	double bg = v->background;
	int quantities;

	/* the background the single quantity found is no quantity's: the sum is sought without it */
	for (size_t i = 0; i < S->n && bg > 0; i++)
		S->s[i].y -= bg * S->s[i].t;
	quantities = verdict_sum(a, S, v);
	if (!quantities)
		return;
	verdict_evaluate(S, 1, 0, 0, &ev);
	ev.background = bg;
	ev.bg_share = v->background_share;
	v->decomp_error = ev.held ? ev.error : NAN;
	v->decomp_r2 = ev.held ? ev.r2 : NAN;
	if (quantities < 2 || !ev.held || consistent_support(&ev) <= single) {
		if (v->quantity < 0 || !splits_of(v->decomposition, v->quantity) || !ev.held) {
			v->decomposition[0] = '\0';
			v->decomp_error = v->decomp_r2 = NAN;
		}
		return;
	}
	v->quantity = -1;
	v->note[0] = '\0';
	snprintf(v->quantity_text, sizeof v->quantity_text, "%s", v->decomposition);
	fill_from_eval(&ev, 0, v);
}

/* Whether the class says how the event relates to its quantity (every class a quantity is judged for). */
static int relates_to_quantity(enum verdict_class c)
{
	return c == VC_EXACT || c == VC_APPROXIMATE || c == VC_PREFETCH_BLIND || c == VC_OVERCOUNTS ||
		c == VC_UNDERCOUNTS;
}

/* THR_MIN_POINTS counts the usable points, but the class rests only on those judged against the chosen
   quantity (its holding or consistent groups, q > 0 there: v->points), and R^2 is undefined (NAN) where q
   does not vary over them, which no `r2 < threshold` gate catches: a results directory whose only
   point with a page (one touch point among three) read `exact` for lines_read on that one point, R^2 NAN.
   Too few judged points, or a quantity that never varied over them, measured no proportionality. */
static void require_judged_points(struct verdict *v)
{
	char quantity[sizeof v->quantity_text];

	if (!relates_to_quantity(v->cls) || (v->points >= THR_MIN_POINTS && !isnan(v->r2)))
		return;
	snprintf(quantity, sizeof quantity, "%s", v->quantity_text);
	if (v->points < THR_MIN_POINTS)
		snprintf(v->note, sizeof v->note,
			 "only %u point%s judged against %s (need %d; the others lie where it is 0 or "
			 "in groups where the ratio disagrees)",
			 v->points, v->points == 1 ? "" : "s", quantity, THR_MIN_POINTS);
	else
		snprintf(v->note, sizeof v->note,
			 "%s does not vary over the %u points judged against it: R^2 undefined, "
			 "proportionality not measured",
			 quantity, v->points);
	v->cls = VC_NOT_MEASURED;
	clear_quantity(v);
	v->r2 = NAN;
}

/* What the reader should know beyond the class: impossible readings, outliers, the background. */
static void add_notes(const struct agg_event *ev, struct verdict *v)
{
	size_t len = strlen(v->note);

	if (ev->rejected)
		len += (size_t)snprintf(v->note + len, sizeof v->note - len,
					"%s%lu impossible readings rejected (first, line %lu: %s)",
					len ? "; " : "", ev->rejected, ev->reject_line, ev->reject_reason);
	/* readings of other statuses enter no verdict: a verdict from 6 points of 1428 readings says why, as
	   an event not measured at all does */
	for (int st = RS_MULTIPLEXED; st < RS_COUNT && len < sizeof v->note; st++)
		if (ev->rows[st])
			len += (size_t)snprintf(
				v->note + len, sizeof v->note - len, "%s%lu readings %s, not used (%s)",
				len ? "; " : "", ev->rows[st], raw_status_names[st],
				ev->reason[st] && *ev->reason[st] ? ev->reason[st] : "no reason given");
	if (v->split[0] && len < sizeof v->note)
		len += (size_t)snprintf(
			v->note + len, sizeof v->note - len,
			"%ssplit groups (over %.0f %% of their points off the median, judged whole, "
			"so not exact there): %s",
			len ? "; " : "", THR_OUTLIER_SHARE * 100, v->split);
	if (v->unexplained[0] && len < sizeof v->note)
		len += (size_t)snprintf(v->note + len, sizeof v->note - len,
					"%scounts where %s is 0 in whole groups, unexplained: %s",
					len ? "; " : "", v->quantity_text, v->unexplained);
	if (v->opposite[0] && len < sizeof v->note)
		len += (size_t)snprintf(v->note + len, sizeof v->note - len,
					"%s%s instead in %s (left out of its levels)", len ? "; " : "",
					v->cls == VC_OVERCOUNTS ? "undercounts" : "overcounts", v->opposite);
	if (v->outliers && len < sizeof v->note)
		len += (size_t)snprintf(v->note + len, sizeof v->note - len,
					"%s%u outlying points left out (a minority of their groups)",
					len ? "; " : "", v->outliers);
	if (v->background > 0 && len < sizeof v->note)
		snprintf(v->note + len, sizeof v->note - len,
			 "%sbackground of %.4g events/s subtracted (up to %.0f %% of a point's count)",
			 len ? "; " : "", v->background, v->background_share * 100);
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
	v->hypothesis = ev->hyp_q;
	v->hypothesis_scale = ev->hyp_scale;
	v->decomp_error = v->decomp_r2 = NAN;
	for (uint32_t k = 0; k < ev->ncells; k++)
		v->max_rate = fmax(v->max_rate, a->cells[ev->cells[k]].rate);
	/* the config's hypothesis is the sum over the boxes (a channel of eight sees an eighth of the
	   lines): a box judged alone would fail it, or pass by chance; its share is in boxes.csv */
	if (ev->box_of >= 0) {
		v->cls = VC_BOX;
		clear_quantity(v);
		v->r2 = NAN;
		snprintf(v->note, sizeof v->note,
			 "one of %u boxes of %s, judged as their sum (its share: boxes.csv)",
			 a->events[ev->box_of].nboxes, a->events[ev->box_of].name);
		goto out;
	}
	if (!ev->rows[RS_OK]) {
		not_measured(ev, v);
		goto out;
	}
	/* a counter whose readings are mostly impossible is not read right: the few left (the points where
	   a negated count is 0) would judge it as never counting */
	if (ev->rejected > ev->rows[RS_OK]) {
		v->cls = VC_NOT_MEASURED;
		snprintf(v->note, sizeof v->note,
			 "most of its readings with status ok were impossible: the counter was not read "
			 "right");
		goto out;
	}
	if (collect(a, ev, 0, &S, v))
		goto oom;
	if (count_points(&S) < THR_MIN_POINTS && v->noisy_points) {
		free(S.s), free(S.pred), free(S.tmp), free(S.tmp2);
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
		clear_quantity(v);
		v->points = count_points(&S);
		snprintf(v->note, sizeof v->note, "never counts (at most %.0f per measurement)", ymax);
		goto out;
	}
	try_sum(a, &S, v, single_quantity(a, ev, &S, v));
	require_judged_points(v);
	goto out;
oom:
	rc = err_set(e, E_RUNTIME, "out of memory analysing event %s", ev->name);
out:
	add_notes(ev, v);
	free(S.s);
	free(S.pred);
	free(S.tmp);
	free(S.tmp2);
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
