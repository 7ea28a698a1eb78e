/* hypothesis.c — the config's hypotheses read from machine.json and compared with the verdicts. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hypothesis.h"
#include "thresholds.h"

const char *const hypo_agreement_names[HYPO_COUNT] = {"no hypothesis", "as configured",
						      "contradicts the config", "not compared"};

#define BIT(x) (1u << (x))
#define CACHE_LEVELS (BIT(LV_L1) | BIT(LV_L2) | BIT(LV_L3))

/* The words cfg_json.c writes, as point levels and prefetch states. */
struct word {
	const char *word;
	unsigned bits;
};
static const struct word level_words[] = {
	{"L1", BIT(LV_L1)}, {"L2", BIT(LV_L2)}, {"L3", BIT(LV_L3)}, {"DRAM", BIT(LV_DRAM)}, {0}};
static const struct word placement_words[] = {
	{"local", BIT(LV_DRAM)}, {"remote", BIT(LV_DRAM_REMOTE)}, {"interleave", BIT(LV_DRAM_OTHER)}, {0}};
static const struct word prefetch_words[] = {{"on", BIT(PF_ON)}, {"off", BIT(PF_OFF)}, {0}};

static int words(json_t *arr, const char *key, const char *event, unsigned *bits, const struct word *t,
		 const char *path, struct err *e)
{
	json_t *w;
	size_t i;

	*bits = 0;
	if (!json_is_array(arr))
		return err_set(e, E_USAGE, "%s: hypothesis '%s': member '%s' is not a list of words", path,
			       event, key);
	json_array_foreach(arr, i, w)
	{
		const struct word *k = t;
		while (k->word && (!json_is_string(w) || strcmp(json_string_value(w), k->word)))
			k++;
		if (!k->word)
			return err_set(e, E_USAGE, "%s: hypothesis '%s': '%s' holds an unknown word", path,
				       event, key);
		*bits |= k->bits;
	}
	return 0;
}

static int quantity(const char *name)
{
	for (int q = 0; name && q < RQ_COUNT; q++)
		if (!strcmp(name, raw_quantity_names[q]))
			return q;
	return name && !strcmp(name, "cycles") ? HYPO_CYCLES : -1;
}

static int parse_one(const char *event, json_t *o, struct hypo *h, const char *path, struct err *e)
{
	unsigned levels, places;
	json_t *scale = json_object_get(o, "scale");
	int rc;

	memset(h, 0, sizeof *h);
	snprintf(h->event, sizeof h->event, "%s", event);
	snprintf(h->name, sizeof h->name, "%s", json_string_value(json_object_get(o, "name")) ?: "");
	h->quantity = quantity(json_string_value(json_object_get(o, "quantity")));
	if (h->quantity < 0)
		return err_set(e, E_USAGE, "%s: hypothesis '%s': 'quantity' is not a volume or cycles", path,
			       event);
	if (!json_is_number(scale) || json_number_value(scale) < 0)
		return err_set(e, E_USAGE, "%s: hypothesis '%s': 'scale' is not a number >= 0", path, event);
	h->scale = json_number_value(scale);
	if ((rc = words(json_object_get(o, "levels"), "levels", event, &levels, level_words, path, e)) ||
	    (rc = words(json_object_get(o, "placement"), "placement", event, &places, placement_words, path,
			e)) ||
	    (rc = words(json_object_get(o, "prefetch"), "prefetch", event, &h->prefetch, prefetch_words, path,
			e)))
		return rc;
	/* DRAM is where the placements say; a hypothesis for every level covers the kernels whose traffic
	   does not depend on the level (touch) too */
	h->levels = (levels & CACHE_LEVELS) | (levels & BIT(LV_DRAM) ? places : 0);
	if ((levels & (CACHE_LEVELS | BIT(LV_DRAM))) == (CACHE_LEVELS | BIT(LV_DRAM)))
		h->levels |= BIT(LV_ANY);
	return 0;
}

int hypo_read(const char *path, struct hypo_set *s, struct err *e)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *x, *hyps, *o;
	size_t i;
	const char *event;
	int rc = 0;

	memset(s, 0, sizeof *s);
	if (!root)
		return err_set(e, E_USAGE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	json_array_foreach(json_object_get(json_object_get(root, "counters"), "experiments"), i, x)
	{
		hyps = json_object_get(x, "hypotheses");
		json_object_foreach(hyps, event, o)
		{
			struct hypo *grown;
			if (hypo_find(s, event)) /* every experiment of a run takes them from one config */
				continue;
			grown = realloc(s->h, (s->n + 1) * sizeof *s->h);
			if (!grown) {
				rc = err_set(e, E_RUNTIME, "out of memory");
				goto out;
			}
			s->h = grown;
			if ((rc = parse_one(event, o, &s->h[s->n], path, e)))
				goto out;
			s->n++;
		}
	}
out:
	json_decref(root);
	if (rc)
		hypo_free(s);
	return rc;
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
	seen->same_volumes = vq >= 0 && vq < RQ_COUNT && hq >= 0 && hq < RQ_COUNT;
	for (uint32_t k = 0; k < ev->ncells; k++) {
		const struct agg_cell *c = &a->cells[ev->cells[k]];
		const struct agg_point *p = &a->points[c->point];
		if (!c->n || p->level == LV_EXCLUDED)
			continue;
		seen->levels |= BIT(p->level);
		seen->prefetch |= BIT(p->pf);
		if (h && (h->levels & BIT(p->level)) && seen->same_volumes)
			seen->same_volumes = p->v[vq] == p->v[hq];
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

enum hypo_agreement hypo_compare(const struct hypo *h, const struct verdict *v, const struct hypo_seen *seen,
				 char *why, size_t len)
{
	unsigned lv = h ? h->levels & seen->levels : 0, pf = h ? h->prefetch & seen->prefetch : 0;
	char a[96], b[96];

	why[0] = '\0';
	if (!h)
		return HYPO_NONE;
	if (v->cls == VC_NOT_MEASURED) {
		snprintf(why, len, "the event was not measured");
		return HYPO_NOT_COMPARED;
	}
	if (h->quantity == HYPO_CYCLES) {
		snprintf(why, len, "a cycles hypothesis is judged against the clock in stalls.md");
		return HYPO_NOT_COMPARED;
	}
	if (!lv) {
		levels_text(h->levels, a, sizeof a);
		snprintf(why, len, "no point was measured at its levels (%s)", a);
		return HYPO_NOT_COMPARED;
	}
	/* prefetchers not switched run as the machine had them, which is on; a hypothesis for "off" only
	   is not tested by them */
	if (h->prefetch == BIT(PF_OFF) && !(seen->prefetch & BIT(PF_OFF))) {
		snprintf(why, len, "it is for the prefetchers off, and no point was measured with them off");
		return HYPO_NOT_COMPARED;
	}
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
	char lv[96];

	if (!h) {
		buf[0] = '\0';
		return;
	}
	if ((h->levels & BIT(LV_ANY)) && (h->levels & BIT(LV_DRAM_REMOTE)))
		snprintf(lv, sizeof lv, "all levels");
	else
		levels_text(h->levels & ~BIT(LV_ANY), lv, sizeof lv);
	snprintf(buf, len, "%s * %g (%s; prefetch %s)",
		 h->quantity == HYPO_CYCLES ? "cycles" : raw_quantity_names[h->quantity], h->scale, lv,
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
