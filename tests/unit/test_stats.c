/* test_stats.c — the one median and the one point-time estimator (common/stats.c) of harness and analysis: for
 * an even count the mean of the two middle values, as numpy and R take it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "stats.h"

static void test_median_of_odd_count_is_the_middle_value(void **state)
{
	double v[5] = {9, 1, 5, 3, 7};

	(void)state;
	assert_true(stats_median(v, 5) == 5);
	assert_true(v[0] == 1 && v[4] == 9); /* sorted in place */
}

/* {1, 2, 3, 10}: the upper middle (the run's summary took it) gives 3, the lower 2, numpy and R 2.5. */
static void test_median_of_even_count_is_mean_of_the_middle_two(void **state)
{
	double v[4] = {10, 3, 1, 2}, two[2] = {4, 6};

	(void)state;
	assert_true(stats_median(v, 4) == 2.5);
	assert_true(stats_median(two, 2) == 5);
}

/* The selection median is the sorting one, on sizes around the insertion cut-off (16) and beyond, with
   repeated values, odd and even counts. */
static void test_median_by_selection_equals_the_sorted_median(void **state)
{
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (size_t n = 1; n < 300; n += n < 40 ? 1 : 37) {
		double a[300], b[300];
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			a[i] = b[i] = (double)(x % (n / 3 + 2)); /* many ties */
		}
		assert_true(stats_median_select(a, n) == stats_median(b, n));
	}
	assert_true(stats_median_select(NULL, 0) == 0);
}

static void test_median_of_nothing_is_zero(void **state)
{
	(void)state;
	assert_true(stats_median(NULL, 0) == 0);
}

/* Times <= 0 and clocks of 0 are no values: {-5, 0, 2, 4, 6, 8} has the median 5 of {2, 4, 6, 8}, where a
   median over all six gives 3 and the upper middle of all six 4. */
static void test_median_positive_leaves_out_non_positive_values(void **state)
{
	double v[6] = {8, -5, 4, 0, 6, 2}, none[2] = {0, -1};

	(void)state;
	assert_true(stats_median_positive(v, 6) == 5);
	assert_true(v[0] == 2 && v[3] == 8); /* the positive values, sorted, in front */
	assert_true(stats_median_positive(none, 2) == 0);
}

/* Failed clock samples (0) are left out of the mean; none left gives 0. */
static void test_mean_of_positive_samples(void **state)
{
	const double v[4] = {4.0, 0, 4.4, 0}, none[2] = {0, 0};

	(void)state;
	assert_true(fabs(stats_mean_positive(v, 4) - 4.2) < 1e-12);
	assert_true(stats_mean_positive(v, 1) == 4.0);
	assert_true(stats_mean_positive(none, 2) == 0);
}

/* The highest of the clock samples; failed ones (0) are no values, and none left gives 0. */
static void test_max_of_positive_samples(void **state)
{
	const double v[5] = {3.5, 0, 3.7, -1, 3.6}, none[2] = {0, -1};

	(void)state;
	assert_true(stats_max_positive(v, 5) == 3.7);
	assert_true(stats_max_positive(v, 2) == 3.5);
	assert_true(stats_max_positive(none, 2) == 0);
	assert_true(stats_max_positive(v, 0) == 0);
}

/* Two threads reading at 84 % of twice one thread's speed (a neighbour on the host): 0.84, the share
   report.md judges and the run's summary states; a missing median gives no share, not 0 % or infinity. */
static void test_thread_share_of_one_thread_speed(void **state)
{
	(void)state;
	assert_float_equal(stats_thread_share(168, 2, 100), 0.84, 1e-12);
	assert_float_equal(stats_thread_share(400, 4, 100), 1.0, 1e-12);
	assert_true(stats_thread_share(168, 2, 0) == 0);
	assert_true(stats_thread_share(0, 2, 100) == 0);
	assert_true(stats_thread_share(168, 0, 100) == 0);
	assert_true(stats_thread_share(NAN, 2, 100) == 0);
}

/* One repetition preempted in each call length: the estimate is the undisturbed 100, never the 40 of the
   repetition whose R call was stretched (faster than any real repetition). */
static void test_mindiff_gives_the_undisturbed_time_when_one_repetition_is_preempted(void **state)
{
	const double lo[4] = {100, 160, 101, 100}, hi[4] = {200, 200, 650, 201};
	struct stats_mindiff m = {0};

	(void)state;
	for (int i = 0; i < 4; i++)
		stats_mindiff_add(&m, lo[i], hi[i]);
	assert_true(stats_mindiff(&m) == 100);
	assert_true(stats_mindiff(&m) >= 200 - 101); /* the fastest undisturbed repetition */
}

/* Calls of 0 ticks (files before tsc_lo/tsc_hi) are none; no call, or R longer than 2R, gives 0. */
static void test_mindiff_without_a_valid_pair_is_zero(void **state)
{
	struct stats_mindiff m = {0};

	(void)state;
	assert_true(stats_mindiff(&m) == 0);
	stats_mindiff_add(&m, 0, 0);
	assert_true(stats_mindiff(&m) == 0);
	stats_mindiff_add(&m, 300, 200);
	assert_true(stats_mindiff(&m) == 0);
}

/* Every R call stretched (by 30-60 ticks): min(R) is too long and the difference too short, a point faster
   than the hardware. The spread says the minimum is unconfirmed until two R calls agree. */
static void test_mindiff_spread_flags_a_minimum_no_second_call_confirms(void **state)
{
	const double lo[3] = {130, 160, 145}, hi[3] = {200, 201, 240};
	struct stats_mindiff m = {0};

	(void)state;
	assert_true(isinf(stats_mindiff_spread(&m)));
	stats_mindiff_add(&m, lo[0], hi[0]);
	assert_true(isinf(stats_mindiff_spread(&m))); /* one call of each length confirms nothing */
	for (int i = 1; i < 3; i++)
		stats_mindiff_add(&m, lo[i], hi[i]);
	assert_true(stats_mindiff(&m) == 70);
	assert_true(fabs(stats_mindiff_spread(&m) - 15.0 / 70) < 1e-12); /* R calls 130 and 145 */
	stats_mindiff_add(&m, 100, 202);                                 /* an undisturbed repetition */
	stats_mindiff_add(&m, 100.5, 250);                               /* and a second one */
	assert_true(stats_mindiff(&m) == 100);
	assert_true(fabs(stats_mindiff_spread(&m) - 1.0 / 100) < 1e-12); /* 2R calls 200 and 201 */
}

/* Every 2R call stretched alike (a host's time slice in each, as a 16 KiB chase's on the Emerald Rapids
   guest): the two shortest of each length agree, and their difference (3420 - 430 = 2990, 7x the work) is
   longer than the R call, so the R call is the estimate, confirmed by the second R call alone (1 / 430);
   the 2R calls' own spread does not count (the third's 4230 would). Once a 2R call is no longer than
   twice the R call, the difference is the estimate again, and both lengths confirm it. */
static void test_mindiff_takes_the_r_call_where_every_2r_call_was_stretched(void **state)
{
	struct stats_mindiff m = {0};

	(void)state;
	assert_false(stats_mindiff_r_call(&m)); /* no call yet */
	stats_mindiff_add(&m, 430, 3420);
	assert_true(stats_mindiff(&m) == 430);
	assert_true(stats_mindiff_r_call(&m));
	assert_true(isinf(stats_mindiff_spread(&m))); /* one R call confirms nothing */
	stats_mindiff_add(&m, 446, 4230);
	assert_true(stats_mindiff(&m) == 430);
	assert_true(fabs(stats_mindiff_spread(&m) - 16.0 / 430) < 1e-12);
	stats_mindiff_add(&m, 431, 3424);
	assert_true(fabs(stats_mindiff_spread(&m) - 1.0 / 430) < 1e-12);
	stats_mindiff_add(&m, 432, 858); /* a clean 2R call: 858 - 430 */
	assert_true(stats_mindiff(&m) == 428);
	assert_false(stats_mindiff_r_call(&m));
	assert_true(fabs(stats_mindiff_spread(&m) - (3420.0 - 858) / 428) < 1e-12);
	stats_mindiff_add(&m, 433, 859);
	assert_true(fabs(stats_mindiff_spread(&m) - 1.0 / 428) < 1e-12);
	assert_true(stats_mindiff(&m) <= stats_mindiff_bound(&m)); /* never slower than the bound */
}

/* Touch (by_size): a 2N call past twice the N call is page faults, not a stretch, so the time stays the
   difference. Spans of several threads: their R call may stand in, and the R calls alone confirm it, as
   far as the shortest 2R call is past twice it (30 % here); once a 2R call is clean the difference is the
   estimate again, and twice the R call past the 2R call (the threads' start skew, 10 % here) is no
   mismatch for spans, where one thread's would be. */
static void test_mindiff_of_touch_and_of_spans(void **state)
{
	struct stats_mindiff m = {.by_size = 1};

	(void)state;
	stats_mindiff_add(&m, 100, 230);
	stats_mindiff_add(&m, 101, 231);
	assert_true(stats_mindiff(&m) == 130);
	assert_false(stats_mindiff_r_call(&m)); /* touch: the difference, however long */
	assert_true(fabs(stats_mindiff_spread(&m) - 1.0 / 130) < 1e-12);
	assert_true(stats_mindiff_mismatch(&m) == 0);
	m = (struct stats_mindiff){.spans = 1};
	stats_mindiff_add(&m, 100, 230);
	stats_mindiff_add(&m, 101, 231);
	assert_true(stats_mindiff(&m) == 100);
	assert_true(stats_mindiff_r_call(&m));
	assert_true(fabs(stats_mindiff_spread(&m) - 1.0 / 100) < 1e-12);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 30.0 / 100) < 1e-12);
	m.spans = 0; /* one thread: twice the R call standing in is short of the 2R call */
	assert_true(fabs(stats_mindiff_mismatch(&m) + 30.0 / 100) < 1e-12);
	m.spans = 1;
	stats_mindiff_add(&m, 102, 199); /* a clean 2R call: the difference, 99, both lengths confirm it */
	stats_mindiff_add(&m, 103, 200);
	assert_true(stats_mindiff(&m) == 99);
	assert_true(fabs(stats_mindiff_spread(&m) - 1.0 / 99) < 1e-12);
	assert_true(stats_mindiff_mismatch(&m) == 0);
	m = (struct stats_mindiff){.spans = 1};
	stats_mindiff_add(&m, 110, 210); /* a skew of 10 in both calls */
	assert_true(stats_mindiff(&m) == 100);
	assert_true(stats_mindiff_mismatch(&m) == 0);
	m.spans = 0;
	assert_true(fabs(stats_mindiff_mismatch(&m) - 10.0 / 100) < 1e-12);
	/* The longest thread's own calls hold no skew: undisturbed, 101 and 201 (a fixed cost of 1), no
	   mismatch; every R call stretched alike by 30 (own 131, spans 140 and 210), the difference 70 is 30
	   short, and the own calls say so (61 of 70), where the spans alone said nothing. */
	m = (struct stats_mindiff){.spans = 1};
	stats_mindiff_add_spans(&m, 110, 210, 101, 201);
	stats_mindiff_add_spans(&m, 111, 211, 102, 0); /* a call of 0 ticks is none */
	stats_mindiff_add_spans(&m, 112, 212, 0, 202);
	assert_true(m.own_lo == 101 && m.own_hi == 201);
	assert_true(m.lo_skew == 9 && m.hi_skew == 9);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 1.0 / 100) < 1e-12);
	m = (struct stats_mindiff){.spans = 1};
	stats_mindiff_add_spans(&m, 140, 210, 131, 201);
	assert_true(m.lo_skew == 9 && m.hi_skew == 9); /* the spans alone: no mismatch */
	assert_true(fabs(stats_mindiff_mismatch(&m) - 61.0 / 70) < 1e-12);
}

/* A shortest span without its own call (0: none) has a skew between none and all of it, and its skew is
   the one that holds the point furthest from confirmed: an R span's all of it, a 2R span's none. The R
   span of 110 whose threads' own R call was 100 began 10 apart (a difference 10 short, 20 of 90 is
   the mismatch); without that own call, its skew taken as 0 hid it (mismatch 0: confirmed), where it now
   reads 2 * 110 of 90. A shorter R span with its own call then gives the skew it measured; a 2R span
   without one counts no skew, the most mismatch it can make. */
static void test_mindiff_span_without_own_call_is_not_taken_for_no_skew(void **state)
{
	struct stats_mindiff m = {.spans = 1};

	(void)state;
	stats_mindiff_add_spans(&m, 110, 200, 0, 200);
	assert_true(stats_mindiff(&m) == 90);
	assert_true(m.lo_skew == 110 && m.hi_skew == 0);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 220.0 / 90) < 1e-12);
	stats_mindiff_add_spans(&m, 104, 201, 100, 200); /* a shorter R span, its own skew 4 */
	assert_true(m.lo_skew == 4 && m.hi_skew == 0);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 8.0 / 96) < 1e-12);
	m = (struct stats_mindiff){.spans = 1};
	stats_mindiff_add_spans(&m, 110, 215, 100, 0); /* the 2R span's skew unknown: none */
	assert_true(m.lo_skew == 10 && m.hi_skew == 0);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 20.0 / 105) < 1e-12);
}

/* The shortest R span and the shortest 2R span came from repetitions whose threads started apart by
   different amounts: R calls of 100 ticks of work began 10 apart, the 2R calls of 200 together, so their
   difference (90) is 10 short of the work, and the threads' own calls (100, 200) say nothing: the skew
   does, twice its difference (20 of 90, past what confirms a cache point). A 2R span that began with
   more skew only makes the difference longer (no mismatch), and so does a skew alike in both. */
static void test_mindiff_mismatch_says_the_r_span_began_more_apart(void **state)
{
	struct stats_mindiff m = {.spans = 1};

	(void)state;
	stats_mindiff_add_spans(&m, 110, 200, 100, 200);
	assert_true(stats_mindiff(&m) == 90);
	assert_true(m.lo_skew == 10 && m.hi_skew == 0);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 20.0 / 90) < 1e-12);
	stats_mindiff_add_spans(&m, 104, 201, 100, 200); /* a shorter R span, its skew 4 */
	assert_true(m.lo_skew == 4 && m.hi_skew == 0);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 8.0 / 96) < 1e-12);
	m = (struct stats_mindiff){.spans = 1};
	stats_mindiff_add_spans(&m, 110, 215, 100, 200); /* skews 10 and 15 */
	assert_true(stats_mindiff(&m) == 105 && !stats_mindiff_r_call(&m));
	assert_true(stats_mindiff_mismatch(&m) == 0);
	m = (struct stats_mindiff){.spans = 1};
	stats_mindiff_add_spans(&m, 110, 210, 100, 200);
	assert_true(stats_mindiff_mismatch(&m) == 0);
}

/* Every R call stretched alike and no 2R call: the shortest R call past half the shortest 2R call by 1.69
   of the difference, the 608 KiB triad.avx512 point of stats.h confirmed at twice its speed (both lengths
   agree); an undisturbed point's R call past by its fixed cost (2 of 100 ticks); where the R call is the
   estimate (every 2R call stretched) it is short of half the 2R call. No estimate: INFINITY. */
static void test_mindiff_mismatch_says_every_r_call_was_stretched(void **state)
{
	struct stats_mindiff m = {0};

	(void)state;
	assert_true(isinf(stats_mindiff_mismatch(&m)));
	stats_mindiff_add(&m, 13358392, 18320674);
	stats_mindiff_add(&m, 13428106, 18370318);
	assert_true(stats_mindiff(&m) == 18320674.0 - 13358392);
	assert_true(stats_mindiff_spread(&m) < 0.015);
	assert_true(fabs(stats_mindiff_mismatch(&m) - (2 * 13358392.0 - 18320674) / 4962282) < 1e-12);
	assert_true(stats_mindiff_mismatch(&m) > 1.69 && stats_mindiff_mismatch(&m) < 1.70);
	m = (struct stats_mindiff){0};
	stats_mindiff_add(&m, 102, 202);
	assert_true(fabs(stats_mindiff_mismatch(&m) - 2.0 / 100) < 1e-12);
	m = (struct stats_mindiff){0};
	stats_mindiff_add(&m, 100, 300);
	assert_true(stats_mindiff(&m) == 100);
	assert_true(fabs(stats_mindiff_mismatch(&m) - (-100.0 / 100)) < 1e-12);
}

/* 20 sorted samples 1..20: the first decile is the 2nd smallest, the ninth the 18th (index 19 * 9 / 10 = 17),
   the tenth the largest; one sample is every decile. */
static void test_decile_is_a_value_of_the_sorted_samples(void **state)
{
	double v[20], one = 7;

	(void)state;
	for (int i = 0; i < 20; i++)
		v[i] = i + 1;
	assert_true(stats_decile(v, 20, 0) == 1);
	assert_true(stats_decile(v, 20, 1) == 2);
	assert_true(stats_decile(v, 20, 9) == 18);
	assert_true(stats_decile(v, 20, 10) == 20);
	assert_true(stats_decile(&one, 1, 1) == 7 && stats_decile(&one, 1, 9) == 7);
}

/* The spread of samples in run order, which it leaves as they were: the largest, the median, the low tenth;
   none of no samples. A push grows the samples' room as it fills, keeping every value. */
static void test_spread_and_push_of_samples(void **state)
{
	double *v = NULL;
	int n = 0, cap = 0;
	struct stats_spread s;

	(void)state;
	for (int i = 0; i < 100; i++)
		assert_int_equal(stats_push(&v, &n, &cap, (double)((i * 37) % 100 + 1)), 0);
	assert_int_equal(n, 100);
	assert_true(cap >= 100);
	assert_true(v[0] == 1 && v[1] == 38 && v[99] == 64); /* run order, every value kept */
	s = stats_spread(v, (size_t)n);
	assert_true(s.n == 100 && s.best == 100 && s.median == 50.5 && s.p10 == 10);
	assert_true(v[1] == 38);
	s = stats_spread(v, 0);
	assert_true(s.n == 0 && s.best == 0 && s.median == 0 && s.p10 == 0);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_of_odd_count_is_the_middle_value),
		cmocka_unit_test(test_median_of_even_count_is_mean_of_the_middle_two),
		cmocka_unit_test(test_median_by_selection_equals_the_sorted_median),
		cmocka_unit_test(test_median_of_nothing_is_zero),
		cmocka_unit_test(test_median_positive_leaves_out_non_positive_values),
		cmocka_unit_test(test_mean_of_positive_samples),
		cmocka_unit_test(test_max_of_positive_samples),
		cmocka_unit_test(test_thread_share_of_one_thread_speed),
		cmocka_unit_test(test_mindiff_gives_the_undisturbed_time_when_one_repetition_is_preempted),
		cmocka_unit_test(test_mindiff_without_a_valid_pair_is_zero),
		cmocka_unit_test(test_mindiff_spread_flags_a_minimum_no_second_call_confirms),
		cmocka_unit_test(test_mindiff_takes_the_r_call_where_every_2r_call_was_stretched),
		cmocka_unit_test(test_mindiff_of_touch_and_of_spans),
		cmocka_unit_test(test_mindiff_mismatch_says_every_r_call_was_stretched),
		cmocka_unit_test(test_mindiff_mismatch_says_the_r_span_began_more_apart),
		cmocka_unit_test(test_mindiff_span_without_own_call_is_not_taken_for_no_skew),
		cmocka_unit_test(test_decile_is_a_value_of_the_sorted_samples),
		cmocka_unit_test(test_spread_and_push_of_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
