/* verdict.h — what one event measures, from its counts and the known volumes (docs/verdicts.md).
 *
 * For every quantity q (the v_* volumes) the ratios count/q of the points (median of their
 * repetitions) are grouped by level and prefetch state; a minority of outlying points is left out of
 * each group, and a background that grows with time may be subtracted. A group is consistent when its
 * ratios agree within THR_APPROX_ERROR and holds when they also lie within it of a simple scale. The
 * quantity whose holding (else consistent) groups cover the most points wins; a linear fit
 * count = a*q + b over them gives R^2. A forward-stepwise non-negative least-squares fit over several
 * quantities (and over lines split by level) names events that count a sum, such as loads + stores. */
#ifndef PMUCHECK_VERDICT_H
#define PMUCHECK_VERDICT_H

#include "agg.h"

enum verdict_class {
	VC_EXACT,
	VC_APPROXIMATE,
	VC_PREFETCH_BLIND,
	VC_OVERCOUNTS,
	VC_UNDERCOUNTS,
	VC_UNRELATED,
	VC_NOT_MEASURED,
	VC_BOX, /* one box of a config's box wildcard: not judged alone, its sum is (agg.h box_of) */
	VC_COUNT
};
extern const char *const verdict_class_names[VC_COUNT];

struct verdict {
	uint32_t event;
	enum verdict_class cls;
	int quantity;                /* enum raw_quantity, or -1 for a sum (quantity_text) or none */
	char quantity_text[200];     /* "lines_read", "loads + stores"; empty when not measured */
	double scale;                /* nearest simple value; 0 when none */
	double measured;             /* median count/quantity over the groups where it holds (fit slope
	                            when it holds nowhere) */
	double slope, intercept, r2; /* count - background x t = slope x q + intercept */
	double background;           /* events/s of time-proportional background subtracted */
	double background_share;     /* the largest share of a judged point it explains */
	unsigned outliers;           /* points of the judged groups left out as outliers */
	int hypothesis;              /* the config's expected quantity (-1: none recorded) */
	double hypothesis_scale;
	double error;      /* largest |median/scale - 1| of a holding group */
	double spread;     /* largest (p90 - p10) / 2 / median of a holding group */
	unsigned levels;   /* bit (1 << enum point_level) where it holds */
	unsigned prefetch; /* bit (1 << enum pf_state) where it holds */
	/* VERDICT_GROUP(level, prefetch state) for each group it holds in, of which levels and prefetch are the
	   two sides: holding at L2 and DRAM, prefetchers on and off, may still leave DRAM with them on out */
	unsigned long groups;
	double max_rate;                        /* events/s, the highest of its points' (agg.h rate) */
	unsigned points;                        /* points used for the verdict */
	unsigned noisy_points, boundary_points; /* points left out */
	int noisy_only;          /* no clean point: the verdict rests on points flagged noisy */
	char decomposition[200]; /* NNLS terms, e.g. "lines_read@L2 + lines_read@DRAM" */
	double decomp_error, decomp_r2;
	char split[160]; /* the split groups of the quantity: "DRAM/on 13 of 42" (verdict_eval.c) */
	/* an over- or undercount's consistent groups that count the other way: "L3/on, DRAM/on" */
	char opposite[160];
	/* the groups where the quantity is 0 at every point and the event counts what it does not explain:
	   "L1/on 6 of 6" (verdict_eval.c zero_groups) */
	char unexplained[160];
	char note[400]; /* why not measured, or what else the reader should know */
};

/* The bit of one group (enum point_level, enum pf_state) in verdict.groups and hypo_seen.groups. */
#define VERDICT_GROUP(level, pf) (1ul << ((level)*PF_COUNT + (pf)))

/* Fills v for event index `event` of a. Returns 0 or E_RUNTIME (out of memory). */
int verdict_event(const struct agg *a, uint32_t event, struct verdict *v, struct err *e);

/* "L1, L2, DRAM" for a level mask; "on", "off", "both" ... for a prefetch mask. */
void verdict_levels_text(unsigned levels, char *buf, size_t len);
const char *verdict_prefetch_text(unsigned prefetch);

#endif
