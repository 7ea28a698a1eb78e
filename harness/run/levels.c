#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "kern.h"
#include "level.h"
#include "levels.h"
#include "stats.h"
#include "timed_call.h"

/* A point joins the current plateau while its latency rises by less than LEVEL_PLATEAU_RISE over the
   point before it (level.h) and by less than PLATEAU_TOTAL_RISE over the plateau's first point (a gradual
   transition, seen here from L2 to L3 in steps of 20 %, must not chain two levels into one). A plateau
   needs this many points and this span of sizes, else it is a transition. */
#define PLATEAU_TOTAL_RISE 1.60
#define PLATEAU_MIN_POINTS 2
#define PLATEAU_MIN_SPAN 2.0
/* A level whose plateau ends before this fraction of its reported size is said to be smaller. */
#define LEVEL_SHORT 0.75
/* When the plateaus do not match the levels one to one, the last plateau is still DRAM-like if its
   latency is at least DRAM_JUMP times the plateau's before it (DRAM is 5-15x L3 in the seed papers'
   tables; L3 is 3-4x L2 on Zen, so the jump alone could be L3) and either the plateau reaches past
   the reported last level or it is slower than LEVEL_DRAM_NS, which no cache level is (level.h). */
#define DRAM_JUMP 3.0
/* A single pass this many times the shortest timed call is measured on its own (levels_latency_ns). */
#define LONG_PASS 8
/* The sweep ends once its last points span two octaves (4x in size) all at LEVEL_DRAM_NS or slower: no cache
   level is that slow, so larger sizes could only find more DRAM. On a guest whose hwloc reports a whole
   socket's L3 (508 MiB seen here) the sweep would otherwise run to SWEEP_TOP times that, into its time
   limit. */
#define DRAM_OCTAVES_SPAN 4
/* The sweep's largest size, in reported last levels: past it, at twice a level that is all there, it can
   find only DRAM. */
#define SWEEP_TOP 4
/* Wall-time limits of the probe (seconds): the sweep stops growing past them, and says so. */
#define PROBE_SECONDS_QUICK 15.0
#define PROBE_SECONDS_FULL 45.0
/* The sweeps go on past LEVELS_SWEEPS_MIN until the probe has lasted this long (seconds): a tenant on the
   host core's SMT sibling can hold part of the private L2 for seconds. On the Zen 3 guest (2026-11-28),
   of fifteen --quick probes of three sweeps (2.1-2.6 s each alone) three ended L2 at 256 KiB (hwloc: 512),
   every sweep slow at 362 KiB; of fifteen of nine sweeps (5.6-7.9 s), interleaved with them, none. */
#define SWEEP_SPREAD_QUICK 6.0
#define SWEEP_SPREAD_FULL 12.0

int levels_past_dram(const struct levels_probe *p)
{
	int i = p->npoints;

	while (i > 0 && p->ns[i - 1] >= LEVEL_DRAM_NS)
		i--;
	return i < p->npoints && p->size[p->npoints - 1] >= DRAM_OCTAVES_SPAN * p->size[i];
}

/* Whether point i of the latencies ns joins the plateau that starts at point first (the rule at
   PLATEAU_TOTAL_RISE). */
static int plateau_joins(const double *ns, int first, int i)
{
	return ns[i] <= LEVEL_PLATEAU_RISE * ns[i - 1] && ns[i] <= PLATEAU_TOTAL_RISE * ns[first];
}

/* How many times its first size the sweep's last points span as a plateau of DRAM's could: each as slow as
   DRAM, and each after the first joining it (plateau_joins, as levels_classify's plateaus; on the times
   measured, the envelope needing larger sizes than the sweep has yet); 0 where the last point is no
   DRAM's. */
static double dram_plateau_span(const struct levels_probe *p)
{
	int last = p->npoints - 1, first = last;

	if (last < 0 || p->ns[last] < LEVEL_DRAM_NS)
		return 0;
	for (int j = last - 1; j >= 0 && p->ns[j] >= LEVEL_DRAM_NS; j--) {
		int k = j + 1;
		while (k <= last && plateau_joins(p->ns, j, k))
			k++;
		if (k <= last)
			break;
		first = j;
	}
	return (double)p->size[last] / (double)p->size[first];
}

/* --quick's sweep stops at twice the reported last level once its last points can make a plateau of
   DRAM's: where that level is a hypervisor's, larger than the share the host gives, the curve is still
   climbing there, and without a plateau of DRAM's its plateaus match no level. The Zen 1 guest's (hwloc: 8
   MiB, QEMU's "EPYC" table; 2026-12-02) read 48.9 ns at 8 MiB, 82 at 11.3 and 95 at 16 MiB, where the sweep
   ended; fresh --quick runs there ended L3 in 1 of 4 probes, and in 4 of 4 with the sweep going on to 22.6
   or 32 MiB (4x, the full probe's top), each probe about 1.5 s longer. */
int levels_sweep_done(const struct levels_probe *p, uint64_t llc, int quick)
{
	uint64_t last = p->npoints ? p->size[p->npoints - 1] : 0;

	return last >= SWEEP_TOP * llc || levels_past_dram(p) ||
		(quick && last >= 2 * llc && dram_plateau_span(p) >= PLATEAU_MIN_SPAN);
}

/* How far the clock read just before and just after a timed call may differ for the call to have run at
   their mean. The Emerald Rapids guest's clock moves between states about 100 MHz apart (2.675 and 2.775 GHz
   in 20000 back-to-back 10 us chains, each state read within 0.3 %), 3.7 % of its clock, every 2.8 ms on
   average (the longest stay 12.8 ms): a clock sampled around a size's calls (3 ms or more) missed such moves,
   and put the probe's 22 KiB chase at 4.93 cycles, below its L1's 5. */
#define CLOCK_STEADY 0.01

/* Latency per access at one size: R passes calibrated so that a call lasts min_s, then the fastest
   call of four (R, 2R, R, 2R) per access. Every call is an upper bound of the true latency (its fixed
   cost, under a microsecond against min_s >= 0.5 ms, and any interference only add time), so the
   fastest is the best bound and no disturbance can make it look faster; a difference of two calls
   could (a preempted R call shrinks 2R - R). With a clock, each call is bracketed by a short add chain
   before and after it (clock_chain_ghz), and a call whose brackets agree within CLOCK_STEADY ran at their
   mean: the fewest cycles per access of those calls. */
int levels_latency_ns(const struct kern_family *f, const struct kern_variant *v, void *buf, uint64_t bytes,
		      double tsc_hz, double min_s, const struct levels_clock *clock, double *ns,
		      double *cycles, struct err *e)
{
	struct kern_params p = {bytes, 1, 0};
	uint64_t reps = 1, lines = bytes / KERN_LINE;
	double best = INFINITY, fewest = INFINITY;

	if (!lines)
		return err_set(e, E_RUNTIME, "level probe: %llu bytes is less than a line",
			       (unsigned long long)bytes);
	f->prepare(v, &p, buf, 1);
	/* One pass that already lasts LONG_PASS calls: two single passes are enough (the sizes that
	   cost most are the largest). */
	int tries = (double)timed_call(v, buf, bytes, 1, 0, NULL, NULL) > LONG_PASS * min_s * tsc_hz ? 2 : 4;
	while (tries == 4 && (double)timed_call(v, buf, bytes, reps, 0, NULL, NULL) < min_s * tsc_hz &&
	       reps < (1u << 30))
		reps *= 2;
	for (int i = 0; i < tries; i++) {
		uint64_t r = tries == 2 ? 1 : (i % 2 ? 2 : 1) * reps;
		double before = clock ? clock_chain_ghz(tsc_hz, clock->iters, clock->bounds) : 0;
		double per = (double)timed_call(v, buf, bytes, r, 0, NULL, NULL) / (double)(r * lines);
		double after = before > 0 ? clock_chain_ghz(tsc_hz, clock->iters, clock->bounds) : 0;
		if (per < best)
			best = per;
		if (after > 0 && fabs(after - before) <= CLOCK_STEADY * fmax(before, after))
			fewest = fmin(fewest, per / tsc_hz * (before + after) / 2 * 1e9);
	}
	*ns = best / tsc_hz * 1e9;
	if (cycles)
		*cycles = isinf(fewest) ? 0 : fewest;
	return 0;
}

void levels_cycles(struct levels_probe *p)
{
	for (int k = 0; k < p->npoints; k++) {
		double c[LEVELS_SWEEPS_MAX];
		size_t n = 0;
		for (int s = 0; s < LEVELS_SWEEPS_MAX; s++)
			if (p->sweep_cycles[s][k] > 0)
				c[n++] = p->sweep_cycles[s][k];
		stats_sort(c, n);
		p->cycles[k] = n >= 2 ? c[1] : 0;
	}
}

/* What timing one size takes: the chain and its buffer, the shortest timed call, and the clock brackets. */
struct size_timing {
	const struct kern_family *f;
	const struct kern_variant *v;
	void *base;
	double tsc_hz, min_s;
	const struct levels_clock *clock; /* NULL: no cycles */
};

/* A bracket's chain lasts this share of the shortest timed call: two of them cost a tenth of the size's
   time, and the call overhead they keep reads them under 0.3 % low. */
#define CLOCK_SHARE (1.0 / 20)

/* The latency at one size in one sweep (levels_latency_ns), in ns and in cycles. */
static int time_size(struct levels_probe *p, int sweep, int k, const struct size_timing *tm, struct err *e)
{
	return levels_latency_ns(tm->f, tm->v, tm->base, p->size[k], tm->tsc_hz, tm->min_s, tm->clock,
				 &p->sweep_ns[sweep][k], &p->sweep_cycles[sweep][k], e);
}

/* The sweeps of one probe: the first over sizes growing from 4 KiB by 2^(1/steps) up to SWEEP_TOP times
   llc, the reported last level, until DRAM shows (levels_sweep_done) or the time limit; then the same
   sizes again. */
static int sweep_sizes(struct levels_probe *p, const struct size_timing *tm, uint64_t llc, int quick,
		       struct err *e)
{
	uint64_t top = SWEEP_TOP * llc;
	int steps = quick ? 2 : 4, rc = 0;
	double limit_s = quick ? PROBE_SECONDS_QUICK : PROBE_SECONDS_FULL;
	double spread_s = quick ? SWEEP_SPREAD_QUICK : SWEEP_SPREAD_FULL;
	uint64_t start = tsc_begin();

	for (int i = 0; p->npoints < LEVELS_MAX_POINTS; i++) {
		uint64_t size = (uint64_t)(4096.0 * pow(2.0, (double)i / steps));
		size -= size % tm->f->granule;
		if (size > top)
			break;
		if (p->npoints && size == p->size[p->npoints - 1])
			continue;
		if ((double)(tsc_end() - start) > limit_s * tm->tsc_hz) {
			p->stopped_at = size;
			break;
		}
		p->size[p->npoints] = size;
		if ((rc = time_size(p, 0, p->npoints, tm, e)))
			break;
		p->ns[p->npoints] = p->sweep_ns[0][p->npoints];
		p->npoints++;
		if (levels_sweep_done(p, llc, quick))
			break;
	}
	/* The same sizes again, each keeping its fastest: a neighbour's burst lasts milliseconds to
	   seconds, so sweeps apart in time rarely all meet one at the same size (under load 3 on the
	   2-vCPU guest one sweep put L3's end at 0.36-4 MiB over five runs). */
	p->nsweeps = rc == 0;
	for (int sweep = 1; rc == 0 && !p->stopped_at && p->nsweeps == sweep && sweep < LEVELS_SWEEPS_MAX &&
	     (sweep < LEVELS_SWEEPS_MIN || (double)(tsc_end() - start) < spread_s * tm->tsc_hz);
	     sweep++) {
		int k;
		for (k = 0; k < p->npoints; k++) {
			if ((double)(tsc_end() - start) > limit_s * tm->tsc_hz)
				break;
			if ((rc = time_size(p, sweep, k, tm, e)))
				break;
			p->ns[k] = fmin(p->ns[k], p->sweep_ns[sweep][k]);
		}
		p->nsweeps += k == p->npoints;
	}
	return rc;
}

/* What the probe takes on its CPU (probe_pinned), from levels_measure. */
struct probe_run {
	struct levels_probe *p;
	const struct topo *t;
	int cpu, quick;
	int sampled; /* /proc was read as the probe started (p->before) */
	struct size_timing tm;
	struct levels_clock brackets;
};

/* The probe on the CPU topo_on_cpu pinned the calling thread to: its buffer, sweeps and classification. */
static int probe_pinned(void *arg, struct err *e)
{
	struct probe_run *r = arg;
	struct levels_probe *p = r->p;
	uint64_t llc = r->t->ncaches ? r->t->caches[r->t->ncaches - 1].size : (32u << 20);
	uint64_t top = SWEEP_TOP * llc;
	struct buf_place local = {BUF_LOCAL, -1};
	struct buf b;
	int rc;

	if ((rc = buf_alloc(&b, top, &local, r->t, r->cpu, 1, e)))
		return rc;
	r->tm.base = b.base;
	if (r->brackets.bounds) {
		r->brackets.iters = clock_chain_iters(r->tm.tsc_hz, r->tm.min_s * CLOCK_SHARE);
		r->tm.clock = &r->brackets;
	}
	/* no first touch of the whole buffer (four times the reported LLC, 2 GiB on a guest that reports a
	   socket's L3): the chain built for each size writes every line it will time, and the sweep
	   mostly stops long before the end (levels_sweep_done) */
	rc = sweep_sizes(p, &r->tm, llc, r->quick, e);
	/* The chain is meant to run on huge pages, so that a TLB's reach does not show as a level: buf_alloc
	   advises them, but THP "never", a prctl(PR_SET_THP_DISABLE) or fragmented memory leaves small ones.
	   The chain writes every line of each size it times, from the buffer's start, so the largest size
	   is what it touched. */
	p->thp_share = p->npoints ? buf_thp_share(&b, p->size[p->npoints - 1]) : -1;
	buf_free(&b);
	/* only a probe that got this far has an after; one that failed before leaves sampled 0 */
	p->sampled = r->sampled && disturb_read(disturb_proc_dir(), &r->cpu, 1, &p->after, NULL) == 0;
	if (rc == 0) {
		levels_cycles(p);
		levels_classify(p, r->t);
		levels_sweeps(p, r->t);
		if (p->thp_share >= 0 && p->thp_share < LEVEL_PROBE_THP_SHARE)
			levels_disagree(
				p,
				"only %.0f %% of the chain's %llu KiB was on huge pages (transparent huge "
				"pages off, or memory too fragmented for them): a TLB's reach may show "
				"as a level, and the probe's plateaus may be one",
				100 * p->thp_share, (unsigned long long)(p->size[p->npoints - 1] >> 10));
	}
	return rc;
}

int levels_measure(struct levels_probe *p, const struct topo *t, int cpu, double tsc_hz,
		   const struct clock_bounds *clock, int quick, struct err *e)
{
	struct probe_run r = {.p = p,
			      .t = t,
			      .cpu = cpu,
			      .quick = quick,
			      .tm = {.tsc_hz = tsc_hz, .min_s = quick ? 0.0005 : 0.001},
			      .brackets = {.bounds = clock}};

	memset(p, 0, sizeof *p);
	r.tm.v = kern_variant_for_plot(KP_LEVEL_PROBE, &r.tm.f);
	if (!r.tm.v || !r.tm.f->prepare)
		return err_set(e, E_RUNTIME, "no kernel is registered as the level probe's chain");
	r.sampled = disturb_read(disturb_proc_dir(), &cpu, 1, &p->before, NULL) == 0;
	/* the probe pins the calling thread; its old mask is put back, so the run's own threads start free */
	return topo_on_cpu(cpu, probe_pinned, &r, e);
}

static void add_plateau(struct levels_probe *p, int first, int last)
{
	double v[LEVELS_MAX_POINTS];
	int n = last - first + 1;

	if (n < PLATEAU_MIN_POINTS || (double)p->size[last] < PLATEAU_MIN_SPAN * (double)p->size[first])
		return; /* a transition between levels */
	if (p->nplateaus == TOPO_MAX_LEVELS + 2)
		return;
	memcpy(v, &p->env[first], sizeof *v * (size_t)n);
	p->plateau[p->nplateaus].first = p->size[first];
	p->plateau[p->nplateaus].last = p->size[last];
	p->plateau[p->nplateaus].next = last + 1 < p->npoints ? p->size[last + 1] : 0;
	p->plateau[p->nplateaus].ns = stats_median(v, (size_t)n);
	p->nplateaus++;
}

void levels_disagree(struct levels_probe *p, const char *fmt, ...)
{
	va_list ap;

	if (p->ndisagreements == LEVELS_MAX_DISAGREEMENTS)
		return;
	va_start(ap, fmt);
	vsnprintf(p->disagreements[p->ndisagreements++], sizeof p->disagreements[0], fmt, ap);
	va_end(ap);
}

/* Latency cannot fall as the working set grows (a larger set only adds misses), and interference only
   adds time; so the lowest latency measured at any larger size bounds the true latency at this size from
   above. A point more than LEVEL_PLATEAU_RISE slower than that bound was disturbed (preempted, or a
   neighbour's burst), and takes the bound instead; smaller wiggles stay as measured, so the plateaus do not
   depend on a few percent of noise at a level's edge. */
static void envelope(struct levels_probe *p)
{
	double below = INFINITY; /* the lowest latency at the larger sizes */

	for (int i = p->npoints - 1; i >= 0; i--) {
		p->env[i] = p->ns[i] > LEVEL_PLATEAU_RISE * below ? below : p->ns[i];
		if (p->ns[i] < below)
			below = p->ns[i];
	}
}

/* Where each plateau's level ends: at the last point whose latency is below the geometric mean of its
   plateau's and the next plateau's, the middle of the step on a log scale. The plateaus themselves end
   where the curve first rises (LEVEL_PLATEAU_RISE), early in a gradual transition where the curve is flat
   and a few percent of noise move that point by a size step or two; the middle of the step is where the
   curve is steepest, so the same noise moves it least. Four --quick probes on the development VM (Zen 5
   guest, L3 shared with other tenants, two of them beside a parallel build) ended L3's plateau at 8192,
   5792, 5792 and 5792 KiB, and the middle of the step at 11585, 8192, 8192 and 8192 KiB. */
static void level_ends(struct levels_probe *p)
{
	for (int l = 0; l + 1 < p->nplateaus; l++) {
		double mid = sqrt(p->plateau[l].ns * p->plateau[l + 1].ns);
		for (int i = 0; i < p->npoints && p->size[i] < p->plateau[l + 1].first; i++) {
			if (p->size[i] <= p->plateau[l].last || p->env[i] >= mid)
				continue;
			p->plateau[l].last = p->size[i];
			p->plateau[l].next = i + 1 < p->npoints ? p->size[i + 1] : 0;
		}
	}
}

/* Plateaus that do not match the levels one to one: if the last one is still clearly DRAM, no point
   from where it starts may count as a cache level. Returns whether it set the last level's limit. */
/* The first plateau (after the first) slow enough for no cache and well above the one before; 0: none. */
static int first_dram_like(const struct levels_probe *p)
{
	for (int i = 1; i < p->nplateaus; i++)
		if (p->plateau[i].ns >= LEVEL_DRAM_NS && p->plateau[i].ns >= DRAM_JUMP * p->plateau[i - 1].ns)
			return i;
	return 0;
}

/* The most one thread's chase can keep in the caches: every reported level's size together (an L3 that is
   not inclusive keeps the L2's lines beside its own; level_capacity.h). */
static uint64_t caches_hold(const struct topo *t)
{
	uint64_t sum = 0;

	for (int l = 0; l < t->ncaches; l++)
		sum += t->caches[l].size;
	return sum;
}

/* Whether plateau i (after the first) is DRAM's by its jump alone, faster than LEVEL_DRAM_NS: at least
   DRAM_JUMP times the plateau before it and reaching past what the caches hold together. L3 is 3-4x L2 on
   Zen and Intel, so the jump alone could be L3's, and the whole L3 reaches the reported size: on bare-metal
   Zen 3 (L3 10.5 ns, 3.9x L2's; a non-inclusive L3 still holds its 32 MiB) --quick's sweep ended at twice
   the L3 (until 2026-12-02; now it goes on until a plateau of DRAM's can show, levels_sweep_done), too
   short past it for a plateau of DRAM's, and a rule that took a last plateau reaching the reported L3 for
   DRAM ended L3 at 512 KiB. A sweep cut by its time limit can still end so. Where the sweeps' share of L3
   moved (Zen 3 guest, 2026-11-28), their fastest of each size climbed to DRAM in a ramp with no plateau of
   its own, and L3's (15.6 ns, 4.2x L2's) ended well inside the reported L3. */
static int dram_by_jump(const struct levels_probe *p, const struct topo *t, int i)
{
	return i > 0 && p->plateau[i].last > caches_hold(t) &&
		p->plateau[i].ns >= DRAM_JUMP * p->plateau[i - 1].ns;
}

/* Whether the plateaus match the levels one to one: one for each and DRAM's, which is DRAM-like (the first
   slow enough for no cache, or DRAM's by its jump) where no cache's is. Else a gradual step within a level
   that made a plateau of its own, in a sweep that stopped before DRAM, gave L2's plateau to L3 and L3's
   (12 ns) to DRAM: "L3: ... L3-like only up to 1024 KiB and DRAM-like from ...". */
static int plateaus_match(const struct levels_probe *p, const struct topo *t)
{
	int k = first_dram_like(p);

	return p->nplateaus == t->ncaches + 1 && (k == t->ncaches || (!k && dram_by_jump(p, t, t->ncaches)));
}

/* k: the first plateau slow enough for no cache (first_dram_like), 0 for none; then the last one where its
   jump says it is DRAM's (dram_by_jump). */
static int dram_bound(struct levels_probe *p, const struct topo *t, int k)
{
	const struct topo_cache *llc = &t->caches[t->ncaches - 1];
	int n = p->nplateaus;

	if (!k && n >= 2 && dram_by_jump(p, t, n - 1))
		k = n - 1;
	if (!k || (double)p->plateau[k].first >= LEVEL_SHORT * (double)llc->size)
		return 0;
	p->dram_from = p->plateau[k].first;
	p->llc_limit = p->plateau[k - 1].last;
	p->step_ns = sqrt(p->plateau[k - 1].ns * p->plateau[k].ns);
	levels_disagree(
		p,
		"the latency sweep shows %d plateaus for %d cache levels and DRAM; from %llu KiB on it is "
		"DRAM-like (%.1f ns, %.1fx the plateau before), so L%d is taken to end at %llu KiB "
		"(hwloc: %llu KiB)",
		n, t->ncaches, (unsigned long long)(p->dram_from >> 10), p->plateau[k].ns,
		p->plateau[k].ns / p->plateau[k - 1].ns, t->ncaches, (unsigned long long)(p->llc_limit >> 10),
		(unsigned long long)(llc->size >> 10));
	return 1;
}

/* Where the curve's DRAM-like tail starts: the first point from which every point is LEVEL_DRAM_NS or
   slower (the envelope's), npoints when the last point is faster. */
static int dram_tail(const struct levels_probe *p)
{
	int i = p->npoints;

	while (i > 0 && p->env[i - 1] >= LEVEL_DRAM_NS)
		i--;
	return i;
}

/* Plateaus that cannot be matched and no DRAM plateau (a DRAM tail too short for one, the sweep having
   stopped early): the last level still ends before the tail, so no DRAM-like point is a cache level.
   Under load 7 on the development VM the tail was 8 to 23 MiB (99-358 ns), one plateau short, and the
   reported 508 MiB "L3" was kept: --quick's L3 points took 254 MiB each, and the run 11 minutes. */
static int tail_bound(struct levels_probe *p, const struct topo *t)
{
	const struct topo_cache *llc = &t->caches[t->ncaches - 1];
	int i = dram_tail(p);

	if (i == 0 || i == p->npoints || (double)p->size[i] >= LEVEL_SHORT * (double)llc->size ||
	    (t->ncaches > 1 && p->size[i - 1] <= t->caches[t->ncaches - 2].size))
		return 0;
	p->dram_from = p->size[i];
	p->llc_limit = p->size[i - 1];
	levels_disagree(
		p,
		"the latency sweep shows %d plateaus for %d cache levels and DRAM, but from %llu KiB on "
		"every point is DRAM-like (%.0f ns or slower), so L%d is taken to end at %llu KiB "
		"(hwloc: %llu KiB)",
		p->nplateaus, t->ncaches, (unsigned long long)(p->dram_from >> 10), LEVEL_DRAM_NS, t->ncaches,
		(unsigned long long)(p->llc_limit >> 10), (unsigned long long)(llc->size >> 10));
	return 1;
}

/* Where the classified curve ends the last cache level: the limit taken from a DRAM-like plateau or tail,
   else the last level's plateau where the plateaus match the levels; 0 where it found no end. */
static uint64_t last_level_end(const struct levels_probe *p, const struct topo *t)
{
	if (p->llc_limit)
		return p->llc_limit;
	return t->ncaches && plateaus_match(p, t) ? p->plateau[t->ncaches - 1].last : 0;
}

/* Whether the plateaus, matched to the levels one to one, end level l (0-based) before LEVEL_SHORT of its
   reported size: then the measured size replaces the reported one. */
static int level_short(const struct levels_probe *p, const struct topo *t, int l)
{
	return plateaus_match(p, t) && (double)p->plateau[l].next < LEVEL_SHORT * (double)t->caches[l].size;
}

void levels_classify(struct levels_probe *p, const struct topo *t)
{
	int first = 0, k;

	p->nplateaus = 0;
	p->ndisagreements = p->kept_reported = 0;
	p->dram_from = p->llc_limit = 0;
	p->step_ns = 0;
	envelope(p);
	if (p->stopped_at)
		levels_disagree(p,
				"the level probe stopped before %llu KiB: its time limit ran out (a slow or "
				"busy machine)",
				(unsigned long long)(p->stopped_at >> 10));
	for (int i = 1; i <= p->npoints; i++) {
		if (i < p->npoints && plateau_joins(p->env, first, i))
			continue;
		add_plateau(p, first, i - 1);
		first = i;
	}
	level_ends(p);
	k = first_dram_like(p);
	/* no reported level to match a plateau to: the plan has only DRAM points (run_job_say.c warns) */
	if (!t->ncaches) {
		levels_disagree(
			p,
			"hwloc reports no data cache, so the %d plateaus of the latency sweep name no level: "
			"every point is planned and labelled as DRAM",
			p->nplateaus);
		return;
	}
	if (!plateaus_match(p, t)) {
		if (!dram_bound(p, t, k) && !tail_bound(p, t)) {
			levels_disagree(
				p,
				"the latency sweep shows %d plateaus for %d cache levels and DRAM; keeping "
				"the reported sizes",
				p->nplateaus, t->ncaches);
			p->kept_reported = p->ndisagreements;
		}
		return;
	}
	p->step_ns = sqrt(p->plateau[t->ncaches - 1].ns * p->plateau[t->ncaches].ns);
	for (int l = 0; l < t->ncaches; l++) {
		uint64_t reported = t->caches[l].size, last = p->plateau[l].last;
		/* The level ends somewhere between its last plateau point and the next point. */
		if (level_short(p, t, l))
			levels_disagree(
				p,
				"L%d: hwloc reports %llu KiB, but latency is L%d-like only up to %llu KiB "
				"(%.1f ns) and %s from %llu KiB",
				l + 1, (unsigned long long)(reported >> 10), l + 1,
				(unsigned long long)(last >> 10), p->plateau[l].ns,
				l + 1 == t->ncaches ? "DRAM-like" : "next-level-like",
				(unsigned long long)(p->plateau[l + 1].first >> 10));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t levels_kth_smallest(const uint64_t *sizes, int n, int k)
{
	uint64_t sorted[LEVELS_LIST_MAX];

	memcpy(sorted, sizes, sizeof *sorted * (size_t)n);
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_u64);
	return sorted[k - 1];
}

void levels_list_sizes(const uint64_t *sizes, int n, char *list, size_t size)
{
	uint64_t sorted[LEVELS_LIST_MAX], end[LEVELS_LIST_MAX];
	int count[LEVELS_LIST_MAX], m = 0;
	size_t len = 0;

	n = n < LEVELS_LIST_MAX ? n : LEVELS_LIST_MAX;
	memcpy(sorted, sizes, sizeof *sorted * (size_t)n);
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_u64);
	for (int s = 0; s < n; s++) {
		if (m && end[m - 1] == sorted[s]) {
			count[m - 1]++;
			continue;
		}
		end[m] = sorted[s];
		count[m++] = 1;
	}
	list[0] = 0;
	for (int i = 0; i < m && len < size; i++) {
		const char *sep = i == 0 ? "" : i + 1 == m ? " and " : ", ";
		int w = end[i] ? snprintf(list + len, size - len, "%s%llu KiB (%d)", sep,
					  (unsigned long long)(end[i] >> 10), count[i])
			       : snprintf(list + len, size - len, "%snone (%d)", sep, count[i]);
		len += w > 0 ? (size_t)w : 0;
	}
}

/* The lower median of the sweeps' ends that found one (*found of them: a sweep without an end had a curve
   its plateaus could not match to the levels, which says nothing of where the level ends); 0 where fewer
   than LEVELS_SWEEPS_MIN did. */
static uint64_t median_end(const struct levels_probe *p, int *found)
{
	uint64_t ends[LEVELS_SWEEPS_MAX];
	int n = 0;

	for (int s = 0; s < p->nsweeps; s++)
		if (p->sweep_end[s])
			ends[n++] = p->sweep_end[s];
	*found = n;
	return n < LEVELS_SWEEPS_MIN ? 0 : levels_kth_smallest(ends, n, (n + 1) / 2);
}

/* Whether a sweep's end of the last level (0: none) is short of LEVEL_SHORT of its reported llc bytes. */
static int end_short(uint64_t end, uint64_t llc)
{
	return end && (double)end < LEVEL_SHORT * (double)llc;
}

/* How many of the sweeps, each alone, ended the last level short (end_short). */
static int ends_short(const struct levels_probe *p, uint64_t llc)
{
	int n = 0;

	for (int s = 0; s < p->nsweeps; s++)
		n += end_short(p->sweep_end[s], llc);
	return n;
}

/* The fastest of each size is the probe's answer for the levels the hardware sets (levels_measure says
   why); each sweep alone shows whether that answer held through the probe. Where the last level ends short
   of its reported size, other tenants set that end, and it moves while the probe runs: the fastest of each
   size then joins the best moments of different sweeps into a curve no one moment had, so the run takes
   the median sweep's end, the share it will most likely meet. That is also the steadier answer: fifteen
   --quick probes of nine sweeps each on the Zen 3 guest (2026-11-28) ended L3 at 4096, 5792 or 8192 KiB
   by the fastest of each size (2, 9 and 4 probes), at 4096 or 5792 by the median sweep (11 and 4). It
   cannot hold a share that moves between runs: fifteen such probes on the development VM (Zen 5 guest),
   20 s apart, had medians from 5.7 to 11.3 MiB and back over five minutes, 96 of their 133 sweeps ending
   L3 where their probe's median did. The level's points are checked against the end taken
   (level_check.h), and a user told that the end moved within the probe knows that it is a sample. */
void levels_sweeps(struct levels_probe *p, const struct topo *t)
{
	char list[LEVELS_SWEEPS_MAX * 24], of[48] = "their median";
	double step[LEVELS_SWEEPS_MAX];
	int differ = 0, found, nstep = 0;
	uint64_t fastest, median, llc_size;

	p->llc_median = 0;
	llc_size = t->ncaches ? t->caches[t->ncaches - 1].size : 0;
	for (int s = 0; s < p->nsweeps; s++) {
		struct levels_probe one = *p;
		memcpy(one.ns, p->sweep_ns[s], sizeof one.ns);
		levels_classify(&one, t);
		p->sweep_end[s] = last_level_end(&one, t);
		differ |= p->sweep_end[s] != p->sweep_end[0];
		if (one.step_ns > 0 && end_short(p->sweep_end[s], llc_size))
			step[nstep++] = one.step_ns;
	}
	if (!t->ncaches)
		return;
	fastest = last_level_end(p, t);
	median = median_end(p, &found);
	/* The fastest of each size ends no level where its plateaus cannot be matched to the levels and
	   nothing DRAM-like bounds the last; the sweeps each alone may still, and where most of them end it
	   short, the run takes the median of those that found an end (short itself then). On a fresh Zen 1
	   guest (hwloc: 8 MiB L3, 2026-12-02) the first --quick probe's fastest of each size had plateaus to
	   32 KiB, 512 KiB and 4 MiB and stopped at 16 MiB (95 ns) before a plateau of DRAM's, and the run kept
	   the reported 8 MiB (8 MiB chased at 48.9 ns, 3.7x L3's), where 7 of its 12 sweeps ended L3 at 4096
	   or 5792 KiB; the next five probes' runs took 4096 KiB (three through the probe history, their own
	   curves ending no level). Its message then stands in place of the classification's "keeping the
	   reported sizes". */
	if (!fastest && 2 * ends_short(p, llc_size) > p->nsweeps && median) {
		char *said = p->kept_reported ? p->disagreements[p->kept_reported - 1] : NULL;
		p->llc_median = median;
		/* the step to DRAM those sweeps saw, for the level check (level_check_past_ns): the probe's
		   own curve has none */
		if (nstep)
			p->step_ns = stats_median(step, (size_t)nstep);
		levels_list_sizes(p->sweep_end, p->nsweeps, list, sizeof list);
		if (!said) {
			if (p->ndisagreements == LEVELS_MAX_DISAGREEMENTS)
				return;
			said = p->disagreements[p->ndisagreements++];
		}
		snprintf(said, sizeof p->disagreements[0],
			 "the latency sweep shows %d plateaus for %d cache levels and DRAM, but the level "
			 "probe's %d sweeps, each alone, ended L%d at %s; the run takes the median of the %d "
			 "that found one, %llu KiB (hwloc: %llu KiB)",
			 p->nplateaus, t->ncaches, p->nsweeps, t->ncaches, list, found,
			 (unsigned long long)(median >> 10), (unsigned long long)(llc_size >> 10));
		p->kept_reported = 0;
		return;
	}
	/* only where the probe's end replaces the reported size: elsewhere the run's points do not depend on
	   it, and one grid step of wobble at a gradual step to DRAM is no moving share */
	if (!(p->llc_limit || level_short(p, t, t->ncaches - 1)))
		return;
	/* the end taken stays short of LEVEL_SHORT of the reported size, as every measured size does
	   (levels_apply; --levels-from refuses a larger one) */
	if (end_short(median, llc_size))
		p->llc_median = median;
	if (!differ && (!median || median == fastest))
		return;
	levels_list_sizes(p->sweep_end, p->nsweeps, list, sizeof list);
	if (found < p->nsweeps)
		snprintf(of, sizeof of, "the median of the %d that found one", found);
	if (p->llc_median)
		levels_disagree(
			p,
			"the level probe's %d sweeps, each alone, ended L%d at %s%s; the run takes %s, %llu "
			"KiB (the fastest of each size: %llu KiB)",
			p->nsweeps, t->ncaches, list,
			differ ? ": the part of it this CPU could keep moved" : "", of,
			(unsigned long long)(p->llc_median >> 10), (unsigned long long)(fastest >> 10));
	else if (median)
		levels_disagree(
			p,
			"the level probe's %d sweeps, each alone, ended L%d at %s: %s, %llu KiB, reaches "
			"%.0f %% of hwloc's %llu KiB, so the fastest of each size ends it at %llu KiB",
			p->nsweeps, t->ncaches, list, of, (unsigned long long)(median >> 10),
			100 * LEVEL_SHORT, (unsigned long long)(llc_size >> 10),
			(unsigned long long)(fastest >> 10));
	else
		levels_disagree(
			p,
			"the level probe's %d sweeps, each alone, ended L%d at %s: the part of it this CPU "
			"could keep moved; too few found an end for a median, so the fastest of each size "
			"ends it at %llu KiB",
			p->nsweeps, t->ncaches, list, (unsigned long long)(fastest >> 10));
}

void levels_apply(const struct levels_probe *p, struct topo *t)
{
	if (p->llc_limit)
		t->caches[t->ncaches - 1].measured = p->llc_limit;
	else
		for (int l = 0; l < t->ncaches; l++)
			if (level_short(p, t, l))
				t->caches[l].measured = p->plateau[l].last;
	if (p->llc_median)
		t->caches[t->ncaches - 1].measured = p->llc_median;
}

json_t *levels_json(const struct levels_probe *p)
{
	json_t *curve = json_array(), *plateaus = json_array(), *dis = json_array(), *ends = json_array();

	for (int i = 0; i < p->npoints; i++)
		json_array_append_new(curve,
				      json_pack("[I, f, o]", (json_int_t)p->size[i], p->ns[i],
						p->cycles[i] > 0 ? json_real(p->cycles[i]) : json_null()));
	for (int i = 0; i < p->nplateaus; i++)
		json_array_append_new(plateaus,
				      json_pack("{s:I, s:I, s:f}", "first", (json_int_t)p->plateau[i].first,
						"last", (json_int_t)p->plateau[i].last, "ns",
						p->plateau[i].ns));
	for (int i = 0; i < p->ndisagreements; i++)
		json_array_append_new(dis, json_string(p->disagreements[i]));
	for (int s = 0; s < p->nsweeps; s++)
		json_array_append_new(
			ends, p->sweep_end[s] ? json_integer((json_int_t)p->sweep_end[s]) : json_null());
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "latency_curve", curve, "plateaus", plateaus,
			 "sweep_ends", ends, "disagreements", dis, "thp_share",
			 p->thp_share >= 0 ? json_real(p->thp_share) : json_null(), "disturbance",
			 p->sampled ? disturb_json(&p->before, &p->after) : json_null());
}
