/* test_run_record.c — what a point keeps of its repetitions: its time (min(2R) - min(R), or min(R)), its
 * clock (the highest) and the noise measure. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "noisy_why.h"
#include "run.h"
#include "run_record.h"

/* Five repetitions of two groups; group 1's clocks must not count, nor a failed sample (0). */
static void test_point_clock_is_the_highest_group_0_sample(void **state)
{
	struct point_record r;
	const double g0[5] = {4.1, 0, 4.4, 3.9, 4.2}, g1[5] = {9, 9, 9, 9, 9};

	(void)state;
	assert_int_equal(record_init(&r, 5, 2), 0);
	for (int i = 0; i < 5; i++) {
		record_pass(&r, i, 0)->ghz = g0[i];
		record_pass(&r, i, 1)->ghz = g1[i];
	}
	assert_true(record_ghz(&r) == 4.4); /* the highest of 3.9 4.1 4.2 4.4: the others were slowed */
	for (int i = 0; i < 5; i++)
		record_pass(&r, i, 0)->ghz = 0;
	assert_true(record_ghz(&r) == 0);
	record_free(&r);
}

/* Faster than any core (KERN_MAX_BYTES_PER_CYCLE, 256): 300 bytes per ns is 300 per cycle at 1 GHz, 150
   at 2. A point judges at its own clock; one none of whose clock samples was accepted at the run's, as
   the analysis does, and not at all when the run has none either. */
static void test_impossibly_fast_at_own_or_run_clock(void **state)
{
	struct point_record r;
	const double seconds = 1;

	(void)state;
	assert_int_equal(record_init(&r, 3, 1), 0);
	r.v.bytes_loaded = 200000000000u;
	r.v.bytes_stored = 100000000000u;
	for (int i = 0; i < 3; i++)
		record_pass(&r, i, 0)->ghz = 0; /* every sample rejected */
	assert_true(record_impossibly_fast(&r, seconds, 1.0, 1));
	assert_false(record_impossibly_fast(&r, seconds, 2.0, 1));
	assert_false(record_impossibly_fast(&r, seconds, 0, 1));
	for (int i = 0; i < 3; i++)
		record_pass(&r, i, 0)->ghz = 2.0;
	assert_false(record_impossibly_fast(&r, seconds, 1.0, 1)); /* its own clock, not the run's */
	for (int i = 0; i < 3; i++)
		record_pass(&r, i, 0)->ghz = 1.0;
	assert_true(record_impossibly_fast(&r, seconds, 2.0, 1));
	assert_false(record_impossibly_fast(&r, seconds, 2.0, 2)); /* two threads: 150 each */
	record_free(&r);
}

/* Faster than any core by its instructions, at a byte rate under KERN_MAX_BYTES_PER_CYCLE: 9 loads (16 bytes
   each, 144 bytes) a cycle, or 5 stores, where no core does more than 4 loads or 2 stores (kern.h). */
static void test_impossibly_many_loads_or_stores(void **state)
{
	struct point_record r;
	const double seconds = 1;

	(void)state;
	assert_int_equal(record_init(&r, 3, 1), 0);
	for (int i = 0; i < 3; i++)
		record_pass(&r, i, 0)->ghz = 1.0;
	r.v.loads = 9000000000u;
	r.v.bytes_loaded = 16 * r.v.loads;
	assert_true(record_impossibly_fast(&r, seconds, 1.0, 1));
	assert_false(record_impossibly_fast(&r, seconds, 1.0, 2)); /* two threads: 4.5 each */
	/* at the limit, not past it */
	r.v.loads = 8000000000u;
	r.v.bytes_loaded = 16 * r.v.loads;
	assert_false(record_impossibly_fast(&r, seconds, 1.0, 1));
	r.v.loads = r.v.bytes_loaded = 0;
	r.v.stores = 5000000000u;
	r.v.bytes_stored = 8 * r.v.stores;
	assert_true(record_impossibly_fast(&r, seconds, 1.0, 1));
	assert_false(record_impossibly_fast(&r, seconds, 1.0, 2)); /* 2.5 each */
	record_free(&r);
}

static void test_cv_of_repetition_times(void **state)
{
	struct point_record r;
	const int64_t ticks[4] = {100, 100, 100, 100};

	(void)state;
	assert_int_equal(record_init(&r, 4, 1), 0);
	for (int i = 0; i < 4; i++)
		record_pass(&r, i, 0)->ticks = ticks[i];
	assert_true(record_cv(&r) == 0);
	record_pass(&r, 3, 0)->ticks = 140; /* mean 110, sample sd 20 */
	assert_true(fabs(record_cv(&r) - 20.0 / 110) < 1e-12);
	record_free(&r);
}

/* A repetition is disturbed where a call of it took more than RECORD_DISTURBED (10 %) longer than the
   shortest of its length: of R calls of 1000 ticks one at 1099 is not, one at 1101 is; of 2R calls of 1995
   one at 2190 is not, one at 2200 is. Of several threads their longest thread's own calls count, not the
   spans with their start skew; fresh-memory points (by_size) are not judged, and so not counted in the
   repetitions judged (record_judged), the whole of which the disturbed ones are a part. */
static void test_disturbed_repetitions_have_a_call_far_past_the_shortest(void **state)
{
	struct point_record r;
	const uint64_t lo[5] = {1000, 1099, 1101, 1000, 1000}, hi[5] = {1995, 1995, 1995, 2190, 2200};

	(void)state;
	assert_true(fabs(RECORD_DISTURBED - 0.10) < 1e-12); /* the calls below are for 10 % */
	assert_int_equal(record_init(&r, 5, 1), 0);
	for (int i = 0; i < 5; i++) {
		record_pass(&r, i, 0)->lo = record_pass(&r, i, 0)->lo_own = lo[i];
		record_pass(&r, i, 0)->hi = record_pass(&r, i, 0)->hi_own = hi[i];
	}
	assert_int_equal(record_disturbed(&r), 2);
	assert_int_equal(record_judged(&r), 5);
	r.spans = 1; /* the spans' skew moves; the own calls hold none */
	for (int i = 0; i < 5; i++)
		record_pass(&r, i, 0)->lo += 300 * (uint64_t)i;
	assert_int_equal(record_disturbed(&r), 2);
	r.spans = 0;
	assert_int_equal(record_disturbed(&r), 4); /* judged on those spans, the skew would count */
	r.by_size = 1;
	assert_int_equal(record_disturbed(&r), 0);
	assert_int_equal(record_judged(&r), 0);
	record_free(&r);
}

/* The point's time is min(2R call) - min(R call) over the repetitions, or min(R call) where that is
   shorter. Repetition 1's R call was preempted (+60): its own difference (40) is faster than any real
   repetition, and a median of the differences moves with it; repetition 3's 2R call was preempted (+500).
   Undisturbed: 100 and 200 ticks. With every 2R call stretched by 300 the difference reads 400, the R
   call 100; a touch point's (2N and N bytes) stays the difference. */
static void test_point_time_is_min_2r_minus_min_r(void **state)
{
	struct point_record r;
	const uint64_t lo[5] = {101, 160, 100, 102, 100}, hi[5] = {201, 200, 203, 700, 200};

	(void)state;
	assert_int_equal(record_init(&r, 5, 1), 0);
	for (int i = 0; i < 5; i++) {
		record_pass(&r, i, 0)->lo = lo[i];
		record_pass(&r, i, 0)->hi = hi[i];
		record_pass(&r, i, 0)->ticks = (int64_t)(hi[i] - lo[i]);
	}
	assert_true(fabs(record_seconds(&r, 10.0, 0) - 10.0) < 1e-12); /* 100 ticks over 10 Hz */
	for (int i = 0; i < 5; i++)
		record_pass(&r, i, 0)->hi = 500 + (uint64_t)i; /* every 2R call stretched: the R call, 100 */
	assert_true(fabs(record_seconds(&r, 10.0, 0) - 10.0) < 1e-12);
	r.by_size = 1; /* touch: 2N past twice N is page faults, the difference stands */
	assert_true(fabs(record_seconds(&r, 10.0, 0) - 40.0) < 1e-12);
	r.by_size = 0;
	for (int i = 0; i < 5; i++) { /* the longest thread's own calls */
		record_pass(&r, i, 0)->lo_own = 90 + (uint64_t)i;
		record_pass(&r, i, 0)->hi_own = 180 - (uint64_t)i;
	}
	assert_true(record_calls(&r).own_lo == 0); /* one thread: its calls are its own */
	r.spans = 1; /* several threads: the calls say so (stats_mindiff_mismatch: 2R 300 past twice R) */
	{
		struct stats_mindiff m = record_calls(&r);
		assert_true(m.spans && !m.by_size);
		assert_true(m.own_lo == 90 && m.own_hi == 176);
		assert_true(fabs(stats_mindiff_mismatch(&m) - 300.0 / 100) < 1e-12);
	}
	r.spans = 0;
	for (int i = 0; i < 5; i++)
		record_pass(&r, i, 0)->lo = 600; /* every R call longer than every 2R call: no time */
	assert_true(record_seconds(&r, 10.0, 0) == 0);
	record_free(&r);
}

/* A disturbed point's time is the bound no disturbance shortens, min(min(R), min(2R) / 2): with every R
   call stretched (150-170 ticks for 100 ticks of work), min(2R) - min(R) reads 50 ticks, twice as fast as
   the hardware; the bound reads the 2R call's 100. */
static void test_disturbed_point_time_is_the_bound(void **state)
{
	struct point_record r;
	const uint64_t lo[3] = {150, 170, 160}, hi[3] = {200, 230, 210};

	(void)state;
	assert_int_equal(record_init(&r, 3, 1), 0);
	for (int i = 0; i < 3; i++) {
		record_pass(&r, i, 0)->lo = lo[i];
		record_pass(&r, i, 0)->hi = hi[i];
	}
	assert_true(fabs(record_seconds(&r, 10.0, 0) - 5.0) < 1e-12);
	assert_true(fabs(record_seconds(&r, 10.0, 1) - 10.0) < 1e-12);
	record_pass(&r, 0, 0)->lo = 90; /* an R call shorter than half the shortest 2R call: the R call */
	assert_true(fabs(record_seconds(&r, 10.0, 1) - 9.0) < 1e-12);
	record_free(&r);
}

/* The summary's figures of a point: a clean one's at its time, which may be its R call (every 2R call
   stretched: said, r_call), a noisy one's at its bound, never called its R call's; both keep the bound for
   a later slow-machine judgement. 10^9 bytes over 100 ticks at 10 Hz: 10 s, 0.1 GB/s. */
static void test_summary_figures_say_where_the_time_is_the_r_call(void **state)
{
	struct point_record r;
	struct run_point_result res = {0};
	const uint64_t lo[2] = {100, 101}, hi[2] = {190, 191};

	(void)state;
	assert_int_equal(record_init(&r, 2, 1), 0);
	r.v.bytes_loaded = 1000000000;
	for (int i = 0; i < 2; i++) {
		record_pass(&r, i, 0)->lo = lo[i];
		record_pass(&r, i, 0)->hi = hi[i];
	}
	record_summarise(&res, &r, 1, 10.0, 0); /* the difference, 90 ticks */
	assert_true(fabs(res.gbps - 1 / 9.0) < 1e-12 && !res.r_call);
	assert_true(fabs(res.bound_gbps - 1 / 9.5) < 1e-12); /* min(100, 190 / 2) */
	for (int i = 0; i < 2; i++)
		record_pass(&r, i, 0)->hi = 300 + (uint64_t)i; /* every 2R call stretched: the R call, 100 */
	record_summarise(&res, &r, 1, 10.0, 0);
	assert_true(fabs(res.gbps - 0.1) < 1e-12 && res.r_call);
	record_summarise(&res, &r, 1, 10.0, 1); /* noisy: at its bound, the same call, not said */
	assert_true(fabs(res.gbps - 0.1) < 1e-12 && !res.r_call);
	r.by_size = 1; /* touch: the difference, 200, however long */
	record_summarise(&res, &r, 1, 10.0, 0);
	assert_true(fabs(res.gbps - 0.05) < 1e-12 && !res.r_call);
	record_free(&r);
}

/* A repetition's calls of two threads, the second started 4 ticks late in both (the skew): the spans hold
   it, the longest thread's own calls do not, and their difference is the spans'. The R call's threads
   apart (the second started after the first ended) is said. */
static void test_pass_calls_of_threads(void **state)
{
	struct rec_pass p = {0};
	const uint64_t start_lo[2] = {1000, 1004}, lo[2] = {100, 98}, start_hi[2] = {2000, 2004},
		       hi[2] = {190, 200}, late[2] = {1000, 1101};

	(void)state;
	record_pass_calls(&p, start_lo, lo, start_hi, hi, 2);
	assert_true(p.lo == 102 && p.hi == 204 && p.ticks == 102);
	assert_true(p.lo_own == 100 && p.hi_own == 200);
	assert_false(p.apart);
	record_pass_calls(&p, late, lo, start_hi, hi, 2);
	assert_true(p.lo == 199 && p.lo_own == 100 && p.apart);
	assert_true(record_longest(hi, 2) == 200 && record_longest(hi, 0) == 0);
}

/* Two threads: overlapping calls span from the first start to the last end (the second thread, 90 ticks,
   inside the first's 100); a thread started late, after the other had finished (a preempted vCPU), spans
   both, where the longer call alone (100) would credit their bytes to half the time they took. */
static void test_span_of_threads(void **state)
{
	const uint64_t ticks[2] = {100, 90};
	const uint64_t overlap[2] = {1000, 1005}, late[2] = {1000, 1100}, early[2] = {1000, 990};

	(void)state;
	assert_int_equal(record_span(overlap, ticks, 2), 100);
	assert_int_equal(record_span(late, ticks, 2), 190);
	assert_int_equal(record_span(early, ticks, 2), 110); /* 990 .. 1100 */
	assert_int_equal(record_span(late, ticks, 1), 100);  /* one thread: its own call */
}

/* Threads together (span within 5 % of the longest call) or apart; one thread is never apart; a point is
   apart only when every repetition was. */
static void test_threads_apart(void **state)
{
	const uint64_t longest = 100; /* of two calls, 100 and 90 ticks */
	struct point_record r;

	(void)state;
	assert_false(record_apart(104, longest, 2));
	assert_true(record_apart(190, longest, 2));
	assert_false(record_apart(190, longest, 1));
	assert_int_equal(record_init(&r, 3, 1), 0);
	for (int i = 0; i < 3; i++)
		record_pass(&r, i, 0)->apart = 1;
	assert_true(record_threads_apart(&r));
	record_pass(&r, 1, 0)->apart = 0; /* one repetition together: the minima can come from it */
	assert_false(record_threads_apart(&r));
	record_free(&r);
}

/* Once the run ended, each point is judged again against the speed probe's best over every sample: one
   whose reading before it was below NOISY_SLOW_SHARE of it is noisy (slow-machine), its figures then at
   their bound; one above, one already flagged, and one without a reading (fresh memory, a probe that
   failed) are left as they were. */
static void test_points_slow_against_the_runs_best_are_flagged_at_their_bound(void **state)
{
	struct run_point_result res[4] = {
		{.gbps = 30, .ns = 2, .speed_gbps = 45, .bound_gbps = 28, .bound_ns = 2.2, .r_call = 1},
		{.gbps = 31, .speed_gbps = 55, .bound_gbps = 29, .r_call = 1},
		{.gbps = 32, .speed_gbps = 0, .bound_gbps = 29},
		{.gbps = 29, .speed_gbps = 40, .bound_gbps = 29, .noisy_why = 1u << NW_SLOW},
	};

	(void)state;
	run_judge_slow(res, 4, 62);
	assert_int_equal(res[0].noisy_why, 1u << NW_SLOW);
	assert_true(res[0].gbps == 28 && res[0].ns == 2.2);
	assert_false(res[0].r_call);           /* at its bound now, not at its R call */
	assert_int_equal(res[1].noisy_why, 0); /* 55 >= 0.8 x 62 */
	assert_true(res[1].gbps == 31 && res[1].r_call);
	assert_int_equal(res[2].noisy_why, 0);
	assert_true(res[3].gbps == 29);
	run_judge_slow(res + 1, 1, 0); /* no best: nothing judged */
	assert_int_equal(res[1].noisy_why, 0);
}

/* A record starts with what its calls are: touch (fresh memory) differences 2N and N bytes in one pass
   each, by_size; a point of two threads' calls are spans; the volumes are the difference's. */
static void test_record_begins_with_what_its_calls_are(void **state)
{
	const struct kern_family *fam;
	struct plan_point touch = {
		.var = kern_variant_find("touch.gpr", &fam), .bytes = 1 << 20, .threads = 1};
	struct plan_point load = {.bytes = 16384, .threads = 2};
	struct point_record r;

	(void)state;
	touch.fam = fam;
	assert_non_null(touch.var);
	load.var = kern_variant_find("load.gpr", &load.fam);
	assert_non_null(load.var);
	assert_int_equal(record_init(&r, 4, 1), 0);
	record_begin(&r, &touch, 1 << 20, 64);
	assert_true(r.by_size && !r.spans && r.reps == 1 && r.span == 1 << 20);
	record_begin(&r, &load, 16384, 64);
	assert_true(!r.by_size && r.spans && r.reps == 64 && r.nreps == 0);
	assert_true(r.v.bytes_loaded == 2 * 64 * 16384); /* the R passes more in 2R, of both threads */
	record_free(&r);
}

/* Where APERF/MPERF clocks the repetitions, one whose threads took add chains (their group did not start)
   says so in its clock note and is counted (record_by_chains): the report says "each repetition's clock is
   APERF/MPERF's" only of the others. */
static void test_repetitions_clocked_by_chains_are_said_and_counted(void **state)
{
	struct point_record r;
	char note[512];

	(void)state;
	assert_int_equal(record_init(&r, 3, 2), 0);
	r.nreps = 3;
	record_pass(&r, 1, 0)->clock_chains = 2;
	record_pass(&r, 2, 1)->clock_chains = 1; /* another event group's pass of another repetition */
	assert_int_equal(record_by_chains(&r), 2);
	record_pass(&r, 1, 1)->clock_chains = 1; /* a repetition counts once however many passes */
	assert_int_equal(record_by_chains(&r), 2);
	record_clock_note(record_pass(&r, 0, 0), note, sizeof note);
	assert_string_equal(note, "");
	record_clock_note(record_pass(&r, 1, 0), note, sizeof note);
	assert_string_equal(note, "2 threads clocked by add chains (their APERF/MPERF group did not start)");
	*record_pass(&r, 1, 0) = (struct rec_pass){.clock_chains = 1,
						   .clock_samples = 4,
						   .clock_rejected_by = {[CLOCK_REJECT_DISTURBED] = 1},
						   .clock_why = "outside the bounds"};
	record_clock_note(record_pass(&r, 1, 0), note, sizeof note);
	assert_string_equal(note,
			    "1 threads clocked by add chains (their APERF/MPERF group did not start); 1 of 4 "
			    "clock samples rejected: outside the bounds");
	record_free(&r);
}

/* A point's clock samples over every pass of every repetition, by why they were rejected, and its
   repetitions whose first group's pass has no clock (what raw.csv's core_ghz leaves empty): another group's
   pass without one is no repetition without a clock. */
static void test_clock_samples_are_tallied_by_why_they_were_rejected(void **state)
{
	struct point_record r;
	struct run_clock_tally t;

	(void)state;
	assert_int_equal(record_init(&r, 3, 2), 0);
	r.nreps = 3;
	for (int i = 0; i < 3; i++)
		for (int g = 0; g < 2; g++)
			*record_pass(&r, i, g) = (struct rec_pass){.ghz = 3.0, .clock_samples = 4};
	record_pass(&r, 0, 0)->clock_rejected_by[CLOCK_REJECT_DISTURBED] = 1;
	*record_pass(&r, 1, 0) = (struct rec_pass){.clock_samples = 4,
						   .clock_rejected_by = {[CLOCK_REJECT_ABOVE_MAX] = 4}};
	*record_pass(&r, 2, 1) = (struct rec_pass){
		.clock_samples = 2,
		.clock_rejected_by = {[CLOCK_REJECT_ABOVE_MAX] = 1, [CLOCK_REJECT_UNREAD] = 1}};
	t = record_clock_tally(&r);
	assert_int_equal(t.samples, 22);
	assert_int_equal(t.rejected_by[CLOCK_REJECT_DISTURBED], 1);
	assert_int_equal(t.rejected_by[CLOCK_REJECT_ABOVE_MAX], 5);
	assert_int_equal(t.rejected_by[CLOCK_REJECT_BELOW_FLOOR], 0);
	assert_int_equal(t.rejected_by[CLOCK_REJECT_UNREAD], 1);
	assert_int_equal(t.reps_without, 1);
	/* a run's sum of its points' tallies */
	struct run_clock_tally sum = {.samples = 3, .rejected_by = {[CLOCK_REJECT_UNREAD] = 2}};
	record_clock_tally_add(&sum, &t);
	assert_int_equal(sum.samples, 25);
	assert_int_equal(sum.rejected_by[CLOCK_REJECT_ABOVE_MAX], 5);
	assert_int_equal(sum.rejected_by[CLOCK_REJECT_UNREAD], 3);
	assert_int_equal(sum.reps_without, 1);
	record_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_point_clock_is_the_highest_group_0_sample),
		cmocka_unit_test(test_impossibly_fast_at_own_or_run_clock),
		cmocka_unit_test(test_impossibly_many_loads_or_stores),
		cmocka_unit_test(test_cv_of_repetition_times),
		cmocka_unit_test(test_repetitions_clocked_by_chains_are_said_and_counted),
		cmocka_unit_test(test_clock_samples_are_tallied_by_why_they_were_rejected),
		cmocka_unit_test(test_disturbed_repetitions_have_a_call_far_past_the_shortest),
		cmocka_unit_test(test_point_time_is_min_2r_minus_min_r),
		cmocka_unit_test(test_record_begins_with_what_its_calls_are),
		cmocka_unit_test(test_disturbed_point_time_is_the_bound),
		cmocka_unit_test(test_summary_figures_say_where_the_time_is_the_r_call),
		cmocka_unit_test(test_span_of_threads),
		cmocka_unit_test(test_pass_calls_of_threads),
		cmocka_unit_test(test_threads_apart),
		cmocka_unit_test(test_points_slow_against_the_runs_best_are_flagged_at_their_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
