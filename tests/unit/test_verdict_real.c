/* test_verdict_real.c — verdicts on emulations of what real PMUs are published to do (issue 16). Each
 * event below follows a seed paper or a vendor description; the verdict asserted is the one an expert
 * reading that source expects. The synthetic machine is tests/tools/rawgen.h's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "agg.h"
#include "analyze.h"
#include "out_plot_sets.h"
#include "out_report_md.h"
#include "stall.h"
#include "thresholds.h"
#include "tools/verdict_fixture.h"

static int is_chase(const struct gen_point *p)
{
	return gen_is_chase(p->model);
}

/* An IMC CAS counter (Helm & Taura Fig. 7; Molka et al. Table 3, UNC_M_CAS_COUNT.RD): one per line
   read from DRAM, plus the socket's other traffic at 2.2e6 lines/s, which is ~20 % of a DRAM pointer
   chase (90 ns a line) and ~1.4 % of a stream; with prefetchers on, the random chase drags in 1.8 more
   lines per line on a minority of points (issue 16 as observed on the held-out emulations; here the two
   largest chains, 15 % of the DRAM points with prefetchers on). */
static double ev_cas(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		     const char **why)
{
	double c = p->level == 3 ? p->v[RQ_lines_read] : 0;

	(void)rep, (void)st, (void)why;
	if (p->level == 3 && is_chase(p) && !strcmp(p->prefetch, "on") && p->bytes > 32 * 1024 * 1024)
		c *= 2.8;
	return round((c + 2.2e6 * p->seconds) * (1 + 0.003 * gen_normal(rng)));
}

/* An offcore-response DRAM event that sees 80 % of the DRAM lines, and only DRAM lines (Molka et al.
   Section 4.2: OFFCORE_RESPONSE undercounts by a roughly constant fraction). */
static double ev_offcore(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			 const char **why)
{
	(void)rep, (void)st, (void)why;
	return p->level == 3 ? round(0.8 * p->v[RQ_lines_read] * (1 + 0.003 * gen_normal(rng)))
			     : floor(gen_uniform(rng) * 4);
}

/* UPI flits: 9 per 64-byte line (configs/skx.ini; Linux skx-metrics.json, UPI bandwidth = flits x 64/9). */
static double ev_upi(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		     const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return 9 * p->v[RQ_lines_read];
}

/* An exact line counter whose readings are sometimes impossible: a 48-bit wrap, a negative count,
   a counter stuck at all ones (the held-out case printed 2.256e+10 Mevents/s). */
static double ev_broken(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			const char **why)
{
	(void)rng, (void)st, (void)why;
	if (rep == 1 && p->id % 17 == 0)
		return p->id % 2 ? 281474976710656.0 - 5 : -3;
	if (rep == 2 && p->id % 29 == 0)
		return 18446744073709551615.0;
	return p->v[RQ_lines_read];
}

/* Molka et al. Fig. 8 (CYCLE_ACTIVITY.STALLS_L1D_PENDING / memory stalls): the chase's latency in
   cycles when it misses L1, nothing in L1 where no load waits on a miss. */
static double ev_l1miss_stall(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			      const char **why)
{
	static const double lat_ns[4] = {1.3, 4, 12, 90};

	(void)rep, (void)rng, (void)st, (void)why;
	if (!is_chase(p) || p->level <= 0)
		return 0;
	return round(lat_ns[p->level] * GEN_GHZ * p->v[RQ_chase_accesses]);
}

/* Whether a DRAM point with prefetchers on drags in extra lines: its kernel is a random chase, of all
   three variants (12 of the 40 points of the group: 30 %) or of two (8 of 40: 20 %). */
static int dragged(const struct gen_point *p, int all_chases)
{
	return p->level == 3 && !strcmp(p->prefetch, "on") && is_chase(p) &&
		(all_chases || p->model != GEN_CHASE_DEP);
}

/* An IMC CAS counter whose random chases with prefetchers on drag in 1.8 more lines per line (issue
   16, the held-out emulations; Helm & Taura Section 5: prefetched lines reach the IMC like demand
   lines): on 20 % of the DRAM points with prefetchers on, a minority that may be left out, or on 30 %,
   two populations that may not. */
static double cas_dragged(const struct gen_point *p, uint64_t *rng, int all_chases)
{
	double c = p->level == 3 ? p->v[RQ_lines_read] * (1 + 0.003 * gen_normal(rng)) : 0;

	return round(dragged(p, all_chases) ? 2.8 * c : c);
}

static double ev_cas20(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		       const char **why)
{
	(void)rep, (void)st, (void)why;
	return cas_dragged(p, rng, 0);
}

static double ev_cas30(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		       const char **why)
{
	(void)rep, (void)st, (void)why;
	return cas_dragged(p, rng, 1);
}

/* Larysch Section 3.3 (seed 001): the memory controller's read transactions and the PMU's L3 misses
   "should merely differ by a constant offset" — here 5e4 reads per measurement beside one per DRAM
   line (a 1e-4 noise, far below the offset). */
#define IMC_OFFSET 5e4
static double ev_imc_offset(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			    const char **why)
{
	(void)rep, (void)st, (void)why;
	return round((p->level == 3 ? p->v[RQ_lines_read] * (1 + 1e-4 * gen_normal(rng)) : 0) + IMC_OFFSET);
}

/* Intel SDM Vol. 3B, pre-defined architectural performance events, "UnHalted Core Cycles"
   (CPU_CLK_UNHALTED.THREAD): core cycles while the thread runs, time at GEN_GHZ whatever the kernel
   moves. */
static double ev_cycles(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			const char **why)
{
	(void)rep, (void)st, (void)why;
	return round(p->seconds * GEN_GHZ * 1e9 * p->threads * (1 + 0.002 * gen_normal(rng)));
}

/* Linux pmu-events haswell/memory.json, MACHINE_CLEARS.MEMORY_ORDERING: clears from "memory address
   aliasing or snoops from another hardware thread or core"; the kernels share no lines, so what it
   counts comes from elsewhere. */
static double ev_clears(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			const char **why)
{
	(void)p, (void)rep, (void)st, (void)why;
	return floor(gen_uniform(rng) * 1e4);
}

/* A thread's counter of lines that also counts 2e8 a second (cycles, interrupts): no other core's traffic
   reaches a thread's counter, so that part is no background to subtract, and the event is no exact count
   of lines (with it subtracted, it read exact). */
static double ev_lines_and_time(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
				const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return round(p->v[RQ_lines_read] + 2e8 * p->seconds * p->threads);
}

/* An uncore clock (UNC_M_CLOCKTICKS): 1.2e9 a second, socket-wide, whatever the kernels move. */
static double ev_uncore_clock(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			      const char **why)
{
	(void)rep, (void)st, (void)why;
	return round(1.2e9 * p->seconds * (1 + 0.001 * gen_normal(rng)));
}

static const struct gen_event real_events[] = {
	{"UNC_M_CAS_COUNT.RD", ev_cas},
	{"OFFCORE_DRAM", ev_offcore},
	{"UPI_FLITS", ev_upi},
	{"BROKEN_LINES", ev_broken},
	{"STALLS_L1D_MISS", ev_l1miss_stall},
	{"CAS_DRAGGED_20", ev_cas20},
	{"CAS_DRAGGED_30", ev_cas30},
	{"UNC_M_RD_WITH_OFFSET", ev_imc_offset},
	{"CPU_CLK_UNHALTED.THREAD", ev_cycles},
	{"MACHINE_CLEARS.MEMORY_ORDERING", ev_clears},
	{"LINES_AND_TIME", ev_lines_and_time},
	{"UNC_M_CLOCKTICKS", ev_uncore_clock},
};

/* Larysch Section 3.3's sequential read (preset larysch2016.seqread): splitread at offset 0, one 8-byte
   load per line, here over every level with prefetchers on and off. Loads, lines_read and
   bytes_loaded / 8 are the same numbers on every point (but for the ret's one load a call). */
static const struct gen_kernel seqread[] = {
	{GEN_SPLITREAD, "splitread", "splitread.gpr", "", "time-offset", "", 8, 1, 0},
};

/* Linux pmu-events skylake/cache.json, MEM_INST_RETIRED.ALL_LOADS: "Counts all retired load instructions";
   the config says so (loads * 1). */
static double ev_all_loads(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			   const char **why)
{
	(void)rep, (void)st, (void)why;
	return round(p->v[RQ_loads] * (1 + 0.001 * gen_normal(rng)));
}

/* Linux pmu-events skylake/cache.json, L1D.REPLACEMENT: "Counts L1D data line replacements including
   opportunistic replacements, and replacements that require stall-for-replace or block-for-replace":
   one per line read beyond L1, none in L1 but a few stray ones; no hypothesis in the config. */
static double ev_l1d_replacement(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
				 const char **why)
{
	(void)rep, (void)st, (void)why;
	return p->level > 0 ? round(p->v[RQ_lines_read] * (1 + 0.001 * gen_normal(rng)))
			    : floor(gen_uniform(rng) * 4);
}

static const struct gen_event seqread_events[] = {
	{"MEM_INST_RETIRED.ALL_LOADS", ev_all_loads},
	{"L1D.REPLACEMENT", ev_l1d_replacement},
};

static int setup_seqread(void **state)
{
	static const struct gen_sweep sw = {
		.kernels = seqread,
		.nkernels = 1,
		.hypotheses = "{ \"MEM_INST_RETIRED.ALL_LOADS\": { \"name\": \"MEM_INST_RETIRED.ALL_LOADS\", "
			      "\"quantity\": \"loads\", \"scale\": 1, \"levels\": [\"L1\", \"L2\", \"L3\", "
			      "\"DRAM\"], "
			      "\"placement\": [\"local\"], \"prefetch\": [\"on\", \"off\"] } }"};

	return fixture_open_sweep(state, seqread_events, 2, &sw);
}

/* A run on a machine without uncore access and with an event the kernel refuses (perf_event_open(2):
   ENOENT "the type setting is not valid", EINVAL "the specified event is invalid"): the first is
   not_measured on every row, the second failed on every row, a third failed once and counted otherwise. */
static double ev_no_uncore(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			   const char **why)
{
	(void)p, (void)rep, (void)rng;
	*st = "not_measured";
	*why = "no uncore PMU: perf_event_open ENOENT";
	return 0;
}

static double ev_refused(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			 const char **why)
{
	(void)p, (void)rep, (void)rng;
	*st = "failed";
	*why = "perf_event_open EINVAL";
	return 0;
}

static double ev_failed_once(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			     const char **why)
{
	(void)rng;
	if (rep == 1 && p->id == 3) {
		*st = "failed";
		*why = "read returned 0 bytes";
	}
	return p->v[RQ_lines_read];
}

static const struct gen_event unmeasured_events[] = {
	{"UNC_M_CAS_COUNT.RD", ev_no_uncore},
	{"MEM_LOAD_RETIRED.L3_MISS", ev_refused},
	{"L1D.REPLACEMENT", ev_failed_once},
};

/* An event counted on the first of the threads only (a per-core event whose counter the tool opened on
   one CPU, or one that an SMT sibling's counter does not see): the lines the first thread reads. On a
   pointer chase (one thread) it is chase_accesses exactly, but it counts every load, store and triad
   point too, where there are no chase accesses. */
static double ev_one_thread(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			    const char **why)
{
	(void)rep, (void)st, (void)why;
	return round(p->v[RQ_lines_read] / p->threads * (1 + 0.001 * gen_normal(rng)));
}

/* UNC_M_CAS_COUNT.WR (Molka et al. Table 3): one per line written back to DRAM, plus the socket's other
   writes at 1e6 lines/s, which is all it counts on the kernels that write nothing (load, chase). */
static double ev_cas_wr(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
			const char **why)
{
	double c = p->level == 3 ? p->v[RQ_lines_written] : 0;

	(void)rep, (void)st, (void)why;
	return round((c + 1e6 * p->seconds) * (1 + 0.003 * gen_normal(rng)));
}

/* The uncore events count socket-wide, as the run records them (scope "socket"): only there is a part that
   grows with time a background (verdict_background.c). */
static const struct gen_encoding uncore[] = {
	{"UNC_M_CAS_COUNT.RD", "type=4", "socket"},   {"UPI_FLITS", "type=4", "socket"},
	{"CAS_DRAGGED_20", "type=4", "socket"},       {"CAS_DRAGGED_30", "type=4", "socket"},
	{"UNC_M_RD_WITH_OFFSET", "type=4", "socket"}, {"UNC_M_CAS_COUNT.WR", "type=4", "socket"},
	{"UNC_M_CLOCKTICKS", "type=4", "socket"},
};

static const struct gen_event zero_events[] = {
	{"ONE_THREAD_LINES", ev_one_thread},
	{"UNC_M_CAS_COUNT.WR", ev_cas_wr},
};

static int setup_zero(void **state)
{
	static const struct gen_sweep sw = {.encodings = uncore,
					    .nencodings = sizeof uncore / sizeof *uncore};

	return fixture_open_sweep(state, zero_events, 2, &sw);
}

static int setup_unmeasured(void **state)
{
	return fixture_open(state, unmeasured_events, 3);
}

static int setup(void **state)
{
	static const struct gen_sweep sw = {.encodings = uncore,
					    .nencodings = sizeof uncore / sizeof *uncore};

	return fixture_open_sweep(state, real_events, sizeof real_events / sizeof *real_events, &sw);
}

static struct verdict judge(void **state, const char *name, uint32_t *index)
{
	return fixture_judge(state, name, index);
}

static void test_dram_counter_with_background_and_prefetched_chase_is_exact(void **state)
{
	struct verdict v = judge(state, "UNC_M_CAS_COUNT.RD", NULL);

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 1);
	assert_int_equal(v.levels, 1u << LV_DRAM);
	assert_string_equal(verdict_prefetch_text(v.prefetch), "both");
	/* the background was estimated near its true 2.2e6/s and said */
	assert_true(v.background > 1.5e6 && v.background < 3e6);
	assert_non_null(strstr(v.note, "background"));
	/* the prefetched chase points were left out, and said */
	assert_true(v.outliers > 0);
	assert_true(isfinite(v.intercept));
}

static void test_offcore_event_seeing_80_percent_of_dram_lines_undercounts_there(void **state)
{
	struct verdict v = judge(state, "OFFCORE_DRAM", NULL);

	assert_int_equal(v.cls, VC_UNDERCOUNTS);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_int_equal(v.levels, 1u << LV_DRAM);
	assert_true(fabs(v.measured - 0.8) < 0.01);
	assert_true(v.scale == 1);
}

static void test_nine_flits_per_line_is_a_simple_value(void **state)
{
	struct verdict v = judge(state, "UPI_FLITS", NULL);

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 9);
}

static void test_impossible_readings_are_rejected_with_their_reason(void **state)
{
	struct fixture *f = *state;
	uint32_t i = 0;
	struct verdict v = judge(state, "BROKEN_LINES", &i);

	assert_true(f->a.events[i].rejected >= 3);
	assert_int_equal(v.cls, VC_EXACT);
	assert_true(v.error < 1e-9);
	assert_non_null(strstr(v.note, "impossible readings rejected"));
	/* the highest rate comes from possible readings only: lines at 100 GB/s are 1.6e9/s per thread */
	assert_true(v.max_rate < 1e10);
}

static void test_l1_miss_stall_event_is_listed_from_l2_on(void **state)
{
	struct fixture *f = *state;
	struct stall_row *rows;
	unsigned n, levels = 0;
	uint32_t ev = 0;

	judge(state, "STALLS_L1D_MISS", &ev);
	assert_int_equal(stall_compute(&f->a, &rows, &n), 0);
	for (unsigned i = 0; i < n; i++)
		if (rows[i].event == ev) {
			levels |= 1u << rows[i].level;
			assert_true(rows[i].matches_latency);
		}
	free(rows);
	assert_int_equal(levels, 1u << LV_L2 | 1u << LV_L3 | 1u << LV_DRAM);
}

/* Every field that belongs to a quantity is empty in an unrelated row, whichever way it got there. */
static void assert_no_quantity(const struct verdict *v)
{
	assert_int_equal(v->cls, VC_UNRELATED);
	assert_int_equal(v->quantity, -1);
	assert_string_equal(v->quantity_text, "");
	assert_true(v->scale == 0);
	assert_true(isnan(v->measured) && isnan(v->error) && isnan(v->spread));
	assert_true(isnan(v->slope) && isnan(v->intercept));
	assert_int_equal(v->levels, 0);
	assert_int_equal(v->prefetch, 0);
	assert_true(v->background == 0 && v->background_share == 0);
	assert_int_equal(v->outliers, 0);
	assert_string_equal(v->decomposition, "");
	assert_string_equal(v->split, "");
}

static void test_unrelated_rows_carry_no_quantity_fields(void **state)
{
	struct verdict cycles = judge(state, "CPU_CLK_UNHALTED.THREAD", NULL);
	struct verdict clears = judge(state, "MACHINE_CLEARS.MEMORY_ORDERING", NULL);

	/* time: judged against time, which is no volume */
	assert_no_quantity(&cycles);
	assert_non_null(strstr(cycles.note, "counts time"));
	/* nothing: the best linear fit is named in the note only, with the points its R^2 is over (those
	   where its quantity is not 0: multiplies' R^2 1.000 on one point in seven once read as all) */
	assert_no_quantity(&clears);
	assert_non_null(strstr(clears.note, "best linear fit"));
	assert_non_null(strstr(clears.note, " points where it is not 0"));
}

/* The share of dragged points among the judged DRAM points with prefetchers on. */
static double dragged_share(const struct agg *a, int all_chases)
{
	unsigned n = 0, k = 0;

	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct agg_point *p = &a->points[i];
		struct gen_point g = {.model = gen_model_of(p->variant),
				      .kernel = p->kernel,
				      .variant = p->variant,
				      .level = 3,
				      .prefetch = "on"};
		if (p->level != LV_DRAM || p->pf != PF_ON || p->noisy || !(p->v[RQ_lines_read] > 0))
			continue;
		n++;
		k += dragged(&g, all_chases);
	}
	return n ? (double)k / n : 0;
}

/* 20 % of a group off by 2.8x: a minority, left out and said; the counter is exact at DRAM with
   prefetchers on and off. */
static void test_a_fifth_of_a_group_off_is_left_out(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "CAS_DRAGGED_20", NULL);
	double share = dragged_share(&f->a, 0);

	assert_true(fabs(share - 0.2) < 0.01); /* the emulation is what it says */
	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_int_equal(v.levels, 1u << LV_DRAM);
	assert_string_equal(verdict_prefetch_text(v.prefetch), "both");
	assert_true(v.outliers > 0);
	assert_non_null(strstr(v.note, "outlying points left out"));
	assert_string_equal(v.split, "");
}

/* 30 % off: two populations, not a minority. The group is judged whole, so it is not exact (it does
   not hold at all: its spread is 90 %); the counter is exact only where prefetchers are off, and the
   note names the split group. */
static void test_a_third_of_a_group_off_splits_it(void **state)
{
	struct fixture *f = *state;
	struct verdict v = judge(state, "CAS_DRAGGED_30", NULL);
	double share = dragged_share(&f->a, 1);

	assert_true(fabs(share - 0.3) < 0.01);
	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_int_equal(v.levels, 1u << LV_DRAM);
	assert_string_equal(verdict_prefetch_text(v.prefetch), "off");
	assert_int_equal(v.outliers, 0);
	assert_non_null(strstr(v.split, "DRAM/on"));
	assert_non_null(strstr(v.note, "split groups"));
	assert_non_null(strstr(v.note, "DRAM/on"));
}

static void test_a_threads_counter_has_no_background(void **state)
{
	struct verdict v = judge(state, "LINES_AND_TIME", NULL);

	assert_int_not_equal(v.cls, VC_EXACT);
	assert_int_not_equal(v.cls, VC_APPROXIMATE);
	assert_true(v.background == 0);
}

/* A socket's clock counts time at every point, where a volume holds too (the DRAM points of one bandwidth):
   no background of a counter of that volume. */
static void test_an_uncore_clock_counts_time(void **state)
{
	struct verdict v = judge(state, "UNC_M_CLOCKTICKS", NULL);

	assert_int_equal(v.cls, VC_UNRELATED);
	assert_non_null(strstr(v.note, "counts time, not a volume"));
}

/* The intercept column is the fitted constant: the offset Larysch expects between IMC and PMU. */
static void test_a_constant_offset_per_point_is_the_intercept(void **state)
{
	struct verdict v = judge(state, "UNC_M_RD_WITH_OFFSET", NULL);

	assert_true(v.cls == VC_EXACT || v.cls == VC_APPROXIMATE);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_int_equal(v.levels, 1u << LV_DRAM);
	assert_true(fabs(v.slope - 1) < 0.005);
	assert_true(fabs(v.intercept - IMC_OFFSET) < 0.1 * IMC_OFFSET);
}

/* The data cannot tell loads from lines: the config's hypothesis decides, and the note says that the
   others fit as well. */
static void test_a_tie_goes_to_the_configs_hypothesis(void **state)
{
	struct fixture *f = *state;
	uint32_t i = 0;
	struct verdict v = judge(state, "MEM_INST_RETIRED.ALL_LOADS", &i);

	assert_int_equal(f->a.events[i].hyp_q, RQ_loads); /* read from machine.json */
	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_loads);
	assert_true(v.scale == 1);
	assert_non_null(strstr(v.note, "the data cannot tell loads from"));
	assert_non_null(strstr(v.note, "lines_read"));
	assert_non_null(strstr(v.note, "bytes_loaded"));
	assert_non_null(strstr(v.note, "the config's hypothesis taken"));
}

/* Without a hypothesis the more specific quantity: for a line event on loads only, the lines the loads
   read (no store tells them from all lines read). */
static void test_without_hypothesis_a_tie_goes_to_the_more_specific_quantity(void **state)
{
	struct fixture *f = *state;
	uint32_t i = 0;
	struct verdict v = judge(state, "L1D.REPLACEMENT", &i);

	assert_int_equal(f->a.events[i].hyp_q, -1);
	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_demand_read);
	assert_true(v.scale == 1);
	assert_int_equal(v.levels, 1u << LV_L2 | 1u << LV_L3 | 1u << LV_DRAM);
	assert_non_null(strstr(v.note, "the data cannot tell lines_demand_read from"));
	assert_non_null(strstr(v.note, "lines_read"));
	assert_non_null(strstr(v.note, "loads"));
	assert_non_null(strstr(v.note, "bytes_loaded"));
	assert_non_null(strstr(v.note, "the more specific taken"));
}

/* report.md's "What was not measured" lists failed events beside not-measured ones, and the count
   `pmucheck report` prints (out_report_md's return, "N events not measured or failed, listed at the top")
   is of the events listed: an event that failed once and was counted otherwise too, which the count once
   left out (0 beside one listed as failed). */
static void test_report_counts_failed_events_as_not_measured(void **state)
{
	struct fixture *f = *state;
	struct out_rdata d;
	struct out_figures figs = {0};
	struct err e;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	unsigned n;

	assert_int_equal(analyze_dir(f->dir, NULL, &e), 0);
	assert_int_equal(out_rdata_load(&d, f->dir, &e), 0);
	assert_non_null(mem = open_memstream(&text, &len));
	n = out_report_md(mem, &d, &figs, "not drawn in this test");
	fclose(mem);
	out_rdata_free(&d);
	assert_int_equal(n, 3);
	assert_non_null(strstr(text, "**Not measured**: `UNC_M_CAS_COUNT.RD`"));
	assert_non_null(
		strstr(text, "**Failed**: `MEM_LOAD_RETIRED.L3_MISS`. Reason: perf_event_open EINVAL"));
	/* the event that failed once is said, and counted */
	assert_non_null(strstr(text, "`L1D.REPLACEMENT`. Reason: read returned 0 bytes"));
	free(text);
}

/* All-core runs (Helm & Taura Fig. 7, 12 threads of a socket): each thread gets a twelfth of the L3. */
static void test_level_uses_the_per_thread_share_of_a_shared_cache(void **state)
{
	struct machine m = {.limit = {32 << 10, 1 << 20, 30 << 20}, .sharers = {1, 1, 12}};
	struct raw_row r = {.kernel = "load", .placement = "local", .arrays = 1, .threads = 1, .level = "L3"};

	(void)state;
	r.bytes = 8 << 20;
	assert_int_equal(point_level_assign(&m, &r), LV_L3);
	r.threads = 12; /* 8 MiB each, 2.5 MiB share each: DRAM */
	r.level = "DRAM";
	assert_int_equal(point_level_assign(&m, &r), LV_DRAM);
	r.bytes = 1800 << 10; /* 1.8 MiB each, beyond L2, of a 2.5 MiB share: L3 */
	assert_int_equal(point_level_assign(&m, &r), LV_L3);
	/* an L3 whose sixteenth is smaller than the private L2 (an Emerald Rapids guest's 11.6 MiB): 1 MiB
	   each lies within 50 % above that sixteenth, but inside L2, as the plan takes it (test_plan.c) */
	m.limit[1] = 2 << 20;
	m.limit[2] = 11878 << 10;
	m.sharers[2] = 16;
	r.threads = 16;
	r.bytes = 1 << 20;
	assert_int_equal(point_level_assign(&m, &r), LV_L2);
	m.limit[1] = 1 << 20;
	m.limit[2] = 30 << 20;
	m.sharers[2] = 12;
	r.threads = 12;
	/* without the sharing in machine.json, the level the run recorded */
	m.sharers[2] = 0;
	r.bytes = 8 << 20;
	assert_int_equal(point_level_assign(&m, &r), LV_DRAM);
}

/* A point where the quantity is 0 gives no ratio, but where the event counts there, at a tenth of the
   rate of its group's other points or more, the quantity does not explain it: the one-thread event is
   no chase-access counter, and no quantity holds for it. */
static void test_counting_where_the_quantity_is_zero_is_no_match(void **state)
{
	struct verdict v = judge(state, "ONE_THREAD_LINES", NULL);

	assert_int_not_equal(v.cls, VC_EXACT);
	assert_int_not_equal(v.cls, VC_APPROXIMATE);
	assert_int_not_equal(v.quantity, RQ_chase_accesses);
}

/* The socket's own writes on the kernels that write nothing are a background, not a contradiction. */
static void test_a_write_counter_with_background_is_exact_where_it_writes(void **state)
{
	struct verdict v = judge(state, "UNC_M_CAS_COUNT.WR", NULL);

	assert_int_equal(v.cls, VC_EXACT);
	assert_non_null(strstr(v.quantity_text, "lines_written"));
	assert_int_equal(v.levels, 1u << LV_DRAM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dram_counter_with_background_and_prefetched_chase_is_exact),
		cmocka_unit_test(test_offcore_event_seeing_80_percent_of_dram_lines_undercounts_there),
		cmocka_unit_test(test_nine_flits_per_line_is_a_simple_value),
		cmocka_unit_test(test_impossible_readings_are_rejected_with_their_reason),
		cmocka_unit_test(test_l1_miss_stall_event_is_listed_from_l2_on),
		cmocka_unit_test(test_unrelated_rows_carry_no_quantity_fields),
		cmocka_unit_test(test_a_fifth_of_a_group_off_is_left_out),
		cmocka_unit_test(test_a_third_of_a_group_off_splits_it),
		cmocka_unit_test(test_a_constant_offset_per_point_is_the_intercept),
		cmocka_unit_test(test_a_threads_counter_has_no_background),
		cmocka_unit_test(test_an_uncore_clock_counts_time),
		cmocka_unit_test(test_level_uses_the_per_thread_share_of_a_shared_cache),
		cmocka_unit_test_setup_teardown(test_a_tie_goes_to_the_configs_hypothesis, setup_seqread,
						fixture_close),
		cmocka_unit_test_setup_teardown(
			test_without_hypothesis_a_tie_goes_to_the_more_specific_quantity, setup_seqread,
			fixture_close),
		cmocka_unit_test_setup_teardown(test_report_counts_failed_events_as_not_measured,
						setup_unmeasured, fixture_close),
		cmocka_unit_test_setup_teardown(test_counting_where_the_quantity_is_zero_is_no_match,
						setup_zero, fixture_close),
		cmocka_unit_test_setup_teardown(test_a_write_counter_with_background_is_exact_where_it_writes,
						setup_zero, fixture_close),
	};
	return cmocka_run_group_tests(tests, setup, fixture_close);
}
