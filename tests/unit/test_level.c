/* test_level.c — the one level name table (common/level.c): raw.csv's, the configs' and peaks.csv's
 * spelling, and nothing else parses as a level; and the one rule for when and from which size the level
 * probe's time stands for a latency point, which the run's summary and the peaks both take. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "level.h"

static void test_every_level_parses_back_from_its_name(void **state)
{
	(void)state;
	for (int l = 0; l < LEVEL_COUNT; l++)
		assert_int_equal(level_parse(level_name((enum level)l)), l);
	assert_string_equal(level_name(LEVEL_L1), "L1");
	assert_string_equal(level_name(LEVEL_DRAM), "DRAM");
}

static void test_other_names_are_no_level(void **state)
{
	(void)state;
	assert_int_equal(level_parse("L4"), LEVEL_NONE);
	assert_int_equal(level_parse("l1"), LEVEL_NONE);
	assert_int_equal(level_parse(""), LEVEL_NONE);
	assert_int_equal(level_parse(NULL), LEVEL_NONE);
	assert_string_equal(level_name(LEVEL_NONE), "");
	assert_string_equal(level_name(LEVEL_COUNT), "");
}

/* The margins: strictly within 25 % below and 50 % above; unknown limits have no boundary. */
static void test_a_boundary_lies_within_its_margins(void **state)
{
	(void)state;
	assert_false(level_on_boundary(768, 1024)); /* 3/4: the largest a level's own point may be */
	assert_true(level_on_boundary(769, 1024));
	assert_true(level_on_boundary(1024, 1024));
	assert_true(level_on_boundary(1535, 1024));
	assert_false(level_on_boundary(1536, 1024)); /* 1.5x: the smallest the next level's may be */
	assert_false(level_on_boundary(1024, 0));
}

static void test_the_probe_stands_only_in_its_own_state(void **state)
{
	(void)state;
	assert_true(level_probe_stands_for(1, 1, 1.0));
	assert_true(level_probe_stands_for(1, 1, LEVEL_PROBE_THP_SHARE));
	assert_false(level_probe_stands_for(0, 1, 1.0)); /* remote or interleaved memory */
	assert_false(level_probe_stands_for(1, 0, 1.0)); /* a prefetcher off */
	assert_false(level_probe_stands_for(1, 1, 0.5)); /* 4 KiB pages for half the buffer */
}

#define T(ns, cycles) ((struct level_probe_time){ns, cycles})
#define B(ns, cycles, cycles_ns) ((struct level_probe_bound){ns, cycles, cycles_ns})

/* A probe's curve of n sizes folded for a point the sizes from `from` up stand for, as the summary and the
   peaks fold theirs. */
static struct level_probe_bound fold_curve(double from, const double *size, const double *ns,
					   const double *cycles, unsigned n)
{
	struct level_probe_bound best = {0, 0, 0};

	for (unsigned i = 0; i < n; i++)
		best = level_probe_fold(from, size[i], T(ns[i], cycles[i]), best);
	return best;
}

/* The fold takes the sizes from its first up: here 24 KiB, between the probe's 22528 and 32768 (a --quick
   plan's L1 point on a 48 KiB L1, were it folded from its own size). */
static void test_the_fold_takes_the_sizes_from_its_first_up(void **state)
{
	const double size[] = {16384, 22528, 32768, 46080, 65536}, ns[] = {1.0, 1.1, 1.2, 1.15, 3.8};
	const double cycles[] = {4.9, 5.1, 5.2, 5.02, 16.0};
	/* the fastest at or above and the fewest cycles there, never the smaller sizes' */
	struct level_probe_bound best = fold_curve(24576, size, ns, cycles, 5);

	(void)state;
	assert_float_equal(best.ns, 1.15, 0);
	assert_float_equal(best.cycles, 5.02, 0);
	assert_float_equal(best.cycles_ns, 1.15, 0);
	best = level_probe_fold(24576, 16384, T(1.0, 5.0), B(0, 0, 0));
	assert_float_equal(best.ns, 0, 0);
	assert_float_equal(best.cycles, 0, 0);
}

/* A curve shaped as the 2026-11-30 repeatability runs on the Emerald Rapids guest imply (one run's L1
   latency 2.9 times the next run's at the same ns; their curves were not kept): the sizes of the L1 all but
   tie in ns, and the one at its end (45 KiB of 48) has its fastest call in L1 and L2 cycles. The fold takes
   the fastest ns there and the fewest cycles at the next size, not the 45 KiB size's 14.6 cycles. */
static void test_the_cycles_are_the_fewest_not_those_of_the_fastest_size(void **state)
{
	const double size[] = {22528, 32768, 46080, 65536}, ns[] = {1.681, 1.680, 1.676, 5.30};
	const double cycles[] = {5.04, 5.03, 14.6, 15.97};
	struct level_probe_bound best = fold_curve(24576, size, ns, cycles, 4);
	double cyc;
	int probed;

	(void)state;
	assert_float_equal(best.ns, 1.676, 0);
	assert_float_equal(best.cycles, 5.03, 0);
	assert_float_equal(best.cycles_ns, 1.680, 0);
	assert_float_equal(level_probe_figure(1.72, best, 2.98, 2.94, &cyc, &probed), 1.676, 0);
	assert_true(probed);
	assert_float_equal(cyc, 5.03, 0);
	/* a size with a time but no cycles still bounds the time; one without a time bounds nothing */
	best = level_probe_fold(24576, 32768, T(1.6, 0), best);
	assert_float_equal(best.ns, 1.6, 0);
	assert_float_equal(best.cycles, 5.03, 0);
}

/* Where the probe's time may stand for a point: L1 at every size, L2 and L3 from twice the level below (or
   the point's own size where it is closer to it), DRAM and a level whose level below is unknown from the
   point's own size. */
static void test_a_cache_level_takes_the_probe_from_twice_the_level_below(void **state)
{
	(void)state;
	assert_float_equal(level_probe_from(LEVEL_L1, 24576, 0), 0, 0);
	assert_float_equal(level_probe_from(LEVEL_L2, 1048576, 49152), 2 * 49152, 0);
	assert_float_equal(level_probe_from(LEVEL_L2, 65536, 49152), 65536, 0); /* 1.33x the L1 */
	assert_float_equal(level_probe_from(LEVEL_L3, 5931008, 2097152), 4194304, 0);
	assert_float_equal(level_probe_from(LEVEL_L2, 1048576, 0), 1048576, 0);
	/* the LLC the probe found may be a part of what the chase can still hit in */
	assert_float_equal(level_probe_from(LEVEL_DRAM, 134217728, 11863040), 134217728, 0);
}

/* The L2 part of one of five probes on the Emerald Rapids guest (48 KiB L1, 2 MiB L2; 2026-11-30): 16.0
   cycles from 64 to 362 KiB (the other four 16.0-16.2 at 128 and 181 KiB), then 17.9, 19.4 and 20.4 at the
   --quick plan's 1 MiB L2 point (the other four 20.4-21.3), here a point of 7.40 ns.
   Folded from twice the L1 up, the point takes the L2's 16.0 cycles, not the 20.4 its own size reads, nor
   the 90 KiB size's 5.705 ns and 15.96 cycles, under twice the L1. */
static void test_an_l2_point_takes_the_l2s_time_not_its_sizes(void **state)
{
	const double size[] = {65536,  92160,  131072, 185344,  262144,
			       370688, 524288, 741376, 1048576, 1482752};
	const double ns[] = {5.725, 5.705, 5.77, 5.728, 5.731, 5.73, 6.422, 6.941, 7.377, 9.759};
	const double cycles[] = {15.98, 15.96, 16.05, 15.98, 15.99, 15.99, 17.87, 19.37, 20.36, 27.24};
	struct level_probe_bound best = fold_curve(level_probe_from(LEVEL_L2, 1048576, 49152), size, ns,
						   cycles, 10);
	double cyc;
	int probed;

	(void)state;
	assert_float_equal(level_probe_figure(7.40, best, 2.76, 2.74, &cyc, &probed), 5.728, 0);
	assert_true(probed);
	assert_float_equal(cyc, 15.98, 0);
}

static void test_a_point_takes_the_faster_at_the_probes_own_cycles(void **state)
{
	double cyc;
	int probed;

	(void)state;
	/* as the Emerald Rapids guest's L1 point: its probe read 1.79 ns, 5.00 cycles at its own clock, where
	   the clocks read after the probe (here the point's 2.69 GHz and the run's 2.74) give fewer */
	assert_float_equal(level_probe_figure(1.86, B(1.79, 5.0, 1.79), 2.69, 2.74, &cyc, &probed), 1.79,
			   1e-12);
	assert_true(probed);
	assert_float_equal(cyc, 5.0, 1e-12); /* not 1.79 x 2.74 = 4.90, below the L1's 5 */
	/* a point faster than the probe keeps its own, at its own clock */
	assert_float_equal(level_probe_figure(1.75, B(1.79, 5.0, 1.79), 2.8, 2.74, &cyc, &probed), 1.75,
			   1e-12);
	assert_false(probed);
	assert_float_equal(cyc, 1.75 * 2.8, 1e-9);
}

/* The fewest cycles at the sizes the probe bounds a point by are another level's where their size's time
   is more than a plateau's step (LEVEL_PLATEAU_RISE) above the fastest: the point's own sizes had none.
   Those cycles are a bound too, but of another level; the figure takes the fastest time at the higher
   clock instead. */
static void test_cycles_of_another_level_are_not_the_points(void **state)
{
	double cyc;
	int probed;

	(void)state;
	/* the Zen 3 guest's L2 point at 3.71 ns in the probe, whose only cycles above it are an L3 size's */
	level_probe_figure(5.99, B(3.71, 50.0, 15.0), 3.24, 3.211, &cyc, &probed);
	assert_true(probed);
	assert_float_equal(cyc, 3.71 * 3.24, 1e-9);
	/* within a step of the fastest: the same level's */
	level_probe_figure(5.99, B(3.71, 12.0, 3.71 * LEVEL_PLATEAU_RISE), 3.24, 3.211, &cyc, &probed);
	assert_float_equal(cyc, 12.0, 0);
	level_probe_figure(5.99, B(3.71, 12.0, 3.71 * LEVEL_PLATEAU_RISE * 1.001), 3.24, 3.211, &cyc,
			   &probed);
	assert_float_equal(cyc, 3.71 * 3.24, 1e-9);
}

static void test_a_curve_without_cycles_takes_the_higher_clock(void **state)
{
	double cyc;
	int probed;

	(void)state;
	/* the Zen 3 guest's L2 point, confirmed at 5.99 ns, where the probe read 3.71 (a run before the probe
	   kept its cycles) */
	assert_float_equal(level_probe_figure(5.99, B(3.71, 0, 0), 3.24, 3.211, &cyc, &probed), 3.71, 1e-12);
	assert_true(probed);
	assert_float_equal(cyc, 3.71 * 3.24, 1e-9); /* the point's clock, above the run's */
	level_probe_figure(5.99, B(3.71, 0, 0), 3.0, 3.24, &cyc, &probed);
	assert_float_equal(cyc, 3.71 * 3.24, 1e-9); /* the run's clock, above the point's */
	/* a point faster than the probe keeps its own, at its own clock */
	assert_float_equal(level_probe_figure(3.5, B(3.71, 0, 0), 3.24, 5.0, &cyc, &probed), 3.5, 1e-12);
	assert_false(probed);
	assert_float_equal(cyc, 3.5 * 3.24, 1e-9);
	/* no probe at its size: its own; no clock of its own: the run's; no clock at all: no cycles */
	assert_float_equal(level_probe_figure(5.99, B(0, 0, 0), 0, 3.24, &cyc, &probed), 5.99, 1e-12);
	assert_false(probed);
	assert_float_equal(cyc, 5.99 * 3.24, 1e-9);
	level_probe_figure(5.99, B(0, 0, 0), 0, 0, &cyc, &probed);
	assert_float_equal(cyc, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_level_parses_back_from_its_name),
		cmocka_unit_test(test_other_names_are_no_level),
		cmocka_unit_test(test_a_boundary_lies_within_its_margins),
		cmocka_unit_test(test_the_probe_stands_only_in_its_own_state),
		cmocka_unit_test(test_the_fold_takes_the_sizes_from_its_first_up),
		cmocka_unit_test(test_a_cache_level_takes_the_probe_from_twice_the_level_below),
		cmocka_unit_test(test_an_l2_point_takes_the_l2s_time_not_its_sizes),
		cmocka_unit_test(test_the_cycles_are_the_fewest_not_those_of_the_fastest_size),
		cmocka_unit_test(test_a_point_takes_the_faster_at_the_probes_own_cycles),
		cmocka_unit_test(test_cycles_of_another_level_are_not_the_points),
		cmocka_unit_test(test_a_curve_without_cycles_takes_the_higher_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
