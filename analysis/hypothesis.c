/* hypothesis.c — the config's hypotheses read from machine.json and compared with the verdicts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hypothesis.h"
#include "thresholds.h"

const char *const hypo_agreement_names[HYPO_COUNT] = {"no hypothesis", "as configured",
						      "contradicts the config", "not compared"};

#define BIT(x) (1u << (x))
#define CACHE_LEVELS (BIT(LV_L1) | BIT(LV_L2) | BIT(LV_L3))

/* A hypothesis of machine.json in the analysis' terms: DRAM is where the placements say, and a
   hypothesis for every level covers the kernels whose traffic does not depend on the level (touch). */
static void from_machine(const struct machine_hypo *mh, struct hypo *h)
{
	static const unsigned place_levels[] = {[MP_LOCAL] = BIT(LV_DRAM),
						[MP_REMOTE] = BIT(LV_DRAM_REMOTE),
						[MP_INTERLEAVE] = BIT(LV_DRAM_OTHER)};
	unsigned places = 0;

	memset(h, 0, sizeof *h);
	snprintf(h->event, sizeof h->event, "%s", mh->event);
	snprintf(h->name, sizeof h->name, "%s", mh->name);
	h->quantity = mh->quantity;
	h->scale = mh->scale;
	for (unsigned p = 0; p < sizeof place_levels / sizeof place_levels[0]; p++)
		if (mh->placement & BIT(p))
			places |= place_levels[p];
	h->levels = (mh->levels & CACHE_LEVELS) | (mh->levels & LEVEL_BIT(LEVEL_DRAM) ? places : 0);
	if ((mh->levels & (CACHE_LEVELS | BIT(LV_DRAM))) == (CACHE_LEVELS | BIT(LV_DRAM)))
		h->levels |= BIT(LV_ANY);
	h->prefetch = (mh->prefetch & BIT(MPF_ON) ? BIT(PF_ON) : 0) |
		(mh->prefetch & BIT(MPF_OFF) ? BIT(PF_OFF) : 0);
	h->scope = mh->scope;
}

int hypo_build(const struct machine *m, struct hypo_set *s, struct err *e)
{
	memset(s, 0, sizeof *s);
	if (m->nhypo && !(s->h = calloc(m->nhypo, sizeof *s->h)))
		return err_set(e, E_RUNTIME, "out of memory");
	for (s->n = 0; s->n < m->nhypo; s->n++)
		from_machine(&m->hypo[s->n], &s->h[s->n]);
	return 0;
}

void hypo_free(struct hypo_set *s)
{
	free(s->h);
	memset(s, 0, sizeof *s);
}

const struct hypo *hypo_find(const struct hypo_set *s, const char *event)
{
	for (unsigned i = 0; s && i < s->n; i++)
		if (!strcmp(s->h[i].event, event))
			return &s->h[i];
	return NULL;
}

void hypo_seen(const struct agg *a, const struct verdict *v, const struct hypo *h, struct hypo_seen *seen)
{
	const struct agg_event *ev = &a->events[v->event];
	int vq = v->quantity, hq = h ? h->quantity : -1;

	memset(seen, 0, sizeof *seen);
	seen->scope = !strcmp(ev->scope, "socket") ? MSCOPE_SOCKET
		: !strcmp(ev->scope, "thread")     ? MSCOPE_CORE
						   : MSCOPE_NONE;
	seen->unknown_quantity = hq >= 0 && hq < RQ_COUNT && (a->unknown_q & (1u << hq));
	seen->same_volumes = vq >= 0 && vq < RQ_COUNT && hq >= 0 && hq < RQ_COUNT;
	for (uint32_t k = 0; k < ev->ncells; k++) {
		const struct agg_cell *c = &a->cells[ev->cells[k]];
		const struct agg_point *p = &a->points[c->point];
		/* the points the verdict rests on (verdict.c collect): a noisy one only where it rests on
		   noisy points alone, or a level all of whose points were noisy would count as judged */
		if (!c->n || p->level == LV_EXCLUDED || (p->noisy && !v->noisy_only))
			continue;
		if (h && (h->levels & BIT(p->level)) && seen->same_volumes)
			seen->same_volumes = p->v[vq] == p->v[hq];
		/* a point without the configured volume tests nothing of it (touch reads no demand lines) */
		if (hq >= 0 && hq < RQ_COUNT && !(p->v[hq] > 0))
			continue;
		seen->levels |= BIT(p->level);
		seen->prefetch |= BIT(p->pf);
		seen->groups |= VERDICT_GROUP(p->level, p->pf);
	}
}

static void levels_text(unsigned bits, char *buf, size_t len)
{
	verdict_levels_text(bits, buf, len);
}

/* Appends "; " and a formatted part to why. */
static void add(char *why, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(why);

	if (n + 2 < len)
		snprintf(why + n, len - n, "%s", n ? "; " : "");
	n = strlen(why);
	snprintf(why + n, len - n, fmt, a, b);
}

/* A volume the run could not compare: "not compared: <reason>", unless the scope already contradicts the
   config, which the data need not be judged for. */
static enum hypo_agreement not_compared(char *why, size_t len, const char *reason)
{
	if (!*why) {
		snprintf(why, len, "%s", reason);
		return HYPO_NOT_COMPARED;
	}
	add(why, len, "volume not compared: %s%s", reason, "");
	return HYPO_CONTRADICTS;
}

enum hypo_agreement hypo_compare(const struct hypo *h, const struct verdict *v, const struct hypo_seen *seen,
				 char *why, size_t len)
{
	unsigned lv = h ? h->levels & seen->levels : 0, pf = h ? h->prefetch & seen->prefetch : 0;
	/* the words of each side's file: the config's "core", raw.csv's "thread" */
	static const char *const configured[] = {[MSCOPE_CORE] = "core", [MSCOPE_SOCKET] = "socket"},
				 *const counted[] = {[MSCOPE_CORE] = "thread", [MSCOPE_SOCKET] = "socket"};
	char a[96], b[96], r[160];

	why[0] = '\0';
	if (v->cls == VC_BOX) { /* the config's hypothesis is its sum's */
		snprintf(why, len, "a box of a summed event, whose row is compared");
		return HYPO_NOT_COMPARED;
	}
	if (!h)
		return HYPO_NONE;
	if (v->cls == VC_NOT_MEASURED) {
		snprintf(why, len, "the event was not measured");
		return HYPO_NOT_COMPARED;
	}
	/* a socket's count judged as one core's (or the reverse) is another event than the config's, whatever
	   its volume does */
	if (h->scope != MSCOPE_NONE && seen->scope != MSCOPE_NONE && h->scope != seen->scope)
		add(why, len, "scope: configured %s, measured %s", configured[h->scope],
		    counted[seen->scope]);
	if (seen->unknown_quantity) {
		snprintf(r, sizeof r, "raw.csv has no column v_%s (written before that volume)",
			 raw_quantity_names[h->quantity]);
		return not_compared(why, len, r);
	}
	if (h->quantity == MACHINE_CYCLES)
		return not_compared(why, len, "a cycles hypothesis is judged against the clock in stalls.md");
	if (!lv) {
		levels_text(h->levels, a, sizeof a);
		snprintf(r, sizeof r, "no point was measured at its levels (%s)", a);
		return not_compared(why, len, r);
	}
	/* prefetchers not switched run as the machine had them, which is on; a hypothesis for "off" only
	   is not tested by them */
	if (h->prefetch == BIT(PF_OFF) && !(seen->prefetch & BIT(PF_OFF)))
		return not_compared(why, len,
				    "it is for the prefetchers off, and no point was measured with them off");
	if (v->quantity != h->quantity && !seen->same_volumes) {
		add(why, len, "quantity: configured %s, measured %s", raw_quantity_names[h->quantity],
		    v->cls == VC_UNRELATED || !*v->quantity_text ? "none (unrelated)" : v->quantity_text);
		return HYPO_CONTRADICTS; /* the levels and the scale the verdict gives are another volume's */
	}
	if (h->scale > 0 && isfinite(v->measured) && fabs(v->measured / h->scale - 1) > THR_APPROX_ERROR) {
		snprintf(a, sizeof a, "%g", h->scale);
		snprintf(b, sizeof b, "%.4g", v->measured);
		add(why, len, "scale: configured %s, measured %s", a, b);
	}
	if (lv & ~v->levels) {
		levels_text(lv & ~v->levels, a, sizeof a);
		add(why, len, "levels: does not hold at %s%s", a, "");
	}
	if (pf & ~v->prefetch)
		add(why, len, "prefetch: does not hold with the prefetchers %s%s",
		    pf & ~v->prefetch & BIT(PF_ON) ? (pf & ~v->prefetch & BIT(PF_OFF) ? "on or off" : "on")
						   : "off",
		    "");
	/* a group the two sides above do not show: a level where it holds, a state where it holds, but not
	   both together */
	for (int l = 0; l < LV_COUNT; l++)
		for (int f = 0; f < PF_COUNT; f++)
			if ((lv & v->levels & BIT(l)) && (pf & v->prefetch & BIT(f)) &&
			    (seen->groups & ~v->groups & VERDICT_GROUP(l, f)))
				add(why, len, "does not hold at %s with the prefetchers %s",
				    point_level_name((enum point_level)l), pf_names[f]);
	if (*why)
		return HYPO_CONTRADICTS;
	/* what of the hypothesis the run did not test */
	if (seen->levels != BIT(LV_ANY) && (h->levels & ~seen->levels & ~BIT(LV_ANY))) {
		levels_text(h->levels & ~seen->levels & ~BIT(LV_ANY), a, sizeof a);
		add(why, len, "untested at %s%s", a, "");
	}
	if ((h->prefetch & BIT(PF_OFF)) && !(seen->prefetch & BIT(PF_OFF)))
		add(why, len, "prefetchers off untested%s%s", "", "");
	return HYPO_AS_CONFIGURED;
}

void hypo_text(const struct hypo *h, char *buf, size_t len)
{
	char lv[96], scale[32];

	if (!h) {
		buf[0] = '\0';
		return;
	}
	if ((h->levels & BIT(LV_ANY)) && (h->levels & BIT(LV_DRAM_REMOTE)))
		snprintf(lv, sizeof lv, "all levels");
	else
		levels_text(h->levels & ~BIT(LV_ANY), lv, sizeof lv);
	if (h->scale > 0)
		snprintf(scale, sizeof scale, "%g", h->scale);
	else
		snprintf(scale, sizeof scale, "?");
	snprintf(buf, len, "%s * %s (%s; prefetch %s)",
		 h->quantity == MACHINE_CYCLES ? "cycles" : raw_quantity_names[h->quantity], scale, lv,
		 h->prefetch == (BIT(PF_ON) | BIT(PF_OFF)) ? "on or off"
			 : h->prefetch == BIT(PF_ON)       ? "on"
							   : "off");
}

enum hypo_agreement hypo_check(const struct agg *a, const struct hypo_set *s, const struct verdict *v,
			       char *buf, size_t len)
{
	const struct hypo *h = hypo_find(s, a->events[v->event].name);
	struct hypo_seen seen;
	char why[300];
	enum hypo_agreement r;

	hypo_seen(a, v, h, &seen);
	r = hypo_compare(h, v, &seen, why, sizeof why);
	if (r == HYPO_AS_CONFIGURED && *why)
		snprintf(buf, len, "%s (%s)", hypo_agreement_names[r], why);
	else
		snprintf(buf, len, "%s%s%s", hypo_agreement_names[r], *why ? ": " : "", why);
	return r;
}
