/* test_levels.c — plateaus of a latency-vs-size curve, and where they disagree with reported caches. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "levels.h"

/* A machine reporting L1 48 KiB, L2 1 MiB, L3 32 MiB. */
static void reported(struct topo *t)
{
	memset(t, 0, sizeof *t);
	t->ncaches = 3;
	t->caches[0] = (struct topo_cache){.level = 1, .size = 48 << 10, .npus = 1};
	t->caches[1] = (struct topo_cache){.level = 2, .size = 1 << 20, .npus = 1};
	t->caches[2] = (struct topo_cache){.level = 3, .size = 32 << 20, .npus = 2};
	t->smt = 1;
}

/* Latencies of a machine whose levels end at l1, l2, l3 bytes (1, 3.3, 12, 120 ns), with a transition
   point of intermediate latency right after each boundary, on a 2^(1/4) grid from 4 KiB to 128 MiB. */
static void curve(struct levels_probe *p, uint64_t l1, uint64_t l2, uint64_t l3)
{
	memset(p, 0, sizeof *p);
	for (int i = 0; p->npoints < LEVELS_MAX_POINTS; i++) {
		uint64_t s = (uint64_t)(4096.0 * pow(2.0, i / 4.0));
		double ns = s <= l1 ? 1.0 : s <= l2 ? 3.3 : s <= l3 ? 12.0 : 120.0;
		if (s > (128u << 20))
			break;
		if (p->npoints && p->ns[p->npoints - 1] < ns && ns / p->ns[p->npoints - 1] > 2)
			ns = sqrt(ns * p->ns[p->npoints - 1]); /* partly in the level below */
		p->size[p->npoints] = s;
		p->ns[p->npoints++] = ns;
	}
}

/* A curve as a probe measured it: n sizes and their latencies. */
static void measured(struct levels_probe *p, const uint64_t *size, const double *ns, int n)
{
	memset(p, 0, sizeof *p);
	p->npoints = n;
	memcpy(p->size, size, sizeof *size * (size_t)n);
	memcpy(p->ns, ns, sizeof *ns * (size_t)n);
}

static void test_agreeing_levels_are_left_alone(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_int_equal(p.ndisagreements, 0);
	levels_apply(&p, &t);
	for (int l = 0; l < 3; l++)
		assert_int_equal(t.caches[l].measured, 0);
	assert_true(p.plateau[3].ns > 100);
	/* the middle of the step from L3 (12 ns) to DRAM (120 ns), which a later check of L3 judges by */
	assert_true(fabs(p.step_ns - sqrt(12.0 * 120.0)) < 1e-9);
}

/* A guest that can use only about 6 MiB of a reported 32 MiB L3. */
static void test_short_l3_is_measured_and_reported(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 6 << 20);
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0], "L3: hwloc reports 32768 KiB"));
	levels_apply(&p, &t);
	assert_int_equal(t.caches[0].measured, 0);
	assert_int_equal(t.caches[1].measured, 0);
	assert_true(t.caches[2].measured <= 6 << 20 && t.caches[2].measured > 4 << 20);
	/* the sweep then sees the measured L3 */
	assert_int_equal(topo_cache_share(&t, 3, 1), t.caches[2].measured);
	assert_int_equal(topo_cache_share(&t, 3, 2), t.caches[2].measured / 2);
}

/* Two levels with the same latency cannot be told apart: keep the reported sizes and say why. */
static void test_unseparable_levels_keep_reported_sizes(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	for (int i = 0; i < p.npoints; i++)
		if (p.ns[i] > 2 && p.ns[i] < 20)
			p.ns[i] = 3.3; /* L3 as fast as L2 */
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 3);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0], "keeping the reported sizes"));
	assert_true(p.step_ns == 0); /* no step from the last level to DRAM was found */
	levels_apply(&p, &t);
	assert_int_equal(t.caches[2].measured, 0);
}

/* The curve measured on the development VM (Zen 5 guest, hwloc: 48 KiB, 1 MiB, 32 MiB): L2 rises into
   L3 in steps of 20 %, L3 ends near 7 MiB, one DRAM-size point is noisy. The level ends at the last point
   below the middle of the step to DRAM, sqrt(11.3 x 140) = 40 ns: 9974784 B, at 21.5 ns (the 88.6 ns
   just before it is a disturbed point, which the envelope replaces with 21.5). */
static void test_measured_vm_curve_finds_the_short_l3(void **state)
{
	static const uint64_t size[] = {
		4096,     5120,     6144,     8192,     9216,      11264,    13312,    16384,    19456,
		22528,    26624,    32768,    38912,    46080,     54272,    65536,    77824,    92160,
		109568,   131072,   155648,   185344,   220160,    262144,   311296,   370688,   440320,
		524288,   622592,   741376,   881664,   1048576,   1246208,  1482752,  1763328,  2097152,
		2493440,  2965504,  3526656,  4194304,  4986880,   5931008,  7053312,  8388608,  9974784,
		11863040, 14107648, 16777216, 19950592, 23726080,  28215296, 33554432, 39902208, 47452160,
		56430592, 67108864, 79805440, 94905344, 112862208, 134217728};
	static const double ns[] = {0.93,   0.92,   0.93,   0.94,   0.87,   0.92,   0.93,   0.91,   0.90,
				    0.92,   0.92,   0.92,   0.89,   0.92,   3.20,   3.21,   3.18,   3.23,
				    3.17,   3.25,   3.22,   3.19,   3.27,   3.24,   3.23,   3.25,   3.42,
				    3.56,   3.67,   4.54,   5.45,   6.33,   7.65,   9.03,   8.29,   10.03,
				    10.71,  10.14,  10.16,  11.33,  11.29,  11.31,  12.58,  88.60,  21.48,
				    87.46,  119.36, 125.34, 126.63, 135.24, 137.06, 139.66, 141.30, 144.75,
				    146.12, 146.82, 149.82, 149.50, 149.81, 148.97};
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	measured(&p, size, ns, (int)(sizeof size / sizeof *size));
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0], "L3:"));
	levels_apply(&p, &t);
	assert_int_equal(t.caches[1].measured, 0);
	assert_int_equal(t.caches[2].measured, 9974784);
}

/* A --quick probe under load 7 (the development VM): the sweep stopped after a DRAM-like tail of four
   points (8-23 MiB, 99-358 ns) too short for a plateau, so the plateaus matched no level one to one. The
   reported 508 MiB L3 must not be kept: L3 ends before the tail, at 5792 KiB. */
static void test_short_dram_tail_still_bounds_the_last_level(void **state)
{
	static const uint64_t kib[] = {4,    5,    8,    11,   16,   22,    32,    45,   64,
				       90,   128,  181,  256,  362,  512,   724,   1024, 1448,
				       2048, 2896, 4096, 5792, 8192, 11585, 16384, 23170};
	static const double ns[] = {1.2,  1.2,  1.2,  1.2,  1.2,   1.2,  1.3,   2.8,  4.1,
				    4.1,  4.1,  4.3,  4.2,  4.4,   5.5,  8.0,   15.3, 18.7,
				    19.3, 18.3, 20.7, 30.9, 167.9, 99.1, 357.7, 351.9};
	uint64_t size[sizeof kib / sizeof *kib];
	struct topo t;
	struct levels_probe p;

	(void)state;
	for (size_t i = 0; i < sizeof kib / sizeof *kib; i++)
		size[i] = kib[i] << 10;
	reported(&t);
	t.caches[2].size = 508ull << 20;
	measured(&p, size, ns, (int)(sizeof kib / sizeof *kib));
	levels_classify(&p, &t);
	levels_apply(&p, &t);
	assert_int_equal(p.nplateaus, 3);
	assert_int_equal(t.caches[2].measured, 5792u << 10);
	assert_int_equal(p.dram_from, 8192u << 10);
	assert_non_null(strstr(p.disagreements[0], "every point is DRAM-like"));
}

/* A gradual step from L3 (16-18 ns) to DRAM (150 ns), as four --quick probes measured it on the
   development VM: where the plateau stops (1.6x its first point) moved between 5792 and 8192 KiB with a
   few percent of noise; the middle of the step does not. Each curve is one of those probes' (KiB, ns). */
static void test_gradual_step_ends_in_its_middle(void **state)
{
	static const double curves[4][9] = {
		{12.9, 15.2, 16.4, 17.4, 17.7, 19.5, 21.0, 55.8, 130.4},
		{13.8, 14.5, 16.3, 17.7, 18.2, 27.8, 120.7, 145.4, 150.3},
		{13.9, 14.8, 18.2, 18.8, 20.8, 25.5, 132.6, 155.3, 160.6},
		{16.0, 16.1, 16.9, 18.8, 21.2, 27.3, 87.8, 141.5, 152.6},
	};
	static const uint64_t kib[9] = {1448, 2048, 2896, 4096, 5792, 8192, 11585, 16384, 23170};
	uint64_t ends[4];

	(void)state;
	for (int c = 0; c < 4; c++) {
		uint64_t size[LEVELS_MAX_POINTS];
		double ns[LEVELS_MAX_POINTS];
		int n = 0;
		struct topo t;
		struct levels_probe p;
		/* L1 and L2 as on that VM, then the step, then DRAM for two more octaves */
		for (uint64_t s = 16; s < 1448; s = s * 3 / 2) {
			size[n] = s << 10;
			ns[n++] = s <= 32 ? 1.1 : s <= 512 ? 3.9 : 9.5;
		}
		for (int i = 0; i < 9; i++) {
			size[n] = kib[i] << 10;
			ns[n++] = curves[c][i];
		}
		for (uint64_t s = 32768; s <= 92681; s = s * 3 / 2) {
			size[n] = s << 10;
			ns[n++] = 160 + (double)(s >> 12);
		}
		reported(&t);
		measured(&p, size, ns, n);
		levels_classify(&p, &t);
		levels_apply(&p, &t);
		assert_int_equal(p.nplateaus, 4);
		ends[c] = t.caches[2].measured;
	}
	/* the first probe's L3 was less crowded: its step starts one size later */
	assert_int_equal(ends[0], 11585u << 10);
	for (int c = 1; c < 4; c++)
		assert_int_equal(ends[c], 8192u << 10);
}

/* Preempted points (3-8x slower, as a time slice lost mid-call gives) anywhere but the last size leave
   the plateaus as the undisturbed curve has them, and the limits within one grid step: 20 seeded
   draws, 1 point in 6 hit, never two neighbours (a disturbance that lasts over consecutive sizes looks
   like a level; against that the probe takes the fastest of four calls at every size). */
static void test_disturbed_points_do_not_move_the_levels(void **state)
{
	struct topo t, clean_t;
	struct levels_probe clean, p;
	unsigned seed = 12345;

	(void)state;
	reported(&clean_t);
	curve(&clean, 48 << 10, 1 << 20, 6 << 20);
	levels_classify(&clean, &clean_t);
	levels_apply(&clean, &clean_t);
	for (int draw = 0; draw < 20; draw++) {
		int hit = 0, last_hit = -2;

		reported(&t);
		curve(&p, 48 << 10, 1 << 20, 6 << 20);
		for (int i = 0; i + 1 < p.npoints; i++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 6 == 0 && last_hit != i - 1) {
				p.ns[i] *= 3.0 + (double)((seed >> 8) % 6);
				last_hit = i;
				hit++;
			}
		}
		assert_true(hit > 0);
		levels_classify(&p, &t);
		levels_apply(&p, &t);
		assert_int_equal(p.nplateaus, clean.nplateaus);
		/* a level's last point hit is indistinguishable from a transition point: the limit may
		   move down by that one grid step (2^(1/4)), never more, never up */
		for (int l = 0; l < 3; l++) {
			assert_true(t.caches[l].measured <= clean_t.caches[l].measured);
			assert_true(1.19 * (double)t.caches[l].measured >=
				    (double)clean_t.caches[l].measured);
		}
	}
}

/* A guest told of a 508 MiB L3 (hwloc on a Zen 5 KVM guest, 2026-11-25) whose L3 really ends at 32 MiB:
   the measured limit replaces the reported one, so the sweep's "L3" points are not DRAM. */
static void test_absurd_reported_l3_is_measured(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	t.caches[2].size = 508ull << 20;
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	levels_classify(&p, &t);
	levels_apply(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_true(t.caches[2].measured <= 32u << 20 && t.caches[2].measured >= 16u << 20);
}

/* L3 as fast as L2 on a machine told of a huge L3: the plateaus cannot be matched to the levels, but
   DRAM is plain, so the last level ends where DRAM-like latency starts and no DRAM-like point is L3. */
static void test_ambiguous_curve_still_bounds_dram(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	t.caches[2].size = 508ull << 20;
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	for (int i = 0; i < p.npoints; i++)
		if (p.ns[i] > 2 && p.ns[i] < 20)
			p.ns[i] = 3.3;
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 3);
	assert_true(p.dram_from > 0 && p.dram_from <= 64u << 20);
	assert_non_null(strstr(p.disagreements[p.ndisagreements - 1], "DRAM-like"));
	levels_apply(&p, &t);
	assert_true(t.caches[2].measured > 0 && t.caches[2].measured < p.dram_from);
	assert_true(fabs(p.step_ns - sqrt(3.3 * 120.0)) < 1e-9); /* from the plateau before DRAM's */
	assert_int_equal(t.caches[0].measured, 0);
	assert_int_equal(t.caches[1].measured, 0);
}

/* The fastest of each size over sweeps whose L3 share moved (the Zen 3 guest, 2026-11-28, a --quick probe
   of 9 sweeps ending L3 from 512 to 8192 KiB): L1, L2 and L3 plateaus up to 5.7 MiB, then a ramp to
   DRAM with no plateau of its own, past the reported 32 MiB. The last plateau is L3's, 15.6 ns, 4.2x
   L2's: it is no DRAM, since it ends well inside the reported L3 (the probe said "from 724 KiB on it is
   DRAM-like (15.6 ns ...), so L3 is taken to end at 512 KiB"); the ramp's DRAM-like tail ends L3. */
static void test_a_ramp_to_dram_leaves_l3_a_cache(void **state)
{
	const uint64_t size[] = {4096,    5792,    8192,     11585,    16384,    23170,    32768,
				 46340,   65536,   92681,    131072,   185363,   262144,   370727,
				 524288,  741455,  1048576,  1482910,  2097152,  2965820,  4194304,
				 5931641, 8388608, 11863283, 16777216, 23726566, 33554432, 47453132};
	const double ns[] = {1.2,  1.2,  1.2,  1.2,  1.2,  1.2,  1.2,   3.7,  3.7,  3.7,
			     3.7,  3.7,  3.7,  3.7,  3.7,  15.6, 15.6,  15.6, 15.6, 15.6,
			     15.6, 15.6, 25.0, 45.0, 65.0, 90.0, 120.0, 160.0};
	struct levels_probe p;
	struct topo t;

	(void)state;
	reported(&t);
	measured(&p, size, ns, (int)(sizeof size / sizeof *size));
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 3);
	for (int i = 0; i < p.ndisagreements; i++)
		assert_null(strstr(p.disagreements[i], "(15.6 ns"));
	levels_apply(&p, &t);
	/* L3 ends before the DRAM-like tail (65 ns from 16 MiB on), never at L2's end */
	assert_true(t.caches[2].measured >= 5931641 && t.caches[2].measured < 16777216);
	assert_int_equal(p.dram_from, 16777216);
}

/* A whole L3 on bare metal (Zen 3: L1 32 KiB, L2 512 KiB, L3 32 MiB, latencies 0.9, 2.7 and 10.5 ns) seen
   by --quick's sweep, which ends at twice the reported L3: its two sizes past it (45 and 64 MiB) span too
   little for a plateau of DRAM's, so the last plateau is L3's, 3.9x L2's and reaching the reported 32 MiB
   (a grid size). That is no DRAM: the probe said "from 724 KiB on it is DRAM-like (10.5 ns ...), so L3 is
   taken to end at 512 KiB", and a run planned no L3 point. A last plateau is DRAM only where it reaches
   past what the caches hold together (a non-inclusive L3 holds the L2s' lines too). */
static void test_a_whole_l3_seen_by_a_quick_sweep_stays_l3(void **state)
{
	const uint64_t size[] = {4096,     5792,     8192,     11585,    16384,   23170,   32768,   46340,
				 65536,    92681,    131072,   185363,   262144,  370727,  524288,  741455,
				 1048576,  1482910,  2097152,  2965820,  4194304, 5931641, 8388608, 11863283,
				 16777216, 23726566, 33554432, 47453132, 67108864};
	const double ns[] = {0.9,  0.9,  0.9,  0.9,  0.9,  0.9,  0.9,  2.7,  2.7,  2.7,
			     2.7,  2.7,  2.7,  2.7,  2.9,  10.5, 10.5, 10.5, 10.5, 10.5,
			     10.5, 10.5, 10.5, 10.5, 10.5, 10.5, 10.6, 38.0, 80.0};
	struct levels_probe p;
	struct topo t;

	(void)state;
	reported(&t);
	t.caches[0].size = 32 << 10;
	t.caches[1].size = 512 << 10;
	measured(&p, size, ns, (int)(sizeof size / sizeof *size));
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 3);
	for (int i = 0; i < p.ndisagreements; i++)
		assert_null(strstr(p.disagreements[i], "(10.5 ns"));
	levels_apply(&p, &t);
	assert_true(t.caches[2].measured == 0 || t.caches[2].measured >= 24u << 20);
	/* the same L3 in a sweep that goes on: DRAM's plateau from 64 MiB matches the levels, L3 kept whole */
	{
		const uint64_t more[] = {94906265, 134217728};
		uint64_t s2[32];
		double n2[32];
		int n = (int)(sizeof size / sizeof *size);
		memcpy(s2, size, sizeof size);
		memcpy(n2, ns, sizeof ns);
		n2[n - 1] = 85.0;
		s2[n] = more[0], n2[n] = 88.0;
		s2[n + 1] = more[1], n2[n + 1] = 90.0;
		reported(&t);
		t.caches[0].size = 32 << 10;
		t.caches[1].size = 512 << 10;
		measured(&p, s2, n2, n + 2);
		levels_classify(&p, &t);
		assert_int_equal(p.nplateaus, 4); /* DRAM's from 64 MiB matches the fourth: no disagreement */
		assert_int_equal(p.ndisagreements, 0);
		levels_apply(&p, &t);
		assert_int_equal(t.caches[2].measured, 0);
	}
}

/* As many plateaus as levels and DRAM, but one is a gradual step from L1 to L2 (2 ns from 64 to 128 KiB)
   and the sweep stopped inside L3 (its time limit): matched one to one, L2's plateau was L3's and L3's
   (12 ns) DRAM's, "L3: ... L3-like only up to 1024 KiB and DRAM-like from ...". A DRAM plateau no slower
   than a cache and not past what the caches hold is no match: the reported sizes stay. */
static void test_a_cache_plateau_is_not_drams_by_count(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	for (int i = 0; i < p.npoints; i++)
		if (p.size[i] > (48 << 10) && p.size[i] <= (128 << 10))
			p.ns[i] = 2.0;
	while (p.size[p.npoints - 1] > (24u << 20))
		p.npoints--;
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_int_equal(p.dram_from, 0);
	for (int i = 0; i < p.ndisagreements; i++)
		assert_null(strstr(p.disagreements[i], "DRAM-like"));
	levels_apply(&p, &t);
	for (int l = 0; l < 3; l++)
		assert_int_equal(t.caches[l].measured, 0);
}

/* A curve whose last plateau is not much slower than the one before (no clear DRAM) keeps the reported
   sizes: ambiguity is said, not resolved by guessing. */
static void test_ambiguous_curve_without_clear_dram_keeps_sizes(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	for (int i = 0; i < p.npoints; i++)
		if (p.ns[i] > 2 && p.ns[i] < 20)
			p.ns[i] = 3.3;
		else if (p.ns[i] >= 20)
			p.ns[i] = 6.0; /* 1.8x: could be a slow L3 as well as DRAM */
	levels_classify(&p, &t);
	assert_int_equal(p.dram_from, 0);
	assert_non_null(strstr(p.disagreements[0], "keeping the reported sizes"));
	levels_apply(&p, &t);
	for (int l = 0; l < 3; l++)
		assert_int_equal(t.caches[l].measured, 0);
}

/* The quick probe on a Zen 5 KVM guest (hwloc: 48 KiB, 1 MiB, 508 MiB) while four other processes
   shared its two vCPUs (2026-11-25, load average 4.9): five plateaus, and the time limit cut the sweep
   at 128 MiB. From 5.8 MiB on latency is 300 ns and more: those sizes are not L3. */
static void test_loaded_guest_curve_never_calls_dram_l3(void **state)
{
	static const uint64_t size[] = {4096,     5120,     8192,     11264,    16384,    22528,    32768,
					46080,    65536,    92160,    131072,   185344,   262144,   370688,
					524288,   741376,   1048576,  1482752,  2097152,  2965504,  4194304,
					5931008,  8388608,  11863040, 16777216, 23726080, 33554432, 47452160,
					67108864, 94905344, 134217728};
	static const double ns[] = {1.14,   1.10,   1.10,   1.15,   1.10,   1.10,   1.13,   1.10,
				    3.84,   3.94,   3.84,   4.37,   3.84,   4.04,   4.50,   5.80,
				    9.96,   12.54,  50.95,  181.49, 41.26,  263.01, 295.86, 307.85,
				    390.05, 473.11, 505.62, 548.78, 708.42, 695.41, 917.67};
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	t.caches[2].size = 508ull << 20;
	measured(&p, size, ns, (int)(sizeof size / sizeof *size));
	p.stopped_at = 185363u << 10;
	levels_classify(&p, &t);
	assert_int_equal(p.dram_from, 5931008);
	levels_apply(&p, &t);
	assert_true(topo_cache_share(&t, 3, 1) < p.dram_from);
	assert_int_equal(t.caches[0].measured, 0);
	assert_int_equal(t.caches[1].measured, 0);
}

/* Four plateaus for three levels and DRAM, but the third is 390 ns (the same guest, run 4 of five): a
   match in number only; the DRAM-like plateau bounds L3, it is not L3. */
static void test_dram_like_plateau_is_never_a_cache(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	t.caches[2].size = 508ull << 20;
	curve(&p, 48 << 10, 1 << 20, 32 << 20);
	for (int i = 0; i < p.npoints; i++)
		if (p.ns[i] > 4 && p.ns[i] < 100)
			p.ns[i] = p.size[i] < (16u << 20) ? 390.0 : 611.0;
		else if (p.ns[i] >= 100)
			p.ns[i] = 611.0;
	levels_classify(&p, &t);
	assert_true(p.dram_from > 0 && p.dram_from <= 2u << 20);
	levels_apply(&p, &t);
	assert_true(topo_cache_share(&t, 3, 1) < p.dram_from);
}

/* hwloc reports no data cache (a VM hiding the CPUID cache leaves): the plateaus name no level, it says
   so, and nothing is measured short. */
static void test_no_reported_cache_names_no_level(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	memset(&t, 0, sizeof t);
	curve(&p, 48 << 10, 1 << 20, 6 << 20);
	levels_classify(&p, &t);
	levels_sweeps(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0],
			       "hwloc reports no data cache, so the 4 plateaus of the "
			       "latency sweep name no level"));
	assert_int_equal(p.llc_limit, 0);
	levels_apply(&p, &t);
	assert_int_equal(t.ncaches, 0);
}

/* A probe cut short by its time limit says where it stopped. */
static void test_stopped_probe_says_so(void **state)
{
	struct topo t;
	struct levels_probe p;

	(void)state;
	reported(&t);
	curve(&p, 48 << 10, 1 << 20, 6 << 20);
	p.stopped_at = 96u << 20;
	levels_classify(&p, &t);
	assert_non_null(strstr(p.disagreements[0], "stopped before 98304 KiB"));
}

/* The sweep ends after two octaves of DRAM-like points, and the curve it leaves still gives the levels
   (the Zen 5 guest's shape: hwloc's 508 MiB L3, DRAM-like from 5.7 MiB; the quick probe's 2^(1/2) grid). */
static void test_sweep_stops_two_octaves_into_dram(void **state)
{
	struct levels_probe p;
	struct topo t;
	int n = 0, stop = -1;

	(void)state;
	memset(&p, 0, sizeof p);
	for (int i = 0; n < LEVELS_MAX_POINTS && stop < 0; i++) {
		uint64_t s = (uint64_t)(4096.0 * pow(2.0, i / 2.0)) / 64 * 64;
		p.size[n] = s;
		p.ns[n++] = s <= 32 << 10 ? 1.2 : s <= 1 << 20 ? 4.0 : s <= 4 << 20 ? 18.0 : 150.0;
		p.npoints = n;
		if (levels_past_dram(&p))
			stop = n - 1;
	}
	/* 5.66 MiB is the first DRAM-like size; the sweep ends at the first size 4x that, 22.6 MiB */
	assert_int_equal(p.size[stop], 23726528);
	assert_true(p.size[stop - 1] < 4 * 5931584ull);
	reported(&t);
	t.caches[2].size = 508ull << 20;
	levels_classify(&p, &t);
	assert_int_equal(p.nplateaus, 4);
	assert_non_null(strstr(p.disagreements[0], "L3-like only up to 4096 KiB"));
	/* one slow point among cache points starts the count again: disturbance cannot end the sweep early */
	p.npoints = stop + 1;
	p.ns[stop - 1] = 59.0;
	assert_false(levels_past_dram(&p));
}

/* The size a sweep on --quick's 2^(1/2) grid stops at (levels_sweep_done, the last level reported at llc),
   the latencies from ns_at(size); 0 where it never stops before 1 GiB. */
static uint64_t sweep_stop(uint64_t llc, int quick, double (*ns_at)(uint64_t))
{
	static struct levels_probe p;

	memset(&p, 0, sizeof p);
	for (int i = 0; p.npoints < LEVELS_MAX_POINTS; i++) {
		uint64_t s = (uint64_t)(4096.0 * pow(2.0, i / 2.0)) / 64 * 64;
		if (s > 1u << 30)
			break;
		p.size[p.npoints] = s;
		p.ns[p.npoints++] = ns_at(s);
		if (levels_sweep_done(&p, llc, quick))
			return s;
	}
	return 0;
}

/* The Zen 1 guest's curve (hwloc: 8 MiB L3; 2026-12-02): 13 ns to 4 MiB, 48.9 at 8, then 82, 95, 110 and
   120 ns from 11.3 MiB on. */
static double zen1_guest_ns(uint64_t s)
{
	return s <= 4 << 20    ? 13.0
		: s <= 8 << 20 ? 48.9
		: s < 16 << 20 ? 82.0
		: s < 22 << 20 ? 95.0
		: s < 32 << 20 ? 110.0
			       : 120.0;
}

/* The same guest later (2026-12-02), its share of L3 smaller: 62 ns at 8 MiB, 85 at 11.3, 100 at 16, 110 at
   22.6: DRAM-like from 8 MiB, but 8 to 16 MiB rise 1.6x, more than one plateau holds. */
static double zen1_guest_later_ns(uint64_t s)
{
	return s < 8 << 20     ? 15.0
		: s < 11 << 20 ? 62.0
		: s < 16 << 20 ? 85.0
		: s < 22 << 20 ? 100.0
		: s < 32 << 20 ? 110.0
			       : 120.0;
}

/* A machine whose L3 is all there (bare-metal Zen 3: 32 MiB at 10.5 ns, DRAM from 45 MiB). */
static double whole_l3_ns(uint64_t s)
{
	return s <= 32 << 20 ? 10.5 : 100.0;
}

/* --quick's sweep goes past twice the reported last level only until its DRAM-like points can be a plateau
   (2x): the Zen 1 guest's, still climbing at 16 MiB (82 and 95 ns there span 1.4x), on to 22.6 MiB, where a
   plateau of DRAM's can form, and no further (also where its share of L3 is smaller and DRAM-like points
   from 8 MiB climb too steeply for one plateau); the full probe on to four times the level, 32 MiB, before
   two octaves of DRAM (45 MiB). A whole 32 MiB L3 adds one size past 64 MiB, 90 MiB; the full probe stops
   at 128 MiB. Before this --quick stopped at twice the level, 16 MiB. */
static void test_a_quick_sweep_goes_on_until_dram_can_be_a_plateau(void **state)
{
	(void)state;
	assert_int_equal(sweep_stop(8 << 20, 1, zen1_guest_ns), 23726528);
	assert_int_equal(sweep_stop(8 << 20, 0, zen1_guest_ns), 33554432);
	/* DRAM-like points spanning 2x from 8 MiB at 16 MiB are no plateau yet; 11.3 to 22.6 MiB are */
	assert_int_equal(sweep_stop(8 << 20, 1, zen1_guest_later_ns), 23726528);
	assert_int_equal(sweep_stop(32 << 20, 1, whole_l3_ns), 94906240);
	assert_int_equal(sweep_stop(32 << 20, 0, whole_l3_ns), 134217728);
}

/* A probe of n sweeps whose last levels end at l3[0..n-1] bytes on the reported machine (0: a sweep slow
   as DRAM at every size, which ends no level): each sweep's curve, and the fastest of each size as the
   probe's own curve; then classified, the probe's curve and each sweep. */
static void sweeps(struct levels_probe *p, struct topo *t, const uint64_t *l3, int n)
{
	struct levels_probe one;

	for (int s = 0; s < n; s++) {
		curve(&one, 48 << 10, 1 << 20, l3[s] ? l3[s] : 32 << 20);
		if (!l3[s])
			for (int i = 0; i < one.npoints; i++)
				one.ns[i] = 120.0;
		if (s == 0)
			*p = one;
		memcpy(p->sweep_ns[s], one.ns, sizeof one.ns);
		for (int i = 0; i < one.npoints; i++)
			p->ns[i] = fmin(p->ns[i], one.ns[i]);
	}
	p->nsweeps = n;
	reported(t);
	levels_classify(p, t);
	levels_sweeps(p, t);
}

/* The share of a reported 32 MiB L3 that a guest can keep moves between the probe's sweeps (6, 8 and 6
   MiB): the fastest of each size would end L3 at 8 MiB, a curve no one sweep had; the run takes the median
   sweep's end, and the probe says that its sweeps ended L3 apart. */
static void test_sweeps_that_end_the_level_apart_are_reported(void **state)
{
	const uint64_t l3[] = {6 << 20, 8 << 20, 6 << 20};
	struct levels_probe p;
	struct topo t;
	char want[160];

	(void)state;
	sweeps(&p, &t, l3, 3);
	/* each sweep alone ends L3 inside its own step, the second one step of the grid or more later */
	assert_int_equal(p.sweep_end[0], p.sweep_end[2]);
	assert_true(p.sweep_end[0] > 4 << 20 && p.sweep_end[0] <= 6 << 20);
	assert_true(p.sweep_end[1] > 6 << 20 && p.sweep_end[1] <= 8 << 20);
	assert_int_equal(p.llc_median, p.sweep_end[0]);
	assert_int_equal(p.ndisagreements, 2);
	assert_non_null(strstr(p.disagreements[0], "L3: hwloc reports 32768 KiB"));
	snprintf(want, sizeof want,
		 "3 sweeps, each alone, ended L3 at %llu KiB (2) and %llu KiB (1): the part",
		 (unsigned long long)(p.sweep_end[0] >> 10), (unsigned long long)(p.sweep_end[1] >> 10));
	assert_non_null(strstr(p.disagreements[1], want));
	snprintf(want, sizeof want,
		 "the run takes their median, %llu KiB (the fastest of each size: %llu KiB)",
		 (unsigned long long)(p.sweep_end[0] >> 10), (unsigned long long)(p.sweep_end[1] >> 10));
	assert_non_null(strstr(p.disagreements[1], want));
	/* the run is placed by the median sweep, the earlier end */
	levels_apply(&p, &t);
	assert_int_equal(t.caches[2].measured, p.sweep_end[0]);
}

/* More sweeps, with a lower median of an even count: the ends 4, 4, 6, 6 and 8 MiB give the median sweep's
   6 MiB one; with a fifth sweep slow throughout (no end) the four ends' lower median is 4 MiB's, and that
   sweep is listed as none. */
static void test_the_median_of_many_sweeps_ends_the_level(void **state)
{
	const uint64_t five[] = {8 << 20, 4 << 20, 6 << 20, 4 << 20, 6 << 20};
	const uint64_t none[] = {6 << 20, 4 << 20, 0, 8 << 20, 4 << 20};
	struct levels_probe p;
	struct topo t;
	char want[160];

	(void)state;
	sweeps(&p, &t, five, 5);
	assert_int_equal(p.llc_median, p.sweep_end[2]);
	assert_true(p.sweep_end[1] < p.llc_median && p.llc_median < p.sweep_end[0]);
	levels_apply(&p, &t);
	assert_int_equal(t.caches[2].measured, p.sweep_end[2]);

	sweeps(&p, &t, none, 5);
	assert_int_equal(p.sweep_end[2], 0);
	assert_int_equal(p.llc_median, p.sweep_end[1]);
	snprintf(want, sizeof want,
		 "5 sweeps, each alone, ended L3 at none (1), %llu KiB (2), %llu KiB (1) and %llu KiB (1)",
		 (unsigned long long)(p.sweep_end[1] >> 10), (unsigned long long)(p.sweep_end[0] >> 10),
		 (unsigned long long)(p.sweep_end[3] >> 10));
	assert_non_null(strstr(p.disagreements[p.ndisagreements - 1], want));
	snprintf(want, sizeof want, "the run takes the median of the 4 that found one, %llu KiB",
		 (unsigned long long)(p.sweep_end[1] >> 10));
	assert_non_null(strstr(p.disagreements[p.ndisagreements - 1], want));
}

/* A median at 3/4 or more of the reported size is no shorter end: the measured size stays below that, as
   every measured size does (--levels-from refuses a larger one). The classifier gives no such probe from
   curves (a sweep is never faster than the fastest of each size it feeds), so the probe's own end is set
   here by hand, as if its curve had ended L3 at 6 MiB where its sweeps ended it at 27 MiB. */
static void test_a_median_the_reported_size_holds_is_not_taken(void **state)
{
	const uint64_t full[] = {27 << 20, 27 << 20, 27 << 20};
	struct levels_probe p;
	struct topo t;
	char want[200];

	(void)state;
	sweeps(&p, &t, full, 3);
	p.llc_limit = 6 << 20;
	p.ndisagreements = 0;
	levels_sweeps(&p, &t);
	assert_int_equal(p.llc_median, 0);
	snprintf(want, sizeof want,
		 "their median, %llu KiB, reaches 75 %% of hwloc's 32768 KiB, so the fastest of each size "
		 "ends it at 6144 KiB",
		 (unsigned long long)(p.sweep_end[0] >> 10));
	assert_non_null(strstr(p.disagreements[0], want));
	levels_apply(&p, &t);
	assert_int_equal(t.caches[2].measured, 6 << 20);
}

/* Fewer sweeps with an end than a median needs: the fastest of each size ends the level, as said. */
static void test_too_few_ends_keep_the_fastest_of_each_size(void **state)
{
	const uint64_t l3[] = {6 << 20, 0, 8 << 20};
	struct levels_probe p;
	struct topo t;
	char want[128];

	(void)state;
	sweeps(&p, &t, l3, 3);
	assert_int_equal(p.llc_median, 0);
	snprintf(want, sizeof want,
		 "too few found an end for a median, so the fastest of each size ends it at %llu KiB",
		 (unsigned long long)(p.sweep_end[2] >> 10));
	assert_non_null(strstr(p.disagreements[p.ndisagreements - 1], want));
	levels_apply(&p, &t);
	assert_int_equal(t.caches[2].measured, p.sweep_end[2]);
}

/* Sweeps that agree say nothing more (the run takes their common end); nor do sweeps that wobble by a grid
   step where the level ends about where hwloc says (there the run's points do not depend on the probe's
   end, and no median is taken). */
static void test_sweeps_that_agree_or_end_a_full_level_say_nothing(void **state)
{
	const uint64_t same[] = {6 << 20, 6 << 20, 6 << 20};
	const uint64_t full[] = {27 << 20, 32 << 20, 27 << 20};
	struct levels_probe p;
	struct topo t;

	(void)state;
	sweeps(&p, &t, same, 3);
	assert_int_equal(p.sweep_end[0], p.sweep_end[1]);
	assert_int_equal(p.sweep_end[1], p.sweep_end[2]);
	assert_int_equal(p.llc_median, p.sweep_end[0]);
	assert_int_equal(p.ndisagreements, 1);
	assert_null(strstr(p.disagreements[0], "sweeps"));

	sweeps(&p, &t, full, 3);
	assert_true(p.sweep_end[0] < p.sweep_end[1]);
	assert_int_equal(p.llc_median, 0);
	assert_int_equal(p.ndisagreements, 0);
}

/* The first --quick probe on a Zen 1 guest (hwloc: L1 32 KiB, L2 512 KiB, L3 8 MiB; 2026-12-02): the
   fastest of each size has plateaus to 32 KiB, 512 KiB and 4 MiB and climbs on (95 ns at 16 MiB, 140 at
   22.6: too steep for a plateau of DRAM's), so it ends no level. Of its 12 sweeps, `ending` each alone end
   L3 short (the first ones at 4096 KiB, the last two at 5792: a plateau of DRAM's from the next size on),
   the next `full` at the reported 8 MiB (L3-like there, DRAM from 11.3 MiB), the rest at none (the fastest
   of each size's own curve). */
static void zen1_guest_probe(struct levels_probe *p, struct topo *t, int ending, int full)
{
	const uint64_t size[] = {4096,    5120,    8192,     11264,    16384,   22528,   32768,
				 46080,   65536,   92160,    131072,   185344,  262144,  370688,
				 524288,  741376,  1048576,  1482752,  2097152, 2965504, 4194304,
				 5931008, 8388608, 11863040, 16777216, 23726566};
	const double ns[] = {1.3, 1.4, 1.3,  1.3,  1.3,  1.3,  1.3,  4.1,  4.1,  4.0,  4.0,  4.0,  4.5,
			     5.6, 7.1, 10.2, 11.9, 12.9, 13.4, 13.6, 14.5, 23.9, 48.9, 81.9, 95.0, 140.0};
	const int n = (int)(sizeof size / sizeof *size);

	measured(p, size, ns, n);
	p->nsweeps = 12;
	for (int s = 0; s < p->nsweeps; s++) {
		memcpy(p->sweep_ns[s], ns, sizeof ns);
		if (s < ending)
			for (int i = s < ending - 2 ? n - 5 : n - 4; i < n; i++)
				p->sweep_ns[s][i] = 95.0;
		else if (s < ending + full)
			for (int i = n - 4; i < n; i++)
				p->sweep_ns[s][i] = i == n - 4 ? 14.5 : 95.0;
	}
	memset(t, 0, sizeof *t);
	t->ncaches = 3;
	t->caches[0] = (struct topo_cache){.level = 1, .size = 32 << 10, .npus = 1};
	t->caches[1] = (struct topo_cache){.level = 2, .size = 512 << 10, .npus = 1};
	t->caches[2] = (struct topo_cache){.level = 3, .size = 8 << 20, .npus = 2};
	levels_classify(p, t);
	levels_sweeps(p, t);
	levels_apply(p, t);
}

/* Where the fastest of each size ends no level, more than half the sweeps ending the last level short give
   it: their median, said in place of "keeping the reported sizes" (the run keeps them no more). With 6 of
   12 short it keeps the reported size, and with 4 short and 3 at the reported size too, though 7 found an
   end and their lower median (5792 KiB) is short. */
static void test_most_sweeps_end_a_level_the_fastest_of_each_size_does_not(void **state)
{
	struct levels_probe p;
	struct topo t;

	(void)state;
	zen1_guest_probe(&p, &t, 7, 0);
	assert_int_equal(p.nplateaus, 3);
	assert_int_equal(p.llc_limit, 0);
	assert_int_equal(p.sweep_end[0], 4194304);
	assert_int_equal(p.sweep_end[6], 5931008);
	assert_int_equal(p.sweep_end[7], 0);
	assert_int_equal(p.llc_median, 4194304);
	assert_int_equal(t.caches[2].measured, 4194304);
	assert_int_equal(t.caches[0].measured + t.caches[1].measured, 0);
	/* the level check's line: the middle of those sweeps' step from L3 (about 13 ns) to DRAM (95 ns) */
	assert_true(p.step_ns > 30 && p.step_ns < 40);
	assert_int_equal(p.ndisagreements, 1);
	assert_string_equal(
		p.disagreements[0],
		"the latency sweep shows 3 plateaus for 3 cache levels and DRAM, but the level "
		"probe's 12 sweeps, each alone, ended L3 at none (5), 4096 KiB (5) and 5792 KiB "
		"(2); the run takes the median of the 7 that found one, 4096 KiB (hwloc: 8192 KiB)");

	zen1_guest_probe(&p, &t, 6, 0);
	assert_int_equal(p.llc_median, 0);
	assert_true(p.step_ns == 0);
	assert_int_equal(t.caches[2].measured, 0);
	assert_non_null(strstr(p.disagreements[p.ndisagreements - 1], "keeping the reported sizes"));

	zen1_guest_probe(&p, &t, 4, 3);
	assert_int_equal(p.sweep_end[4], 8388608);
	assert_int_equal(p.sweep_end[7], 0);
	assert_int_equal(p.llc_median, 0);
	assert_int_equal(t.caches[2].measured, 0);
	assert_non_null(strstr(p.disagreements[0], "keeping the reported sizes"));
}

/* machine.json's levels.disturbance: null for a probe without both samples, else the shares between them
   (steal and CPU pressure, which decide whether the probe joins the history). */
static void test_the_probe_disturbance_is_null_or_its_shares(void **state)
{
	struct levels_probe p = {0};
	json_t *o, *d;

	(void)state;
	o = levels_json(&p);
	assert_true(json_is_null(json_object_get(o, "disturbance")));
	json_decref(o);
	p.sampled = 1;
	p.before = (struct disturb_sample){
		.total = 1000, .steal = 10, .has_steal = 1, .pressure_us = 0, .at_s = 1};
	p.after = (struct disturb_sample){
		.total = 2000, .steal = 60, .has_steal = 1, .pressure_us = 500000, .at_s = 11};
	o = levels_json(&p);
	d = json_object_get(o, "disturbance");
	assert_true(json_is_object(d));
	assert_float_equal(json_real_value(json_object_get(d, "steal_percent")), 5.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(d, "cpu_pressure_percent")), 5.0, 1e-9);
	json_decref(o);
}

/* Six sweeps' cycles at a 45 KiB chase in a 48 KiB L1 of 5 cycles (a --quick probe's): three in the next
   level, one between, two in L1, and one read low (a clock that moved and came back within a call). Each
   size's cycles are the fewest two sweeps reach, neither the one low read nor the median; one sweep alone
   (no call's brackets agreed in the others) gives none, nor do none. */
static void test_the_cycles_are_the_fewest_two_sweeps_reach(void **state)
{
	static const double cyc[6] = {13.87, 13.84, 14.0, 7.55, 5.005, 4.999};
	struct levels_probe p = {0};
	json_t *o, *curve;

	(void)state;
	p.npoints = 4;
	for (int s = 0; s < 6; s++)
		for (int k = 0; k < 4; k++) {
			p.size[k] = (uint64_t)(45 + k) << 10;
			p.sweep_ns[s][k] = 1.79 * cyc[s] / 5;
			p.sweep_cycles[s][k] = k == 3 || (k == 2 && s < 5) ? 0 : cyc[s];
		}
	p.sweep_cycles[2][1] = 4.64;
	levels_cycles(&p);
	assert_float_equal(p.cycles[0], 5.005, 1e-12);
	assert_float_equal(p.cycles[1], 4.999, 1e-12); /* not 4.64 */
	assert_float_equal(p.cycles[2], 0, 0);
	assert_float_equal(p.cycles[3], 0, 0);
	/* machine.json: [bytes, ns, cycles], the cycles null where there are none */
	p.ns[0] = 1.79;
	o = levels_json(&p);
	curve = json_object_get(o, "latency_curve");
	assert_int_equal(json_array_size(json_array_get(curve, 0)), 3);
	assert_float_equal(json_real_value(json_array_get(json_array_get(curve, 0), 2)), 5.005, 1e-12);
	assert_true(json_is_null(json_array_get(json_array_get(curve, 2), 2)));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agreeing_levels_are_left_alone),
		cmocka_unit_test(test_short_l3_is_measured_and_reported),
		cmocka_unit_test(test_unseparable_levels_keep_reported_sizes),
		cmocka_unit_test(test_measured_vm_curve_finds_the_short_l3),
		cmocka_unit_test(test_gradual_step_ends_in_its_middle),
		cmocka_unit_test(test_short_dram_tail_still_bounds_the_last_level),
		cmocka_unit_test(test_disturbed_points_do_not_move_the_levels),
		cmocka_unit_test(test_absurd_reported_l3_is_measured),
		cmocka_unit_test(test_ambiguous_curve_still_bounds_dram),
		cmocka_unit_test(test_a_whole_l3_seen_by_a_quick_sweep_stays_l3),
		cmocka_unit_test(test_a_cache_plateau_is_not_drams_by_count),
		cmocka_unit_test(test_ambiguous_curve_without_clear_dram_keeps_sizes),
		cmocka_unit_test(test_a_ramp_to_dram_leaves_l3_a_cache),
		cmocka_unit_test(test_loaded_guest_curve_never_calls_dram_l3),
		cmocka_unit_test(test_dram_like_plateau_is_never_a_cache),
		cmocka_unit_test(test_stopped_probe_says_so),
		cmocka_unit_test(test_no_reported_cache_names_no_level),
		cmocka_unit_test(test_sweep_stops_two_octaves_into_dram),
		cmocka_unit_test(test_a_quick_sweep_goes_on_until_dram_can_be_a_plateau),
		cmocka_unit_test(test_sweeps_that_end_the_level_apart_are_reported),
		cmocka_unit_test(test_the_median_of_many_sweeps_ends_the_level),
		cmocka_unit_test(test_a_median_the_reported_size_holds_is_not_taken),
		cmocka_unit_test(test_too_few_ends_keep_the_fastest_of_each_size),
		cmocka_unit_test(test_sweeps_that_agree_or_end_a_full_level_say_nothing),
		cmocka_unit_test(test_most_sweeps_end_a_level_the_fastest_of_each_size_does_not),
		cmocka_unit_test(test_the_probe_disturbance_is_null_or_its_shares),
		cmocka_unit_test(test_the_cycles_are_the_fewest_two_sweeps_reach),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
