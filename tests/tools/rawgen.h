/* rawgen.h — writes synthetic results directories (raw.csv + machine.json) whose truth is known by
 * construction, for the analysis tests. Header-only so that cmocka tests (one source file each) and
 * the rawgen tool share it.
 *
 * The volumes follow the kernel contract of kern.h in a simplified model (what a load, store, triad,
 * chase or touch pass moves); the tests never compare them with the real descriptors, they only
 * need volumes that differ between quantities the way real ones do (loads vs lines by width, write
 * allocate, non-temporal stores, chase accesses, pages). Each synthetic event is a function from a
 * point to a count, so the verdict the analysis must reach is known. */
#ifndef PMUCHECK_RAWGEN_H
#define PMUCHECK_RAWGEN_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw_read.h"

/* Per-thread cache limits of the synthetic machine: L1 48 KiB, L2 1 MiB, L3 8 MiB. */
#define GEN_L1 (48 * 1024.0)
#define GEN_L2 (1024 * 1024.0)
#define GEN_L3 (8 * 1024 * 1024.0)
#define GEN_GHZ 3.0

/* What a synthetic kernel does, in the generator's simplified model (named once, in gen_kernels).
   GEN_CHASE_PLAIN: a chase whose multiplies, if any, do not lengthen it (plain, indep). */
enum gen_model {
	GEN_LOAD,
	GEN_STORE,
	GEN_STORE_NT,
	GEN_TRIAD,
	GEN_CHASE_PLAIN,
	GEN_CHASE_DEP,
	GEN_TOUCH,
	GEN_SPLITREAD
};

struct gen_point {
	unsigned id;
	enum gen_model model;
	const char *kernel, *variant, *access, *plots, *traits, *prefetch, *placement;
	int width, arrays, threads, noisy;
	uint64_t bytes, reps, arg;
	int level;             /* 0..3 = L1, L2, L3, DRAM by footprint (-1 near a boundary, the truth) */
	double seconds;        /* differenced time */
	const double *rep_ghz; /* core_ghz of each repetition (0: no clock); NULL: GEN_GHZ for all */
	double v[RQ_COUNT];
};

/* Returns the count of one repetition; may set *status ("ok" by default) and *reason. */
typedef double (*gen_count_fn)(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **status,
			       const char **reason);

struct gen_event {
	const char *name;
	gen_count_fn fn;
};

static inline double gen_uniform(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (double)(*s >> 11) / 9007199254740992.0;
}

static inline double gen_normal(uint64_t *s)
{
	double u = gen_uniform(s) + 1e-12, v = gen_uniform(s);

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static inline int gen_level(double foot)
{
	const double lim[3] = {GEN_L1, GEN_L2, GEN_L3};

	for (int i = 0; i < 3; i++) {
		if (foot > lim[i] * 0.75 && foot < lim[i] * 1.5)
			return -1;
		if (foot <= lim[i])
			return i;
	}
	return 3;
}

static inline int gen_is_chase(enum gen_model m)
{
	return m == GEN_CHASE_PLAIN || m == GEN_CHASE_DEP;
}

/* Volumes of the differenced call (R passes, times threads) and a plausible time. */
static inline void gen_volumes(struct gen_point *p)
{
	static const double gbps[4] = {100, 50, 25, 10}, lat_ns[4] = {1.3, 4, 12, 90};
	double n = (double)p->bytes, r = (double)p->reps * p->threads, w = p->width;
	double lines = n / 64, *v = p->v;
	int lv = p->level < 0 ? 1 : p->level;

	memset(v, 0, sizeof p->v);
	switch (p->model) {
	case GEN_LOAD:
		v[RQ_loads] = n / w;
		v[RQ_bytes_loaded] = n;
		v[RQ_lines_read] = v[RQ_lines_demand_read] = lines;
		v[RQ_instructions] = n / w + 2 * lines;
		break;
	case GEN_STORE:
	case GEN_STORE_NT:
		v[RQ_stores] = n / w;
		v[RQ_bytes_stored] = n;
		v[RQ_lines_read] = p->model == GEN_STORE_NT ? 0 : lines;
		v[RQ_lines_written] = lines;
		v[RQ_instructions] = n / w + 2 * lines;
		break;
	case GEN_TRIAD:
		v[RQ_loads] = 2 * n / w;
		v[RQ_stores] = n / w;
		v[RQ_bytes_loaded] = 2 * n;
		v[RQ_bytes_stored] = n;
		v[RQ_lines_read] = 3 * lines;
		v[RQ_lines_demand_read] = 2 * lines; /* b and c, not a's write-allocate */
		v[RQ_lines_written] = lines;
		v[RQ_instructions] = 4 * n / w + 2 * lines;
		break;
	case GEN_CHASE_PLAIN:
	case GEN_CHASE_DEP:
		v[RQ_loads] = v[RQ_chase_accesses] = v[RQ_lines_read] = v[RQ_lines_demand_read] = lines;
		v[RQ_bytes_loaded] = 8 * lines;
		v[RQ_multiplies] = (double)p->arg * lines;
		v[RQ_instructions] = (2 + (double)p->arg) * lines;
		break;
	case GEN_SPLITREAD:
		/* one 8-byte load per line at offset arg (< 57: unsplit), kernels/splitread_desc.c */
		v[RQ_loads] = v[RQ_lines_read] = v[RQ_lines_demand_read] = lines;
		v[RQ_bytes_loaded] = 8 * lines;
		v[RQ_instructions] = 10 * n / 512 + 3;
		break;
	case GEN_TOUCH:
		v[RQ_pages] = v[RQ_stores] = n / 4096;
		v[RQ_bytes_stored] = 8 * n / 4096;
		v[RQ_instructions] = 4 * n / 4096;
		break;
	}
	for (int q = 0; q < RQ_COUNT; q++)
		v[q] = round(v[q] * r);
	if (p->model == GEN_SPLITREAD) { /* the ret's read of the return address, once a call */
		v[RQ_loads] += 1;
		v[RQ_bytes_loaded] += 8;
	}
	if (gen_is_chase(p->model)) {
		double ns = lat_ns[lv] + (p->model == GEN_CHASE_DEP ? 3.0 * p->arg / GEN_GHZ : 0);
		p->seconds = ns * 1e-9 * lines * p->reps;
	} else if (p->model == GEN_TOUCH) {
		p->seconds = 2e-7 * n / 4096;
	} else if (p->model == GEN_SPLITREAD) { /* whole lines move, whatever the load's width */
		p->seconds = n * r / (gbps[lv] * 1e9);
	} else {
		double bw = gbps[lv] * (lv == 3 ? sqrt(p->threads) : p->threads);
		p->seconds = (v[RQ_bytes_loaded] + v[RQ_bytes_stored]) / (bw * 1e9);
	}
}

/* machine.json; hypotheses, when not NULL, is the JSON object of counters.experiments[0].hypotheses
   (docs/results-format.md), keyed by event name. */
static inline void gen_machine_hyp(FILE *f, int with_measured, const char *hypotheses)
{
	fprintf(f,
		"{ \"format\": 1, \"pmucheck\": \"test\", \"host\": \"synthetic\",\n"
		"  \"started_utc\": \"2026-01-01T00:00:00Z\", \"finished_utc\": \"2026-01-01T00:01:00Z\",\n"
		"  \"command\": \"rawgen\",\n"
		"  \"cpu\": { \"vendor\": \"none\", \"family\": 0, \"model\": 0, \"stepping\": 0,\n"
		"           \"model_name\": \"Synthetic CPU\", \"microcode\": \"0x0\", \"isa\": [\"sse2\"] "
		"},\n"
		"  \"os\": { \"kernel\": \"test\", \"governor\": \"performance\", \"thp\": \"madvise\", "
		"\"smt\": false },\n"
		"  \"libraries\": { \"papi\": \"7.0\", \"libpfm4\": \"4.13\", \"hwloc\": \"2.9\" },\n"
		"  \"topology\": { \"sockets\": 1, \"cores\": 2, \"pus\": 2, \"numa_nodes\": 1, \"caches\": "
		"[] },\n"
		"  \"clock\": { \"tsc_hz\": 3000000000, \"core_ghz\": %.1f },\n"
		"  \"levels\": { \"reported\": { \"L1\": %.0f, \"L2\": %.0f, \"L3\": %.0f }",
		GEN_GHZ, GEN_L1, GEN_L2, with_measured ? 4 * GEN_L3 : GEN_L3);
	/* the model's caches are private: each of 2 threads has the whole limit (gen_level) */
	fprintf(f,
		",\n              \"reported_all_threads\": { \"L1\": %.0f, \"L2\": %.0f, \"L3\": %.0f }, "
		"\"threads_max\": 2",
		GEN_L1, GEN_L2, with_measured ? 4 * GEN_L3 : GEN_L3);
	if (with_measured)
		fprintf(f, ",\n              \"measured\": { \"L3\": %.0f }", GEN_L3);
	fprintf(f,
		", \"disagreements\": [] },\n"
		"  \"prefetch\": { \"control\": true, \"reason\": \"\", \"msr\": \"0x1a4\" },\n"
		"  \"counters\": { \"hardware\": true, \"reason\": \"\"");
	if (hypotheses)
		fprintf(f, ", \"experiments\": [ { \"experiment\": \"\", \"hypotheses\": %s } ]", hypotheses);
	fprintf(f, " } }\n");
}

static inline void gen_machine(FILE *f, int with_measured)
{
	gen_machine_hyp(f, with_measured, NULL);
}

static inline void gen_header(FILE *f)
{
	fputs("point,rep,group,kernel,variant,access,plots,traits,width,arg_name,arg,bytes,arrays,reps,diff,"
	      "threads,"
	      "cpus,placement,mem_nodes,prefetch,msr,level,thp_share,seconds,tsc,core_ghz,flag",
	      f);
	for (int q = 0; q < RQ_COUNT; q++)
		fprintf(f, ",v_%s", raw_quantity_names[q]);
	fputs(",event,backend,encoding,scope,count,time_enabled,time_running,status,reason\n", f);
}

/* An event's encoding and scope where they are not "type=4" and "thread": a box wildcard's sum has
   "sum of 4 boxes,domain=all" and "socket". */
struct gen_encoding {
	const char *event, *encoding, *scope;
};

/* What a sweep runs besides the defaults: its kernels (NULL: gen_kernels), the config's hypotheses
   (gen_machine_hyp; NULL: none) and the events' encodings (NULL: the defaults). */
struct gen_sweep {
	const struct gen_kernel *kernels;
	unsigned nkernels;
	const char *hypotheses;
	const struct gen_encoding *encodings;
	unsigned nencodings;
};

static inline const struct gen_encoding *gen_encoding_of(const struct gen_sweep *sw, const char *event)
{
	static const struct gen_encoding plain = {"", "type=4", "thread"};

	for (unsigned i = 0; sw && i < sw->nencodings; i++)
		if (!strcmp(sw->encodings[i].event, event))
			return &sw->encodings[i];
	return &plain;
}

/* One row per event of one repetition (group 0: the synthetic events never need groups); sw (NULL: none)
   may give the events' encodings. */
static inline void gen_rows(FILE *f, const struct gen_point *p, unsigned rep, const struct gen_event *ev,
			    unsigned nev, uint64_t *rng, const struct gen_sweep *sw)
{
	static const char *const lvname[] = {"L1", "L2", "L3", "DRAM"};
	char prefix[512];
	int n;

	n = snprintf(
		prefix, sizeof prefix,
		"%u,%u,0,%s,%s,%s,%s,%s,%d,%s,%llu,%llu,%d,%llu,%s,%d,%s,%s,0,%s,,%s,0,%.9g,%.0f,%.1f,%s",
		p->id, rep, p->kernel, p->variant, p->access, p->plots, p->traits, p->width,
		gen_is_chase(p->model) ? "k" : "", (unsigned long long)p->arg, (unsigned long long)p->bytes,
		p->arrays, (unsigned long long)p->reps, p->model == GEN_TOUCH ? "size" : "reps", p->threads,
		p->threads > 1 ? "0;1" : "0", p->placement, p->prefetch, lvname[p->level < 0 ? 1 : p->level],
		p->seconds, p->seconds * 3e9, p->rep_ghz ? p->rep_ghz[rep] : GEN_GHZ,
		p->noisy ? "noisy" : "");
	for (int q = 0; q < RQ_COUNT && n < (int)sizeof prefix; q++)
		n += snprintf(prefix + n, sizeof prefix - n, ",%.0f", p->v[q]);
	for (unsigned e = 0; e < nev; e++) {
		const char *status = "ok", *reason = "";
		double c = ev[e].fn(p, rep, rng, &status, &reason);
		long long t = (long long)(p->seconds * 2e9) + 1000;
		/* "unmarked" is a multiplexed reading the writer failed to mark: status ok, but
		   time_running < time_enabled */
		int unmarked = !strcmp(status, "unmarked"), enabled0 = !strcmp(status, "enabled0"),
		    ok = !strcmp(status, "ok") || unmarked || enabled0;
		/* A multiplexed reading carries a (wrong) count here on purpose: the analysis must
		   drop the row by its status, not by a missing count. */
		const struct gen_encoding *enc = gen_encoding_of(sw, ev[e].name);
		const char *q = strchr(enc->encoding, ',') ? "\"" : ""; /* CSV quotes only where needed */
		fprintf(f, "%s,%s,perf,%s%s%s,%s,", prefix, ev[e].name, q, enc->encoding, q, enc->scope);
		if (ok || !strcmp(status, "multiplexed"))
			fprintf(f, "%.0f", c);
		long long enabled = enabled0 ? 0 : t, running = ok && !unmarked ? t : t / 2;
		/* a row not measured has no reading: its times are 0, as the writer's (run_record.c) */
		if (!strcmp(status, "not_measured"))
			enabled = running = 0;
		fprintf(f, ",%lld,%lld,%s,%s\n", enabled, running, ok ? "ok" : status, reason);
	}
}

struct gen_kernel {
	enum gen_model model;
	const char *kernel, *variant, *access, *plots, *traits;
	int width, arrays;
	uint64_t arg;
};

/* As the descriptors describe them (raw.csv columns access, plots, traits). */
#define GEN_BW "bw-size;ev-size"
#define GEN_CHASE "ev-size;latency"

/* A one-thread load.avx512 read point (prefetchers on, local memory, 8 passes per call) of `bytes` at
   `level` (0..3), its volumes and time set: what a test that needs some bandwidth point starts from. */
static inline struct gen_point gen_load_point(unsigned id, uint64_t bytes, int level)
{
	struct gen_point p = {.id = id,
			      .model = GEN_LOAD,
			      .kernel = "load",
			      .variant = "load.avx512",
			      .access = "read",
			      .plots = GEN_BW,
			      .traits = "",
			      .prefetch = "on",
			      .placement = "local",
			      .width = 64,
			      .arrays = 1,
			      .threads = 1,
			      .bytes = bytes,
			      .reps = 8,
			      .level = level};

	gen_volumes(&p);
	return p;
}

static const struct gen_kernel gen_kernels[] = {
	{GEN_LOAD, "load", "load.sse", "read", GEN_BW, "", 16, 1, 0},
	{GEN_LOAD, "load", "load.avx512", "read", GEN_BW, "", 64, 1, 0},
	{GEN_STORE, "store", "store.avx512", "write", GEN_BW, "", 64, 1, 0},
	{GEN_STORE_NT, "store", "store.avx512.nt", "nt-write", GEN_BW, "nt", 64, 1, 0},
	{GEN_TRIAD, "triad", "triad.avx", "triad", GEN_BW, "", 32, 3, 0},
	{GEN_CHASE_PLAIN, "chase", "chase.plain", "latency", GEN_CHASE ";level-probe", "", 8, 1, 0},
	{GEN_CHASE_PLAIN, "chase", "chase.indep", "", GEN_CHASE, "mul-indep", 8, 1, 16},
	{GEN_CHASE_DEP, "chase", "chase.dep", "", GEN_CHASE, "mul-dep", 8, 1, 16},
	{GEN_TOUCH, "touch", "touch.page", "fault", "ev-size", "", 8, 1, 0},
};
#define GEN_NKERNELS (sizeof gen_kernels / sizeof gen_kernels[0])

/* The model of a variant of gen_kernels (GEN_LOAD for one it does not have): for tests that look at
   the analysis' points, which know their variant by name only. */
static inline enum gen_model gen_model_of(const char *variant)
{
	for (size_t k = 0; k < GEN_NKERNELS; k++)
		if (!strcmp(gen_kernels[k].variant, variant))
			return gen_kernels[k].model;
	return GEN_LOAD;
}

/* Footprints per thread: `per_level` sizes inside each level (geometric), plus one right at the
   L1 limit that the analysis must exclude. */
static inline double gen_footprint(unsigned level, unsigned i, unsigned per_level)
{
	static const double lo[4] = {4096, 96 * 1024.0, 2 * 1024 * 1024.0, 16 * 1024 * 1024.0};
	static const double hi[4] = {32 * 1024.0, 640 * 1024.0, 5 * 1024 * 1024.0, 64 * 1024 * 1024.0};
	double t = per_level > 1 ? (double)i / (per_level - 1) : 0;

	return lo[level] * pow(hi[level] / lo[level], t);
}

/* The noise draw: PMUCHECK_GEN_SEED (any number) picks another one than the default, so that a test
   can be run on several draws (for s in $(seq 12); do PMUCHECK_GEN_SEED=$s ...; done). */
static inline uint64_t gen_seed(void)
{
	const char *s = getenv("PMUCHECK_GEN_SEED");
	uint64_t x = 88172645463325252ull;

	if (s && *s)
		x ^= (strtoull(s, NULL, 10) + 1) * 0x9e3779b97f4a7c15ull;
	return x ? x : 1;
}

/* Writes DIR/raw.csv and DIR/machine.json: every kernel x footprint x prefetch (on, off) x threads
   (1, 2 for load/store/triad), `reps` repetitions, every event. Returns rows written or -1. */
static inline long gen_dir_sweep(const char *dir, const struct gen_event *ev, unsigned nev,
				 unsigned per_level, unsigned reps, int with_measured,
				 const struct gen_sweep *sw)
{
	static const char *const pf[] = {"on", "off"};
	const struct gen_kernel *kernels = sw && sw->kernels ? sw->kernels : gen_kernels;
	unsigned nkernels = sw && sw->kernels ? sw->nkernels : GEN_NKERNELS;
	char path[4096];
	FILE *f;
	uint64_t rng = gen_seed();
	unsigned id = 0;
	long rows = 0;

	snprintf(path, sizeof path, "%s/machine.json", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	gen_machine_hyp(f, with_measured, sw ? sw->hypotheses : NULL);
	fclose(f);
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	gen_header(f);
	for (unsigned k = 0; k < nkernels; k++)
		for (unsigned lv = 0; lv < 4; lv++)
			for (unsigned i = 0; i <= per_level; i++)
				for (unsigned s = 0; s < 2; s++)
					for (int th = 1; th <= 2; th++) {
						const struct gen_kernel *g = &kernels[k];
						struct gen_point p = {0};
						double foot = i == per_level
							? (lv == 0 ? GEN_L1 * 0.9 : -1)
							: gen_footprint(lv, i, per_level);
						if (foot < 0 ||
						    (th == 2 &&
						     (gen_is_chase(g->model) || g->model == GEN_TOUCH ||
						      g->model == GEN_SPLITREAD)))
							continue;
						p.id = id++;
						p.model = g->model;
						p.kernel = g->kernel;
						p.variant = g->variant;
						p.access = g->access;
						p.plots = g->plots;
						p.traits = g->traits;
						p.width = g->width;
						p.arrays = g->arrays;
						p.arg = g->arg;
						p.threads = th;
						p.prefetch = pf[s];
						p.placement = "local";
						p.bytes = (uint64_t)(foot / g->arrays) / 4096 * 4096 + 4096;
						p.reps = g->model == GEN_TOUCH ? 1 : 8;
						p.level = gen_level((double)p.bytes * p.arrays);
						/* the largest DRAM point of the load kernels is flagged noisy */
						p.noisy = lv == 3 && i == per_level - 1 &&
							g->model == GEN_LOAD;
						gen_volumes(&p);
						for (unsigned r = 0; r < reps; r++) {
							gen_rows(f, &p, r, ev, nev, &rng, sw);
							rows += nev;
						}
					}
	if (fclose(f))
		return -1;
	return rows;
}

static inline long gen_dir(const char *dir, const struct gen_event *ev, unsigned nev, unsigned per_level,
			   unsigned reps, int with_measured)
{
	return gen_dir_sweep(dir, ev, nev, per_level, reps, with_measured, NULL);
}

#endif
