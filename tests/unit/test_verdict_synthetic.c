/* test_verdict_synthetic.c — verdicts on constructed raw data whose truth is known (tests/tools/events.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "agg.h"
#include "hypothesis.h"
#include "tools/events.h"
#include "tools/verdict_fixture.h"
#include "thresholds.h"
#include "verdict.h"

static int setup(void **state)
{
	return fixture_open(state, test_events, TEST_NEVENTS);
}

static struct verdict judge(void **state, const char *name)
{
	return fixture_judge(state, name, NULL);
}

static const unsigned all_levels = 1u << LV_L1 | 1u << LV_L2 | 1u << LV_L3 | 1u << LV_DRAM;

static void test_one_per_line_is_exact_at_every_level(void **state)
{
	struct verdict v = judge(state, "LINES_EXACT");

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 1);
	assert_int_equal(v.levels, all_levels);
	assert_string_equal(verdict_prefetch_text(v.prefetch), "both");
	assert_true(v.r2 >= 0.999999);
	/* the noisy points carry counts 50 % off: they must have been left out */
	assert_true(v.noisy_points > 0);
	assert_true(v.error < 1e-9);
	assert_true(v.boundary_points > 0);
}

static void test_half_per_line_has_scale_one_half(void **state)
{
	struct verdict v = judge(state, "HALF_LINES");

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 0.5);
	assert_true(fabs(v.measured - 0.5) < 0.001);
}

/* Event `name` is prefetch-blind: one per line read from DRAM with the prefetchers off. */
static void assert_blind_at_dram(void **state, const char *name)
{
	struct verdict v = judge(state, name);

	assert_int_equal(v.cls, VC_PREFETCH_BLIND);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 1);
	assert_int_equal(v.levels, 1u << LV_DRAM);
	assert_string_equal(verdict_prefetch_text(v.prefetch), "off");
}

static void test_missing_prefetched_lines_is_prefetch_blind(void **state)
{
	assert_blind_at_dram(state, "DRAM_DEMAND");
}

/* The scale the prefetch-off groups hold is the event's where the on groups count less at the same level,
   however many more points the on groups have: their 1/2 is the prefetcher's coverage of the stream. It was
   called exact at 1/2, prefetch on (the scale of the most points), hiding that the off points count 1. */
static void test_prefetch_blind_with_fewer_off_points(void **state)
{
	assert_blind_at_dram(state, "DEMAND_FEW_OFF");
}

/* ... but a scale prefetch-off groups hold at levels the prefetcher did not change stays the event's: one
   level's look of prefetch-blindness does not throw the others away */
static void test_a_scale_off_groups_hold_elsewhere_still_competes(void **state)
{
	struct verdict v = judge(state, "HALF_DRAM_OFF_ONE");

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 0.5);
	assert_true((v.levels & (1u << LV_L1 | 1u << LV_L2 | 1u << LV_L3)) ==
		    (1u << LV_L1 | 1u << LV_L2 | 1u << LV_L3));
}

/* ... nor does a prefetch-off group of one point, disturbed: the on groups' scale stands */
static void test_one_off_point_makes_no_prefetch_blind_look(void **state)
{
	struct verdict v = judge(state, "ONE_OFF_POINT");

	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 1);
	assert_true(v.levels & 1u << LV_L1);
}

static void test_sum_of_two_levels_is_named_by_nnls(void **state)
{
	struct verdict v = judge(state, "L2_PLUS_DRAM");

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.levels, 1u << LV_L2 | 1u << LV_DRAM);
	assert_non_null(strstr(v.decomposition, "lines_read@L2"));
	assert_non_null(strstr(v.decomposition, "lines_read@DRAM"));
	assert_null(strstr(v.decomposition, "@L3"));
	assert_null(strstr(v.decomposition, "@L1"));
}

static void test_sum_of_two_quantities_replaces_a_single_one(void **state)
{
	struct verdict v = judge(state, "MEM_INSTR");

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, -1);
	assert_string_equal(v.quantity_text, "loads + stores");
}

static void test_five_percent_noise_is_approximate(void **state)
{
	struct verdict v = judge(state, "NOISY_LINES");

	assert_int_equal(v.cls, VC_APPROXIMATE);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 1);
	assert_true(v.spread > 0.02 && v.spread < 0.10);
}

static void test_multiplexed_readings_are_not_used(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "MUX_LINES");

	assert_true(f->a.events[v.event].rows[RS_MULTIPLEXED] > 0);
	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.error < 1e-9);
}

static void test_partial_running_time_counts_as_multiplexed(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "UNMARKED_MUX");

	assert_true(f->a.events[v.event].rows[RS_MULTIPLEXED] > 0);
	assert_non_null(strstr(f->a.events[v.event].reason[RS_MULTIPLEXED], "time_running"));
	assert_int_equal(v.cls, VC_EXACT);
	assert_true(v.error < 1e-9);
}

static void test_running_time_without_enabled_time_counts_as_multiplexed(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "ENABLED0_MUX");

	assert_true(f->a.events[v.event].rows[RS_MULTIPLEXED] > 0);
	assert_int_equal(v.cls, VC_EXACT);
	assert_true(v.error < 1e-9);
}

static void test_unmeasured_hardware_event_gets_no_class(void **state)
{
	struct verdict v = judge(state, "HW:NO_PMU");

	assert_int_equal(v.cls, VC_NOT_MEASURED);
	assert_non_null(strstr(v.note, "perf_event_open ENOENT"));
	assert_string_equal(v.quantity_text, "");
}

static void test_page_faults_count_one_per_page(void **state)
{
	struct verdict v = judge(state, "page-faults");

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_pages);
	assert_true(v.scale == 1);
	assert_int_equal(v.levels, 1u << LV_ANY);
}

static void test_thirty_percent_off_is_over_or_under(void **state)
{
	struct verdict over = judge(state, "OVER_LINES"), under = judge(state, "UNDER_LINES");

	assert_int_equal(over.cls, VC_OVERCOUNTS);
	assert_int_equal(over.quantity, RQ_lines_read);
	assert_true(fabs(over.measured - 1.3) < 0.01);
	assert_int_equal(under.cls, VC_UNDERCOUNTS);
	assert_int_equal(under.quantity, RQ_lines_read);
	assert_true(fabs(under.measured - 0.7) < 0.01);
}

static void test_random_counts_are_unrelated(void **state)
{
	struct verdict v = judge(state, "RANDOM");

	assert_int_equal(v.cls, VC_UNRELATED);
	assert_true(v.r2 < THR_RELATED_R2);
}

/* When every point is flagged noisy the verdict rests on them, and says so. */
static void test_only_noisy_points_are_used_and_said(void **state)
{
	static const struct gen_event half[] = {{"HALF_LINES", ev_half}};
	struct gen_point p[5];
	struct verdict v;
	struct err e;
	void *own = NULL;

	(void)state;
	for (unsigned i = 0; i < 5; i++) {
		p[i] = gen_load_point(i, (128u << 10) * (i + 1), 1);
		p[i].noisy = 1;
	}
	assert_int_equal(fixture_open_points(&own, p, 5, 3, half, 1), 0);
	assert_int_equal(verdict_event(&((struct fixture *)own)->a, 0, &v, &e), 0);
	assert_int_equal(v.cls, VC_EXACT);
	assert_true(v.scale == 0.5);
	assert_true(v.noisy_only);
	assert_int_equal(v.points, 5);
	assert_int_equal(fixture_close(&own), 0);
}

/* A level whose points are all noisy, among levels with clean ones, is left out of the verdict, so the
   config's hypothesis was not judged there: what the event was seen at (hypo_seen) is what the verdict
   rests on, not "contradicts the config: does not hold at DRAM" for an event that counts lines / 2 there
   too. */
static void test_a_level_of_noisy_points_only_is_not_where_a_hypothesis_was_judged(void **state)
{
	static const struct gen_event half[] = {{"HALF_LINES", ev_half}};
	static const uint64_t kib[4][3] = {
		{8, 16, 24}, {128, 256, 512}, {2048, 3072, 4096}, {65536, 131072, 262144}};
	const unsigned clean = 1u << LV_L1 | 1u << LV_L2 | 1u << LV_L3;
	struct hypo h = {"HALF_LINES", "half", RQ_lines_read, 0.5, all_levels, 1u << PF_ON, MSCOPE_NONE};
	struct gen_point p[12];
	struct hypo_seen seen;
	struct verdict v;
	struct err e;
	char why[256];
	void *own = NULL;

	(void)state;
	for (unsigned l = 0; l < 4; l++)
		for (unsigned i = 0; i < 3; i++) {
			p[3 * l + i] = gen_load_point(3 * l + i, kib[l][i] << 10, (int)l);
			p[3 * l + i].noisy = l == 3;
		}
	assert_int_equal(fixture_open_points(&own, p, 12, 3, half, 1), 0);
	assert_int_equal(verdict_event(&((struct fixture *)own)->a, 0, &v, &e), 0);
	assert_int_equal(v.cls, VC_EXACT);
	assert_false(v.noisy_only);
	assert_int_equal(v.levels, clean);
	hypo_seen(&((struct fixture *)own)->a, &v, &h, &seen);
	assert_int_equal(seen.levels, clean);
	assert_int_equal(hypo_compare(&h, &v, &seen, why, sizeof why), HYPO_AS_CONFIGURED);
	assert_int_equal(fixture_close(&own), 0);
}

/* One per line but at DRAM with the prefetchers on, where the prefetched lines count too (half as many
   again): it holds at L2 and at DRAM, with the prefetchers on and off, but not at DRAM with them on. */
static double ev_dram_on_more(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			      const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return lines(p) * (p->level == 3 && !strcmp(p->prefetch, "on") ? 1.5 : 1);
}

/* The verdict holds per level and prefetch state together: a hypothesis for L2 and DRAM, prefetchers on
   or off, contradicts an event that fails at DRAM with them on, though it holds at each level and in each
   state (the two masks alone read "as configured"). */
static void test_a_group_that_fails_contradicts_a_hypothesis_its_levels_and_states_meet(void **state)
{
	static const struct gen_event ev[] = {{"DRAM_ON_MORE", ev_dram_on_more}};
	static const uint64_t kib[2][3] = {{128, 256, 512}, {65536, 131072, 262144}};
	struct hypo h = {"DRAM_ON_MORE",
			 "more",
			 RQ_lines_read,
			 1,
			 1u << LV_L2 | 1u << LV_DRAM,
			 1u << PF_ON | 1u << PF_OFF,
			 MSCOPE_NONE};
	struct gen_point p[12];
	struct hypo_seen seen;
	struct verdict v;
	struct err e;
	char why[256];
	void *own = NULL;
	unsigned n = 0;

	(void)state;
	for (unsigned l = 0; l < 2; l++)
		for (unsigned i = 0; i < 3; i++)
			for (unsigned pf = 0; pf < 2; pf++, n++) {
				p[n] = gen_load_point(n, kib[l][i] << 10, l ? 3 : 1);
				p[n].prefetch = pf ? "off" : "on";
			}
	assert_int_equal(fixture_open_points(&own, p, n, 3, ev, 1), 0);
	assert_int_equal(verdict_event(&((struct fixture *)own)->a, 0, &v, &e), 0);
	assert_int_equal(v.levels, h.levels);
	assert_int_equal(v.prefetch, h.prefetch);
	assert_false(v.groups & VERDICT_GROUP(LV_DRAM, PF_ON));
	assert_true(v.groups & VERDICT_GROUP(LV_DRAM, PF_OFF));
	hypo_seen(&((struct fixture *)own)->a, &v, &h, &seen);
	assert_int_equal(hypo_compare(&h, &v, &seen, why, sizeof why), HYPO_CONTRADICTS);
	assert_non_null(strstr(why, "does not hold at DRAM with the prefetchers on"));
	assert_int_equal(fixture_close(&own), 0);
}

/* One line per line read in L1, nothing beyond: only the L1 points are judged against lines_read. */
static double ev_l1_lines(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			  const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return p->level == 0 ? lines(p) : 0;
}

static struct verdict judge_points(const struct gen_point *p, unsigned np, gen_count_fn fn)
{
	const struct gen_event ev[] = {{"L1_LINES", fn}};
	struct verdict v;
	struct err e;
	void *own = NULL;

	assert_int_equal(fixture_open_points(&own, p, np, 3, ev, 1), 0);
	assert_int_equal(verdict_event(&((struct fixture *)own)->a, 0, &v, &e), 0);
	assert_int_equal(fixture_close(&own), 0);
	return v;
}

/* Three usable points, but the L1 group that holds has one (R^2 undefined): that is no measurement of
   the event (it read `exact` once); with three L1 points it is exact. */
static void test_one_judged_point_is_not_measured(void **state)
{
	struct gen_point p[4] = {gen_load_point(0, 16u << 10, 0), gen_load_point(1, 256u << 10, 1),
				 gen_load_point(2, 512u << 10, 1), gen_load_point(3, 24u << 10, 0)};
	struct verdict v;

	(void)state;
	v = judge_points(p, 3, ev_l1_lines);
	assert_int_equal(v.cls, VC_NOT_MEASURED);
	assert_int_equal(v.quantity, -1);
	assert_true(isnan(v.r2));
	assert_non_null(
		strstr(v.note, "only 1 point judged against lines_")); /* read or demand_read: a tie */
	p[1] = gen_load_point(1, 32u << 10, 0);
	v = judge_points(p, 4, ev_l1_lines);
	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.points, 3);
}

/* Three points of one size: the ratio agrees, but a quantity that never varies tests no proportionality
   (R^2 undefined). */
static void test_quantity_that_never_varies_is_not_measured(void **state)
{
	struct gen_point p[3];
	struct verdict v;

	(void)state;
	for (unsigned i = 0; i < 3; i++)
		p[i] = gen_load_point(i, 16u << 10, 0);
	v = judge_points(p, 3, ev_half);
	assert_int_equal(v.cls, VC_NOT_MEASURED);
	assert_true(isnan(v.r2));
	assert_non_null(strstr(v.note, "does not vary over the 3 points judged against it"));
}

static void test_level_uses_measured_limit_and_excludes_boundaries(void **state)
{
	struct machine m = {.limit = {48 << 10, 1 << 20, 8 << 20}};
	struct raw_row r = {.kernel = "load", .placement = "local", .arrays = 1};
	struct fixture *f = *state;

	r.bytes = 32 << 10;
	assert_int_equal(point_level_assign(&m, &r), LV_L1);
	r.bytes = 44 << 10; /* 92 % of L1 */
	assert_int_equal(point_level_assign(&m, &r), LV_EXCLUDED);
	r.bytes = 64 << 10; /* 133 % of L1 */
	assert_int_equal(point_level_assign(&m, &r), LV_EXCLUDED);
	r.bytes = 11 << 20; /* 138 % of L3 */
	assert_int_equal(point_level_assign(&m, &r), LV_EXCLUDED);
	r.bytes = 16 << 20;
	assert_int_equal(point_level_assign(&m, &r), LV_DRAM);
	r.placement = "remote";
	assert_int_equal(point_level_assign(&m, &r), LV_DRAM_REMOTE);
	r.kernel = "triad";
	r.arrays = 3;
	r.bytes = 200 << 10; /* 600 KiB in three arrays: L2 */
	assert_int_equal(point_level_assign(&m, &r), LV_L2);
	/* the generated machine.json reports a 32 MiB L3 but measured 8 MiB: the measured one counts */
	assert_true(f->a.m.limit[2] == GEN_L3 && f->a.m.measured[2] > 0);
}
/* 1.3 per line in L1 and L2, 0.75 in L3 and DRAM: consistent everywhere, holding nowhere. It overcounts
   where most of its points are, and the verdict's levels are those groups alone; L3 and DRAM, where it
   undercounts, are named in the note, not listed as overcounting (they once were, one median over all). */
static double ev_two_ways(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			  const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(lines(p) * (p->level >= 2 ? 0.75 : 1.3));
}

/* A counter read negated: impossible wherever there are lines, 0 where there are none (non-temporal
   stores). Judged on what is left it "never counts"; most of its readings being impossible, it was not
   read right, and is not measured. */
static double ev_negated(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			 const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return -lines(p);
}

/* An idle event: its differenced counts (2R call less R call) are a few interrupts either side of 0, more
   often below: it never counts, and its readings below 0 are no impossible ones (once, rejected, they
   were most of its readings, and it read "not measured"). */
static double ev_idle(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		      const char **why)
{
	(void)rng, (void)st, (void)why;
	return (double)((p->id + rep) % 5) - 3;
}

/* One per page where there are pages (the touch points, level "any"), and at every other point, whose pages
   are 0, counts in the hundreds of thousands that no volume explains (a TLB-miss event where the
   buffers' pages are 4 KiB): it holds for pages where pages are not 0, and counts more than pages. */
static double ev_pages_elsewhere(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
				 const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return p->v[RQ_pages] > 0 ? p->v[RQ_pages] : 100000.0 * (double)(1 + p->id % 7);
}

/* Exact lines where it was read, failed at every other point: the verdict says how many readings it
   could not use and why. */
static double ev_failed_most(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			     const char **why)
{
	(void)rep, (void)rng;
	if (p->id % 3) {
		*st = "failed";
		*why = "counter busy";
	}
	return lines(p);
}

/* 1.5 per line in L1, 1.25 in L2, 0.7 in L3 and DRAM: the median of all (1.25) is nearest 1, which L1 and
   L2 lie above; their own median (1.375) is nearest 2, against which they would read as undercounting,
   and L3 and DRAM were named as overcounting "instead" at 0.7. One scale judges both sides. */
static double ev_three_ways(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			    const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(lines(p) * (p->level >= 2 ? 0.7 : p->level == 1 ? 1.25 : 1.5));
}

static const struct gen_event two_ways[] = {
	{"THREE_WAYS", ev_three_ways},   {"TWO_WAYS", ev_two_ways}, {"NEGATED", ev_negated},
	{"FAILED_MOST", ev_failed_most}, {"IDLE", ev_idle},         {"PAGES_ELSEWHERE", ev_pages_elsewhere}};

static int setup_two_ways(void **state)
{
	return fixture_open(state, two_ways, 6);
}

static void test_an_overcount_lists_only_the_levels_it_overcounts_at(void **state)
{
	struct verdict v = judge(state, "TWO_WAYS");

	assert_int_equal(v.cls, VC_OVERCOUNTS);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_int_equal(v.levels, 1u << LV_L1 | 1u << LV_L2);
	assert_true(fabs(v.measured - 1.3) < 0.01);
	assert_non_null(strstr(v.note, "undercounts instead in L3/"));
	assert_non_null(strstr(v.note, "DRAM/"));
}

static void test_both_sides_are_judged_against_one_scale(void **state)
{
	struct verdict v = judge(state, "THREE_WAYS");

	assert_int_equal(v.cls, VC_OVERCOUNTS);
	assert_true(v.scale == 1);
	assert_int_equal(v.levels, 1u << LV_L1 | 1u << LV_L2);
	assert_non_null(strstr(v.note, "undercounts instead in L3/"));
}

static void test_mostly_impossible_readings_are_not_measured(void **state)
{
	struct verdict v = judge(state, "NEGATED");

	assert_int_equal(v.cls, VC_NOT_MEASURED);
	assert_non_null(strstr(v.note, "most of its readings with status ok were impossible"));
	assert_non_null(strstr(v.note, "negative count"));
}

static void test_an_idle_event_counting_either_side_of_zero_never_counts(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "IDLE");

	assert_int_equal(v.cls, VC_UNRELATED);
	assert_non_null(strstr(v.note, "never counts"));
	assert_int_equal(f->a.events[v.event].rejected, 0);
}

static void test_counting_where_the_quantity_is_0_throughout_a_group_is_no_exact_count(void **state)
{
	struct verdict v = judge(state, "PAGES_ELSEWHERE");

	assert_int_equal(v.cls, VC_OVERCOUNTS);
	assert_int_equal(v.quantity, RQ_pages);
	assert_int_equal(v.levels, 1u << LV_ANY);
	assert_non_null(strstr(v.note, "counts where pages is 0 in whole groups, unexplained: L1/"));
	assert_non_null(strstr(v.note, "DRAM/"));
}

static void test_readings_not_used_are_counted_in_the_note(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "FAILED_MOST");
	char want[64];

	assert_int_equal(v.cls, VC_EXACT);
	snprintf(want, sizeof want, "%lu readings failed, not used (counter busy)",
		 f->a.events[v.event].rows[RS_FAILED]);
	assert_non_null(strstr(v.note, want));
}

/* Demand-load lines: told from lines_read by the points with stores (triad reads 2 lines of its 3,
   store none), so the config's lines_demand_read hypothesis holds; in a raw.csv from before the
   column, the same counts read, the volume is unknown: no verdict takes it and the hypothesis is
   not compared. */
static const struct gen_sweep demand_sweep = {
	NULL, 0,
	"{ \"DEMAND_LINES\": { \"name\": \"DEMAND_LINES\", \"quantity\": \"lines_demand_read\", "
	"\"scale\": 1, \"levels\": [\"L1\", \"L2\", \"L3\", \"DRAM\"], \"placement\": [\"local\"], "
	"\"prefetch\": [\"on\", \"off\"] } }",
	NULL, 0};

static int setup_demand(void **state)
{
	return fixture_open_sweep(state, test_events, TEST_NEVENTS, &demand_sweep);
}

static int setup_before_demand(void **state)
{
	return fixture_open_without(state, test_events, TEST_NEVENTS, &demand_sweep, "v_lines_demand_read");
}

static enum hypo_agreement check_demand(void **state, const struct verdict *v, char *buf, size_t len)
{
	struct fixture *f = *state;
	struct hypo_set s;
	struct err e;
	enum hypo_agreement r;

	assert_int_equal(hypo_build(&f->a.m, &s, &e), 0);
	r = hypo_check(&f->a, &s, v, buf, len);
	hypo_free(&s);
	return r;
}

static void test_demand_loads_are_told_from_lines_read(void **state)
{
	struct verdict v = judge(state, "DEMAND_LINES");
	char buf[400];

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_demand_read);
	assert_true(v.scale == 1);
	if (check_demand(state, &v, buf, sizeof buf) != HYPO_AS_CONFIGURED)
		fail_msg("%s", buf);
	/* an event of all lines read is still lines_read: the store points tell the two apart */
	v = judge(state, "LINES_EXACT");
	assert_int_equal(v.quantity, RQ_lines_read);
}

static void test_a_file_without_demand_lines_still_analyses(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "DEMAND_LINES");
	char buf[400];

	assert_true(f->a.unknown_q & (1u << RQ_lines_demand_read));
	assert_true(isnan(f->a.points[0].v[RQ_lines_demand_read]));
	assert_int_not_equal(v.quantity, RQ_lines_demand_read);
	assert_int_equal(check_demand(state, &v, buf, sizeof buf), HYPO_NOT_COMPARED);
	assert_non_null(strstr(buf, "no column v_lines_demand_read"));
	v = judge(state, "LINES_EXACT");
	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_per_line_is_exact_at_every_level),
		cmocka_unit_test(test_half_per_line_has_scale_one_half),
		cmocka_unit_test(test_missing_prefetched_lines_is_prefetch_blind),
		cmocka_unit_test(test_prefetch_blind_with_fewer_off_points),
		cmocka_unit_test(test_a_scale_off_groups_hold_elsewhere_still_competes),
		cmocka_unit_test(test_one_off_point_makes_no_prefetch_blind_look),
		cmocka_unit_test(test_sum_of_two_levels_is_named_by_nnls),
		cmocka_unit_test(test_sum_of_two_quantities_replaces_a_single_one),
		cmocka_unit_test(test_five_percent_noise_is_approximate),
		cmocka_unit_test(test_multiplexed_readings_are_not_used),
		cmocka_unit_test(test_partial_running_time_counts_as_multiplexed),
		cmocka_unit_test(test_running_time_without_enabled_time_counts_as_multiplexed),
		cmocka_unit_test(test_unmeasured_hardware_event_gets_no_class),
		cmocka_unit_test(test_page_faults_count_one_per_page),
		cmocka_unit_test(test_thirty_percent_off_is_over_or_under),
		cmocka_unit_test(test_random_counts_are_unrelated),
		cmocka_unit_test(test_only_noisy_points_are_used_and_said),
		cmocka_unit_test(test_a_level_of_noisy_points_only_is_not_where_a_hypothesis_was_judged),
		cmocka_unit_test(test_a_group_that_fails_contradicts_a_hypothesis_its_levels_and_states_meet),
		cmocka_unit_test(test_one_judged_point_is_not_measured),
		cmocka_unit_test(test_quantity_that_never_varies_is_not_measured),
		cmocka_unit_test(test_level_uses_measured_limit_and_excludes_boundaries),
	};
	const struct CMUnitTest demand[] = {
		cmocka_unit_test_setup_teardown(test_demand_loads_are_told_from_lines_read, setup_demand,
						fixture_close),
		cmocka_unit_test_setup_teardown(test_a_file_without_demand_lines_still_analyses,
						setup_before_demand, fixture_close),
	};
	const struct CMUnitTest mixed[] = {
		cmocka_unit_test(test_an_overcount_lists_only_the_levels_it_overcounts_at),
		cmocka_unit_test(test_both_sides_are_judged_against_one_scale),
		cmocka_unit_test(test_mostly_impossible_readings_are_not_measured),
		cmocka_unit_test(test_readings_not_used_are_counted_in_the_note),
		cmocka_unit_test(test_an_idle_event_counting_either_side_of_zero_never_counts),
		cmocka_unit_test(test_counting_where_the_quantity_is_0_throughout_a_group_is_no_exact_count),
	};
	return cmocka_run_group_tests(tests, setup, fixture_close) ||
		cmocka_run_group_tests(demand, NULL, NULL) ||
		cmocka_run_group_tests(mixed, setup_two_ways, fixture_close);
}
