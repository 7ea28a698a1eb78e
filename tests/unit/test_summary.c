/* test_summary.c — the table `run` prints (one row per access type, one column per level): a cell whose
 * points all stayed noisy is shown from them and marked, never dropped; a cell with clean points shows
 * those; a latency without a clock has no cycles; how disturbed the points were is stated; a point on a
 * level boundary is in no cell. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "noisy_why.h"
#include "summary.h"

static struct plan_point point(const char *variant, enum level level)
{
	struct plan_point pt = {.threads = 1, .bytes = 16384};

	pt.var = kern_variant_find(variant, &pt.fam);
	assert_non_null(pt.var);
	pt.level = level;
	return pt;
}

/* The printed table, the levels as summary_print takes them, in a buffer the caller frees. */
static char *print_levels(struct plan_point *pts, struct run_point_result *res, int n, int reported,
			  const char *levels_from)
{
	struct plan p = {.points = pts, .npoints = n};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	summary_print(f, &p, res, NULL, NULL, "/results/x", reported, levels_from);
	fclose(f);
	return buf;
}

/* The table of a run whose level probe lends its curve (sp; NULL: none) and that revisited (rv; NULL:
   none). */
static char *print_revisited(struct plan_point *pts, struct run_point_result *res, int n,
			     const struct summary_probe *sp, const struct summary_revisits *rv)
{
	struct plan p = {.points = pts, .npoints = n};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	summary_print(f, &p, res, sp, rv, "/results/x", 0, NULL);
	fclose(f);
	return buf;
}

static char *print_probe(struct plan_point *pts, struct run_point_result *res, int n,
			 const struct summary_probe *sp)
{
	return print_revisited(pts, res, n, sp, NULL);
}

/* The table of a run whose levels the probe measured. */
static char *print(struct plan_point *pts, struct run_point_result *res, int n)
{
	return print_levels(pts, res, n, 0, NULL);
}

/* The row of an access type ("read", "latency"): its cells are L1, L2, L3, DRAM. */
static const char *line_of(const char *text, const char *access)
{
	char key[16];
	const char *l;

	snprintf(key, sizeof key, "\n%-9s", access);
	assert_non_null(l = strstr(text, key));
	return l + 1;
}

/* The line up to its end, in buf. */
static const char *row(char *buf, size_t len, const char *text, const char *access)
{
	const char *l = line_of(text, access);

	snprintf(buf, len, "%.*s", (int)strcspn(l, "\n"), l);
	return buf;
}

static void test_level_whose_points_are_all_noisy_is_shown_and_marked(void **state)
{
	/* L1 reads: both noisy (their time is the bound of their shortest call); L1 writes: one clean 40 and
	   one noisy 30, slower (a bound is never faster than the hardware, so a faster one would be the best,
	   marked); L1 copies: one clean 70, one noisy 80, the best and marked */
	struct plan_point pts[6] = {point("load.gpr", LEVEL_L1),  point("load.gpr", LEVEL_L1),
				    point("store.gpr", LEVEL_L1), point("store.gpr", LEVEL_L1),
				    point("copy.sse", LEVEL_L1),  point("copy.sse", LEVEL_L1)};
	enum {
		REPS = 1u << NW_AT_REPS,
		BUDGET = 1u << NW_AT_BUDGET,
		SHARED = 1u << NW_SHARED_CORE,
		LEVEL = 1u << NW_LEVEL
	};
	struct run_point_result res[6] = {
		{.gbps = 50, .cv = 0.1, .noisy_why = REPS, .reps = 8, .reps_judged = 8, .reps_disturbed = 6},
		{.gbps = 60,
		 .cv = 0.1,
		 .noisy_why = BUDGET | LEVEL,
		 .reps = 2,
		 .reps_judged = 2,
		 .reps_disturbed = 1},
		{.gbps = 40, .cv = 0.001, .reps = 3, .reps_judged = 3},
		{.gbps = 30, .cv = 0.3, .noisy_why = SHARED, .reps = 1, .reps_judged = 1},
		{.gbps = 70, .cv = 0.001, .reps = 3, .reps_judged = 3},
		{.gbps = 80, .cv = 0.3, .noisy_why = BUDGET, .reps = 1, .reps_judged = 1}};
	char *out = print(pts, res, 6), b[256];

	(void)state;
	assert_non_null(strstr(row(b, sizeof b, out, "read"), "60.0*")); /* the best noisy read, marked */
	row(b, sizeof b, out, "write");
	assert_non_null(strstr(b, "40.0")); /* the clean write, faster than the noisy one's bound */
	assert_null(strchr(b, '*'));
	assert_non_null(strstr(row(b, sizeof b, out, "copy"), "80.0*"));
	/* one thread only: no second figure, no unmeasured 0.0 */
	assert_null(strstr(out, " / "));
	assert_non_null(strstr(out, "* from a noisy point, at the bound of its shortest call"));
	assert_non_null(strstr(out, "4 of 6 points stayed noisy"));
	/* each reason counted, in noisy_why.h's order, those without a point left out */
	assert_non_null(
		strstr(out,
		       "reasons): 1 not confirmed within --reps repetitions, 2 not confirmed within "
		       "their share of the time budget, 1 whose threads shared a core, 1 that the last "
		       "cache level did not hold\n"));
	/* how disturbed: repetitions 1 1 2 3 3 8 (18, 7 of them disturbed) and spreads 0.1 % 0.1 % 10 % 10 %
	   30 % 30 %, medians */
	assert_non_null(strstr(out,
			       "repetitions per point: median 2.5, 7 of 18 disturbed (a call more than 10 % "
			       "past the shortest of its length; fresh-memory points' not judged); spread "
			       "of their times: median 10.0 %\n"));
	assert_null(strstr(out, "R call")); /* no point took its R call's time */
	free(out);
	res[2].r_call = res[4].r_call = 1; /* two clean points whose time is their R call (run.c) */
	out = print(pts, res, 6);
	assert_non_null(
		strstr(out, "\n2 clean points took their R call's time, every 2R call being stretched"));
	free(out);
	res[4].r_call = 0;
	out = print(pts, res, 6);
	assert_non_null(strstr(out, "\n1 clean point took its R call's time"));
	res[2].r_call = 0;
	free(out);
	/* a point whose differenced times averaged 0 or less has no spread (record_cv: infinite): counted,
	   never a median of "inf %" */
	res[4].cv = res[5].cv = INFINITY;
	out = print(pts, res, 6);
	assert_non_null(strstr(out,
			       "spread of their times: median 10.0 % over 4 points (2 whose differenced "
			       "times averaged 0 or less have none)\n"));
	free(out);
	for (int i = 0; i < 6; i++)
		res[i].cv = INFINITY;
	out = print(pts, res, 6);
	assert_non_null(
		strstr(out, "spread of their times: none (their differenced times averaged 0 or less)"));
	assert_null(strstr(out, "inf"));
	free(out);
}

static void test_clean_table_has_no_mark(void **state)
{
	struct plan_point pts[1] = {point("load.gpr", LEVEL_L2)};
	struct run_point_result res[1] = {{.gbps = 30, .cv = 0.001}};
	char *out = print(pts, res, 1), b[256];

	(void)state;
	row(b, sizeof b, out, "read");
	assert_non_null(strstr(b, "30.0"));
	assert_true(strchr(b, '-') < strstr(b, "30.0")); /* L1 empty, L2 measured */
	assert_null(strchr(out, '*'));
	free(out);
}

/* The header says what a figure is: a point's time is min(2R) - min(R) of its calls, or min(R) where that is
   shorter (stats.h), or a noisy
   one's bound; it once said "best median bandwidth", from when a point's time was the median of its
   repetitions' differences. */
static void test_header_names_the_points_time(void **state)
{
	struct plan_point pts[1] = {point("load.gpr", LEVEL_L2)};
	struct run_point_result res[1] = {{.gbps = 30, .cv = 0.001}};
	char *out = print(pts, res, 1);

	(void)state;
	assert_null(strstr(out, "median bandwidth"));
	assert_non_null(strstr(out,
			       "best bandwidth in GB/s (10^9 B/s over each point's min(2R) - min(R), or "
			       "min(R) where shorter)"));
	free(out);
}

static void test_thread_count_measured_in_no_point_of_a_cell_is_a_dash(void **state)
{
	/* L2 read at 1 thread only, L3 read at 2 threads only: neither shows an unmeasured 0.0 */
	struct plan_point pts[2] = {point("load.gpr", LEVEL_L2), point("load.gpr", LEVEL_L3)};
	struct run_point_result res[2] = {{.gbps = 30, .cv = 0.001}, {.gbps = 44, .cv = 0.001}};
	char *out, b[256];

	(void)state;
	pts[1].threads = 2;
	out = print(pts, res, 2);
	row(b, sizeof b, out, "read");
	assert_non_null(strstr(b, "30.0 / -"));
	assert_non_null(strstr(b, "- / 44.0"));
	assert_null(strstr(out, "/ 0.0"));
	assert_null(strstr(out, " 0.0 /"));
	assert_non_null(strstr(out, "1 thread / 2 threads"));
	free(out);
}

static void test_reported_levels_are_not_called_measured(void **state)
{
	struct plan_point pts[1] = {point("load.gpr", LEVEL_L2)};
	struct run_point_result res[1] = {{.gbps = 30, .cv = 0.001}};
	char *buf = print_levels(pts, res, 1, 1, NULL);

	(void)state;
	assert_non_null(strstr(buf, "levels as reported"));
	assert_null(strstr(buf, "measured by the latency probe"));
	free(buf);
}

/* Levels taken from another run (--levels-from, or the interrupted run a resumed one continues) are that
   run's, and the summary names the run: neither hwloc's nor a probe of this run. */
static void test_levels_from_another_run_name_that_run(void **state)
{
	struct plan_point pts[1] = {point("load.gpr", LEVEL_L2)};
	struct run_point_result res[1] = {{.gbps = 30, .cv = 0.001}};
	char *buf = print_levels(pts, res, 1, 0, "/results/first");

	(void)state;
	assert_non_null(strstr(buf, "levels as the run in /results/first had them"));
	assert_null(strstr(buf, "levels as reported"));
	assert_null(strstr(buf, "measured by the latency probe"));
	free(buf);
}

/* An L3 chase at 133 ns measured DRAM (a VM's L3 taken by other tenants): the cell says DRAM-like and
   the table says why, never "133 ns" under L3; an L3 with one DRAM-like and one 14 ns point gives 14 ns. */
static void test_dram_like_cache_latency_is_not_that_levels(void **state)
{
	struct plan_point pts[3] = {point("chase.plain", LEVEL_L3), point("chase.plain", LEVEL_DRAM),
				    point("chase.plain", LEVEL_L3)};
	struct run_point_result res[3] = {{.ns = 133, .core_ghz = 3, .cv = 0.001},
					  {.ns = 140, .core_ghz = 3, .cv = 0.001},
					  {.ns = 14, .core_ghz = 3, .cv = 0.001}};
	char *out = print(pts, res, 2), b[256];

	(void)state;
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "DRAM-like"));
	assert_null(strstr(b, "133"));
	assert_non_null(strstr(b, "140.00 ns")); /* DRAM's own */
	assert_non_null(strstr(out, "measured DRAM, not that level"));
	free(out);
	out = print(pts, res, 3);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "14.00 ns"));
	assert_null(strstr(b, "DRAM-like"));
	free(out);
}

/* A chase point whose repetitions had no clock: its cycles at the run's clock, as the analysis takes them
   (agg.c settle_time); where the run has none either, latency in ns and no cycles (not 0 of them). */
static void test_latency_without_clock_has_no_cycles(void **state)
{
	struct plan_point pts[2] = {point("chase.plain", LEVEL_L1), point("chase.plain", LEVEL_L2)};
	struct run_point_result res[2] = {{.ns = 1.2, .core_ghz = 0, .cv = 0.001},
					  {.ns = 4.0, .core_ghz = 3.0, .cv = 0.001}};
	struct summary_probe run_clock = {NULL, NULL, 2.5, 0, 0, NULL, NULL};
	char *out = print(pts, res, 2), b[256];

	(void)state;
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "1.20 ns ? cyc"));
	assert_true(strstr(b, "1.20 ns ? cyc") < strstr(b, "4.00 ns 12.0 cyc")); /* L1, then L2 */
	free(out);
	out = print_probe(pts, res, 2, &run_clock);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "1.20 ns 3.0 cyc "));
	assert_non_null(strstr(b, "4.00 ns 12.0 cyc ")); /* its own clock, not the run's */
	free(out);
}

/* The latency row of test_latency_takes_the_level_probes_faster_time_at_its_size's four points where the
   probe stands for none of L1 and L2: their own figures, no "^". */
static void own_figures(struct plan_point *pts, struct run_point_result *res, const struct summary_probe *sp)
{
	char *out = print_probe(pts, res, 4, sp), b[256];

	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "1.49 ns 4.5 cyc "));
	assert_non_null(strstr(b, "5.99 ns 18.0 cyc "));
	assert_null(strstr(out, "cyc^"));
	free(out);
}

/* A slowdown that lasted a whole chase point is confirmed with it (the Zen 3 guest: 256 KiB confirmed at
   5.99 ns, its probe 3.71 ns there): the cell takes the probe's fastest time at the point's size or larger, in
   the probe's own cycles or, where it kept none, at the higher of the run's clock and the point's, marked
   "^" and said; never where the probe is slower, where it has no such size, or for a point in a state it
   did not run in (remote memory, prefetchers off, 4 KiB pages). */
static void test_latency_takes_the_level_probes_faster_time_at_its_size(void **state)
{
	struct levels_probe probe = {
		.npoints = 3, .size = {16384, 262144, 2097152}, .ns = {1.23, 3.71, 15.0}};
	struct plan_opts o = {.nplaces = 2,
			      .places = {{BUF_LOCAL, -1}, {BUF_REMOTE, -1}},
			      .npf = 2,
			      .pf_states = {"on", "off"}};
	struct summary_probe sp = {&probe, &o, 3.24, 0, 0, NULL, NULL};
	struct plan_point pts[4] = {point("chase.plain", LEVEL_L1), point("chase.plain", LEVEL_L2),
				    point("chase.plain", LEVEL_L3), point("chase.plain", LEVEL_DRAM)};
	struct run_point_result res[4] = {{.ns = 1.49, .core_ghz = 3.0, .cv = 0.001, .thp_share = 1},
					  {.ns = 5.99, .core_ghz = 3.0, .cv = 0.001, .thp_share = 1},
					  {.ns = 14.0, .core_ghz = 3.0, .cv = 0.001, .thp_share = 1},
					  {.ns = 150.0, .core_ghz = 3.0, .cv = 0.001, .thp_share = 1}};
	char *out, b[256];

	(void)state;
	pts[1].bytes = 262144;
	pts[2].bytes = 2097152;
	pts[3].bytes = 134217728;
	out = print_probe(pts, res, 4, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "1.23 ns 4.0 cyc^"));    /* L1: the probe's, at the run's 3.24 GHz */
	assert_non_null(strstr(b, "3.71 ns 12.0 cyc^"));   /* L2 */
	assert_non_null(strstr(b, "14.00 ns 42.0 cyc "));  /* L3: its own, faster than the probe's */
	assert_non_null(strstr(b, "150.00 ns 450.0 cyc")); /* DRAM: no size as large in the probe */
	assert_non_null(
		strstr(out, "^ latency: the level probe's fastest chase at a point's size or larger"));
	assert_null(strstr(out, "marked ^ too")); /* no noisy cell: no "*" said */
	free(out);
	/* a probe that kept its cycles (each size timed at the clock it ran at): a point at its time takes
	   the fewest at its size or above, not its ns at a clock read apart from it; where only a size of
	   another level has them (2 MiB, at 15 ns against 256 KiB's 3.71), the higher clock */
	probe.cycles[0] = 5.0;
	probe.cycles[2] = 50.0;
	out = print_probe(pts, res, 4, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "1.23 ns 5.0 cyc^"));  /* L1: not 1.23 x 3.24 */
	assert_non_null(strstr(b, "3.71 ns 12.0 cyc^")); /* L2: none at 256 KiB */
	free(out);
	probe.cycles[0] = probe.cycles[2] = 0;
	/* a run clock read below the point's: the probe's cycles at the point's 3 GHz, never fewer */
	sp.ghz = 2.0;
	out = print_probe(pts, res, 4, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "1.23 ns 3.7 cyc^"));
	free(out);
	sp.ghz = 3.24;
	/* an L1 point of 12 KiB, off the probe's sizes: the fastest at 16 KiB or above; an L2 point of 192
	   KiB whose next size, 256 KiB, read slow in the probe (8 ns): the fastest above it is 2 MiB's 15 ns,
	   slower than its own; one of 3 MiB, above them all: its own */
	pts[0].bytes = 12288;
	pts[1].bytes = 196608;
	probe.ns[1] = 8.0;
	pts[2].bytes = 3u << 20;
	out = print_probe(pts, res, 4, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "1.23 ns 4.0 cyc^"));
	assert_non_null(strstr(b, "5.99 ns 18.0 cyc "));
	assert_non_null(strstr(b, "14.00 ns 42.0 cyc "));
	free(out);
	/* the 256 KiB time slowed and a 1 MiB one fast (the probe's fastest call there): the L2 point's */
	probe.npoints = 4;
	probe.size[3] = 1u << 20;
	probe.ns[3] = 3.8;
	out = print_probe(pts, res, 4, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "3.80 ns 12.3 cyc^"));
	free(out);
	probe.npoints = 3;
	probe.ns[1] = 3.71;
	pts[0].bytes = 16384;
	pts[1].bytes = 262144;
	pts[2].bytes = 2097152;
	/* a noisy L2 point at the probe's time: "*^", and the "*" said to be the bound or the probe's */
	res[1].noisy_why = 1u << NW_SLOW;
	out = print_probe(pts, res, 4, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "3.71 ns 12.0 cyc*^"));
	assert_non_null(strstr(out,
			       "* from a noisy point, at the bound of its shortest call (a latency marked ^ "
			       "too: or at the level probe's time): at least this fast"));
	free(out);
	res[1].noisy_why = 0;
	/* the L2 point on remote memory, the L1 one with prefetchers off: their own figures, no mark */
	pts[0].pf = 1;
	pts[1].place = 1;
	own_figures(pts, res, &sp);
	/* both back, on 4 KiB pages (--no-thp): the same */
	pts[0].pf = 0;
	pts[1].place = 0;
	res[0].thp_share = res[1].thp_share = 0;
	own_figures(pts, res, &sp);
	/* back on huge pages, no probe (--reported-levels, --levels-from): the same */
	res[0].thp_share = res[1].thp_share = 1;
	sp.probe = NULL;
	own_figures(pts, res, &sp);
}

/* With the run's topology (a 48 KiB L1, a 2 MiB L2) the L2 cell takes the probe's fastest from twice the L1
   up: one of five probes on the Emerald Rapids guest (2026-11-30) read the L2 at 16.0 cycles from 128 to
   362 KiB (the other four 16.0-16.2 at 128 and 181 KiB) and 20.4 at the --quick plan's 1 MiB point, here a
   point of 7.40 ns. Without the topology (the level below not known) it takes the fastest from its own
   size up. */
static void test_a_cache_levels_latency_takes_the_probe_from_twice_the_level_below(void **state)
{
	struct levels_probe probe = {.npoints = 6,
				     .size = {46080, 92160, 185344, 370688, 1048576, 2097152},
				     .ns = {1.80, 5.705, 5.728, 5.73, 7.377, 22.3},
				     .cycles = {5.0, 15.96, 15.98, 15.99, 20.36, 61.4}};
	struct plan_opts o = {.nplaces = 1, .places = {{BUF_LOCAL, -1}}, .npf = 1, .pf_states = {"on"}};
	struct topo t = {.ncaches = 2, .smt = 1};
	struct summary_probe sp = {&probe, &o, 2.74, 0, 0, &t, NULL};
	struct plan_point pts[1] = {point("chase.plain", LEVEL_L2)};
	struct run_point_result res[1] = {{.ns = 7.40, .core_ghz = 2.76, .cv = 0.001, .thp_share = 1}};
	char *out, b[256];

	(void)state;
	t.caches[0] = (struct topo_cache){.level = 1, .size = 49152, .line = 64, .npus = 1, .ncores = 1};
	t.caches[1] = (struct topo_cache){.level = 2, .size = 2097152, .line = 64, .npus = 1, .ncores = 1};
	pts[0].bytes = 1048576;
	out = print_probe(pts, res, 1, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "5.73 ns 16.0 cyc^")); /* 181 KiB's, not 90 KiB's, under twice the L1 */
	assert_non_null(strstr(out, "in L2 and L3 from twice the level below where the point is larger"));
	free(out);
	sp.topo = NULL;
	out = print_probe(pts, res, 1, &sp);
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "7.38 ns 20.4 cyc^"));
	free(out);
}

/* Over an even count of points the latency is the mean of the middle two, as peaks.md takes it
   (common/stats.c): the upper middle, which the summary once took, gave 6.00 ns. */
static void test_latency_over_even_points_is_mean_of_middle_two(void **state)
{
	struct plan_point pts[4] = {point("chase.plain", LEVEL_L2), point("chase.plain", LEVEL_L2),
				    point("chase.plain", LEVEL_L2), point("chase.plain", LEVEL_L2)};
	struct run_point_result res[4] = {{.ns = 10, .core_ghz = 2, .cv = 0.001},
					  {.ns = 4, .core_ghz = 2, .cv = 0.001},
					  {.ns = 6, .core_ghz = 2, .cv = 0.001},
					  {.ns = 5, .core_ghz = 2, .cv = 0.001}};
	char *out = print(pts, res, 4), b[256];

	(void)state;
	assert_non_null(strstr(row(b, sizeof b, out, "latency"), "5.50 ns 11.0 cyc"));
	free(out);
}

/* A point on a level boundary (plan_on_boundary: a user's --sizes at 64 KiB over a 48 KiB L1) is in no
   cell, as the analysis assigns it no level: its figure is the two levels' mix, and a median with it moved
   the run's L2 latency to 4.04 ns where peaks.md, without it, read 1.00 (run_resume.sh on Zen 5). */
static void test_point_on_a_level_boundary_is_in_no_cell(void **state)
{
	struct plan_point pts[5] = {point("chase.plain", LEVEL_L2), point("chase.plain", LEVEL_L2),
				    point("chase.plain", LEVEL_L2), point("load.gpr", LEVEL_L2),
				    point("chase.plain", LEVEL_L2)};
	struct run_point_result res[5] = {{.ns = 4, .core_ghz = 2, .cv = 0.001},
					  {.ns = 1, .core_ghz = 2, .cv = 0.001},
					  {.ns = 5, .core_ghz = 2, .cv = 0.001},
					  {.gbps = 90, .cv = 0.001},
					  {.ns = 9, .core_ghz = 2, .cv = 0.001}};
	char *out, b[256];

	(void)state;
	/* the two-thread chase is in no cell on a boundary or off it (the latency row is one thread's): not
	   counted among the boundary's */
	pts[4].threads = 2;
	pts[0].boundary = pts[2].boundary = pts[3].boundary = pts[4].boundary = 1;
	out = print(pts, res, 5);
	assert_non_null(strstr(row(b, sizeof b, out, "latency"), "1.00 ns 2.0 cyc"));
	assert_non_null(strstr(row(b, sizeof b, out, "read"), "-"));
	assert_null(strstr(b, "90.0"));
	assert_non_null(strstr(out,
			       "3 points lay within 25 % below or 50 % above a cache's share (--sizes) "
			       "and belong to no level: in no cell, as in the analysis\n"));
	free(out);
	/* off the boundary, the same points are in their cells, and no such line */
	pts[0].boundary = pts[2].boundary = pts[3].boundary = pts[4].boundary = 0;
	out = print(pts, res, 5);
	assert_non_null(strstr(row(b, sizeof b, out, "latency"), "4.00 ns 8.0 cyc"));
	assert_non_null(strstr(row(b, sizeof b, out, "read"), "90.0"));
	assert_null(strstr(out, "belong to no level"));
	free(out);
}

/* A resumed run (--resume) measures only the points after the interruption; the earlier ones are in
   raw.csv with no result here. Their cells say so: once they read "-", nothing measured, for an L1 read
   the interrupted run had measured, and "1 of 3 points stayed noisy" counted them as clean. */
/* The second figure of a cell is its most threads, as the peaks' all-cores figure: with --threads 1,2,4 the
   4-thread point's 80 GB/s, not the 2-thread point's 100, which read under "4 threads". */
static void test_the_all_threads_figure_is_the_most_threads(void **state)
{
	struct plan_point pts[3] = {point("load.gpr", LEVEL_DRAM), point("load.gpr", LEVEL_DRAM),
				    point("load.gpr", LEVEL_DRAM)};
	struct run_point_result res[3] = {{.gbps = 30, .cv = .001, .reps = 3},
					  {.gbps = 100, .cv = .001, .reps = 3},
					  {.gbps = 80, .cv = .001, .reps = 3}};
	char buf[256], *t;

	(void)state;
	pts[1].threads = 2;
	pts[2].threads = 4;
	t = print(pts, res, 3);
	assert_non_null(strstr(t, "1 thread / 4 threads"));
	assert_non_null(strstr(row(buf, sizeof buf, t, "read"), "30.0 / 80.0"));
	free(t);
}

/* DRAM cells are local memory's, as the peaks' DRAM row: a remote chase (its own row there) made a local
   latency of 91 ns read 116. */
static void test_dram_cells_are_local_memorys(void **state)
{
	struct plan_opts o = {.nplaces = 2, .npf = 1};
	struct plan_point pts[4] = {point("chase.plain", LEVEL_DRAM), point("chase.plain", LEVEL_DRAM),
				    point("chase.plain", LEVEL_DRAM), point("chase.plain", LEVEL_DRAM)};
	struct run_point_result res[4] = {{.ns = 90, .core_ghz = 3, .reps = 3},
					  {.ns = 92, .core_ghz = 3, .reps = 3},
					  {.ns = 140, .core_ghz = 3, .reps = 3},
					  {.ns = 142, .core_ghz = 3, .reps = 3}};
	struct summary_probe sp = {.opts = &o, .ghz = 3};
	char buf[256], *t;

	(void)state;
	o.places[0] = (struct buf_place){BUF_LOCAL, -1};
	o.places[1] = (struct buf_place){BUF_REMOTE, -1};
	strcpy(o.pf_states[0], "on");
	pts[2].place = pts[3].place = 1;
	t = print_probe(pts, res, 4, &sp);
	assert_non_null(strstr(row(buf, sizeof buf, t, "latency"), "91.00 ns"));
	free(t);
}

static void test_points_of_the_interrupted_run_are_not_called_unmeasured(void **state)
{
	struct plan_point pts[4] = {point("load.gpr", LEVEL_L1), point("chase.plain", LEVEL_L1),
				    point("load.gpr", LEVEL_L2), point("chase.plain", LEVEL_L2)};
	struct run_point_result res[4] = {{.reps = 0},
					  {.reps = 0},
					  {.gbps = 30, .cv = 0.001, .reps = 3, .noisy_why = 1u << NW_AT_REPS},
					  {.ns = 4, .core_ghz = 3, .cv = 0.001, .reps = 3}};
	struct summary_probe sp = {.done_before = 2};
	struct plan p = {.points = pts, .npoints = 4};
	char *out = NULL, b[256];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(f);
	summary_print(f, &p, res, &sp, NULL, "/results/x", 0, NULL);
	fclose(f);
	row(b, sizeof b, out, "read");
	assert_non_null(strstr(b, "earlier run"));
	assert_true(strstr(b, "earlier run") < strstr(b, "30.0*")); /* L1 from the earlier run, L2 now */
	row(b, sizeof b, out, "latency");
	assert_non_null(strstr(b, "earlier run"));
	assert_non_null(strstr(b, "4.00 ns 12.0 cyc"));
	assert_non_null(strstr(out, "1 of 2 points measured now stayed noisy"));
	assert_non_null(
		strstr(out, "2 points measured before the interruption this run resumed are in raw.csv"));
	free(out);
}

/* The disturbed repetitions are counted of those judged (record_judged), not of all: a fresh-memory
   point's 8 are not judged (their page faults spread without interference), so 1 of a read's 4, not of 12;
   the repetitions per point are all of them. */
static void test_disturbed_repetitions_count_of_those_judged(void **state)
{
	struct plan_point pts[2] = {point("load.gpr", LEVEL_L1), point("touch.gpr", LEVEL_DRAM)};
	struct run_point_result res[2] = {
		{.gbps = 50, .cv = 0.01, .reps = 4, .reps_judged = 4, .reps_disturbed = 1},
		{.gbps = 5, .cv = 0.3, .reps = 8}};
	char *out = print(pts, res, 2);

	(void)state;
	assert_non_null(strstr(out, "repetitions per point: median 6, 1 of 4 disturbed"));
	free(out);
	/* fresh memory alone: none judged, said so, not "0 of 0" */
	out = print(&pts[1], &res[1], 1);
	assert_non_null(strstr(out,
			       "repetitions per point: median 8, none judged for interference (fresh-memory "
			       "points only); spread of their times: median 30.0 %\n"));
	free(out);
}

/* The revisits of `run --revisits` count in their plan points' cells: L1 read's clean 50 is bettered by its
   revisit's clean 60, L1 write's 40 stands against a slower revisit, and a noisy revisit of L1 read, faster
   still, is the cell's figure, marked; the counts below the table are the plan's points' (2 points, none
   noisy), not the revisits'. */
static void test_revisits_count_in_their_points_cells(void **state)
{
	struct plan_point pts[2] = {point("load.gpr", LEVEL_L1), point("store.gpr", LEVEL_L1)};
	struct run_point_result res[2] = {{.gbps = 50, .cv = 0.01, .reps = 3},
					  {.gbps = 40, .cv = 0.01, .reps = 3}};
	struct run_point_result rev[3] = {{.gbps = 60, .reps = 3},
					  {.gbps = 30, .reps = 3},
					  {.gbps = 70, .noisy_why = 1u << NW_AT_REPS, .reps = 40}};
	int of[3] = {0, 1, 0}; /* rounds of L1 read then L1 write: the third revisit is L1 read's */
	struct summary_revisits rv = {rev, 2, of};
	char *out = print_revisited(pts, res, 2, NULL, &rv), b[256];

	(void)state;
	assert_non_null(strstr(row(b, sizeof b, out, "read"), "60.0"));
	assert_null(strchr(b, '*'));
	assert_non_null(strstr(row(b, sizeof b, out, "write"), "40.0"));
	assert_null(strstr(out, "stayed noisy"));
	assert_non_null(strstr(out, "repetitions per point: median 3"));
	free(out);
	rv.n = 3;
	out = print_revisited(pts, res, 2, NULL, &rv);
	assert_non_null(strstr(row(b, sizeof b, out, "read"), "70.0*"));
	assert_null(strstr(out, "stayed noisy"));
	free(out);
}

/* A latency row's median counts each size once, at its fastest visit (the plan's or a revisit's), and a
   size is noisy only where every visit was: three L2 sizes, the first revisited faster (4 ns), the second
   noisy in the plan at 4.4 ns (its bound, never faster than the hardware) with a slower clean revisit, the
   third revisited slower (8 ns, it keeps 7): median 4.4 ns, 8.8 cycles at 2 GHz. Over the clean visits
   alone it would be 4.6 ns; over the plan's clean points, 6. */
static void test_revisits_of_a_latency_point_count_once_at_the_fastest(void **state)
{
	struct plan_point pts[3] = {point("chase.plain", LEVEL_L2), point("chase.plain", LEVEL_L2),
				    point("chase.plain", LEVEL_L2)};
	struct run_point_result res[3] = {{.ns = 5, .core_ghz = 2, .cv = 0.001},
					  {.ns = 4.4, .core_ghz = 2, .noisy_why = 1u << NW_AT_REPS},
					  {.ns = 7, .core_ghz = 2, .cv = 0.001}};
	struct run_point_result rev[3] = {
		{.ns = 4, .core_ghz = 2}, {.ns = 4.6, .core_ghz = 2}, {.ns = 8, .core_ghz = 2}};
	int of[3] = {0, 1, 2};
	struct summary_revisits rv = {rev, 3, of};
	char *out, b[256];

	(void)state;
	pts[1].bytes = 2 * pts[0].bytes;
	pts[2].bytes = 4 * pts[0].bytes;
	out = print_revisited(pts, res, 3, NULL, NULL);
	assert_non_null(strstr(row(b, sizeof b, out, "latency"), "6.00 ns 12.0 cyc"));
	free(out);
	out = print_revisited(pts, res, 3, NULL, &rv);
	assert_non_null(strstr(row(b, sizeof b, out, "latency"), "4.40 ns 8.8 cyc"));
	assert_null(strchr(b, '*'));
	free(out);
}

/* Where most samples whose runs agreed lay above a config's maximum, the summary says the cores run faster
   than the config's CPU, naming the maximum and its file, and how to keep the clock; not where the maximum
   is cpufreq's (a config cannot move it), nor for a few samples above it among many kept. */
static void test_samples_above_a_config_maximum_are_named(void **state)
{
	struct plan_point pts[2] = {point("load.gpr", LEVEL_L1), point("store.gpr", LEVEL_L1)};
	struct run_point_result res[2] = {
		{.gbps = 30, .core_ghz = 0, .cv = 0.01, .reps = 3, .reps_judged = 3},
		{.gbps = 12, .core_ghz = 0, .cv = 0.01, .reps = 3, .reps_judged = 3}};
	struct clock_bounds cfg = {0.2, 1.0, "slow.ini max_ghz (the highest stock clock of its CPUs)",
				   CLOCK_MAX_FROM_CONFIG},
			    cpufreq = {0.2, 1.0, "cpuinfo_max_freq in /sys/devices/system/cpu",
				       CLOCK_MAX_FROM_CPUFREQ};
	struct summary_probe sp = {NULL, NULL, 0, 0, 0, NULL, &cfg};
	char *out;

	(void)state;
	for (int i = 0; i < 2; i++)
		res[i].clock = (struct run_clock_tally){
			.samples = 6,
			.rejected_by = {[CLOCK_REJECT_DISTURBED] = 2, [CLOCK_REJECT_ABOVE_MAX] = 3},
			.reps_without = 1};
	out = print_probe(pts, res, 2, &sp);
	assert_non_null(
		strstr(out,
		       "core clock: 6 of 12 samples lay above the 1 GHz maximum of slow.ini max_ghz "
		       "(the highest stock clock of its CPUs) and were rejected: the cores run faster "
		       "than the config's CPU"));
	assert_non_null(strstr(out, "a copy of the config with the host's max_ghz, given to `run --config`"));
	free(out);
	sp.bounds = &cpufreq;
	out = print_probe(pts, res, 2, &sp);
	assert_null(strstr(out, "core clock:"));
	free(out);
	sp.bounds = &cfg;
	res[0].clock.samples = res[1].clock.samples = 12; /* 20 of 24 agreed, 6 above: no majority */
	out = print_probe(pts, res, 2, &sp);
	assert_null(strstr(out, "core clock:"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level_whose_points_are_all_noisy_is_shown_and_marked),
		cmocka_unit_test(test_clean_table_has_no_mark),
		cmocka_unit_test(test_samples_above_a_config_maximum_are_named),
		cmocka_unit_test(test_header_names_the_points_time),
		cmocka_unit_test(test_thread_count_measured_in_no_point_of_a_cell_is_a_dash),
		cmocka_unit_test(test_reported_levels_are_not_called_measured),
		cmocka_unit_test(test_levels_from_another_run_name_that_run),
		cmocka_unit_test(test_latency_without_clock_has_no_cycles),
		cmocka_unit_test(test_dram_like_cache_latency_is_not_that_levels),
		cmocka_unit_test(test_latency_over_even_points_is_mean_of_middle_two),
		cmocka_unit_test(test_latency_takes_the_level_probes_faster_time_at_its_size),
		cmocka_unit_test(test_a_cache_levels_latency_takes_the_probe_from_twice_the_level_below),
		cmocka_unit_test(test_point_on_a_level_boundary_is_in_no_cell),
		cmocka_unit_test(test_points_of_the_interrupted_run_are_not_called_unmeasured),
		cmocka_unit_test(test_the_all_threads_figure_is_the_most_threads),
		cmocka_unit_test(test_dram_cells_are_local_memorys),
		cmocka_unit_test(test_disturbed_repetitions_count_of_those_judged),
		cmocka_unit_test(test_revisits_count_in_their_points_cells),
		cmocka_unit_test(test_revisits_of_a_latency_point_count_once_at_the_fastest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
