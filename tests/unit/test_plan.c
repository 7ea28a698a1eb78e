/* test_plan.c — the size sweep and the point list that `run` measures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu_id.h"
#include "fake_file.h"
#include "plan.h"
#include "skip_why.h"
#include "sysinfo.h"

static struct topo topo;

static int setup(void **state)
{
	(void)state;
	return topo_load(&topo, NULL);
}

static int teardown(void **state)
{
	(void)state;
	topo_free(&topo);
	return 0;
}

/* The threads a run takes by default: one CPU a core (topo_default_cpus), so a VM of one core's two
   hyperthreads has two CPUs but one thread. */
static int default_threads(void)
{
	int cpus[TOPO_MAX_CPUS];

	return topo_default_cpus(&topo, cpus, TOPO_MAX_CPUS);
}

static int check(struct plan_opts *o, struct plan *p)
{
	struct err e;
	int rc = plan_check_opts(o, &topo, &e);
	return rc ? rc : plan_build(o, &topo, p, &e);
}

/* check() on this machine with its L2 and L3 replaced: an L2 of l2 bytes a core that the level probe (or
   its history) ended at l2_measured, an L3 of l3 bytes for two CPUs (inclusive: its share alone, whatever
   this machine's is) that it ended at l3_measured (0: where reported). The machine's own caches are back
   before it returns, before any assert: the other tests share the topology. */
static int check_on(struct plan_opts *o, struct plan *p, uint64_t l2, uint64_t l2_measured, uint64_t l3,
		    uint64_t l3_measured)
{
	struct topo_cache c2 = topo.caches[1], c3 = topo.caches[2];
	int rc;

	topo.caches[1].size = l2;
	topo.caches[1].npus = 1;
	topo.caches[1].measured = l2_measured;
	topo.caches[2].size = l3;
	topo.caches[2].npus = 2;
	topo.caches[2].measured = l3_measured;
	topo.caches[2].inclusion = LEVEL_INCLUSIVE;
	rc = check(o, p);
	topo.caches[1] = c2;
	topo.caches[2] = c3;
	return rc;
}

/* No point of a load sweep sits within 25 % below a level's capacity or closer than 2x above the level
   below (on this machine's levels, all wide enough for that), so no point straddles two levels. */
static void test_sweep_keeps_clear_of_level_boundaries(void **state)
{
	struct plan_opts o = {0};
	struct plan p;

	(void)state;
	o.kernels = "load.gpr";
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check(&o, &p), 0);
	assert_true(p.npoints >= 4);
	for (int i = 0; i < p.npoints; i++) {
		uint64_t ws = p.points[i].bytes * p.points[i].fam->arrays;
		for (int l = 1; l <= topo.ncaches; l++) {
			uint64_t share = topo_cache_capacity(&topo, l, 1);
			assert_false(ws > share * 3 / 4 && ws <= share);
			assert_false(ws > share && ws < 2 * share);
		}
		assert_false(p.points[i].boundary);
	}
	plan_free(&p);
}

/* Every level gets points, and DRAM points are at least 4x the last-level cache. */
static void test_sweep_covers_every_level_and_dram_is_4x_llc(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	int seen[LEVEL_COUNT] = {0};
	uint64_t llc = topo.caches[topo.ncaches - 1].size;

	(void)state;
	o.kernels = "load.gpr";
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check(&o, &p), 0);
	for (int i = 0; i < p.npoints; i++) {
		enum level lv = p.points[i].level;
		seen[lv] = 1;
		if (lv == LEVEL_DRAM)
			assert_true(p.points[i].bytes >= 4 * llc);
	}
	for (int l = 0; l < topo.ncaches; l++)
		assert_true(seen[l]);
	assert_true(seen[LEVEL_DRAM]);
	plan_free(&p);
}

/* Many threads of a small measured LLC: the LLC four times over split among them may not pass a private L2
   (64 threads of the 32 MiB floor: 2 MiB each, Sapphire Rapids' L2), so each thread's DRAM set is also four
   times its largest share below the LLC. Here an L2 of 256 MiB under an L3 reported at 512 MiB, measured
   at 40: the LLC's part alone gives 512 MiB (the reported L3 taken up to 128 MiB, four times), the L2's
   1 GiB. */
static void test_dram_points_pass_the_levels_below_the_llc(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	int dram = 0, small = 0, boundary = 0;

	(void)state;
	if (topo.ncaches != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", topo.ncaches);
	o.kernels = "load.gpr";
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check_on(&o, &p, 256u << 20, 0, 512u << 20, 40u << 20), 0);
	for (int i = 0; i < p.npoints; i++)
		if (p.points[i].level == LEVEL_DRAM) {
			small += p.points[i].bytes < 4 * (256ull << 20);
			boundary += p.points[i].boundary;
			dram++;
		}
	plan_free(&p);
	assert_int_equal(dram, 2);
	assert_int_equal(small, 0);
	assert_int_equal(boundary, 0);
}

/* The smaller (4x) DRAM point of `variant` at `threads` threads, in bytes per array, with an inclusive L3
   of `reported` bytes that the level probe found to end at `measured` (0: where reported); 0 when the plan
   failed or had no DRAM point. The L2 is kept small, so that only the LLC sizes the points. */
static uint64_t dram_point(const char *variant, uint64_t reported, uint64_t measured, int threads)
{
	struct plan_opts o = {0};
	struct plan p;
	uint64_t smallest = 0;

	o.kernels = variant;
	o.threads[o.nthreads++] = threads;
	if (check_on(&o, &p, 1u << 20, 0, reported, measured))
		return 0;
	for (int i = 0; i < p.npoints; i++)
		if (p.points[i].level == LEVEL_DRAM && (!smallest || p.points[i].bytes < smallest))
			smallest = p.points[i].bytes;
	plan_free(&p);
	return smallest;
}

/* An L3 the probe found short (other tenants' lines leave a chase no room) still serves a stream in part:
   the DRAM points reckon with the reported L3, up to 128 MiB (plan.h PLAN_DRAM_REPORTED_LLC_CAP), and with 32
   MiB at least. An Emerald Rapids guest's 300 MiB L3 measured at 8 MiB: the 4x point 512 MiB, split among
   two threads 256 MiB each (the probe's 8 MiB gave 128 and 64 MiB: 1.05-1.38x the DRAM speed there). A
   probe that found the whole L3 (a quiet host: measured 0) keeps all of it; a small reported L3, the floor;
   the pointer chase, the probe's end. */
static void test_dram_points_reckon_with_the_reported_llc(void **state)
{
	(void)state;
	if (topo.ncaches != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", topo.ncaches);
	assert_int_equal(dram_point("load.gpr", 300ull << 20, 8u << 20, 1), 512ull << 20);
	if (default_threads() >= 2) /* two threads need two cores in use (a 1-vCPU machine, taskset -c 1) */
		assert_int_equal(dram_point("load.gpr", 300ull << 20, 8u << 20, 2), 256ull << 20);
	assert_int_equal(dram_point("load.gpr", 2048ull << 20, 8u << 20, 1), 512ull << 20);
	assert_int_equal(dram_point("load.gpr", 300ull << 20, 0, 1), 1200ull << 20);
	assert_int_equal(dram_point("load.gpr", 8u << 20, 0, 1), 128ull << 20);
	/* the chase, which the level probe timed itself, reckons with the probe's end: here the floor */
	assert_int_equal(dram_point("chase.plain", 300ull << 20, 8u << 20, 1), 128ull << 20);
	assert_int_equal(dram_point("chase.plain", 300ull << 20, 64u << 20, 1), 256ull << 20);
	/* and with multiplies, whose access is no latency row's: its loads are the chase's */
	assert_int_equal(dram_point("chase.dep", 300ull << 20, 8u << 20, 1), 128ull << 20);
	assert_int_equal(dram_point("chase.indep", 300ull << 20, 8u << 20, 1), 128ull << 20);
	/* a measured end above the cap stays */
	assert_int_equal(dram_point("load.gpr", 300ull << 20, 200ull << 20, 1), 800ull << 20);
}

/* A non-temporal store's array never enters the cache: the arrays a DRAM point reads must pass the LLC on
   their own, as a plain kernel's whole working set does (nt-copy's read array, nt-triad's two). A store.nt
   keeps nothing cached and is sized as the plain store. */
static void test_an_nt_points_read_arrays_alone_pass_the_llc(void **state)
{
	uint64_t llc = 64u << 20, copy, copy_nt, triad, triad_nt,
		 granule = kern_family_find("triad")->granule;

	(void)state;
	if (topo.ncaches != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", topo.ncaches);
	copy = dram_point("copy.sse", llc, 0, 1);
	copy_nt = dram_point("copy.sse.nt", llc, 0, 1);
	triad = dram_point("triad.sse", llc, 0, 1);
	triad_nt = dram_point("triad.sse.nt", llc, 0, 1);
	assert_int_equal(copy, 2 * llc);    /* 4x over two arrays */
	assert_int_equal(copy_nt, 4 * llc); /* its read array alone 4x */
	/* in whole granules per array: 4 * llc is no multiple of 3 of them */
	assert_true(3 * triad > 4 * llc - 3 * granule && 3 * triad <= 4 * llc);
	assert_true(2 * triad_nt > 4 * llc - 2 * granule && 2 * triad_nt <= 4 * llc);
	assert_int_equal(dram_point("store.sse.nt", llc, 0, 1), dram_point("store.sse", llc, 0, 1));
	assert_int_equal(dram_point("store.sse", llc, 0, 1), 4 * llc);
}

/* A point of --sizes that the plan calls DRAM, of a stream below the sweep's smallest DRAM point of it,
   carries that point's size (dram_from), which the run says; a chase's, one at or above it and a cache
   level's point carry none. An L3 of 300 MiB measured at 8 MiB: a stream's sweep starts at 512 MiB, an
   nt-copy's at 1 GiB a thread. */
static void test_a_stream_of_sizes_short_of_the_sweeps_dram_is_marked(void **state)
{
	static const struct {
		const char *kernel;
		uint64_t size, from;
	} cases[] = {
		{"load.gpr", 64u << 20, 512u << 20},
		{"load.gpr", 512u << 20, 0},
		{"load.gpr", 4u << 20, 0},
		{"chase.plain", 64u << 20, 0},
		{"copy.sse.nt", 512u << 20, 1u << 30},
		/* fresh memory: every line comes from a page fault, no cache serves it (its descriptor's one
		   line read a page once made it 64x a stream's) */
		{"touch.gpr", 64u << 20, 0},
	};

	(void)state;
	if (topo.ncaches != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", topo.ncaches);
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		struct plan_opts o = {0};
		struct plan p;
		o.kernels = cases[c].kernel;
		o.threads[o.nthreads++] = 1;
		o.sizes[o.nsizes++] = cases[c].size;
		assert_int_equal(check_on(&o, &p, 1u << 20, 0, 300u << 20, 8u << 20), 0);
		assert_true(p.npoints >= 1); /* one a prefetcher state */
		for (int i = 0; i < p.npoints; i++)
			assert_int_equal(p.points[i].dram_from, cases[c].from);
		plan_free(&p);
	}
}

/* Levels (a preset's) filter no fresh-memory point, so touch keeps its policy's sizes under them: the cache
   sweep's smallest (4 KiB, under its 32 KiB block) stopped the plan, and its DRAM points were 64x a
   stream's. */
static void test_fresh_memory_keeps_its_sizes_under_levels(void **state)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_find("touch.gpr", &f);
	const struct kern_policy *pol;
	static const unsigned masks[] = {LEVEL_BIT(LEVEL_DRAM), LEVEL_BIT(LEVEL_L1) | LEVEL_BIT(LEVEL_DRAM)};

	(void)state;
	assert_non_null(v);
	pol = kern_policy(f, v);
	assert_int_equal(pol->sweep, KS_FIXED);
	for (size_t m = 0; m < sizeof masks / sizeof *masks; m++) {
		struct plan_opts o = {0};
		struct plan p;
		o.kernels = "touch.gpr";
		o.threads[o.nthreads++] = 1;
		o.level_mask = masks[m];
		assert_int_equal(check(&o, &p), 0);
		assert_int_equal(p.npoints % (int)pol->sizes.n, 0);
		assert_true(p.npoints > 0);
		for (int i = 0; i < p.npoints; i++)
			assert_int_equal(p.points[i].bytes, pol->sizes.v[i % pol->sizes.n]);
		plan_free(&p);
	}
}

/* A level too close to the one below for the 2x rule (a measured L3 of 2.4x L2) still gets a point, inside
   the margins the analysis keeps (more than 1.5x the level below, less than 3/4 of its own share). */
static void test_a_narrow_level_still_gets_a_point(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	uint64_t l2 = topo_cache_share(&topo, 2, 1), l3;
	int in_l3 = 0;

	(void)state;
	if (topo.ncaches < 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3 at least", topo.ncaches);
	topo.caches[2].measured = l2 * 12 / 5 * (topo.caches[2].npus ? topo.caches[2].npus : 1);
	l3 = topo_cache_share(&topo, 3, 1);
	o.kernels = "load.gpr";
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check(&o, &p), 0);
	for (int i = 0; i < p.npoints; i++) {
		uint64_t ws = p.points[i].bytes * p.points[i].fam->arrays;
		in_l3 += ws > l2 * 3 / 2 && ws < l3 * 3 / 4;
	}
	topo.caches[2].measured = 0;
	plan_free(&p);
	assert_true(in_l3 >= 1);
}

/* A level of exactly 2x the one below (the level probe's next step but one: an L3 measured at 4 MiB over a
   2 MiB L2) gets its point where both margins meet, 1.5x the level below, which is on neither boundary:
   every variant of the quick plan measures L3 with one thread. */
static void test_a_level_of_twice_the_one_below_gets_a_point(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	int in_l3 = 0;

	(void)state;
	if (topo.ncaches != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", topo.ncaches);
	o.quick = 1;
	o.kernels = "load.gpr,copy.sse,triad.sse,chase.plain";
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check_on(&o, &p, 2u << 20, 0, 300u << 20, 4u << 20), 0);
	for (int i = 0; i < p.npoints; i++) {
		assert_false(p.points[i].boundary);
		in_l3 += p.points[i].level == LEVEL_L3;
	}
	assert_int_equal(in_l3, 4);
	plan_free(&p);
}

/* A level below found smaller than reported (an L2 of 2 MiB taken at 1 MiB from the level history): its own
   points keep inside the smaller size, and the next level's points clear twice the reported one, where
   no neighbour shortening the level leaves them in it (plan.c clear_of): the Emerald Rapids guest's default
   plan had L3 points from 2 MiB, which read at nearly twice the L3's bandwidth. */
static void test_the_next_level_clears_a_level_found_short(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	int in_l2 = 0, in_l3 = 0;

	(void)state;
	if (topo.ncaches != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", topo.ncaches);
	o.kernels = "load.gpr";
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check_on(&o, &p, 2u << 20, 1u << 20, 300u << 20, 16u << 20), 0);
	for (int i = 0; i < p.npoints; i++) {
		uint64_t ws = p.points[i].bytes * p.points[i].fam->arrays;
		if (p.points[i].level == LEVEL_L2) {
			in_l2++;
			assert_true(ws <= (1u << 20) * 3 / 4);
		}
		if (p.points[i].level == LEVEL_L3) {
			in_l3++;
			assert_true(ws >= 4u << 20);
		}
	}
	assert_true(in_l2 >= 1);
	assert_true(in_l3 >= 1);
	plan_free(&p);
}

/* Sizes are rounded down to whole unrolled blocks of the kernel and each array of triad gets a third. */
static void test_user_sizes_round_to_granule_per_array(void **state)
{
	struct plan_opts o = {0};
	struct plan p;

	(void)state;
	o.kernels = "triad";
	o.sizes[o.nsizes++] = 300000;
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check(&o, &p), 0);
	for (int i = 0; i < p.npoints; i++) {
		assert_int_equal(p.points[i].bytes % p.points[i].fam->granule, 0);
		assert_true(p.points[i].bytes * 3 <= 300000);
		assert_true(p.points[i].bytes * 3 > 300000 - 3 * p.points[i].fam->granule);
	}
	plan_free(&p);
}

/* A user's size on a level boundary (4/3 of L1's share: within 50 % above it) is marked so, for the summary
   to leave it out as the analysis does; one at half of L1 and one at twice L1 (over 50 % above) are not. */
static void test_user_size_on_a_boundary_is_marked(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	uint64_t l1 = topo_cache_share(&topo, 1, 1);

	(void)state;
	o.kernels = "load.gpr";
	o.sizes[o.nsizes++] = l1 / 2;
	o.sizes[o.nsizes++] = l1 * 4 / 3;
	o.sizes[o.nsizes++] = l1 * 2;
	o.threads[o.nthreads++] = 1;
	assert_int_equal(check(&o, &p), 0);
	assert_int_equal(p.npoints, 3);
	for (int i = 0; i < p.npoints; i++)
		assert_int_equal(p.points[i].boundary, p.points[i].bytes > l1 && p.points[i].bytes < 2 * l1);
	assert_true(plan_on_boundary(&topo, l1 * 4 / 3, 1));
	assert_false(plan_on_boundary(&topo, l1 / 2, 1));
	plan_free(&p);
}

/* A fourth cache level (eDRAM, a memory-side cache) is DRAM to plan_level and the analysis (MACHINE_NCACHE
   levels): a size at its end is DRAM, on no boundary. */
static void test_a_fourth_level_has_no_boundary(void **state)
{
	struct topo_cache saved = topo.caches[3];
	int n = topo.ncaches;
	uint64_t l4;

	(void)state;
	if (n != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", n);
	topo.caches[3] = topo.caches[2];
	topo.caches[3].level = 4;
	topo.caches[3].size = topo.caches[2].size * 8;
	topo.caches[3].measured = 0;
	topo.ncaches = 4;
	l4 = topo_cache_share(&topo, 4, 1);
	assert_int_equal(plan_level(&topo, l4, 1), LEVEL_DRAM);
	assert_false(plan_on_boundary(&topo, l4, 1));
	assert_true(plan_on_boundary(&topo, topo_cache_share(&topo, 3, 1), 1));
	topo.caches[3] = saved;
	topo.ncaches = n;
}

/* A shared L3 whose part per thread is smaller than the private L2 (16 threads of an Emerald Rapids guest
   whose L3 held 11.6 MiB: 741 KiB each, L2 2 MiB): a set inside L2 is on no boundary of L3's, as the
   analysis (analysis/point_level.c) takes it; the --quick plan's 16-thread L2 point, 1 MiB, was marked
   on L3's and left out of the run's summary while the analysis kept it. Here an inclusive L3 of half the
   L2 (one not inclusive would hold the L2's and its own: common/level_capacity.h). */
static void test_a_set_inside_a_level_is_on_no_later_boundary(void **state)
{
	struct topo_cache saved = topo.caches[2];
	int inside, inside_level, own, beyond, beyond_level;
	uint64_t l2;

	(void)state;
	if (topo.ncaches != 3)
		skip_why("hwloc reports %d cache levels here, the test wants 3", topo.ncaches);
	l2 = topo_cache_share(&topo, 2, 1);
	topo.caches[2].npus = 1;
	topo.caches[2].measured = 0;
	topo.caches[2].size = l2 / 2;
	topo.caches[2].inclusion = LEVEL_INCLUSIVE;
	inside = plan_on_boundary(&topo, l2 * 6 / 10, 1);
	inside_level = plan_level(&topo, l2 * 6 / 10, 1);
	own = plan_on_boundary(&topo, l2 * 9 / 10, 1);
	beyond = plan_on_boundary(&topo, l2 * 2, 1);
	beyond_level = plan_level(&topo, l2 * 2, 1);
	topo.caches[2] = saved; /* back before any assert: the other tests share the topology */
	assert_false(inside);   /* within 50 % above L3's part, but inside L2 */
	assert_int_equal(inside_level, LEVEL_L2);
	assert_true(own); /* L2's own boundary still counts */
	assert_false(beyond);
	assert_int_equal(beyond_level, LEVEL_DRAM);
}

static void test_bad_inputs_are_usage_errors(void **state)
{
	struct plan_opts o;
	struct plan p;

	(void)state;
	memset(&o, 0, sizeof o);
	o.kernels = "nosuch";
	assert_int_equal(check(&o, &p), E_USAGE);

	memset(&o, 0, sizeof o);
	o.sizes[o.nsizes++] = 0;
	assert_int_equal(check(&o, &p), E_USAGE);

	memset(&o, 0, sizeof o);
	o.sizes[o.nsizes++] = 1ull << 50;
	assert_int_equal(check(&o, &p), E_USAGE);

	memset(&o, 0, sizeof o);
	o.threads[o.nthreads++] = topo.ncpus + 1;
	assert_int_equal(check(&o, &p), E_USAGE);

	memset(&o, 0, sizeof o);
	o.kernels = "load.nosuchwidth";
	assert_int_equal(check(&o, &p), E_USAGE);
}

/* The memory a size needs is reckoned by the most threads of a point, not by the CPUs in use: a size
   that one thread may take on this machine, and two may not, passes with --threads 1 on two CPUs. */
static void test_size_limit_counts_the_threads_not_the_cpus(void **state)
{
	uint64_t half = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) / 2;
	struct plan_opts o;
	struct plan p;

	(void)state;
	if (topo.ncpus < 2)
		skip_why("%d usable CPU here, the test wants 2", topo.ncpus);
	memset(&o, 0, sizeof o);
	o.kernels = "load.gpr";
	o.cpus[0] = topo.cpus[0], o.cpus[1] = topo.cpus[1], o.ncpus = 2;
	o.threads[o.nthreads++] = 1;
	o.sizes[o.nsizes++] = half / 4 * 3 / 64 * 64;
	assert_int_equal(check(&o, &p), 0);
	plan_free(&p);
	o.threads[o.nthreads++] = 2;
	assert_int_equal(check(&o, &p), E_USAGE);
}

/* The memory a plan holds at once is that of its widest thread count's largest buffer per thread, with a fresh-
   memory point's two buffers (N and 2N bytes) beside it, not a sum over the points. */
static void test_memory_is_the_largest_buffers_of_a_thread_count(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	int threads;

	(void)state;
	if (topo.ncpus < 2)
		skip_why("%d usable CPU here, the test wants 2", topo.ncpus);
	o.kernels = "load.gpr,touch";
	o.explicit_kernels = 1; /* touch, single-threaded by its policy, then runs with 2 threads too */
	o.cpus[0] = topo.cpus[0], o.cpus[1] = topo.cpus[1], o.ncpus = 2;
	o.threads[o.nthreads++] = 1;
	o.threads[o.nthreads++] = 2;
	o.sizes[o.nsizes++] = 1u << 20;
	o.sizes[o.nsizes++] = 4u << 20;
	assert_int_equal(check(&o, &p), 0);
	assert_int_equal(plan_memory(&p, &threads), 2 * ((4u << 20) + 3 * (4u << 20)));
	assert_int_equal(threads, 2);
	plan_free(&p);
}

static char proc[64]; /* a fake /proc */

/* A plan whose buffers exceed MemAvailable is refused, naming both figures and the options that lower them; one
   that fits, or a meminfo without the figure, is not. The 1024 threads of a synthetic socket of 64 L3s of 96
   MiB planned 49152 MiB on a 23 GiB guest and went ahead. */
static void test_memory_beyond_mem_available_is_refused(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	struct err e;
	char meminfo[256], want[128];
	uint64_t need;
	int threads;

	(void)state;
	snprintf(proc, sizeof proc, "/tmp/pmucheck-meminfo.%d", (int)getpid());
	o.kernels = "load.gpr";
	o.cpus[0] = topo.cpus[0], o.ncpus = 1;
	o.sizes[o.nsizes++] = 64u << 20;
	assert_int_equal(check(&o, &p), 0);
	need = plan_memory(&p, &threads);
	snprintf(meminfo, sizeof meminfo, "MemTotal:       %llu kB\nMemAvailable:   %llu kB\n",
		 (unsigned long long)(need >> 9), (unsigned long long)(need >> 10) - 1);
	assert_int_equal(fake_put_at(proc, "meminfo", meminfo), 0);
	assert_int_equal(plan_check_memory(&p, 0, proc, &e), E_USAGE);
	snprintf(want, sizeof want,
		 "need %llu MiB at once (1 thread x %llu MiB, and 0 MiB for its probes), more than the %llu "
		 "MiB",
		 (unsigned long long)(need >> 20), (unsigned long long)(need >> 20),
		 (unsigned long long)(((need >> 10) - 1) >> 10));
	assert_non_null(strstr(e.msg, want));
	assert_non_null(strstr(e.msg, "/meminfo has available (MemAvailable)"));
	assert_non_null(strstr(e.msg, "--threads"));
	assert_int_equal(sysinfo_meminfo_kib(proc, "MemTotal"), (long long)(need >> 9));
	snprintf(meminfo, sizeof meminfo, "MemTotal:       %llu kB\nMemAvailable:   %llu kB\n",
		 (unsigned long long)(need >> 9), (unsigned long long)(need >> 10));
	assert_int_equal(fake_put_at(proc, "meminfo", meminfo), 0);
	assert_int_equal(plan_check_memory(&p, 0, proc, &e), 0);
	/* the probes' buffers beside the points' count too: 256 MiB more than fit is refused, with its figure */
	assert_int_equal(plan_check_memory(&p, 256u << 20, proc, &e), E_USAGE);
	snprintf(want, sizeof want, "need %llu MiB at once (1 thread x %llu MiB, and 256 MiB for its probes)",
		 (unsigned long long)((need >> 20) + 256), (unsigned long long)(need >> 20));
	assert_non_null(strstr(e.msg, want));
	/* kernels before 3.14 have no MemAvailable: nothing to go by, and MemTotal is not it */
	assert_int_equal(fake_put_at(proc, "meminfo", "MemTotal:       1024 kB\nMemFree:        1024 kB\n"),
			 0);
	assert_int_equal(sysinfo_meminfo_kib(proc, "MemAvailable"), -1);
	assert_int_equal(plan_check_memory(&p, 256u << 20, proc, &e), 0);
	plan_free(&p);
	snprintf(meminfo, sizeof meminfo, "rm -rf '%s'", proc);
	assert_int_equal(system(meminfo), 0);
}

/* Points are grouped by prefetch state, then threads, so each state's MSR write happens once. */
static void test_points_grouped_by_prefetch_state(void **state)
{
	struct plan_opts o = {0};
	struct plan p;
	int changes = 0;

	(void)state;
	o.kernels = "load.gpr,store.gpr";
	o.quick = 1;
	strcpy(o.pf_states[o.npf++], "on");
	strcpy(o.pf_states[o.npf++], "off");
	assert_int_equal(check(&o, &p), 0);
	for (int i = 1; i < p.npoints; i++)
		changes += p.points[i].pf != p.points[i - 1].pf;
	assert_int_equal(changes, 1);
	plan_free(&p);
}

/* What one variant's default points show of its policy. */
struct seen {
	uint64_t args[PLAN_MAX_ARGS], sizes[PLAN_MAX_SIZES];
	int nargs, nsizes, levels, multithreaded, outside; /* outside: a point off the sweep's level */
};

static void note(uint64_t *set, int *n, uint64_t x)
{
	for (int i = 0; i < *n; i++)
		if (set[i] == x)
			return;
	set[(*n)++] = x;
}

static void observe(const struct plan *p, enum kern_sweep sweep, struct seen *s)
{
	enum level last = LEVEL_NONE;

	memset(s, 0, sizeof *s);
	for (int i = 0; i < p->npoints; i++) {
		const struct plan_point *pt = &p->points[i];
		if (pt->threads > 1) {
			s->multithreaded = 1;
			continue;
		}
		note(s->args, &s->nargs, pt->arg);
		note(s->sizes, &s->nsizes, pt->bytes);
		s->levels += pt->level != last;
		last = pt->level;
		s->outside |= (sweep == KS_L1 && pt->level != LEVEL_L1) ||
			(sweep == KS_DRAM && pt->level != LEVEL_DRAM);
	}
}

static void check_policy(const struct kern_family *f, const struct kern_variant *v, int quick)
{
	const struct kern_policy *pol = kern_policy(f, v);
	const struct kern_values *args = quick ? &pol->quick_args : &pol->args;
	struct plan_opts o = {0};
	struct plan p;
	struct seen s;

	o.kernels = v->name;
	o.quick = quick;
	assert_int_equal(check(&o, &p), 0);
	observe(&p, pol->sweep, &s);
	plan_free(&p);
	if (args->n) {
		assert_int_equal(s.nargs, args->n);
		for (unsigned i = 0; i < args->n; i++)
			assert_int_equal(s.args[i], args->v[i]);
	} else {
		assert_int_equal(s.nargs, 1);
		assert_int_equal(s.args[0], 0);
	}
	if (pol->single_thread)
		assert_false(s.multithreaded);
	else if (default_threads() > 1)
		assert_true(s.multithreaded);
	assert_false(s.outside);
	switch (pol->sweep) {
	case KS_EVERY_LEVEL:
		assert_true(s.nsizes > topo.ncaches + 1 || quick);
		break;
	case KS_PER_LEVEL:
		assert_int_equal(s.nsizes, s.levels);
		break;
	case KS_DRAM:
	case KS_L1:
		assert_int_equal(s.nsizes, 1);
		break;
	case KS_FIXED:
		assert_int_equal(s.nsizes, pol->sizes.n);
		break;
	}
}

/* Every registered variant (the CPU can run) is planned as its descriptor's policy says: its default
   arguments (or none), one thread only where it says so, and the sizes of its sweep rule. */
static void test_every_variant_follows_its_policy(void **state)
{
	(void)state;
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = kern_family_at(i);
		for (unsigned j = 0; j < f->nvariants; j++) {
			if (!cpuid_isa_ok(f->variants[j].isa))
				continue;
			check_policy(f, &f->variants[j], 0);
			check_policy(f, &f->variants[j], 1);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_keeps_clear_of_level_boundaries),
		cmocka_unit_test(test_sweep_covers_every_level_and_dram_is_4x_llc),
		cmocka_unit_test(test_a_narrow_level_still_gets_a_point),
		cmocka_unit_test(test_a_level_of_twice_the_one_below_gets_a_point),
		cmocka_unit_test(test_the_next_level_clears_a_level_found_short),
		cmocka_unit_test(test_dram_points_pass_the_levels_below_the_llc),
		cmocka_unit_test(test_dram_points_reckon_with_the_reported_llc),
		cmocka_unit_test(test_an_nt_points_read_arrays_alone_pass_the_llc),
		cmocka_unit_test(test_a_stream_of_sizes_short_of_the_sweeps_dram_is_marked),
		cmocka_unit_test(test_fresh_memory_keeps_its_sizes_under_levels),
		cmocka_unit_test(test_user_sizes_round_to_granule_per_array),
		cmocka_unit_test(test_user_size_on_a_boundary_is_marked),
		cmocka_unit_test(test_a_fourth_level_has_no_boundary),
		cmocka_unit_test(test_a_set_inside_a_level_is_on_no_later_boundary),
		cmocka_unit_test(test_bad_inputs_are_usage_errors),
		cmocka_unit_test(test_size_limit_counts_the_threads_not_the_cpus),
		cmocka_unit_test(test_memory_is_the_largest_buffers_of_a_thread_count),
		cmocka_unit_test(test_memory_beyond_mem_available_is_refused),
		cmocka_unit_test(test_points_grouped_by_prefetch_state),
		cmocka_unit_test(test_every_variant_follows_its_policy),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
