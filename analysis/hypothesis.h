/* hypothesis.h — the config's hypothesis for each event (machine.json counters.experiments[].hypotheses,
 * docs/results-format.md) set beside the measured verdict: "as configured", "contradicts the config:
 * <what differs>" (scope, quantity, scale, levels, prefetch), or "no hypothesis" for an event the config does
 * not describe (--events, the software events of a plain run). */
#ifndef PMUCHECK_HYPOTHESIS_H
#define PMUCHECK_HYPOTHESIS_H

#include "verdict.h"

struct hypo {
	char event[256]; /* raw.csv's name of the row it is for (a box wildcard: the summed row) */
	char name[128];  /* the config's [event NAME] */
	int quantity;    /* enum raw_quantity, or MACHINE_CYCLES */
	double scale;
	unsigned levels;   /* bits 1 << enum point_level where it should hold (placements applied to DRAM) */
	unsigned prefetch; /* bits 1 << PF_ON, PF_OFF */
	int scope;         /* enum machine_scope: MSCOPE_NONE where machine.json does not say */
};

struct hypo_set {
	struct hypo *h;
	unsigned n;
};

enum hypo_agreement { HYPO_NONE, HYPO_AS_CONFIGURED, HYPO_CONTRADICTS, HYPO_NOT_COMPARED, HYPO_COUNT };
/* "no hypothesis", "as configured", "contradicts the config", "not compared" */
extern const char *const hypo_agreement_names[HYPO_COUNT];

/* What the points of an event measured: the levels and prefetch states it has counts in, whether
   the configured volume equals the verdict's on every such point (then the data cannot tell them apart),
   and the scope raw.csv gives its row (MSCOPE_CORE for "thread", MSCOPE_SOCKET, MSCOPE_NONE unknown). */
struct hypo_seen {
	unsigned levels, prefetch;
	int same_volumes;
	int scope;
	int unknown_quantity; /* the configured volume has no column in this raw.csv (older than it) */
	unsigned long groups; /* VERDICT_GROUP(level, prefetch state) of each such point */
};

/* The hypotheses machine.json recorded (machine_read), in the analysis' levels and prefetch states. */
int hypo_build(const struct machine *m, struct hypo_set *s, struct err *e);
void hypo_free(struct hypo_set *s);
const struct hypo *hypo_find(const struct hypo_set *s, const char *event);

void hypo_seen(const struct agg *a, const struct verdict *v, const struct hypo *h, struct hypo_seen *seen);
/* Compares h (NULL: none) with v; why gets "" or what differs ("scale: configured 2, measured 1"). */
enum hypo_agreement hypo_compare(const struct hypo *h, const struct verdict *v, const struct hypo_seen *seen,
				 char *why, size_t len);
/* The hypothesis as the tables show it: "lines_read * 0.125 (L2, L3, DRAM; prefetch off)", "" for NULL. */
void hypo_text(const struct hypo *h, char *buf, size_t len);
/* The table cell: "as configured", "contradicts the config: ...", "no hypothesis", "not compared: ...". */
enum hypo_agreement hypo_check(const struct agg *a, const struct hypo_set *s, const struct verdict *v,
			       char *buf, size_t len);

#endif
