/* test_revisit.c — which points `run --revisits` measures again (harness/run/revisit.c): per row (level,
 * access, threads, prefetch state, placement) the bandwidth point of the best outcome and its rival
 * variants' best points within a quarter of it, and every size of a one-thread latency chase, in plan order;
 * never a fresh-memory, boundary or unmeasured point nor a chase of more threads; the first round is
 * reckoned at the picks' first repetitions, each later one at the round before less its points' repetitions
 * past their first; a round's share is a part of what is left for each round that fits; and a round is a
 * copy of the picked points. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "revisit.h"

static struct plan_point at(const char *variant, enum level level, int threads, int pf)
{
	struct plan_point p = {0};

	p.var = kern_variant_find(variant, &p.fam);
	assert_non_null(p.var);
	p.bytes = 16384;
	p.threads = threads;
	p.pf = pf;
	p.level = level;
	return p;
}

/* L1 read by three variants (the best the middle one), L1 write once, L2 read once, a latency chase, a
   fresh-memory touch, a boundary point and the L1 read again with 2 threads and with the prefetchers off
   (rows of their own): one pick per bandwidth row, the best of each, and the chase, in plan order. */
static void test_one_pick_per_row_at_its_best(void **state)
{
	struct plan_point pts[] = {
		at("load.gpr", LEVEL_L1, 1, 0),    at("load.sse", LEVEL_L1, 1, 0),
		at("store.gpr", LEVEL_L1, 1, 0),   at("load.avx", LEVEL_L1, 1, 0),
		at("load.gpr", LEVEL_L2, 1, 0),    at("chase.plain", LEVEL_L1, 1, 0),
		at("touch.gpr", LEVEL_DRAM, 1, 0), at("load.gpr", LEVEL_L3, 1, 0),
		at("load.gpr", LEVEL_L1, 2, 0),    at("load.gpr", LEVEL_L1, 1, 1),
	};
	struct run_point_result res[10] = {{0}};
	struct plan p = {pts, 10, "", ""};
	int pick[10];
	double gbps[10] = {60, 120, 40, 80, 30, 12, 5, 20, 110, 55};

	(void)state;
	pts[7].boundary = 1;
	for (int i = 0; i < 10; i++)
		res[i].gbps = gbps[i];
	res[5].ns = 1.2;
	assert_true(revisit_eligible(&pts[5]));
	assert_false(revisit_eligible(&pts[6]));
	assert_false(revisit_eligible(&pts[7]));
	assert_int_equal(revisit_choose(&p, res, REVISIT_RIVAL, pick), 6);
	assert_int_equal(pick[0], 1); /* L1 read, 1 thread: load.sse's 120 over 60 and 80 (no rivals) */
	assert_int_equal(pick[1], 2); /* L1 write */
	assert_int_equal(pick[2], 4); /* L2 read */
	assert_int_equal(pick[3], 5); /* L1 latency */
	assert_int_equal(pick[4], 8); /* L1 read, 2 threads */
	assert_int_equal(pick[5], 9); /* L1 read, prefetchers off */
}

/* A plan with rivals: L3 read by load.gpr (50 GB/s), load.sd (54), load.sse (72, the row's best) and
   load.avx at three sizes (55.5, 56.5, 55.7), and with 2 threads by load.sse (130) and load.avx (100). */
#define RIVALS_N 8
static void rivals_plan(struct plan_point *pts, struct run_point_result *res)
{
	static const char *const var[RIVALS_N] = {"load.gpr", "load.sd",  "load.sse", "load.avx",
						  "load.avx", "load.avx", "load.sse", "load.avx"};
	static const double gbps[RIVALS_N] = {50, 54, 72, 55.5, 56.5, 55.7, 130, 100};

	for (int i = 0; i < RIVALS_N; i++) {
		pts[i] = at(var[i], LEVEL_L3, i < 6 ? 1 : 2, 0);
		res[i] = (struct run_point_result){.gbps = gbps[i]};
	}
}

/* Each variant of a row whose best plan point read within REVISIT_RIVAL of the row's best is picked too, at
   that point: its plan points may all have met one slow stretch (revisit.h). L3 read (rivals_plan):
   load.avx's best of three sizes 56.5 a rival, load.sd's 54 one at the margin (0.75 x 72), load.gpr's 50
   none; a rival of another row (2 threads, 100 against their 130) is judged against its own. */
static void test_rivals_within_a_quarter_of_their_row(void **state)
{
	struct plan_point pts[RIVALS_N];
	struct run_point_result res[RIVALS_N];
	struct plan p = {pts, RIVALS_N, "", ""};
	int pick[RIVALS_N];

	(void)state;
	rivals_plan(pts, res);
	assert_int_equal(revisit_choose(&p, res, REVISIT_RIVAL, pick), 5);
	assert_int_equal(pick[0], 1); /* load.sd at the margin */
	assert_int_equal(pick[1], 2); /* load.sse, the row's best */
	assert_int_equal(pick[2], 4); /* load.avx at its best size */
	assert_int_equal(pick[3], 6);
	assert_int_equal(pick[4], 7); /* 100 of 130: within its own row's quarter */
	res[1].gbps = 53.9;           /* just past the margin */
	assert_int_equal(revisit_choose(&p, res, REVISIT_RIVAL, pick), 4);
	assert_int_equal(pick[0], 2);
}

/* After the first round the rivals are dropped: each row is revisited at its best point over the plan and
   that round, a rival that overtook its row standing for it (L3 read: load.avx's 80 in the round over
   load.sse's 72 in the plan) and the plan's best where the rival did not (2 threads: 110 against 130); a
   latency size is kept as it was. */
static void test_later_rounds_revisit_each_row_at_its_best_so_far(void **state)
{
	struct plan_point pts[] = {
		at("load.sse", LEVEL_L3, 1, 0),    at("load.avx", LEVEL_L3, 1, 0),
		at("load.sse", LEVEL_L3, 2, 0),    at("load.avx", LEVEL_L3, 2, 0),
		at("chase.plain", LEVEL_L3, 1, 0),
	};
	struct run_point_result res[5] = {
		{.gbps = 72}, {.gbps = 56.5}, {.gbps = 130}, {.gbps = 100}, {.gbps = 0.5}};
	struct run_point_result round[5] = {
		{.gbps = 70}, {.gbps = 80}, {.gbps = 125}, {.gbps = 110}, {.gbps = 0.6}};
	struct plan p = {pts, 5, "", ""};
	int pick[5], next[5];

	(void)state;
	assert_int_equal(revisit_choose(&p, res, REVISIT_RIVAL, pick), 5);
	assert_int_equal(revisit_repick(&p, res, pick, 5, round, next), 3);
	assert_int_equal(next[0], 1); /* load.avx overtook load.sse */
	assert_int_equal(next[1], 2);
	assert_int_equal(next[2], 4);
	assert_true(res[1].gbps == 56.5); /* the plan's outcomes are left as they were */
	/* without rivals, variants that tie stand for their row once, the first in plan order */
	res[1].gbps = 72;
	assert_int_equal(revisit_choose(&p, res, 0, next), 3);
	assert_int_equal(next[0], 0);
}

/* A latency row's figure is the median of its sizes' (analysis/peak.c), so every size of a one-thread chase
   is picked, the faster one not standing for the slower; a chase of two threads is in no latency row. */
static void test_every_size_of_a_latency_row(void **state)
{
	struct plan_point pts[] = {at("chase.plain", LEVEL_L2, 1, 0), at("chase.plain", LEVEL_L2, 1, 0),
				   at("chase.plain", LEVEL_L2, 2, 0), at("chase.plain", LEVEL_L2, 1, 0)};
	struct run_point_result res[4] = {{0}};
	struct plan p = {pts, 4, "", ""};
	int pick[4];

	(void)state;
	pts[1].bytes = 2 * pts[0].bytes;
	pts[2].bytes = pts[0].bytes;
	for (int i = 0; i < 4; i++)
		res[i].gbps = 20.0 - i;
	assert_false(revisit_eligible(&pts[2]));
	/* points 0 and 3 are one size (one row): the better, 0, stands for it */
	assert_int_equal(revisit_choose(&p, res, REVISIT_RIVAL, pick), 2);
	assert_int_equal(pick[0], 0);
	assert_int_equal(pick[1], 1);
}

/* A row whose best comes after another row began is still picked in plan order (a round's points of one
   group run together); a point with no outcome (not measured, or a failed run's) is never picked. */
static void test_picks_stay_in_plan_order_and_need_an_outcome(void **state)
{
	struct plan_point pts[] = {at("load.gpr", LEVEL_L1, 1, 0), at("store.gpr", LEVEL_L1, 1, 0),
				   at("load.avx", LEVEL_L1, 1, 0), at("store.avx", LEVEL_L2, 1, 0)};
	struct run_point_result res[4] = {{0}};
	struct plan p = {pts, 4, "", ""};
	int pick[4];

	(void)state;
	res[0].gbps = 50;
	res[1].gbps = 40;
	res[2].gbps = 100;
	assert_int_equal(revisit_choose(&p, res, REVISIT_RIVAL, pick), 2);
	assert_int_equal(pick[0], 1);
	assert_int_equal(pick[1], 2);
	memset(res, 0, sizeof res);
	assert_int_equal(revisit_choose(&p, res, REVISIT_RIVAL, pick), 0);
}

/* The first round is reckoned at its picks' first repetitions in the plan, not their whole visits (which,
   with the plan's events and repetitions, came to 1.7 times what a round took). */
static void test_first_round_is_reckoned_at_first_repetitions(void **state)
{
	struct run_point_result res[3] = {
		{.first_seconds = 0.5}, {.first_seconds = 4.0}, {.first_seconds = 0.25}};
	int pick[2] = {2, 0};

	(void)state;
	assert_true(fabs(revisit_first_cost(res, pick, 2) - 0.75) < 1e-12);
	assert_true(revisit_first_cost(res, pick, 0) == 0);
}

/* The first round measures its rivals where they fit, else each row's best alone where that fits, else
   nothing: rivals_plan (load.sse each row's best, load.sd and load.avx rivals in one, load.avx in the
   other), each point's first repetition 1 s (load.avx's best size 2 s), costs 6 s with its rivals and 2 s
   without, so 6 s left hold the rivals, 5.9 and 2 the rows' best, 1.9 none. */
static void test_first_round_leaves_its_rivals_out_where_they_do_not_fit(void **state)
{
	struct plan_point pts[RIVALS_N];
	struct run_point_result res[RIVALS_N];
	struct plan p = {pts, RIVALS_N, "", ""};
	double cost, bare;
	int pick[RIVALS_N], n;

	(void)state;
	rivals_plan(pts, res);
	for (int i = 0; i < RIVALS_N; i++)
		res[i].first_seconds = i == 4 ? 2 : 1;
	n = revisit_choose(&p, res, REVISIT_RIVAL, pick);
	cost = revisit_first_cost(res, pick, n);
	n = revisit_choose(&p, res, 0, pick);
	bare = revisit_first_cost(res, pick, n);
	assert_true(cost == 6 && bare == 2);
	assert_int_equal(revisit_first_fits(6, cost, bare), REVISIT_FIRST_RIVALS);
	assert_int_equal(revisit_first_fits(5.9, cost, bare), REVISIT_FIRST_BARE);
	assert_int_equal(revisit_first_fits(2, cost, bare), REVISIT_FIRST_BARE);
	assert_int_equal(revisit_first_fits(1.9, cost, bare), REVISIT_FIRST_NONE);
}

/* The first round's picks as revisit_run takes them, on the same plan: with 6 s left its rivals (five picks,
   6 s), with 5.9 s each row's best alone (load.sse's points 2 and 6, 2 s), rival 0 and why; with 1.9 s its
   rivals still, which revisit_run then finds no room for. Each time what a later round is reckoned at before
   any ran: the picks without rivals, 2 s. */
static void test_first_round_picks(void **state)
{
	struct plan_point pts[RIVALS_N];
	struct run_point_result res[RIVALS_N];
	struct plan p = {pts, RIVALS_N, "", ""};
	struct revisit_done d;
	double left[3] = {6, 5.9, 1.9};
	int pick[RIVALS_N], n;

	(void)state;
	rivals_plan(pts, res);
	for (int i = 0; i < RIVALS_N; i++)
		res[i].first_seconds = i == 4 ? 2 : 1;
	for (int k = 0; k < 3; k++) {
		double cost, later = -1;

		memset(&d, 0xff, sizeof d);
		n = revisit_choose(&p, res, REVISIT_RIVAL, pick);
		cost = revisit_first_cost(res, pick, n);
		revisit_first_round(&p, res, left[k], pick, &n, &cost, &later, &d);
		assert_true(later == 2);
		if (k == 1) {
			assert_int_equal(n, 2);
			assert_int_equal(pick[0], 2);
			assert_int_equal(pick[1], 6);
			assert_true(cost == 2 && d.rival == 0);
			assert_string_equal(
				d.rivals_left_out,
				"the first round left out each variant's best within 25 % of its "
				"row's: only the rows' best fitted (5.9 s left; 2.0 s reckoned, 6.0 s "
				"with them)");
		} else {
			assert_int_equal(n, 5);
			assert_true(cost == 6 && d.rival == REVISIT_RIVAL);
			assert_string_equal(d.rivals_left_out, "");
		}
	}
}

/* A round's share is an equal part of what is left for each round that fits, not each round asked: rounds of
   3.9 s with 12 s left and 4 asked fit three times, 4 s apart, and each has 4 s (an equal part of the four asked,
   3 s, is less than a round's cost: a round got its cost alone, its points little past their first repetitions,
   and the rest idled); never less than its cost; where every round asked fits, the left is split among them; a
   round costlier than REVISIT_APART_S spaces the rounds by its cost. */
static void test_round_share_is_of_the_rounds_that_fit(void **state)
{
	(void)state;
	assert_true(fabs(revisit_share(12, 3.9, 3.9, 4) - 4) < 1e-12);
	assert_true(fabs(revisit_share(10, 3.9, 3.9, 4) - 5) < 1e-12);
	assert_true(fabs(revisit_share(3, 3.9, 3.9, 4) - 3.9) < 1e-12);
	assert_true(fabs(revisit_share(100, 10, 10, 4) - 25) < 1e-12);
	assert_true(fabs(revisit_share(100, 10, 10, 1) - 100) < 1e-12);
	/* 6 s apart, three fit in 20 s (4 s apart, four would, at 5 s each: less than their cost) */
	assert_true(fabs(revisit_share(20, 6, 6, 4) - 20.0 / 3) < 1e-12);
	assert_true(fabs(revisit_share(17, 6, 6, 4) - 8.5) < 1e-12);
	/* a first round of 6 s (its rivals) before rounds of 3: four fit in 20 s (three at 6 s each), so it
	   gets its cost; in 30 s an equal part, 7.5 */
	assert_true(fabs(revisit_share(20, 6, 3, 4) - 6) < 1e-12);
	assert_true(fabs(revisit_share(30, 6, 3, 4) - 7.5) < 1e-12);
}

/* The rounds after the first are reckoned at its floor less its points' first repetitions, plus the kept
   points' (2 and 7 of 1, 2, 5, 7: 0.2 + 0.4), and the rest of the floor (1 s) for two points of four. */
static void test_narrowed_rounds_are_reckoned_at_their_points(void **state)
{
	int pick[4] = {1, 2, 5, 7}, later[2] = {2, 7};
	struct run_point_result round[4] = {{.first_seconds = 0.1},
					    {.first_seconds = 0.2},
					    {.first_seconds = 0.3},
					    {.first_seconds = 0.4}};

	(void)state;
	assert_true(fabs(revisit_narrowed_cost(2.0, pick, round, 4, later, 2) - 1.1) < 1e-12);
	assert_true(fabs(revisit_narrowed_cost(2.0, pick, round, 4, pick, 4) - 2.0) < 1e-12);
	assert_true(fabs(revisit_narrowed_cost(2.0, pick, round, 0, later, 0) - 2.0) < 1e-12);
}

/* A later round is reckoned at the one before less what its points' repetitions past their first took: a
   round fills its share, so reckoned at its whole time it would leave fewer rounds that fit than there were.
   Rounds that fill their shares, 4 s apart, run as many as fitted when the first began: 11.95 s left, rounds of
   3.9 s with one repetition per point, 4 asked, three. */
static void test_later_rounds_are_reckoned_at_their_floor(void **state)
{
	struct run_point_result res[2] = {{.first_seconds = 0.5, .visit_seconds = 1.25},
					  {.first_seconds = 0.25, .visit_seconds = 0.25}};
	double left = 11.95, cost = 3.9, floor_s = 3.9, now = 0;
	int rounds = 0;

	(void)state;
	assert_true(fabs(revisit_round_floor(5, res, 2) - 4.25) < 1e-12);
	assert_true(fabs(revisit_round_floor(5, res, 0) - 5) < 1e-12);
	while (rounds < 4 && now + cost <= left) {
		double share = revisit_share(left - now, cost, cost, 4 - rounds);
		/* its points' first repetitions and the set-up take floor_s, further repetitions the rest */
		struct run_point_result r = {.first_seconds = 1, .visit_seconds = 1 + share - floor_s};

		rounds++;
		cost = revisit_round_floor(share, &r, 1);
		now += share > REVISIT_APART_S ? share : REVISIT_APART_S;
	}
	assert_int_equal(rounds, 3);
}

/* A round is a copy of the picked points, in the order given. */
static void test_round_copies_the_picks(void **state)
{
	struct plan_point pts[] = {at("load.gpr", LEVEL_L1, 1, 0), at("store.gpr", LEVEL_L1, 1, 0)};
	struct plan p = {pts, 2, "", ""}, round;
	int pick[2] = {1, 0};

	(void)state;
	assert_int_equal(revisit_round(&p, pick, 2, &round), 0);
	assert_int_equal(round.npoints, 2);
	assert_ptr_equal(round.points[0].var, pts[1].var);
	assert_ptr_equal(round.points[1].var, pts[0].var);
	plan_free(&round);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_pick_per_row_at_its_best),
		cmocka_unit_test(test_rivals_within_a_quarter_of_their_row),
		cmocka_unit_test(test_later_rounds_revisit_each_row_at_its_best_so_far),
		cmocka_unit_test(test_every_size_of_a_latency_row),
		cmocka_unit_test(test_picks_stay_in_plan_order_and_need_an_outcome),
		cmocka_unit_test(test_first_round_is_reckoned_at_first_repetitions),
		cmocka_unit_test(test_first_round_leaves_its_rivals_out_where_they_do_not_fit),
		cmocka_unit_test(test_first_round_picks),
		cmocka_unit_test(test_round_share_is_of_the_rounds_that_fit),
		cmocka_unit_test(test_narrowed_rounds_are_reckoned_at_their_points),
		cmocka_unit_test(test_later_rounds_are_reckoned_at_their_floor),
		cmocka_unit_test(test_round_copies_the_picks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
