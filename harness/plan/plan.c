/* plan.c — turns options and topology into measurement points.
 *
 * Sizes: several points inside each cache level and none at a boundary. Level k holds working sets up to
 * its per-thread share S_k; the sweep puts points at fractions of S_k that stay clear of S_{k-1} below and
 * S_k above, and DRAM points at 4x and 8x the whole last-level cache (DRAM_LLC_FLOOR at least; for all but a
 * pointer chase, where the probe found it shorter, the reported one up to PLAN_DRAM_REPORTED_LLC_CAP)
 * split among the threads, and at 4x and 8x each thread's largest share of any level, so no cache can hold
 * them: of the part of a point a cache keeps (dram_sizing: a non-temporal kernel's read arrays). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_id.h"
#include "plan.h"
#include "sysinfo.h"

/* Points per level as fractions of the level's share; the lower bound keeps LEVEL_CLEAR_BELOW (2x) away
   from the level below, the upper bound 25 % below the level's own size. */
static const double level_fracs_full[] = {0.125, 0.25, 0.375, 0.5, 0.75};
/* A narrow level's point: at least LEVEL_EDGE_LO x the level below, at most LEVEL_EDGE_HI x its own. */
#define LEVEL_EDGE_LO (1 + LEVEL_BOUNDARY_ABOVE)
#define LEVEL_EDGE_HI (1 - LEVEL_BOUNDARY_BELOW)
static const double level_fracs_quick[] = {0.5};
static const double dram_mults_full[] = {4, 8};
static const double dram_mults_quick[] = {4};
/* The last-level cache the DRAM points reckon with, at least: where the level probe ends a shared L3 is
   where other tenants' lines leave a pointer chase no room, not where the cache's capacity ends, and a
   streaming kernel still hits in the rest. On the development VM (a Zen 5 CCD's 32 MiB L3, its end
   measured at 5.8-11.6 MiB) --quick's 23.7 MB DRAM points read 60 GB/s with one thread, where
   likwid-bench read 33.5 GB/s at 256 MB; at 128 MiB pmucheck read 35.9. 32 MiB, a Zen 3-5 CCD's L3, puts
   them at 128 MiB and more, STREAM's rule (4x the caches) for such an L3; 64 MiB cost the preset tests
   13 s more. */
#define DRAM_LLC_FLOOR (32ull << 20)

enum level plan_level(const struct topo *t, uint64_t working_set, int threads)
{
	for (int l = LEVEL_L1; l < LEVEL_DRAM && l < t->ncaches; l++)
		if (working_set <= topo_cache_capacity(t, l + 1, threads)) /* topo numbers caches from 1 */
			return (enum level)l;
	return LEVEL_DRAM;
}

int plan_on_boundary(const struct topo *t, uint64_t working_set, int threads)
{
	/* L1 to L3, as plan_level: a fourth level is DRAM to it and the analysis, with no boundary of its own.
	   In the analysis's order (analysis/point_level.c): a set inside a level is on no later level's
	   boundary, which matters where a shared L3's part per thread is smaller than a private L2 (16
	   threads of an Emerald Rapids guest whose L3 held 11.6 MiB: 741 KiB each, L2 2 MiB) */
	for (int l = LEVEL_L1; l < LEVEL_DRAM && l < t->ncaches; l++) {
		uint64_t share = topo_cache_capacity(t, l + 1, threads);
		if (level_on_boundary((double)working_set, (double)share))
			return 1;
		if (working_set <= share)
			return 0;
	}
	return 0;
}

static uint64_t phys_mem(void)
{
	return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

int plan_check_opts(struct plan_opts *o, const struct topo *t, struct err *e)
{
	int most = 1;

	if (o->ncpus == 0) {
		o->ncpus = topo_default_cpus(t, o->cpus, TOPO_MAX_CPUS);
		if (o->ncpus == 0)
			return err_set(e, E_RUNTIME, "no usable core");
	}
	if (o->nthreads == 0) {
		o->threads[o->nthreads++] = 1;
		if (o->ncpus > 1)
			o->threads[o->nthreads++] = o->ncpus;
	}
	for (int i = 0; i < o->nthreads; i++)
		if (o->threads[i] < 1 || o->threads[i] > o->ncpus)
			return err_set(e, E_USAGE,
				       "--threads: %d threads asked for, but only %d CPU(s) are in use "
				       "(--cpus)",
				       o->threads[i], o->ncpus);
	if (o->nplaces == 0)
		o->places[o->nplaces++] = (struct buf_place){BUF_LOCAL, -1};
	if (o->npf == 0)
		strcpy(o->pf_states[o->npf++], "on");
	/* by the most threads a point has, not the CPUs in use: a preset's one-thread step of 1 GiB
	   (larysch2016.seqread) on 16 cores with 24 GiB needs 1 GiB, not 16 */
	for (int i = 0; i < o->nthreads; i++)
		if (o->threads[i] > most)
			most = o->threads[i];
	for (int i = 0; i < o->nsizes; i++) {
		uint64_t limit = phys_mem() / 2;
		if (plan_size_ok("--sizes", o->sizes[i], e))
			return E_USAGE;
		if (o->sizes[i] > limit / (uint64_t)most)
			return err_set(e, E_USAGE,
				       "--sizes: %llu bytes per thread x %d threads exceeds half of this "
				       "machine's %llu MiB of memory",
				       (unsigned long long)o->sizes[i], most,
				       (unsigned long long)(phys_mem() >> 20));
	}
	return 0;
}

int plan_kernel_known(const char *option, const char *name, struct err *e)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_find(name, &f);

	if (!f || (strchr(name, '.') && !v))
		return err_set(e, E_USAGE, "%s: unknown kernel '%s' (see 'pmucheck list kernels')", option,
			       name);
	return 0;
}

int plan_size_ok(const char *option, uint64_t bytes, struct err *e)
{
	return bytes ? 0 : err_set(e, E_USAGE, "%s: a size of 0 bytes measures nothing", option);
}

/* What sizes a variant's DRAM points, from its descriptor's volumes of one call (kern.h). */
struct dram_sizing {
	/* The working set over the part of it a cache keeps, the lines a call reads (lines_read, stores'
	   write-allocate reads included): a non-temporal store's array never enters the cache, so an
	   nt-copy keeps half its working set there and an nt-triad two thirds. With the whole working set
	   4x the LLC, the read arrays alone were not: 2-thread DRAM points of 64 MiB a thread on the
	   Emerald Rapids guest (PLAN_DRAM_REPORTED_LLC_CAP) read nt-copy at 57 GB/s and nt-triad at 61, where a
	   read of the same size read 29.7 and non-temporal stores 37.6: the read arrays came from the L3.
	   1 where every line is read, or none is (store.nt: nothing is cached). */
	double cached;
	/* Dependent loads (chase_accesses), which reckon with the last level's end as the probe found it,
	   since the probe timed that very chase: on the Emerald Rapids guest it read 130-141 ns from 22 to
	   76 MiB, flat, no L3 hits left to fall off, where streams still hit up to 256 MiB. Sized as those,
	   its DRAM points read 148-160 ns (more TLB misses, by my reading) and cost far more, as a chase's
	   warm-up goes through the whole buffer (kern.h KF_RESUMABLE): `run --kernels chase.plain` of one
	   DRAM point took 2.7 s at 512 MiB, 1.0 s at 128 MiB, and --quick with a busy loop on each vCPU
	   took 71-73 s of its 60. The chase with multiplies too, whose access is no latency row's. */
	int chases;
};

static struct dram_sizing dram_sizing(const struct kern_family *f, const struct kern_variant *v)
{
	struct kern_params kp = {.bytes = (uint64_t)f->granule * KERN_LINE, .reps = 1, .arg = 0};
	struct kern_volumes vol = {0};
	double whole = (double)kp.bytes * f->arrays, read;

	f->volumes(v, &kp, &vol);
	read = (double)vol.lines_read * KERN_LINE;
	return (struct dram_sizing){read > 0 && read < whole ? whole / read : 1, vol.chase_accesses > 0};
}

/* A variant that reads every line and streams (note_levels_without_point's sweep of all variants). */
static const struct dram_sizing streams_every_line = {1, 0};

/* The multiples of the LLC the DRAM points are at, ascending, in *dm; how many. */
static int dram_mults(const struct plan_opts *o, const double **dm)
{
	*dm = o->quick ? dram_mults_quick : dram_mults_full;
	return o->quick ? 1 : 2;
}

uint64_t plan_clear_of(const struct topo *t, int below, int threads)
{
	uint64_t measured = topo_cache_capacity(t, below, threads);
	uint64_t reported = topo_reported_capacity(t, below, threads);

	return measured > reported ? measured : reported;
}

/* Working sets per thread for `threads` threads of a variant sized by ds: the cache sweep (or the user's
   sizes). The DRAM points are ds.cached times as large, so that the part of them a cache keeps passes the
   caches. */
static int sweep_sizes(const struct plan_opts *o, const struct topo *t, int threads, struct dram_sizing ds,
		       uint64_t *out)
{
	const double *fr = o->quick ? level_fracs_quick : level_fracs_full;
	int nfr = o->quick ? 1 : (int)(sizeof level_fracs_full / sizeof *level_fracs_full);
	const double *dm;
	int ndm = dram_mults(o, &dm), n = 0;
	/* the measured size where the probe found it smaller: a guest may be told of a 508 MiB L3 (seen on
	   a Zen 5 KVM guest) and would otherwise sweep DRAM at 2 and 4 GiB per thread */
	uint64_t llc = t->ncaches ? topo_cache_share(t, t->ncaches, 1) : DRAM_LLC_FLOOR, largest = 0;
	uint64_t reported = t->ncaches ? topo_reported_share(t, t->ncaches, 1) : DRAM_LLC_FLOOR;

	if (o->nsizes) {
		memcpy(out, o->sizes, sizeof *out * (size_t)o->nsizes);
		return o->nsizes;
	}
	for (int l = 1; l <= t->ncaches; l++) {
		uint64_t share = topo_cache_capacity(t, l, threads);
		uint64_t below = l > 1 ? plan_clear_of(t, l - 1, threads) : 0;
		int first = n;
		if (share > largest)
			largest = share;
		for (int i = 0; i < nfr; i++) {
			uint64_t s = (uint64_t)(share * fr[i]);
			if (s >= LEVEL_CLEAR_BELOW * below && s > 0)
				out[n++] = s;
		}
		/* A level less than 2.67x the one below (a guest's measured L3 of 2.4 MiB over a 1 MiB L2)
		   has no fraction 2x clear of it: one point between the margins the analysis keeps, +50 %
		   above the level below and 25 % under its own (common/level.h LEVEL_BOUNDARY_*), at
		   their geometric middle, rather than no point for the level at all. The margins are
		   open (level_on_boundary), so a level of exactly 2x has its point at both: the level
		   probe steps by a factor of sqrt(2), and on the Emerald Rapids guest (2 MiB L2) a
		   --quick run whose probe ended L3 at 4 MiB measured no L3 at all. */
		if (n == first && LEVEL_EDGE_HI * share >= LEVEL_EDGE_LO * below)
			out[n++] = (uint64_t)sqrt(LEVEL_EDGE_LO * below * LEVEL_EDGE_HI * share);
	}
	/* DRAM: the whole LLC of the socket several times over, split among the threads; and each thread's
	   part as many times over its largest share of the levels below the LLC, which many threads of a
	   small measured LLC would otherwise not pass (64 threads of the 32 MiB floor: 2 MiB each, a private
	   L2 of Sapphire Rapids), and over its own part of the LLC, which threads spread over several LLCs
	   keep each (64 threads of a Zen 3 socket, eight 32 MiB L3s: 4.5 MiB each with the L2, where one
	   L3 four times over split among them gave 2 MiB, an L3 point) */
	if (llc < DRAM_LLC_FLOOR)
		llc = DRAM_LLC_FLOOR;
	if (!ds.chases && llc < reported && llc < PLAN_DRAM_REPORTED_LLC_CAP)
		llc = reported < PLAN_DRAM_REPORTED_LLC_CAP ? reported : PLAN_DRAM_REPORTED_LLC_CAP;
	for (int i = 0; i < ndm; i++)
		out[n++] = (uint64_t)(ds.cached *
				      fmax(llc * dm[i] / (double)threads, (double)largest * dm[i]));
	return n;
}

static uint64_t round_bytes(uint64_t working_set, const struct kern_family *f)
{
	uint64_t per_array = working_set / f->arrays;
	return per_array / f->granule * f->granule;
}

struct gen {
	const struct plan_opts *o;
	const struct topo *t;
	struct plan *p;
	int cap;
	struct err *e;
	int args_taken; /* a variant of the plan took --args */
};

/* With --sizes, the working set per thread of the sweep's smallest DRAM point of a variant of f sized by ds
   at `threads` threads (plan_point.dram_from); 0 for a chase, whose DRAM the level probe found with its own
   loads, for fresh memory (touch), whose every line comes from a page fault, never from a cache, and
   without --sizes. */
static uint64_t dram_from(const struct gen *g, const struct kern_family *f, struct dram_sizing ds,
			  int threads)
{
	struct plan_opts sweep = *g->o;
	uint64_t all[PLAN_MAX_SIZES];
	const double *dm;
	int n;

	if (!g->o->nsizes || ds.chases || (f->flags & KF_FRESH_BUFFER))
		return 0;
	sweep.nsizes = 0;
	n = sweep_sizes(&sweep, g->t, threads, ds, all);
	return all[n - dram_mults(&sweep, &dm)];
}

static int add_point(struct gen *g, const struct kern_family *f, const struct kern_variant *v,
		     uint64_t working_set, uint64_t arg, int threads, uint64_t from)
{
	struct plan_point *pt;
	uint64_t bytes = round_bytes(working_set, f);
	enum level level = plan_level(g->t, bytes * f->arrays, threads);
	int boundary = plan_on_boundary(g->t, bytes * f->arrays, threads);
	int short_of_dram = level == LEVEL_DRAM && !boundary && bytes * f->arrays < from;

	if (g->o->level_mask && !(g->o->level_mask & LEVEL_BIT(level)) && !(f->flags & KF_FRESH_BUFFER))
		return 0;
	if (bytes == 0)
		return err_set(g->e, E_USAGE,
			       "--sizes: %llu bytes is smaller than one block of %s (%u bytes x %u "
			       "arrays)",
			       (unsigned long long)working_set, v->name, f->granule, f->arrays);
	/* Two sizes that round to one working set (16k and 16400 for load.avx) would measure one point twice,
	   which --sizes, listing each size once, does not mean. A variant's points of one thread count are
	   added together (add_variant), so those before this one are the ones to compare. */
	for (int i = g->p->npoints - 1; g->o->nsizes && i >= 0; i--) {
		const struct plan_point *q = &g->p->points[i];
		if (q->var != v || q->threads != threads)
			break;
		if (q->bytes == bytes && q->arg == arg)
			return err_set(g->e, E_USAGE,
				       "--sizes: two of them give %s the same working set, %llu bytes per "
				       "array (whole blocks of %u bytes)",
				       v->name, (unsigned long long)bytes, f->granule);
	}
	for (int pl = 0; pl < g->o->nplaces; pl++)
		for (int pf = 0; pf < g->o->npf; pf++) {
			if (g->p->npoints == g->cap) {
				int cap = g->cap ? 2 * g->cap : 256;
				struct plan_point *grown = realloc(g->p->points, sizeof *grown * (size_t)cap);

				/* the old array stays with the plan; plan_build frees it on the error */
				if (!grown)
					return err_set(g->e, E_RUNTIME, "out of memory for %d plan points",
						       cap);
				g->p->points = grown;
				g->cap = cap;
			}
			pt = &g->p->points[g->p->npoints++];
			memset(pt, 0, sizeof *pt);
			pt->fam = f;
			pt->var = v;
			pt->bytes = bytes;
			pt->arg = arg;
			pt->threads = threads;
			pt->place = pl;
			pt->pf = pf;
			pt->level = level;
			pt->boundary = boundary;
			pt->dram_from = short_of_dram ? from : 0;
		}
	return 0;
}

static int copy_values(const struct kern_values *from, uint64_t *to)
{
	memcpy(to, from->v, sizeof *to * from->n);
	return (int)from->n;
}

/* The argument values a variant is measured with: none (0) when it takes no argument, else the
   user's or its policy's. */
static int variant_args(const struct plan_opts *o, const struct kern_policy *pol, uint64_t *args)
{
	if (!pol->args.n) {
		args[0] = 0;
		return 1;
	}
	if (o->nargs) {
		memcpy(args, o->args, sizeof *args * (size_t)o->nargs);
		return o->nargs;
	}
	return copy_values(o->quick ? &pol->quick_args : &pol->args, args);
}

/* The sizes a variant is measured at by its policy (enum kern_sweep). */
static int variant_sizes(const struct gen *g, struct dram_sizing ds, const struct kern_policy *pol,
			 int threads, uint64_t *out)
{
	uint64_t all[PLAN_MAX_SIZES];
	int n = sweep_sizes(g->o, g->t, threads, ds, all), m = 0;
	enum level last = LEVEL_NONE;

	/* The policy's own sizes unless the user names sizes: a level (a preset's) filters no fresh-memory point
	   (add_point), and the sweep's were no sizes for one: its smallest, under one 32 KiB block, stopped a
	   preset of touch with "--sizes: 4096 bytes is smaller than one block", and its DRAM points were 64 times
	   a stream's (dram_sizing: touch reads one line a page), 16 GiB for a 32 MiB L3. */
	if (pol->sweep == KS_FIXED && !g->o->nsizes)
		return copy_values(&pol->sizes, out);
	/* Explicit sizes or levels (presets) take the whole sweep, filtered by level in add_point. */
	if (g->o->nsizes || g->o->level_mask || pol->sweep == KS_EVERY_LEVEL) {
		memcpy(out, all, sizeof *out * (size_t)n);
		return n;
	}
	if (pol->sweep == KS_DRAM) {
		out[0] = all[n - 1];
		return 1;
	}
	if (pol->sweep == KS_L1) {
		out[0] = all[0];
		return 1;
	}
	/* KS_PER_LEVEL: the middle point of each level. */
	for (int i = 0; i < n; i++) {
		enum level lv = plan_level(g->t, all[i], threads);
		int j = i;
		if (lv == last)
			continue;
		last = lv;
		while (j + 1 < n && plan_level(g->t, all[j + 1], threads) == lv)
			j++;
		out[m++] = all[(i + j) / 2];
	}
	return m;
}

static int add_variant(struct gen *g, const struct kern_family *f, const struct kern_variant *v)
{
	const struct kern_policy *pol = kern_policy(f, v);
	struct dram_sizing ds = dram_sizing(f, v);
	uint64_t args[PLAN_MAX_ARGS], sizes[PLAN_MAX_SIZES];
	int nargs = variant_args(g->o, pol, args);

	g->args_taken |= pol->args.n > 0;

	for (int ti = 0; ti < g->o->nthreads; ti++) {
		int threads = g->o->threads[ti];
		int nsizes;
		uint64_t from;

		if (threads > 1 && pol->single_thread && !g->o->explicit_kernels)
			continue;
		nsizes = variant_sizes(g, ds, pol, threads, sizes);
		from = dram_from(g, f, ds, threads);
		for (int s = 0; s < nsizes; s++)
			for (int a = 0; a < nargs; a++) {
				int rc;
				if (args[a] > f->arg_max)
					return err_set(g->e, E_USAGE,
						       "--args: %s %llu is out of range for %s "
						       "(0..%llu)",
						       f->arg_name, (unsigned long long)args[a], v->name,
						       (unsigned long long)f->arg_max);
				rc = add_point(g, f, v, sizes[s], args[a], threads, from);
				if (rc)
					return rc;
			}
	}
	return 0;
}

static void note_skipped(struct plan *p, const char *name)
{
	size_t len = strlen(p->skipped);
	snprintf(p->skipped + len, sizeof p->skipped - len, "%s%s", len ? ", " : "", name);
}

/* One name from --kernels: a family (all its variants the CPU has) or one variant (one the CPU lacks: an
   error where the user named it, else skipped and noted, as a preset step's is). */
static int add_named(struct gen *g, const char *name)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_find(name, &f);

	if (plan_kernel_known("--kernels", name, g->e))
		return E_USAGE;
	if (strchr(name, '.')) {
		if (cpuid_isa_ok(v->isa))
			return add_variant(g, f, v);
		if (g->o->explicit_kernels)
			return err_set(g->e, E_USAGE, "--kernels: this CPU lacks the instructions of '%s'",
				       name);
		note_skipped(g->p, v->name);
		return 0;
	}
	for (unsigned i = 0; i < f->nvariants; i++) {
		int rc;
		if (!cpuid_isa_ok(f->variants[i].isa)) {
			note_skipped(g->p, f->variants[i].name);
			continue;
		}
		rc = add_variant(g, f, &f->variants[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* Points that share a prefetch state, thread count and placement run back to back, so buffers are
   placed once and the MSRs are written once per state; otherwise the order of the options is kept. */
static int cmp_point(const void *a, const void *b)
{
	const struct plan_point *x = a, *y = b;

	if (x->pf != y->pf)
		return x->pf - y->pf;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	if (x->place != y->place)
		return x->place - y->place;
	return x->order - y->order;
}

/* Whether the plan has a point of `threads` threads whose sizes come from the cache sweep (KS_EVERY_LEVEL,
   KS_PER_LEVEL, or any under a preset's levels), so that a level the sweep leaves empty is one missing. */
static int sweeps_levels(const struct gen *g, int threads)
{
	for (int i = 0; i < g->p->npoints; i++) {
		const struct plan_point *pt = &g->p->points[i];
		enum kern_sweep s = kern_policy(pt->fam, pt->var)->sweep;
		if (pt->threads == threads && (g->o->level_mask || s == KS_EVERY_LEVEL || s == KS_PER_LEVEL))
			return 1;
	}
	return 0;
}

/* Cache levels the sweep has no point in at a thread count, for the user: where a shared level's capacity per
   thread (topo_cache_capacity) is not clear of the private level below it (plan_clear_of), no size is in
   it, and the run would otherwise measure that level with one thread only without saying so. So with all 28
   cores of a Skylake-SP whose L3 is taken as inclusive (1.375 MiB each over a 1 MiB L2: hwloc said nothing
   of it) and with all 56 of a Sapphire Rapids even though its L3 is not (1.875 MiB each beside a 2 MiB L2:
   3.875 MiB, whose 3/4 is short of 1.5x the L2). */
static void note_levels_without_point(const struct gen *g)
{
	for (int ti = 0; ti < g->o->nthreads && !g->o->nsizes; ti++) {
		int threads = g->o->threads[ti], n;
		uint64_t all[PLAN_MAX_SIZES];
		unsigned seen = 0;

		if (!sweeps_levels(g, threads))
			continue;
		n = sweep_sizes(g->o, g->t, threads, streams_every_line, all);
		for (int i = 0; i < n; i++)
			if (!plan_on_boundary(g->t, all[i], threads))
				seen |= LEVEL_BIT(plan_level(g->t, all[i], threads));
		/* from L2: L1 has no level below it to crowd it out */
		for (int l = LEVEL_L2; l < LEVEL_DRAM && l < g->t->ncaches; l++) {
			size_t len = strlen(g->p->no_level);
			uint64_t part = topo_cache_capacity(g->t, l + 1, threads);
			const char *below = level_name((enum level)(l - 1));
			char with[64] = "";
			if ((seen & LEVEL_BIT(l)) || (g->o->level_mask && !(g->o->level_mask & LEVEL_BIT(l))))
				continue;
			if (part != topo_cache_share(g->t, l + 1, threads))
				snprintf(with, sizeof with, " with the %s's, which it does not include",
					 below);
			snprintf(g->p->no_level + len, sizeof g->p->no_level - len,
				 "%s%s with %d thread%s (each thread's part of it, %llu KiB%s, "
				 "is not clear of the %s's %llu KiB below)",
				 len ? "; " : "", level_name((enum level)l), threads, threads == 1 ? "" : "s",
				 (unsigned long long)(part >> 10), with, below,
				 (unsigned long long)(plan_clear_of(g->t, l, threads) >> 10));
		}
	}
}

/* --args given to a run of kernels none of which takes an argument: refused, naming those that do, rather
   than measured without it. */
static int args_unused(struct err *e)
{
	char takers[256] = "";
	size_t n = 0;

	for (unsigned i = 0; i < kern_family_count() && n < sizeof takers; i++)
		if (kern_family_at(i)->arg_name)
			n += (size_t)snprintf(takers + n, sizeof takers - n, "%s%s", n ? ", " : "",
					      kern_family_at(i)->name);
	return err_set(e, E_USAGE, "--args: no kernel of the run takes an argument (%s do)", takers);
}

int plan_build(const struct plan_opts *o, const struct topo *t, struct plan *p, struct err *e)
{
	struct gen g = {o, t, p, 0, e, 0};
	int rc = 0;

	memset(p, 0, sizeof *p);
	if (o->kernels) {
		char *list = strdup(o->kernels), *save = NULL;
		if (!list)
			return err_set(e, E_RUNTIME, "out of memory");
		for (char *name = strtok_r(list, ",", &save); name && !rc; name = strtok_r(NULL, ",", &save))
			rc = add_named(&g, name);
		free(list);
	} else {
		for (unsigned i = 0; i < kern_family_count() && !rc; i++)
			rc = add_named(&g, kern_family_at(i)->name);
	}
	if (!rc && p->npoints == 0)
		rc = err_set(e, E_USAGE, "--kernels: nothing to measure");
	if (!rc && o->nargs && !g.args_taken)
		rc = args_unused(e);
	if (!rc)
		note_levels_without_point(&g);
	for (int i = 0; i < p->npoints; i++)
		p->points[i].order = i;
	if (!rc)
		qsort(p->points, (size_t)p->npoints, sizeof *p->points, cmp_point);
	if (rc)
		plan_free(p);
	return rc;
}

void plan_free(struct plan *p)
{
	free(p->points);
	p->points = NULL;
	p->npoints = 0;
}

uint64_t plan_memory(const struct plan *p, int *threads)
{
	uint64_t most = 0;

	*threads = 0;
	/* by thread count: its placements and prefetch states, each a group of the run, have the same sizes */
	for (int i = 0; i < p->npoints; i++) {
		uint64_t each[2] = {0, 0}, all; /* the largest held buffer, the largest fresh ones */
		int n = p->points[i].threads;
		if (i > 0 && p->points[i - 1].threads == n) /* plan_build sorts a state's points by threads */
			continue;
		for (int k = 0; k < p->npoints; k++) {
			const struct plan_point *pt = &p->points[k];
			int fresh = (pt->fam->flags & KF_FRESH_BUFFER) != 0;
			/* a fresh-memory point's buffers of N and 2N bytes (run.c alloc_fresh) */
			uint64_t b = fresh ? 3 * pt->bytes : pt->bytes * pt->fam->arrays;
			if (pt->threads == n && b > each[fresh])
				each[fresh] = b;
		}
		all = (each[0] + each[1]) * (uint64_t)n;
		if (all > most) {
			most = all;
			*threads = n;
		}
	}
	return most;
}

int plan_check_memory(const struct plan *p, uint64_t beside, const char *proc, struct err *e)
{
	long long avail = sysinfo_meminfo_kib(proc, "MemAvailable");
	int threads;
	uint64_t points = plan_memory(p, &threads), need = points + beside;

	if (avail < 0 || need <= (uint64_t)avail << 10)
		return 0;
	return err_set(
		e, E_USAGE,
		"the run's buffers need %llu MiB at once (%d thread%s x %llu MiB, and %llu MiB for its "
		"probes), more than the %llu MiB %s/meminfo has available (MemAvailable): fewer "
		"--threads, --quick (DRAM at 4x the caches, not 8x) or smaller --sizes need less",
		(unsigned long long)(need >> 20), threads, threads == 1 ? "" : "s",
		(unsigned long long)(threads ? points / (uint64_t)threads >> 20 : 0),
		(unsigned long long)(beside >> 20), (unsigned long long)(avail >> 10), proc);
}
