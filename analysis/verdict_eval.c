/* verdict_eval.c — how well count - background x time = scale x predictor holds, per level x prefetch
 * group: ratios with a minority of outlying points left out, median, spread, the simple scale most
 * groups agree on, R^2 over the points that agree, and whether prefetching hides counts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "stats.h"
#include "thresholds.h"
#include "verdict_int.h"

static double corrected(const struct samples *S, size_t i, double bg)
{
	return S->s[i].y - bg * S->s[i].t;
}

/* Whether a count y over t seconds, at a point the predictor gives nothing, is one it does not explain:
   above the noise floor and at `floor` events per second or more (THR_UNEXPLAINED_RATE of a median rate). */
static int unexplained_count(double y, double t, double floor)
{
	return y > THR_NOISE_COUNTS && t > 0 && y / t > floor;
}

/* Ratios of bucket b into tmp, sorted; returns how many. A point the predictor gives nothing (pred 0)
   has no ratio and is left out of every fit, but where the event counts there, above the noise floor and
   at THR_UNEXPLAINED_RATE of the rate of the bucket's other points or more, the predictor does not explain
   it: *unexplained counts those points, which lie off any ratio (an event counted on one of two threads
   is chase_accesses on the one-thread chases, and counts the lines of every other kernel, whose chase
   accesses are 0). A background (socket traffic at a rate the kernels' own dwarfs) is no such count.
   rates is scratch space. */
static size_t bucket_ratios(const struct samples *S, int b, double bg, double *tmp, double *rates,
			    size_t *unexplained)
{
	size_t k = 0, nr = 0;
	double floor;

	*unexplained = 0;
	for (size_t i = S->start[b]; i < S->start[b + 1]; i++)
		if (S->pred[i] > 0) {
			tmp[k++] = corrected(S, i, bg) / S->pred[i];
			if (S->s[i].t > 0)
				rates[nr++] = corrected(S, i, bg) / S->s[i].t;
		}
	floor = nr ? THR_UNEXPLAINED_RATE * stats_median_select(rates, nr) : INFINITY;
	for (size_t i = S->start[b]; k && i < S->start[b + 1]; i++) {
		double y = corrected(S, i, bg);
		*unexplained += !(S->pred[i] > 0) && unexplained_count(y, S->s[i].t, floor);
	}
	stats_sort(tmp, k);
	return k;
}

/* The buckets where the predictor is 0 at every point have no ratio, and bucket_ratios judges none of their
   points, so an event could hold where the predictor gives something and count at will elsewhere: pages
   held on the touch points (level "any") whatever an event counted at every load point, whose pages are 0.
   Their points are judged as bucket_ratios judges such points, against the median rate of every point
   where the predictor gives something (they have none of their own), beyond the judged groups' fitted
   constant a point (ev->intercept, Larysch's offset of a reading): a bucket where more than
   THR_OUTLIER_SHARE of them count what it does not explain is marked (ev->unexplained), with how many.
   A thread's counter alone: a socket's sees the node's other traffic besides the kernels' (the OS zeroing a
   touched page) and may read an offset a reading (Larysch's IMC offset, the fit's intercept), which at the
   points of no volume is all it counts. */
static void zero_groups(const struct samples *S, double bg, struct eval *ev)
{
	size_t nr = 0;
	double floor;

	if (S->socket)
		return;
	for (size_t i = 0; i < S->n; i++)
		if (S->pred[i] > 0 && S->s[i].t > 0)
			S->tmp2[nr++] = corrected(S, i, bg) / S->s[i].t;
	if (!nr)
		return;
	floor = THR_UNEXPLAINED_RATE * stats_median_select(S->tmp2, nr);
	for (int b = 0; b < NBUCKET; b++) {
		size_t n = S->start[b + 1] - S->start[b], off = 0;
		if (!n || ev->evaluated[b])
			continue;
		for (size_t i = S->start[b]; i < S->start[b + 1]; i++) {
			off += unexplained_count(corrected(S, i, bg) - fmax(ev->intercept, 0), S->s[i].t,
						 floor);
		}
		if ((double)off > THR_OUTLIER_SHARE * (double)n) {
			ev->unexplained |= 1ul << b;
			ev->zero_off[b] = (unsigned)off;
			ev->zero_of[b] = (unsigned)n;
		}
	}
}

/* A bucket's ratios around their median: the band beyond which a point is an outlier (further than
   THR_OUTLIER_SIGMAS robust standard deviations, 1.4826 x the median absolute deviation, and than
   THR_OUTLIER_MIN of the median), and median and spread of the points inside it. Only a minority
   (THR_OUTLIER_SHARE of the points) may be left out; a bucket with more is *split*: two populations, not
   one with a few odd points. It is judged whole, so its spread shows the disagreement (a split bucket
   can never pass the exact spread: more than a quarter of its points lie at least 10 % off on one side
   or the other, which p10 or p90 catches), and the verdict's note names it. */
struct band {
	double lo, hi, median, spread;
	size_t out;         /* points with a ratio left out as outliers */
	size_t unexplained; /* points the predictor gives nothing where the event counts (bucket_ratios) */
	size_t split;       /* points off the median in a split bucket; 0 when it is not split */
};

/* The band of the n ratios v and of `unexplained` points that lie off any ratio: those are outliers as
   the others, a minority left out, and in a bucket judged whole they leave it no finite spread. */
static void band_of(const double *v, size_t n, size_t unexplained, double *dev, struct band *bd)
{
	double m = fit_quantile_sorted(v, n, 0.5), thr;
	size_t lo = 0, hi = n, all = n + unexplained;

	bd->lo = -INFINITY;
	bd->hi = INFINITY;
	bd->out = bd->split = 0;
	bd->unexplained = unexplained;
	if (m > 0) {
		for (size_t i = 0; i < n; i++)
			dev[i] = fabs(v[i] / m - 1);
		thr = fmax(THR_OUTLIER_SIGMAS * 1.4826 * stats_median_select(dev, n), THR_OUTLIER_MIN);
		while (lo < n && v[lo] < m * (1 - thr))
			lo++;
		while (hi > lo && v[hi - 1] > m * (1 + thr))
			hi--;
		if (all >= THR_OUTLIER_MIN_POINTS &&
		    (double)(all - (hi - lo)) <= THR_OUTLIER_SHARE * (double)all) {
			bd->lo = m * (1 - thr);
			bd->hi = m * (1 + thr);
			bd->out = n - (hi - lo);
		} else {
			bd->split = all >= THR_OUTLIER_MIN_POINTS ? all - (hi - lo) : 0;
			lo = 0;
			hi = n;
		}
	}
	bd->median = fit_quantile_sorted(v + lo, hi - lo, 0.5);
	bd->spread = (fit_quantile_sorted(v + lo, hi - lo, 0.9) - fit_quantile_sorted(v + lo, hi - lo, 0.1)) /
		2 / bd->median;
	if (unexplained && !isfinite(bd->lo))
		bd->spread = INFINITY;
}

/* Ratios that agree within the approximate error, and are large enough to be a count at all (a
   stray count per million lines is no relation). */
static int consistent(const struct band *bd)
{
	return bd->median >= fit_simple_values[0] * (1 - THR_APPROX_ERROR) && bd->spread <= THR_APPROX_ERROR;
}

/* Whether the prefetch-off group b holds a scale that the prefetch-on group of its level counts more than
   THR_APPROX_ERROR below, each group of THR_MIN_POINTS samples at least (one disturbed point is no such
   group, on either side): the prefetcher fetched lines the event does not see (prefetch_blind). */
static int blind_off(const struct eval *ev, const double *bs, const size_t *bn, int b)
{
	int on = bucket_level(b) * PF_COUNT + PF_ON;

	return bucket_pf(b) == PF_OFF && bs[b] > 0 && bn[b] >= THR_MIN_POINTS && ev->evaluated[on] &&
		bn[on] >= THR_MIN_POINTS && ev->median[on] < bs[b] * (1 - THR_APPROX_ERROR);
}

/* The scale held by the most points; ties go to the scale prefetch-off groups hold (the truth
   without prefetch traffic), then to the scale nearest 1. Where a prefetch-off group holds a scale its
   level's prefetch-on group counts less than, only scales some prefetch-off group holds compete, however
   many points hold another: a scale only prefetch-on groups hold is how much of the stream the prefetcher
   fetched (a DRAM event that sees 1 line per line with them off and 1/2 with them on was called exact at
   1/2 where fewer points were measured off, DEMAND_FEW_OFF in tests/tools/events.h), where one an off
   group holds at a level the prefetcher did not change is the event's (1/2 per line at L1-L3 both ways). */
static double choose_scale(const struct eval *ev, const double *bs, const size_t *bn)
{
	double best = 0, best_score = 0;
	int best_off = 0, blind = 0;

	for (int k = 0; k < NBUCKET; k++)
		blind |= blind_off(ev, bs, bn, k);
	for (int k = 0; k < NBUCKET; k++) {
		double s = bs[k], score = 0;
		int off = 0;
		if (!(s > 0) || (blind && bucket_pf(k) != PF_OFF))
			continue;
		for (int b = 0; b < NBUCKET; b++) {
			if (!ev->evaluated[b] || bs[b] != s)
				continue;
			score += (double)bn[b];
			off |= bucket_pf(b) == PF_OFF;
		}
		if (score > best_score || (score == best_score && off > best_off) ||
		    (score == best_score && off == best_off && fabs(log(s)) < fabs(log(best)))) {
			best = s;
			best_score = score;
			best_off = off;
		}
	}
	return best;
}

/* Least squares over the points of the buckets in mask where the predictor gives something that lie
   inside their bucket's band (every such point when bd is NULL); returns how many. */
static unsigned fit_buckets(const struct samples *S, unsigned long mask, const struct band *bd, double bg,
			    double *a, double *b, double *r2)
{
	struct fit_line f = {0};

	for (int k = 0; k < NBUCKET; k++)
		if (mask & (1ul << k))
			for (size_t i = S->start[k]; i < S->start[k + 1]; i++) {
				double y = corrected(S, i, bg), r;
				if (!(S->pred[i] > 0))
					continue;
				r = y / S->pred[i];
				if (!bd || (r >= bd[k].lo && r <= bd[k].hi))
					fit_line_add(&f, S->pred[i], y);
			}
	fit_line_solve(&f, a, b, r2);
	return (unsigned)f.n;
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

/* Median ratio over the inside points of the buckets in mask, the points and outliers there, and the
   largest share of a point's count the background makes. */
static void summarise(const struct samples *S, unsigned long mask, const struct band *bd, double bg,
		      struct eval *ev)
{
	size_t k = 0;
	uint32_t last = UINT32_MAX;

	ev->outliers = ev->points = 0; /* of mask alone: a call replaces what an earlier one found */
	ev->bg_share = 0;
	for (int b = 0; b < NBUCKET; b++) {
		if (!(mask & (1ul << b)))
			continue;
		ev->outliers += (unsigned)(bd[b].out + bd[b].unexplained);
		for (size_t i = S->start[b]; i < S->start[b + 1]; i++) {
			double r;
			if (!(S->pred[i] > 0))
				continue;
			r = corrected(S, i, bg) / S->pred[i];
			if (r < bd[b].lo || r > bd[b].hi)
				continue;
			S->tmp[k++] = r;
			if (bg > 0 && S->s[i].y > 0)
				ev->bg_share = fmax(ev->bg_share, bg * S->s[i].t / S->s[i].y);
			ev->points += S->s[i].point != last;
			last = S->s[i].point;
		}
	}
	ev->measured = k ? stats_median_select(S->tmp, k) : NAN;
}

void verdict_evaluate(const struct samples *S, double forced, double hyp, double bg, struct eval *ev)
{
	double bs[NBUCKET] = {0};
	struct band bd[NBUCKET];
	size_t bn[NBUCKET] = {0}, unexplained;
	unsigned long mask;

	memset(ev, 0, sizeof *ev);
	ev->background = bg;
	for (int b = 0; b < NBUCKET; b++) {
		bd[b] = (struct band){.lo = -INFINITY, .hi = INFINITY, .median = NAN, .spread = NAN};
		bn[b] = bucket_ratios(S, b, bg, S->tmp, S->tmp2, &unexplained);
		if (!bn[b])
			continue;
		ev->evaluated[b] = 1;
		band_of(S->tmp, bn[b], unexplained, S->tmp2, &bd[b]);
		ev->median[b] = bd[b].median;
		ev->split_off[b] = (unsigned)bd[b].split;
		ev->split_of[b] = (unsigned)(bn[b] + unexplained);
		if (!consistent(&bd[b]))
			continue;
		ev->consistent |= 1ul << b;
		ev->consistent_samples += bn[b] - bd[b].out;

		bs[b] = forced > 0 ? forced : fit_nearest_simple_or(bd[b].median, hyp);
		if (fabs(bd[b].median / bs[b] - 1) > THR_APPROX_ERROR)
			bs[b] = 0;
	}
	ev->global_n = fit_buckets(S, ~0ul, NULL, bg, &ev->slope, &ev->intercept, &ev->global_r2);
	ev->s = choose_scale(ev, bs, bn);
	for (int b = 0; b < NBUCKET; b++) {
		if (!ev->evaluated[b] || bs[b] != ev->s || ev->s <= 0)
			continue;
		ev->held |= 1ul << b;
		ev->held_samples += bn[b] - bd[b].out;
		ev->error = fmax(ev->error, fabs(bd[b].median / ev->s - 1));
		ev->spread = fmax(ev->spread, bd[b].spread);
	}
	/* Held somewhere: judged where it holds. Nowhere: judged where its ratio is at least consistent
	   (an event that counts 80 % of the DRAM lines, and only there). */
	mask = ev->held ? ev->held : ev->consistent;
	if (!mask)
		return;
	if (!ev->held) {
		/* A direction per group (docs/verdicts.md): where consistent groups lie on both sides of the
		   scale (the config's, else the simple value nearest the median of all their points), the side
		   of that median is judged against that same scale (direction_scale: the kept side's median
		   alone could be nearest another value and turn the direction), and the others are named, not
		   listed as counting that way (1.3 per line at L1 and L2 is no overcount at L3 and DRAM, where
		   it counts 0.75). */
		summarise(S, mask, bd, bg, ev);
		ev->direction_scale = hyp > 0 ? hyp : fit_nearest_simple(ev->measured);
		for (int b = 0; b < NBUCKET; b++)
			if ((mask & (1ul << b)) &&
			    (ev->median[b] > ev->direction_scale) != (ev->measured > ev->direction_scale))
				ev->opposite |= 1ul << b;
		if (ev->opposite == mask)
			ev->opposite = 0;
		mask &= ~ev->opposite; /* summarised again below, over the judged side */
		for (int b = 0; b < NBUCKET; b++)
			if (mask & (1ul << b))
				ev->spread = fmax(ev->spread, bd[b].spread);
	}
	ev->judged = mask;
	summarise(S, mask, bd, bg, ev);
	if (!ev->held)
		ev->error = NAN;
	fit_buckets(S, mask, bd, bg, &ev->slope, &ev->intercept, &ev->r2);
	zero_groups(S, bg, ev);
	ev->prefetch_blind = ev->held && prefetch_blind(ev);
}
