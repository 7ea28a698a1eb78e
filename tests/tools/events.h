/* events.h — synthetic events with a known verdict, shared by the unit tests and the rawgen tool.
 * Each comment says what the analysis must conclude. */
#ifndef PMUCHECK_TEST_EVENTS_H
#define PMUCHECK_TEST_EVENTS_H

#include "rawgen.h"

static inline double lines(const struct gen_point *p)
{
	return p->v[RQ_lines_read];
}

/* exact, lines_read, scale 1, all levels, prefetch both. Counts of points flagged noisy are wrong
   on purpose: they must be left out. */
static double ev_lines(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		       const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return lines(p) * (p->noisy ? 1.5 : 1);
}

/* exact, lines_read, scale 1/2 */
static double ev_half(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		      const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(lines(p) / 2);
}

/* prefetch-blind: DRAM lines with prefetchers off; with them on 70 % of the lines come from the
   prefetcher and are not seen */
static double ev_demand(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			const char **why)
{
	(void)rep, (void)st, (void)why;
	if (p->level != 3)
		return floor(gen_uniform(rng) * 4);
	return round(lines(p) * (strcmp(p->prefetch, "off") ? 0.3 : 1));
}

/* prefetch-blind, as DRAM_DEMAND, where the prefetch-off points are fewer than the on ones (here only the
   load kernel's are counted off, as in a run whose other kernels were measured with the prefetchers on
   alone): with them on half the lines come from the prefetcher and are not seen. The on groups' scale 1/2
   then has more points than the off groups' 1, and is the prefetcher's coverage, not the event's scale. */
static double ev_demand_few_off(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
				const char **why)
{
	(void)rep;
	if (!strcmp(p->prefetch, "off") && strcmp(p->kernel, "load")) {
		*st = "not_measured";
		*why = "not counted with the prefetchers off";
		return 0;
	}
	if (p->level != 3)
		return floor(gen_uniform(rng) * 4);
	return round(lines(p) * (strcmp(p->prefetch, "off") ? 0.5 : 1));
}

/* exact, lines_read, scale 1/2 at L1-L3 with the prefetchers on and off, and at DRAM with them on; 1 per line
   at DRAM with them off. The off group at DRAM looks prefetch-blind, but 1/2 is held by off groups where the
   prefetcher changed nothing: it is the event's scale, and the verdict keeps those levels. */
static double ev_half_dram_off_one(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
				   const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(lines(p) * (p->level == 3 && !strcmp(p->prefetch, "off") ? 1 : 0.5));
}

/* exact, lines_read, scale 1, where one point alone was counted with the prefetchers off, at DRAM, disturbed
   to 2 per line (a run that switched them off for one DRAM step): one off point holding a scale its level's
   on group counts below is no prefetch-blind look (it threw every on group's scale 1 away for its 2). The
   point is the first such the generator writes, the same id in every directory it generates. */
static double ev_one_off_point(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			       const char **why)
{
	static unsigned kept = ~0u;

	(void)rep, (void)rng;
	if (!strcmp(p->prefetch, "off")) {
		if (kept == ~0u && p->level == 3)
			kept = p->id;
		if (p->id != kept) {
			*st = "not_measured";
			*why = "not counted with the prefetchers off";
			return 0;
		}
		return lines(p) * 2;
	}
	return lines(p);
}

/* exact, lines_demand_read, scale 1: lines the loads read (MEM_LOAD_RETIRED.*), never the
   write-allocate reads of stores, which lines_read includes */
static double ev_demand_lines(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			      const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return p->v[RQ_lines_demand_read];
}

/* a sum of two levels: lines read from L2 + lines read from DRAM */
static double ev_l2_dram(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			 const char **why)
{
	(void)rep, (void)st, (void)why;
	return p->level == 1 || p->level == 3 ? lines(p) : floor(gen_uniform(rng) * 4);
}

/* approximate: lines with 5 % Gaussian noise */
static double ev_noisy(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		       const char **why)
{
	(void)rep, (void)st, (void)why;
	return round(lines(p) * (1 + 0.05 * gen_normal(rng)));
}

/* a sum of two quantities: loads + stores */
static double ev_mem(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		     const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return p->v[RQ_loads] + p->v[RQ_stores];
}

/* exact lines, but every third point's first repetition was multiplexed (with a count 10x off) */
static double ev_mux(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		     const char **why)
{
	(void)rng;
	if (rep == 0 && p->id % 3 == 0) {
		*st = "multiplexed";
		*why = "time_running 50 % of time_enabled";
		return 10 * lines(p);
	}
	return lines(p);
}

/* exact lines, but every fourth point's last repetition is a reading of the given status (rawgen's times
   for it) with a count 10x off, although its row says ok: the analysis must treat it as multiplexed */
static double lines_but_every_fourth(const struct gen_point *p, unsigned rep, const char **st,
				     const char *status)
{
	if (rep == 2 && p->id % 4 == 0) {
		*st = status;
		return 10 * lines(p);
	}
	return lines(p);
}

/* ... that ran only half its time */
static double ev_unmarked(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			  const char **why)
{
	(void)rng, (void)why;
	return lines_but_every_fourth(p, rep, st, "unmarked");
}

/* ... with a time_enabled of 0 under a time_running that is not: no counter reads so, and an enabled time
   of 0 must not pass for none given */
static double ev_enabled0(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			  const char **why)
{
	(void)rng, (void)why;
	return lines_but_every_fourth(p, rep, st, "enabled0");
}

/* a hardware event on a machine without a PMU: not measured, with the reason */
static double ev_nopmu(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		       const char **why)
{
	(void)p, (void)rep, (void)rng;
	*st = "not_measured";
	*why = "no hardware PMU: perf_event_open ENOENT";
	return 0;
}

/* exact, pages, scale 1 (a software event: a few stray faults in the kernels that touch no page) */
static double ev_faults(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			const char **why)
{
	(void)rep, (void)st, (void)why;
	return p->v[RQ_pages] ? p->v[RQ_pages] : floor(gen_uniform(rng) * 3);
}

/* overcounts lines by 30 % */
static double ev_over(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		      const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(lines(p) * 1.3);
}

/* undercounts lines by 30 % */
static double ev_under(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		       const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(lines(p) * 0.7);
}

/* unrelated: random */
static double ev_random(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			const char **why)
{
	(void)p, (void)rep, (void)st, (void)why;
	return floor(gen_uniform(rng) * 1e6);
}

static double memory_cycles(const struct gen_point *p)
{
	static const double lat_ns[4] = {1.3, 4, 12, 90};

	return lat_ns[p->level < 0 ? 1 : p->level] * GEN_GHZ * p->v[RQ_chase_accesses];
}

/* memory stalls only: the chase's memory latency in every variant */
static double ev_stall_mem(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			   const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return gen_is_chase(p->model) ? round(memory_cycles(p)) : round(p->seconds * GEN_GHZ * 1e8);
}

/* all stall cycles: rises with the dependent multiplies */
static double ev_stall_all(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			   const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(p->seconds * GEN_GHZ * 1e9 * p->threads);
}

static const struct gen_event test_events[] = {
	{"LINES_EXACT", ev_lines},
	{"HALF_LINES", ev_half},
	{"DRAM_DEMAND", ev_demand},
	{"L2_PLUS_DRAM", ev_l2_dram},
	{"NOISY_LINES", ev_noisy},
	{"MEM_INSTR", ev_mem},
	{"MUX_LINES", ev_mux},
	{"HW:NO_PMU", ev_nopmu},
	{"page-faults", ev_faults},
	{"OVER_LINES", ev_over},
	{"UNDER_LINES", ev_under},
	{"RANDOM", ev_random},
	{"STALL_MEM", ev_stall_mem},
	{"STALL_ALL", ev_stall_all},
	{"UNMARKED_MUX", ev_unmarked},
	{"DEMAND_LINES", ev_demand_lines},
	{"ENABLED0_MUX", ev_enabled0},
	{"DEMAND_FEW_OFF", ev_demand_few_off},
	{"HALF_DRAM_OFF_ONE", ev_half_dram_off_one},
	{"ONE_OFF_POINT", ev_one_off_point},
};
#define TEST_NEVENTS (sizeof test_events / sizeof test_events[0])

#endif
