/* test_budget.c — when a point stops repeating (harness/run/budget.c): confirmed after the minimum, marked
 * when its share of the time budget or --reps runs out, which may be after one repetition. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "budget.h"
#include "stats.h"

/* 100 s less the 4 s reserve, 20 s spent, this point's floor 0.8 s, 9 one-thread points after it with
   floors of 0.5 s: 70.7 s of slack, a tenth of it beyond the point's own floor. Its own floor counts as
   it was, not at the others' (0.5 s): 7.07 s, not 7.1. Slack spent, or floors that need more than is
   left: the floor. */
static void test_share_is_own_floor_and_a_part_of_the_slack(void **state)
{
	(void)state;
	assert_true(fabs(budget_share(100, 20, 10, 1, 4.5, 0.8) - 7.87) < 1e-12);
	assert_true(budget_share(60, 61, 10, 1, 4.5, 0.8) == 0.8);
	assert_true(budget_share(100, 20, 10, 1, 90, 0.8) == 0.8);
	assert_true(budget_share(60, 20, 0, 1, 0, 0.8) == 0.8);
}

/* --quick's shape: 4 one-thread points left, then 4 two-thread ones (weight 12), 0.5 s a thread each: the
   floors left are 6 s, not 4 s as per point (this one's 0.5 s and 5.5 s after it; for a two-thread
   point, 1.0 s and 5.0 s); 30 s less the 1.2 s reserve and 10 s spent leave 12.8 s of slack, 1/12 of it
   for a one-thread point, 2/12 for a two-thread one. */
static void test_points_on_more_threads_weigh_more(void **state)
{
	(void)state;
	assert_true(fabs(budget_share(30, 10, 12, 1, 5.5, 0.5) - (0.5 + 12.8 / 12)) < 1e-12);
	assert_true(fabs(budget_share(30, 10, 12, 2, 5.0, 1.0) - (1.0 + 12.8 / 6)) < 1e-12);
}

/* Each level's floors are reckoned apart: 12 cache points of 10 ms a thread and 4 DRAM points of 300 ms,
   one in four as in --quick, whose median of all (10 ms) would reckon the DRAM points left at a thirtieth
   of their floors. A level not yet measured takes all levels' median; no floor at all, 0. */
static void test_floors_are_reckoned_per_level(void **state)
{
	double s[16];
	int level[16];
	struct budget_floors f = {s, level, 0};

	(void)state;
	assert_true(budget_floor_unit(&f, -1) == 0);
	assert_true(budget_floor_unit(&f, 3) == 0);
	for (int i = 0; i < 16; i++) {
		/* L1, L2, L3, DRAM over and over, as a family's sizes come */
		level[f.n] = i % 4;
		s[f.n++] = i % 4 == 3 ? 0.3 + 0.01 * i : 0.01;
	}
	assert_true(budget_floor_unit(&f, -1) == 0.01);
	assert_true(fabs(budget_floor_unit(&f, 3) - (0.3 + 0.01 * (7 + 11) / 2)) < 1e-12);
	assert_true(budget_floor_unit(&f, 0) == 0.01);
	f.n = 3; /* no DRAM point yet */
	assert_true(budget_floor_unit(&f, 3) == 0.01);
}

/* Two repetitions that agree exactly are not yet stable (the minimum is 3); a spent share or --reps ends
   a point even after its first. */
static void test_not_stable_before_three_but_spent_after_one(void **state)
{
	struct budget_point p = {.reps_done = 2,
				 .reps_max = 8,
				 .est_now = 100,
				 .spread = 0,
				 .confirmed = BUDGET_CONFIRMED_CACHE,
				 .spent_s = 0.1,
				 .share_s = 1};

	(void)state;
	assert_int_equal(budget_next(&p), BUDGET_GO);
	p.reps_done = 1;
	p.spent_s = 3.4; /* one DRAM chase repetition on a busy VM */
	assert_int_equal(budget_next(&p), BUDGET_SPENT);
	p.spent_s = 0.1;
	p.reps_max = 1; /* --reps 1 */
	assert_int_equal(budget_next(&p), BUDGET_MAX);
}

/* A repetition is not started where it would end more than over_s past the share: a DRAM chase of --quick
   (over_s: 0.24 s, a tenth of the 2.4 s reserve) with 5.5 s spent of a 7.1 s share and 5 s repetitions stops
   (another would end at 10.5 s); with 1.5 s repetitions it goes on (7.0 s), and with 1.8 s ones too (7.3 s,
   0.2 s past); with 2 s ones (7.5 s) it stops. A spent share stops whatever the repetitions take. */
static void test_no_repetition_that_ends_far_past_the_share(void **state)
{
	struct budget_point p = {.reps_done = 1,
				 .reps_max = 8,
				 .est_now = 100,
				 .spread = INFINITY,
				 .confirmed = BUDGET_CONFIRMED_DRAM,
				 .spent_s = 5.5,
				 .share_s = 7.1,
				 .rep_s = 5,
				 .over_s = 0.24};

	(void)state;
	assert_int_equal(budget_next(&p), BUDGET_SPENT);
	p.rep_s = 1.5;
	assert_int_equal(budget_next(&p), BUDGET_GO);
	p.rep_s = 1.8;
	assert_int_equal(budget_next(&p), BUDGET_GO);
	p.rep_s = 2;
	assert_int_equal(budget_next(&p), BUDGET_SPENT);
	p.rep_s = 0.001;
	p.spent_s = 7.1;
	assert_int_equal(budget_next(&p), BUDGET_SPENT);
}

/* A cache point's shortest calls confirmed within 1 % of the estimate: done; 2 % apart with time left goes
   on, where a DRAM point (2.5 %) is done. */
static void test_stops_when_the_estimate_is_confirmed(void **state)
{
	struct budget_point p = {.reps_done = 3,
				 .reps_max = 8,
				 .est_now = 100,
				 .spread = 0.01,
				 .confirmed = BUDGET_CONFIRMED_CACHE,
				 .spent_s = 0.1,
				 .share_s = 1};

	(void)state;
	assert_int_equal(budget_next(&p), BUDGET_STABLE_STOP);
	p.spread = 0.02;
	assert_int_equal(budget_next(&p), BUDGET_GO);
	p.confirmed = BUDGET_CONFIRMED_DRAM;
	assert_int_equal(budget_next(&p), BUDGET_STABLE_STOP);
	p.spread = INFINITY; /* a length with one call so far */
	assert_int_equal(budget_next(&p), BUDGET_GO);
	p.est_now = 0; /* no time yet (R longer than 2R): never confirmed */
	p.spread = 0;
	assert_int_equal(budget_next(&p), BUDGET_GO);
}

/* Calls that agree, but the shortest R call past half the shortest 2R call (every R call stretched alike,
   stats_mindiff_mismatch): confirmed up to BUDGET_MISMATCH_CONFIRMED times the confirmed part (a cache
   point's 4.5 %), past it the point goes on while it has time. Short of half the 2R call confirms. */
static void test_r_calls_stretched_alike_are_not_confirmed(void **state)
{
	struct budget_point p = {.reps_done = 3,
				 .reps_max = 8,
				 .est_now = 100,
				 .spread = 0.01,
				 .mismatch = 0.045,
				 .confirmed = BUDGET_CONFIRMED_CACHE,
				 .spent_s = 0.1,
				 .share_s = 1};

	(void)state;
	assert_int_equal(budget_next(&p), BUDGET_STABLE_STOP);
	p.mismatch = 0.046;
	assert_int_equal(budget_next(&p), BUDGET_GO);
	p.mismatch = 1.69; /* the triad.avx512 point of stats.h, at twice its speed */
	assert_int_equal(budget_next(&p), BUDGET_GO);
	p.spent_s = 1;
	assert_int_equal(budget_next(&p), BUDGET_SPENT);
	p.spent_s = 0.1;
	p.mismatch = -1; /* the R call is the estimate: every 2R call stretched */
	assert_int_equal(budget_next(&p), BUDGET_STABLE_STOP);
}

/* From calls to the decision (budget_calls, as the run's goes_on): the triad.avx512 point of stats.h, its
   four R calls alike at 13.36-13.59 M ticks and its 2R calls at 18.32-18.54 M, agrees within 1.5 % at both
   lengths and would be confirmed at twice its speed but for the mismatch, so it goes on; two threads
   whose spans agree as well go on where their longest thread's own calls say the same (the skew is in
   no thread's own call), and stop where those are R and 2R passes' times. */
static void test_calls_set_the_estimate_spread_and_mismatch(void **state)
{
	struct stats_mindiff m = {0};
	struct budget_point p = {.reps_done = 4,
				 .reps_max = 8,
				 .confirmed = BUDGET_CONFIRMED_CACHE,
				 .spent_s = 0.1,
				 .share_s = 1};
	const double lo[4] = {13.36e6, 13.59e6, 13.40e6, 13.45e6},
		     hi[4] = {18.32e6, 18.54e6, 18.40e6, 18.35e6};

	(void)state;
	for (int i = 0; i < 4; i++)
		stats_mindiff_add(&m, lo[i], hi[i]);
	budget_calls(&p, &m);
	assert_true(p.est_now == 18.32e6 - 13.36e6);
	assert_true(fabs(p.spread - 0.04e6 / p.est_now) < 1e-12 && p.spread < BUDGET_CONFIRMED_CACHE);
	assert_true(fabs(p.mismatch - (2 * 13.36e6 - 18.32e6) / p.est_now) < 1e-12);
	assert_int_equal(budget_next(&p), BUDGET_GO);
	m.spans = 1; /* the same spans of two threads: the skew could be all of it */
	budget_calls(&p, &m);
	assert_int_equal(budget_next(&p), BUDGET_STABLE_STOP);
	stats_mindiff_add_spans(&m, lo[1], hi[1], 13.30e6,
				18.30e6); /* their longest thread's own calls, alike
									stretched */
	budget_calls(&p, &m);
	assert_int_equal(budget_next(&p), BUDGET_GO);
	m.own_lo = 9.20e6; /* its own R call about half its 2R call: 4.2 M of the spans' R call is skew */
	budget_calls(&p, &m);
	assert_int_equal(budget_next(&p), BUDGET_STABLE_STOP);
}

/* A disturbed point stops, marked, when its share is spent or at --reps; never measured again. */
static void test_unsettled_point_stops_at_its_share_or_at_reps(void **state)
{
	struct budget_point p = {.reps_done = 3,
				 .reps_max = 8,
				 .est_now = 100,
				 .spread = 0.1,
				 .confirmed = BUDGET_CONFIRMED_CACHE,
				 .spent_s = 1,
				 .share_s = 1};

	(void)state;
	assert_int_equal(budget_next(&p), BUDGET_SPENT);
	p.spent_s = 0.2;
	p.reps_done = 8;
	assert_int_equal(budget_next(&p), BUDGET_MAX);
}

/* Waiting for the machine: in steps, up to BUDGET_WAIT_POINT before one point and BUDGET_WAIT_RUN of the
   budget in all. */
static void test_waits_are_capped_per_point_and_per_run(void **state)
{
	(void)state;
	assert_true(budget_wait(0, 0, 60));
	assert_true(budget_wait(BUDGET_WAIT_POINT - BUDGET_WAIT_STEP, 0, 60)); /* the last step fits */
	assert_false(budget_wait(BUDGET_WAIT_POINT - BUDGET_WAIT_STEP / 2, 0, 60));
	assert_true(budget_wait(0, BUDGET_WAIT_RUN * 60 - BUDGET_WAIT_STEP, 60));
	assert_false(
		budget_wait(0, BUDGET_WAIT_RUN * 60 - BUDGET_WAIT_STEP / 2, 60)); /* the run's is spent */
	assert_true(budget_wait(0, BUDGET_WAIT_RUN * 60, 300));                   /* a longer budget */
	assert_false(budget_wait(0, 0, 0.1)); /* a budget too short for one step */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_is_own_floor_and_a_part_of_the_slack),
		cmocka_unit_test(test_points_on_more_threads_weigh_more),
		cmocka_unit_test(test_floors_are_reckoned_per_level),
		cmocka_unit_test(test_not_stable_before_three_but_spent_after_one),
		cmocka_unit_test(test_no_repetition_that_ends_far_past_the_share),
		cmocka_unit_test(test_stops_when_the_estimate_is_confirmed),
		cmocka_unit_test(test_r_calls_stretched_alike_are_not_confirmed),
		cmocka_unit_test(test_calls_set_the_estimate_spread_and_mismatch),
		cmocka_unit_test(test_unsettled_point_stops_at_its_share_or_at_reps),
		cmocka_unit_test(test_waits_are_capped_per_point_and_per_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
