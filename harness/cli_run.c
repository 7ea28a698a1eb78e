/* cli_run.c — `pmucheck run`: parse and check everything, then create the results directory, then
 * measure. Bad input is found before anything is written. */
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"
#include "experiment.h"
#include "levels.h"
#include "resume.h"
#include "run_record.h"
#include "machine.h"
#include "results.h"
#include "run.h"
#include "run_events.h"
#include "run_prefetch.h"
#include "summary.h"
#include "sysinfo.h"
#include "tsc.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck run [OPTIONS]\n\n"
		"Measures the kernels over a size sweep of every cache level and DRAM and writes\n"
		"results/<host>-<UTC time>/{machine.json,raw.csv} (format: docs/results-format.md).\n\n"
		"  -q, --quick             a short run (under a minute): one size per level, fewer arguments\n"
		"  -k, --kernels LIST      families or family.variant, e.g. load,store.avx.nt (default: all;\n"
		"                          'pmucheck list kernels' names them)\n"
		"  -s, --sizes LIST        working set per thread, e.g. 32k,1M,256M (default: sweep from the caches)\n"
		"  -c, --cpus LIST         CPUs of the widest run, e.g. 0-3 (default: one per core of socket 0)\n"
		"  -t, --threads LIST      thread counts; N uses the first N CPUs (default: 1 and all)\n"
		"  -p, --placement LIST    memory: local, node:N, remote, interleave (default: local)\n"
		"  -a, --args LIST         nopread delays, splitread offsets or chase multiplies (default: per family)\n"
		"      --prefetch LIST     prefetcher states: on, off, off:NAME+NAME (default: on,off when the\n"
		"                          MSRs are accessible; without access only 'uncontrolled' is measured\n"
		"                          and the off states are reported as skipped). Names: 'pmucheck prefetch status'\n"
		"  -e, --events LIST       events to count: PAPI names or perf syntax (pmu/event=0x..,umask=0x../,\n"
		"                          pmu/alias/, page-faults, task-clock, ...); groups never multiplex\n"
		"      --keep-going        record events that are malformed or cannot be counted here as failed /\n"
		"                          not measured and go on (default: stop before measuring, exit 2)\n"
		"      --config FILE       candidate events of this architecture (default: chosen by CPUID from\n"
		"                          configs/; 'pmucheck info' says which)\n"
		"      --preset NAME       reproduce a seed paper: molka2017, helm2020, larysch2016 (sets the\n"
		"                          kernels, sizes, threads, arguments, prefetch states and events)\n"
		"  -r, --reps N            repetitions per point after the warm-up (default 5)\n"
		"      --retries N         re-measure a point whose repetitions spread more than 2 %% (L1, L2) or\n"
		"                          5 %% (L3, DRAM) up to N times, then flag it 'noisy' (default 2,\n"
		"                          1 with --quick)\n"
		"      --min-time MS       shortest timed call in milliseconds (default 10, quick 2)\n"
		"      --reported-levels   trust the reported cache sizes: no latency probe of where each level ends\n"
		"      --no-thp            4 KiB pages for the buffers (default: transparent huge pages)\n"
		"      --seed N            seed of the pointer-chase permutations (default 1)\n"
		"  -o, --out DIR           results directory (must not exist)\n"
		"  -n, --dry-run           print the points the run would measure, write nothing\n"
		"      --resume DIR        continue an interrupted run where it stopped (no other options)\n"
		"      --results ROOT      where new results directories go (default: results)\n"
		"      --progress, --no-progress  progress line on stderr (default: when it is a terminal)\n"
		"  -h, --help\n");
}

enum { OPT_MIN_TIME = 256, OPT_NO_THP, OPT_SEED, OPT_RESULTS, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_PREFETCH, OPT_KEEP_GOING, OPT_REPORTED_LEVELS, OPT_RETRIES, OPT_CONFIG, OPT_PRESET, OPT_RESUME };

static const struct option options[] = {
	{"quick", no_argument, NULL, 'q'},	     {"kernels", required_argument, NULL, 'k'},
	{"sizes", required_argument, NULL, 's'},     {"cpus", required_argument, NULL, 'c'},
	{"threads", required_argument, NULL, 't'},   {"placement", required_argument, NULL, 'p'},
	{"args", required_argument, NULL, 'a'},	     {"reps", required_argument, NULL, 'r'},
	{"min-time", required_argument, NULL, OPT_MIN_TIME}, {"no-thp", no_argument, NULL, OPT_NO_THP},
	{"seed", required_argument, NULL, OPT_SEED}, {"out", required_argument, NULL, 'o'},
	{"results", required_argument, NULL, OPT_RESULTS}, {"progress", no_argument, NULL, OPT_PROGRESS},
	{"no-progress", no_argument, NULL, OPT_NO_PROGRESS}, {"prefetch", required_argument, NULL, OPT_PREFETCH},
	{"dry-run", no_argument, NULL, 'n'}, {"resume", required_argument, NULL, OPT_RESUME}, {"config", required_argument, NULL, OPT_CONFIG}, {"preset", required_argument, NULL, OPT_PRESET},
	{"reported-levels", no_argument, NULL, OPT_REPORTED_LEVELS}, {"retries", required_argument, NULL, OPT_RETRIES}, {"events", required_argument, NULL, 'e'}, {"keep-going", no_argument, NULL, OPT_KEEP_GOING},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0}};

/* Splits a comma list and hands each item to fn. */
static int each_item(const char *option, const char *list, int (*fn)(void *, const char *, const char *, struct err *),
		     void *ctx, struct err *e)
{
	char *copy = strdup(list), *save = NULL;
	int rc = 0, n = 0;

	for (char *it = strtok_r(copy, ",", &save); it && !rc; it = strtok_r(NULL, ",", &save), n++)
		rc = fn(ctx, option, it, e);
	if (!rc && n == 0)
		rc = err_set(e, E_USAGE, "%s: empty list", option);
	free(copy);
	return rc;
}

static int add_size(void *ctx, const char *option, const char *item, struct err *e)
{
	struct plan_opts *o = ctx;
	if (o->nsizes == PLAN_MAX_SIZES)
		return err_set(e, E_USAGE, "%s: more than %d sizes", option, PLAN_MAX_SIZES);
	return cli_parse_size(option, item, &o->sizes[o->nsizes++], e);
}

static int add_arg(void *ctx, const char *option, const char *item, struct err *e)
{
	struct plan_opts *o = ctx;
	if (o->nargs == PLAN_MAX_ARGS)
		return err_set(e, E_USAGE, "%s: more than %d values", option, PLAN_MAX_ARGS);
	return cli_parse_u64(option, item, &o->args[o->nargs++], e);
}

static int add_threads(void *ctx, const char *option, const char *item, struct err *e)
{
	struct plan_opts *o = ctx;
	uint64_t v;
	int rc = cli_parse_u64(option, item, &v, e);

	if (rc)
		return rc;
	if (v < 1 || v > TOPO_MAX_CPUS)
		return err_set(e, E_USAGE, "%s: %s threads is out of range (1..%d)", option, item, TOPO_MAX_CPUS);
	if (o->nthreads == PLAN_MAX_THREADS)
		return err_set(e, E_USAGE, "%s: more than %d thread counts", option, PLAN_MAX_THREADS);
	o->threads[o->nthreads++] = (int)v;
	return 0;
}

struct place_ctx {
	struct plan_opts *o;
	const struct topo *t;
};

static int add_place(void *ctx, const char *option, const char *item, struct err *e)
{
	struct place_ctx *pc = ctx;
	if (pc->o->nplaces == PLAN_MAX_PLACES)
		return err_set(e, E_USAGE, "%s: more than %d placements", option, PLAN_MAX_PLACES);
	return buf_parse_placement(option, item, pc->t, &pc->o->places[pc->o->nplaces++], e);
}

static void defaults(struct run_cli *rc)
{
	memset(rc, 0, sizeof *rc);
	rc->cfg.reps = 5;
	rc->cfg.retries = -1; /* default: 2, 1 with --quick */
	rc->cfg.seed = 1;
	rc->cfg.thp = 1;
	rc->cfg.progress = -1;
	rc->results_root = "results";
}

int run_cli_parse(int argc, char **argv, const struct topo *t, struct run_cli *rc, struct err *e)
{
	struct plan_opts *o = &rc->cfg.plan;
	struct place_ctx pc = {o, t};
	uint64_t v;
	int c, r = 0;

	defaults(rc);
	rc->argc = argc;
	rc->argv = argv;
	optind = 1;
	opterr = 0;
	while (!r && (c = getopt_long(argc, argv, ":qk:s:c:t:p:a:r:o:e:nh", options, NULL)) != -1) {
		switch (c) {
		case 'q': o->quick = 1; break;
		case 'k': o->kernels = optarg; o->explicit_kernels = 1; break;
		case 's': r = each_item("--sizes", optarg, add_size, o, e); break;
		case 'c': r = topo_parse_cpulist(t, "--cpus", optarg, o->cpus, TOPO_MAX_CPUS, &o->ncpus, e); break;
		case 't': r = each_item("--threads", optarg, add_threads, o, e); break;
		case 'p': r = each_item("--placement", optarg, add_place, &pc, e); break;
		case 'a': r = each_item("--args", optarg, add_arg, o, e); break;
		case 'r':
			r = cli_parse_u64("--reps", optarg, &v, e);
			if (!r && (v < 1 || v > 256))
				r = err_set(e, E_USAGE, "--reps: %s is out of range (1..256)", optarg);
			rc->cfg.reps = (int)v;
			break;
		case OPT_MIN_TIME:
			r = cli_parse_u64("--min-time", optarg, &v, e);
			if (!r && (v < 1 || v > 10000))
				r = err_set(e, E_USAGE, "--min-time: %s ms is out of range (1..10000)", optarg);
			rc->cfg.min_seconds = (double)v * 1e-3;
			break;
		case OPT_RETRIES:
			r = cli_parse_u64("--retries", optarg, &v, e);
			if (!r && v > 20)
				r = err_set(e, E_USAGE, "--retries: %s is out of range (0..20)", optarg);
			rc->cfg.retries = (int)v;
			break;
		case OPT_NO_THP: rc->cfg.thp = 0; break;
		case OPT_SEED: r = cli_parse_u64("--seed", optarg, &rc->cfg.seed, e); break;
		case 'o': rc->out = optarg; break;
		case OPT_RESULTS: rc->results_root = optarg; break;
		case OPT_PROGRESS: rc->cfg.progress = 1; break;
		case OPT_NO_PROGRESS: rc->cfg.progress = 0; break;
		case OPT_PREFETCH: rc->prefetch = optarg; break;
		case 'e': rc->events = optarg; break;
		case OPT_KEEP_GOING: rc->keep_going = 1; break;
		case OPT_REPORTED_LEVELS: rc->reported_levels = 1; break;
		case OPT_CONFIG: rc->config = optarg; break;
		case OPT_PRESET: rc->preset = optarg; break;
		case OPT_RESUME: rc->resume = optarg; break;
		case 'n': rc->dry_run = 1; break;
		case 'h': rc->help = 1; return 0;
		case ':': return err_set(e, E_USAGE, "option '%s' needs a value", argv[optind - 1]);
		default: return err_set(e, E_USAGE, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (r)
		return r;
	if (optind < argc)
		return err_set(e, E_USAGE, "unexpected argument '%s'", argv[optind]);
	if (rc->resume && argc != 3)
		return err_set(e, E_USAGE, "--resume takes no other options: the run continues with its own");
	if (rc->preset && (o->kernels || o->nsizes || o->nthreads || o->nargs || o->nplaces || rc->prefetch ||
			   rc->events))
		return err_set(e, E_USAGE, "--preset sets the kernels, sizes, threads, arguments, placements, "
			       "prefetch states and events itself; drop those options");
	if (rc->cfg.min_seconds == 0)
		rc->cfg.min_seconds = o->quick ? 0.002 : 0.010;
	if (rc->cfg.retries < 0)
		rc->cfg.retries = o->quick ? 1 : 2; /* --quick promises a minute, even on a busy machine */
	return plan_check_opts(o, t, e);
}

static void command_line(int argc, char **argv, char *out, size_t len)
{
	size_t off = (size_t)snprintf(out, len, "pmucheck");
	for (int i = 0; i < argc && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, " %s", argv[i]);
}

/* Everything a run holds between the checks and the end. */
struct run_job {
	struct sysinfo sys;
	struct cfg arch, presets;
	char config_path[4096];
	struct experiment *xs;
	int nxs;
	struct run_pf pf;
	struct levels_probe probe;
	int probed;
	struct raw_writer raw;
	struct machine_facts mf;
	char started[32], finished[32], command[2048];
};

/* The experiments: the steps of --preset, or the command line's one. */
static int build_experiments(struct run_cli *rc, const struct topo *t, struct run_job *j, struct err *e)
{
	char presets[4096];
	int found, r;

	r = experiment_load_config(rc->config, &j->sys.cpu, &j->arch, &found, j->config_path,
				   sizeof j->config_path, e);
	if (r)
		return r;
	if (!rc->preset) {
		j->xs = calloc(1, sizeof *j->xs);
		if (!j->xs)
			return err_set(e, E_RUNTIME, "out of memory");
		j->nxs = 1;
		r = experiment_plain(j->xs, &rc->cfg.plan, rc->cfg.reps, rc->events, rc->keep_going,
				     found ? &j->arch : NULL, e);
		return r ? r : run_pf_states(rc->prefetch, &j->xs->opts, e);
	}
	r = cfg_dir_file("presets.ini", presets, sizeof presets, e);
	if (!r)
		r = cfg_load(presets, &j->presets, e);
	if (!r)
		r = experiment_preset(&j->presets, rc->preset, found ? &j->arch : NULL, &rc->cfg.plan, rc->cfg.reps,
				      t, &j->xs, &j->nxs, e);
	if (!r && j->nxs == 0)
		r = err_set(e, E_USAGE, "--preset: no step of '%s' can run on this machine", rc->preset);
	return r;
}

static int plan_all(const struct topo *t, struct run_job *j, struct err *e)
{
	for (int i = 0; i < j->nxs; i++) {
		struct experiment *x = &j->xs[i];
		int r;

		plan_free(&x->plan);
		r = plan_check_opts(&x->opts, t, e);
		if (!r)
			r = plan_build(&x->opts, t, &x->plan, e);
		if (r)
			return x->name[0] ? err_wrap(e, r, "preset step %s", x->name) : r;
	}
	return 0;
}

/* --dry-run: the points, one line each, per experiment. */
static void print_plan(const struct run_job *j)
{
	int total = 0;

	for (int i = 0; i < j->nxs; i++) {
		const struct experiment *x = &j->xs[i];
		if (x->name[0])
			printf("%s:\n", x->name);
		for (int k = 0; k < x->plan.npoints; k++) {
			const struct plan_point *pt = &x->plan.points[k];
			printf("%5d  %-18s %s=%-5llu %2d thr %12llu B/array  %-4s  %s  %s\n", total + k,
			       pt->var->name, pt->fam->arg_name ? pt->fam->arg_name : "arg",
			       (unsigned long long)pt->arg, pt->threads, (unsigned long long)pt->bytes, pt->level,
			       x->opts.pf_states[pt->pf], x->opts.places[pt->place].kind == BUF_LOCAL ? "local" :
			       x->opts.places[pt->place].kind == BUF_REMOTE ? "remote" : "other");
		}
		total += x->plan.npoints;
		printf("%d points, %u events (%u groups)\n", x->plan.npoints, x->ev.nev, x->ev.plan.ngroups);
	}
	if (j->nxs > 1)
		printf("%d points in all\n", total);
}

static void say_skipped(const struct run_job *j)
{
	if (!j->pf.ctl)
		fprintf(stderr, "pmucheck run: prefetchers not controlled%s%s%s: %s\n",
			j->pf.skipped[0] ? ", skipping the '" : "", j->pf.skipped,
			j->pf.skipped[0] ? "' experiments" : "", j->pf.reason);
	for (int i = 0; i < j->nxs; i++)
		if (j->xs[i].plan.skipped[0])
			fprintf(stderr, "pmucheck run: skipping %s: this CPU lacks their instructions\n",
				j->xs[i].plan.skipped);
}

/* Finds where the levels really end, on the first CPU; the plans are rebuilt from that. */
static int probe_levels(struct run_cli *rc, struct topo *t, struct run_job *j, double tsc_hz, struct err *e)
{
	int r;

	fprintf(stderr, "pmucheck run: measuring where each cache level ends (pointer chase on CPU %d)\n",
		rc->cfg.plan.cpus[0]);
	r = levels_measure(&j->probe, t, rc->cfg.plan.cpus[0], tsc_hz, rc->cfg.plan.quick, e);
	if (r)
		return r;
	j->probed = 1;
	for (int i = 0; i < j->probe.ndisagreements; i++)
		fprintf(stderr, "pmucheck run: %s\n", j->probe.disagreements[i]);
	levels_apply(&j->probe, t);
	return 0;
}

/* The paper's figures travel with the results, so a copied results directory shows them too. */
static int copy_reference(const char *dir, const char *src, char *rel, size_t len, struct err *e)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	char dst[4096], buf[8192];
	FILE *in, *out;
	size_t n;

	snprintf(rel, len, "reference/%s", base);
	snprintf(dst, sizeof dst, "%s/reference", dir);
	mkdir(dst, 0755);
	snprintf(dst, sizeof dst, "%s/%s", dir, rel);
	in = fopen(src, "r");
	if (!in)
		return err_set(e, E_USAGE, "preset reference %s: %s", src, strerror(errno));
	out = fopen(dst, "w");
	if (!out) {
		fclose(in);
		return err_set(e, E_RUNTIME, "%s: %s", dst, strerror(errno));
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return fclose(out) == 0 ? 0 : err_set(e, E_RUNTIME, "%s: %s", dst, strerror(errno));
}

/* machine.json's "config", "preset" and "counters": what was chosen and what each experiment counts. */
static int experiments_json(struct run_cli *rc, struct run_job *j, json_t **config, json_t **preset,
			    json_t **counters, struct err *e)
{
	json_t *steps = json_array(), *per = json_array();

	*config = json_pack("{s:s, s:s}", "path", j->config_path, "arch",
			    j->arch.has_arch && j->arch.arch.title ? j->arch.arch.title : "none");
	for (int i = 0; i < j->nxs; i++) {
		struct experiment *x = &j->xs[i];
		json_t *ev = run_events_json(&x->ev);
		char rel[512] = "";
		int r;

		json_object_set_new(ev, "experiment", json_string(x->name));
		json_array_append_new(per, ev);
		if (!x->name[0])
			continue;
		r = x->reference ? copy_reference(rc->dir, x->reference, rel, sizeof rel, e) : 0;
		if (r) {
			json_decref(steps);
			json_decref(per);
			return r;
		}
		json_array_append_new(steps, json_pack("{s:s, s:s, s:s, s:s}", "name", x->name, "note",
						       x->note ? x->note : "", "reference", rel, "skipped",
						       x->skipped));
	}
	if (rc->preset) {
		const struct cfg_preset *p = cfg_preset_find(&j->presets, rc->preset);
		json_t *refs = json_array(), *st;
		size_t k;
		/* the paper tables, once each, for the report to show beside the measured ones */
		json_array_foreach(steps, k, st) {
			json_t *ref = json_object_get(st, "reference"), *seen;
			size_t m;
			int dup = !json_string_length(ref);
			json_array_foreach(refs, m, seen)
				dup |= json_equal(seen, ref);
			if (!dup)
				json_array_append(refs, ref);
		}
		*preset = json_pack("{s:s, s:s, s:o, s:o}", "name", p->name, "title", p->title ? p->title : "",
				    "steps", steps, "reference", refs);
	} else {
		json_decref(steps);
	}
	*counters = json_pack("{s:o, s:o}", "availability", ctr_availability_json(), "experiments", per);
	return 0;
}

static int write_machine(struct run_cli *rc, struct run_job *j, struct err *e)
{
	json_t *mj;
	int r;

	json_decref(j->mf.prefetch);
	j->mf.prefetch = run_pf_json(&j->pf);
	if (j->probed) {
		json_decref(j->mf.probe);
		j->mf.probe = levels_json(&j->probe);
	}
	mj = machine_json(&j->mf);
	r = results_write_json(rc->dir, "machine.json", mj, e);
	json_decref(mj);
	return r;
}

static int measure_experiment(struct run_cli *rc, struct topo *t, struct run_job *j, struct experiment *x,
			      int *base, double tsc_hz, struct err *e)
{
	struct run_config cfg = rc->cfg;
	struct run_state st = {0};
	int r;

	cfg.plan = x->opts;
	cfg.reps = x->reps;
	run_pf_use(&j->pf, &cfg.plan);
	if (x->name[0])
		fprintf(stderr, "pmucheck run: %s: %d points\n", x->name, x->plan.npoints);
	st.cfg = &cfg;
	st.topo = t;
	st.plan = &x->plan;
	st.raw = &j->raw;
	st.events = &x->ev;
	st.tsc_hz = tsc_hz;
	st.point_base = *base;
	st.resume_after = rc->resumed ? rc->resumed->last_point : -1;
	st.experiment = x->name;
	st.set_prefetch = run_pf_set;
	st.pf_ctx = &j->pf;
	st.results = calloc((size_t)x->plan.npoints, sizeof *st.results);
	r = st.results ? run_measure(&st, e) : err_set(e, E_RUNTIME, "out of memory");
	if (!r) {
		if (x->name[0])
			printf("\n%s\n", x->name);
		summary_print(stdout, &x->plan, st.results, rc->dir);
	}
	*base += x->plan.npoints;
	free(st.results);
	return r;
}

/* raw.csv to write to: new, or for --resume the interrupted one, cut back to its last whole point. */
static int open_raw(struct run_cli *rc, struct run_job *j, struct err *e)
{
	struct resume_info *ri = rc->resumed;
	int base = 0, r;

	if (!ri || !ri->header_end)
		return raw_create(&j->raw, rc->dir, e);
	for (int i = 0; i < j->nxs; i++) {
		struct experiment *x = &j->xs[i];
		if (ri->last_point < base + x->plan.npoints || i == j->nxs - 1) {
			r = resume_trim(rc->dir, ri, record_rows_per_point(&x->ev, x->reps), e);
			if (r)
				return r;
			break;
		}
		base += x->plan.npoints;
	}
	fprintf(stderr, "pmucheck run: resuming %s after point %d\n", rc->dir, ri->last_point);
	return raw_append(&j->raw, rc->dir, e);
}

static int measure(struct run_cli *rc, struct topo *t, struct run_job *j, struct err *e)
{
	double tsc_hz = tsc_calibrate_hz(rc->cfg.plan.quick ? 30 : 100);
	json_t *config = NULL, *preset = NULL, *counters = NULL;
	int r, base = 0, npoints = 0;

	run_pf_open(&j->pf, rc->cfg.plan.cpus, rc->cfg.plan.ncpus);
	for (int i = 0; i < j->nxs; i++)
		run_pf_use(&j->pf, &j->xs[i].opts);
	say_skipped(j);
	r = rc->reported_levels ? 0 : probe_levels(rc, t, j, tsc_hz, e);
	/* Again: the prefetch states this machine allows and the measured levels change the points. */
	if (!r)
		r = plan_all(t, j, e);
	if (r)
		return r;
	r = experiments_json(rc, j, &config, &preset, &counters, e);
	if (r)
		return r;
	j->mf.tsc_hz = tsc_hz;
	j->mf.core_ghz = tsc_core_ghz(tsc_hz, 20);
	j->mf.counters = counters;
	j->mf.config = config;
	j->mf.preset = preset;
	r = write_machine(rc, j, e);
	if (!r)
		r = open_raw(rc, j, e);
	for (int i = 0; i < j->nxs; i++)
		npoints += j->xs[i].plan.npoints;
	if (!r)
		fprintf(stderr, "pmucheck run: %d points into %s\n", npoints, rc->dir);
	for (int i = 0; i < j->nxs && !r; i++)
		r = measure_experiment(rc, t, j, &j->xs[i], &base, tsc_hz, e);
	run_pf_end(&j->pf);
	if (!r)
		r = raw_close(&j->raw, e);
	else
		raw_close(&j->raw, NULL);
	if (!r) {
		results_utc_now(j->finished, sizeof j->finished, 0);
		j->mf.finished = j->finished;
		r = write_machine(rc, j, e);
	}
	if (!r)
		r = results_mark_partial(rc->dir, 0, e);
	return r;
}

static void job_free(struct run_job *j)
{
	run_pf_end(&j->pf);
	for (int i = 0; i < j->nxs; i++)
		experiment_free(&j->xs[i]);
	free(j->xs);
	cfg_free(&j->arch);
	cfg_free(&j->presets);
	json_decref(j->mf.prefetch);
	json_decref(j->mf.counters);
	json_decref(j->mf.probe);
	json_decref(j->mf.config);
	json_decref(j->mf.preset);
	free(j);
}

int run_cli_execute(struct run_cli *rc, struct topo *t, int argc, char **argv, struct err *e)
{
	struct run_job *j = calloc(1, sizeof *j);
	int r;

	if (!j)
		return err_set(e, E_RUNTIME, "out of memory");
	/* Every check first: bad input is refused before anything is written. */
	sysinfo_read(&j->sys);
	r = build_experiments(rc, t, j, e);
	if (!r)
		r = plan_all(t, j, e);
	if (!r && rc->dry_run) {
		print_plan(j);
		goto out;
	}
	if (!r && !rc->resumed)
		r = results_create_dir(rc->out, rc->results_root, j->sys.host, rc->dir, sizeof rc->dir, e);
	if (!r) {
		results_utc_now(j->started, sizeof j->started, 0);
		if (rc->resumed)
			snprintf(j->started, sizeof j->started, "%s", rc->resumed->started);
		command_line(argc, argv, j->command, sizeof j->command);
		j->mf = (struct machine_facts){.sys = &j->sys, .topo = t, .command = j->command, .started = j->started,
					       .threads_max = rc->cfg.plan.ncpus, .argc = rc->argc, .argv = rc->argv,
					       .resumed = rc->resumed != NULL};
		if (rc->resumed)
			j->mf.probe = json_incref(rc->resumed->levels);
		/* Marked partial, with the arguments --resume needs, before anything is measured. */
		r = results_mark_partial(rc->dir, 1, e);
		if (!r)
			r = write_machine(rc, j, e);
	}
	if (!r)
		r = measure(rc, t, j, e);
out:
	job_free(j);
	return r;
}

/* --resume DIR: the interrupted run's own arguments, its measured levels, and the points not yet in
   raw.csv. */
static int run_cli_resume(const char *dir, struct topo *t, struct err *e)
{
	struct resume_info ri;
	struct run_cli rc;
	int r = resume_load(dir, &ri, e);

	if (r)
		return r;
	r = run_cli_parse(ri.argc, ri.argv, t, &rc, e);
	if (r) {
		err_wrap(e, E_USAGE, "--resume: the arguments in %s/machine.json", dir);
		goto out;
	}
	/* Once points are written, the sizes must be the interrupted run's, not a new probe's. */
	if (ri.header_end) {
		for (int l = 0; l < t->ncaches; l++)
			t->caches[l].measured = ri.measured[l];
		rc.reported_levels = 1;
	}
	rc.resumed = &ri;
	snprintf(rc.dir, sizeof rc.dir, "%s", dir);
	r = run_cli_execute(&rc, t, ri.argc, ri.argv, e);
out:
	resume_free(&ri);
	return r;
}

static int cmd_run(int argc, char **argv)
{
	struct run_cli rc;
	struct topo t;
	struct err e;
	int r = topo_load(&t, &e);

	if (r)
		return cli_fail("run", r, &e);
	r = run_cli_parse(argc, argv, &t, &rc, &e);
	if (!r && rc.help)
		usage(stdout);
	else if (!r && rc.resume)
		r = run_cli_resume(rc.resume, &t, &e);
	else if (!r)
		r = run_cli_execute(&rc, &t, argc, argv, &e);
	topo_free(&t);
	return r ? cli_fail("run", r, &e) : 0;
}

CLI_COMMAND("run", cmd_run, "measure the kernels and write a results directory");
