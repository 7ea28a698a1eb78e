/* cli_run.c — `pmucheck run`: the options, checked against the machine before anything is written;
 * run_job.c then does the run. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "cli.h"
#include "cli_run.h"
#include "list_each.h"
#include "num.h"
#include "resume.h"
#include "revisit.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck run [OPTIONS]\n\n"
		"Measures the kernels over a size sweep of every cache level and DRAM and writes\n"
		"results/<host>-<UTC time>/{machine.json,raw.csv} (format: docs/results-format.md).\n\n"
		"  -q, --quick             a short run (a 60 s budget): one size per level, fewer "
		"arguments\n"
		"  -k, --kernels LIST      families or family.variant, e.g. load,store.avx.nt (default: "
		"all;\n"
		"                          'pmucheck list kernels' names them)\n"
		"  -s, --sizes LIST        working set per thread, e.g. 32k,1M,256M (default: sweep from the "
		"caches);\n"
		"                          k, M, G, KiB, MiB, GiB are binary (1024), kB, MB, GB decimal "
		"(1000,\n"
		"                          as likwid-bench takes them)\n"
		"  -c, --cpus LIST         CPUs of the widest run, e.g. 0-3 (default: one per core of the "
		"first\n"
		"                          socket among the CPUs pmucheck may use: hwloc's, within the\n"
		"                          affinity it was started with, as taskset or a batch system sets "
		"it)\n"
		"  -t, --threads LIST      thread counts; N uses the first N CPUs (default: 1 and all)\n"
		"  -p, --placement LIST    memory: local, node:N, remote, interleave (default: local)\n"
		"  -a, --args LIST         nopread delays, splitread offsets or chase multiplies (default: "
		"per family)\n"
		"      --prefetch LIST     prefetcher states: on, off, off:NAME+NAME (default: on,off when "
		"the\n"
		"                          MSRs are accessible; without access only 'uncontrolled' is "
		"measured\n"
		"                          and the off states are reported as skipped). Names: 'pmucheck "
		"prefetch status'\n"
		"  -e, --events LIST       events to count: PAPI names or perf syntax "
		"(pmu/event=0x..,umask=0x../,\n"
		"                          pmu/alias/, page-faults, task-clock, ...); groups never "
		"multiplex\n"
		"      --keep-going        record events that are malformed or cannot be counted here as "
		"failed /\n"
		"                          not measured and go on (default: stop before measuring, exit 2;\n"
		"                          only with --events)\n"
		"      --config FILE       candidate events of this architecture (default: chosen by CPUID "
		"from\n"
		"                          configs/; 'pmucheck info' says which)\n"
		"      --preset NAME       reproduce a seed paper: molka2017, helm2020, larysch2016 (sets "
		"the\n"
		"                          kernels, sizes, threads, arguments, placements, prefetch states\n"
		"                          and events; none of those options may be given with it)\n"
		"  -r, --reps N            most repetitions per point after the warm-up (default: 80 ms of\n"
		"                          calls, 40 of the default 2 ms; twice as many with twice the\n"
		"                          default --time-budget); a point stops after 3 once\n"
		"                          its two shortest calls of each length its time rests on agree\n"
		"                          within 1.5 %% (DRAM 2.5 %%) and its calls are within 3x that\n"
		"                          of R and 2R passes' times (README: How a point is measured)\n"
		"      --time-budget S     seconds the run may take (default 60 with --quick, else 300): a "
		"point\n"
		"                          also stops when its share (its first repetition, and a part of\n"
		"                          the time left beyond every point's first) is spent, or another\n"
		"                          repetition would end well past it, even after one, and is then\n"
		"                          flagged 'noisy'; every point is measured\n"
		"      --revisits N        after the plan, measure each bandwidth row's best point (in the\n"
		"                          first round also each variant's best within %.0f %% of it)\n"
		"                          and each one-thread latency point again, N rounds begun at\n"
		"                          least %.0f s apart within --time-budget (default %d where the\n"
		"                          sizes come from the caches, else 0; at most %d; not with\n"
		"                          --preset, compared point by point with its paper): a shared\n"
		"                          host's slow phases last seconds, and a row's figure rests on\n"
		"                          its points' best visits\n"
		"                          (README: Noise and the time budget)\n"
		"      --min-time MS       shortest timed call in milliseconds (default 2)\n"
		"      --reported-levels   trust the reported cache sizes: no latency probe of where each "
		"level ends\n"
		"      --levels-from DIR   the level sizes the run in DIR had (its machine must report the "
		"same\n"
		"                          caches): no probe, the same points, so two runs compare point by "
		"point\n"
		"      --no-thp            4 KiB pages for the buffers (default: transparent huge pages)\n"
		"      --seed N            seed of the pointer-chase permutations (default 1)\n"
		"  -o, --out DIR           results directory (must not exist)\n"
		"  -n, --dry-run           print the points the run would measure, write nothing\n"
		"      --json              with --dry-run: the plan as one JSON object on stdout\n"
		"                          (docs/results-format.md)\n"
		"      --resume DIR        continue an interrupted run where it stopped (no other options),\n"
		"                          in the part of its --time-budget that the points left had\n"
		"      --results ROOT      where new results directories go (default: results)\n"
		"      --progress, --no-progress  progress line on stderr (default: when it is a terminal)\n"
		"A LIST option is given once, its items comma-separated, none empty or listed twice.\n"
		"  -h, --help\n",
		100 * REVISIT_RIVAL, REVISIT_APART_S, REVISIT_DEFAULT, REVISIT_MAX);
}

enum {
	OPT_MIN_TIME = 256,
	OPT_NO_THP,
	OPT_SEED,
	OPT_RESULTS,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_PREFETCH,
	OPT_KEEP_GOING,
	OPT_REPORTED_LEVELS,
	OPT_LEVELS_FROM,
	OPT_TIME_BUDGET,
	OPT_REVISITS,
	OPT_CONFIG,
	OPT_PRESET,
	OPT_RESUME,
	OPT_JSON
};

static const struct option options[] = {{"quick", no_argument, NULL, 'q'},
					{"kernels", required_argument, NULL, 'k'},
					{"sizes", required_argument, NULL, 's'},
					{"cpus", required_argument, NULL, 'c'},
					{"threads", required_argument, NULL, 't'},
					{"placement", required_argument, NULL, 'p'},
					{"args", required_argument, NULL, 'a'},
					{"reps", required_argument, NULL, 'r'},
					{"min-time", required_argument, NULL, OPT_MIN_TIME},
					{"no-thp", no_argument, NULL, OPT_NO_THP},
					{"seed", required_argument, NULL, OPT_SEED},
					{"out", required_argument, NULL, 'o'},
					{"results", required_argument, NULL, OPT_RESULTS},
					{"progress", no_argument, NULL, OPT_PROGRESS},
					{"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
					{"prefetch", required_argument, NULL, OPT_PREFETCH},
					{"dry-run", no_argument, NULL, 'n'},
					{"json", no_argument, NULL, OPT_JSON},
					{"resume", required_argument, NULL, OPT_RESUME},
					{"config", required_argument, NULL, OPT_CONFIG},
					{"preset", required_argument, NULL, OPT_PRESET},
					{"reported-levels", no_argument, NULL, OPT_REPORTED_LEVELS},
					{"levels-from", required_argument, NULL, OPT_LEVELS_FROM},
					{"time-budget", required_argument, NULL, OPT_TIME_BUDGET},
					{"revisits", required_argument, NULL, OPT_REVISITS},
					{"events", required_argument, NULL, 'e'},
					{"keep-going", no_argument, NULL, OPT_KEEP_GOING},
					{"help", no_argument, NULL, 'h'},
					{NULL, 0, NULL, 0}};

/* The same value twice would measure the same points twice. */
static int listed_twice(const char *option, const char *item, const uint64_t *seen, int n, uint64_t v,
			struct err *e)
{
	for (int i = 0; i < n; i++)
		if (seen[i] == v)
			return err_set(e, E_USAGE, "%s: '%s' is listed twice", option, item);
	return 0;
}

static int add_size(void *ctx, const char *option, const char *item, struct err *e)
{
	struct plan_opts *o = ctx;
	uint64_t v;
	int rc;

	if (o->nsizes == PLAN_MAX_SIZES)
		return err_set(e, E_USAGE, "%s: more than %d sizes", option, PLAN_MAX_SIZES);
	if ((rc = num_parse_size(option, item, &v, e)) || (rc = plan_size_ok(option, v, e)) ||
	    (rc = listed_twice(option, item, o->sizes, o->nsizes, v, e)))
		return rc;
	o->sizes[o->nsizes++] = v;
	return 0;
}

static int add_arg(void *ctx, const char *option, const char *item, struct err *e)
{
	struct plan_opts *o = ctx;
	uint64_t v;
	int rc;

	if (o->nargs == PLAN_MAX_ARGS)
		return err_set(e, E_USAGE, "%s: more than %d values", option, PLAN_MAX_ARGS);
	if ((rc = num_parse_u64(option, item, &v, e)) ||
	    (rc = listed_twice(option, item, o->args, o->nargs, v, e)))
		return rc;
	o->args[o->nargs++] = v;
	return 0;
}

static int add_threads(void *ctx, const char *option, const char *item, struct err *e)
{
	struct plan_opts *o = ctx;
	uint64_t v;
	int rc = num_parse_u64(option, item, &v, e);

	if (rc)
		return rc;
	if (v < 1 || v > TOPO_MAX_CPUS)
		return err_set(e, E_USAGE, "%s: %s threads is out of range (1..%d)", option, item,
			       TOPO_MAX_CPUS);
	if (o->nthreads == PLAN_MAX_THREADS)
		return err_set(e, E_USAGE, "%s: more than %d thread counts", option, PLAN_MAX_THREADS);
	for (int i = 0; i < o->nthreads; i++)
		if (o->threads[i] == (int)v)
			return err_set(e, E_USAGE, "%s: '%s' is listed twice", option, item);
	o->threads[o->nthreads++] = (int)v;
	return 0;
}

/* A name listed twice, or a variant beside its family ("load,load.gpr"), would measure its points twice;
   ctx is the whole list. Unknown names are plan_build's to refuse. */
static int check_kernel(void *ctx, const char *option, const char *item, struct err *e)
{
	size_t len = strlen(item);
	int same = 0;

	if (plan_kernel_known(option, item, e))
		return E_USAGE;

	for (const char *p = ctx;; p++) {
		size_t n = strcspn(p, ",");
		enum kern_overlap o = kern_names_overlap(item, len, p, n);

		if (o == KERN_SAME)
			same++;
		else if (o == KERN_FAMILY_OF && n > len)
			return err_set(e, E_USAGE, "%s: '%.*s' is listed twice (family '%s' has it)", option,
				       (int)n, p, item);
		p += n;
		if (!*p)
			break;
	}
	return same > 1 ? err_set(e, E_USAGE, "%s: '%s' is listed twice", option, item) : 0;
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
	struct buf_place p;
	int rc = buf_parse_placement(option, item, pc->t, &p, e);

	if (rc)
		return rc;
	for (int i = 0; i < pc->o->nplaces; i++)
		if (pc->o->places[i].kind == p.kind && pc->o->places[i].node == p.node)
			return err_set(e, E_USAGE, "%s: '%s' is listed twice", option, item);
	pc->o->places[pc->o->nplaces++] = p;
	return 0;
}

/* run's comma-separated lists, each to be given once (cli_list_given_twice) */
static const struct cli_list lists[] = {
	{'k', "--kernels"},   {'s', "--sizes"}, {'c', "--cpus"},   {'t', "--threads"},
	{'p', "--placement"}, {'a', "--args"},  {'e', "--events"}, {OPT_PREFETCH, "--prefetch"}};

#define SHORTOPTS ":qk:s:c:t:p:a:r:o:e:nh"
#define REPS_SECONDS 0.080 /* the default --reps, in seconds of shortest calls (run_cli_parse says why) */

/* The option's value, a whole number from lo to hi; outside that, E_USAGE naming the option, the value with
   its unit (" ms", " s" or "") and the range. */
static int parse_in_range(const char *option, const char *text, uint64_t lo, uint64_t hi, const char *unit,
			  uint64_t *v, struct err *e)
{
	int r = num_parse_u64(option, text, v, e);

	if (!r && (*v < lo || *v > hi))
		r = err_set(e, E_USAGE, "%s: %s%s is out of range (%llu..%llu)", option, text, unit,
			    (unsigned long long)lo, (unsigned long long)hi);
	return r;
}

static void defaults(struct run_cli *rc)
{
	memset(rc, 0, sizeof *rc);
	rc->cfg.seed = 1;
	rc->cfg.thp = 1;
	rc->progress = -1;
	rc->results_root = "results";
	rc->cfg.revisits = -1; /* not given: REVISIT_DEFAULT or 0, by the plan's sizes */
}

int run_cli_parse(int argc, char **argv, const struct topo *t, struct run_cli *rc, struct err *e)
{
	struct plan_opts *o = &rc->cfg.plan;
	struct place_ctx pc = {o, t};
	uint64_t v;
	double promised;
	unsigned given = 0;
	int c, r = 0, nopts = 0;

	defaults(rc);
	rc->argc = argc;
	rc->argv = argv;
	cli_getopt_start();
	while (!r && (c = getopt_long(argc, argv, SHORTOPTS, options, NULL)) != -1) {
		nopts++;
		if ((r = cli_list_given_twice(c, lists, sizeof lists / sizeof *lists, &given, e)))
			break;
		switch (c) {
		case 'q':
			o->quick = 1;
			break;
		case 'k':
			r = list_each("--kernels", optarg, check_kernel, optarg, e);
			o->kernels = optarg;
			o->explicit_kernels = 1;
			break;
		case 's':
			r = list_each("--sizes", optarg, add_size, o, e);
			break;
		case 'c':
			r = topo_parse_cpulist(t, "--cpus", optarg, o->cpus, TOPO_MAX_CPUS, &o->ncpus, e);
			break;
		case 't':
			r = list_each("--threads", optarg, add_threads, o, e);
			break;
		case 'p':
			r = list_each("--placement", optarg, add_place, &pc, e);
			break;
		case 'a':
			r = list_each("--args", optarg, add_arg, o, e);
			break;
		case 'r':
			r = parse_in_range("--reps", optarg, 1, 256, "", &v, e);
			rc->cfg.reps = (int)v;
			break;
		case OPT_MIN_TIME:
			r = parse_in_range("--min-time", optarg, 1, 10000, " ms", &v, e);
			rc->cfg.min_seconds = (double)v * 1e-3;
			break;
		case OPT_TIME_BUDGET:
			r = parse_in_range("--time-budget", optarg, 1, 604800, " s", &v, e);
			rc->cfg.time_budget = (double)v;
			break;
		case OPT_REVISITS:
			r = parse_in_range("--revisits", optarg, 0, REVISIT_MAX, "", &v, e);
			rc->cfg.revisits = (int)v;
			break;
		case OPT_NO_THP:
			rc->cfg.thp = 0;
			break;
		case OPT_SEED:
			r = num_parse_u64("--seed", optarg, &rc->cfg.seed, e);
			break;
		case 'o':
			rc->out = optarg;
			break;
		case OPT_RESULTS:
			rc->results_root = optarg;
			break;
		case OPT_PROGRESS:
			rc->progress = 1;
			break;
		case OPT_NO_PROGRESS:
			rc->progress = 0;
			break;
		case OPT_PREFETCH:
			rc->prefetch = optarg;
			break;
		case 'e':
			rc->events = optarg;
			break;
		case OPT_KEEP_GOING:
			rc->keep_going = 1;
			break;
		case OPT_REPORTED_LEVELS:
			rc->reported_levels = 1;
			break;
		case OPT_LEVELS_FROM:
			if (!*optarg)
				return err_set(e, E_USAGE,
					       "--levels-from: an empty path (give a results directory)");
			rc->levels_from = optarg;
			break;
		case OPT_CONFIG:
			rc->config = optarg;
			break;
		case OPT_PRESET:
			rc->preset = optarg;
			break;
		case OPT_RESUME:
			rc->resume = optarg;
			break;
		case 'n':
			rc->dry_run = 1;
			break;
		case OPT_JSON:
			rc->json = 1;
			break;
		case 'h':
			rc->help = 1;
			return 0;
		default:
			return cli_option_error(c, argv, SHORTOPTS, options, e);
		}
	}
	if (r)
		return r;
	if (optind < argc)
		return err_set(e, E_USAGE, "unexpected argument '%s'", argv[optind]);
	if (rc->json && !rc->dry_run)
		return err_set(e, E_USAGE,
			       "--json: only with --dry-run (a run's results are JSON files already)");
	/* options, not words: "--resume DIR" is two words, "--resume=DIR" one */
	if (rc->resume && nopts != 1)
		return err_set(e, E_USAGE, "--resume takes no other options: the run continues with its own");
	if (rc->levels_from && rc->reported_levels)
		return err_set(
			e, E_USAGE,
			"--levels-from and --reported-levels both set the level sizes: give one of them");
	if (rc->preset &&
	    (o->kernels || o->nsizes || o->nthreads || o->nargs || o->nplaces || rc->prefetch || rc->events))
		return err_set(e, E_USAGE,
			       "--preset sets the kernels, sizes, threads, arguments, placements, "
			       "prefetch states and events itself; drop those options");
	if (rc->keep_going && !rc->events)
		return err_set(e, E_USAGE,
			       "--keep-going: only with --events (the config's and a preset's events that "
			       "cannot be counted here are recorded as not measured without it)");
	if (rc->preset && rc->cfg.revisits > 0)
		return err_set(
			e, E_USAGE,
			"--revisits: not with --preset (its steps are compared with the paper's tables "
			"point by point)");
	/* 2 ms calls in every run, as --quick always had: a host's time slices and interrupts stretch the calls
	   they fall into, a shorter call is hit by fewer of them, and five times as many repetitions fit the
	   same time. The default run had 10 ms calls until measured on the Emerald Rapids guest (four default
	   runs interleaved, the same level sizes): with 10 ms 485 and 625 of 782 points stayed noisy in 280
	   and 288 s of the 300, most of them unconfirmed within their share of the budget (a median 3
	   repetitions of 30 ms); with 2 ms 275 and 404, in 208 and 214 s. Two runs' peak tables agreed no
	   better with either (82 and 83 of 120 figures over issue 14's limits): the machine moved between them
	   by more than that. */
	if (rc->cfg.min_seconds == 0)
		rc->cfg.min_seconds = 0.002;
	if (rc->cfg.revisits < 0)
		rc->cfg.revisits = o->nsizes || rc->preset ? 0 : REVISIT_DEFAULT;
	promised = o->quick ? 60 : 300; /* the time --quick and the default run promise */
	if (rc->cfg.time_budget == 0)
		rc->cfg.time_budget = promised;
	/* The most repetitions: as many as REPS_SECONDS of shortest calls, so that a point may take about the
	   same time whatever --min-time (40 of the default 2 ms, 8 of 10 ms). Two undisturbed short calls take
	   more repetitions to find than 8: with 8, two quiet --quick runs left 111 of 224 points noisy and
	   their cache peaks 3-31 % apart; with 32, 44-53 noisy, 4.9 % apart at most in L1 and L2, in 39 s of
	   the 60. A --time-budget longer than the one it replaces raises them
	   in proportion: with 40, two --quick runs on the Zen 3 guest given 120 s took 45.8 and 46.2 s, 34 of
	   their 168 points having stopped unconfirmed at --reps, so the time the user gave went unused. */
	if (rc->cfg.reps == 0)
		rc->cfg.reps = (int)fmax(BUDGET_MIN_REPS,
					 fmin(256,
					      round(REPS_SECONDS / rc->cfg.min_seconds *
						    fmax(1, rc->cfg.time_budget / promised))));
	return t ? plan_check_opts(o, t, e) : 0;
}

/* --resume DIR: the interrupted run's own arguments, its measured levels, and the points not yet in
   raw.csv. */
static int run_cli_resume(const char *dir, struct topo *t, struct err *e)
{
	struct resume_info ri;
	struct sysinfo sys;
	struct run_cli rc;
	int r = resume_load(dir, &ri, e);

	if (r)
		return r;
	r = run_cli_parse(ri.argc, ri.argv, t, &rc, e);
	if (r) {
		err_wrap(e, E_USAGE, "--resume: the arguments in %s/machine.json", dir);
		goto out;
	}
	/* No run records these (a damaged or edited file): another --resume would measure a default run
	   into this directory, --help stops the parse before the plan is checked, and a dry run would print
	   a plan, resume nothing and leave the run interrupted. */
	if (rc.resume || rc.help || rc.dry_run) {
		r = err_set(e, E_USAGE,
			    "--resume: %s/machine.json: its arguments hold %s, which no run records", dir,
			    rc.resume         ? "--resume"
				    : rc.help ? "--help"
					      : "--dry-run");
		goto out;
	}
	sysinfo_read(&sys);
	r = resume_same_machine(dir, &ri, &sys, e);
	if (!r)
		r = resume_same_cpus(dir, &ri, rc.cfg.plan.cpus, rc.cfg.plan.ncpus, e);
	if (r)
		goto out;
	/* Once points are written, the sizes must be the interrupted run's, not a new probe's: its probe's, or
	   those it took itself (--levels-from), or the reported ones. */
	if (ri.header_end) {
		topo_take_measured(t, ri.measured);
		if (!rc.reported_levels && !rc.levels_from)
			rc.levels_from = dir;
	}
	rc.resumed = &ri;
	snprintf(rc.dir, sizeof rc.dir, "%s", dir);
	r = run_cli_execute(&rc, t, ri.argc, ri.argv, e);
	/* every option is the recorded one: a usage error is the file's (a kernel whose instructions this
	   machine lacks, resumed on another node) */
	if (r == E_USAGE)
		err_wrap(e, r, "--resume: the arguments in %s/machine.json", dir);
out:
	resume_free(&ri);
	return r;
}

static int cmd_run(int argc, char **argv)
{
	struct run_cli rc;
	struct topo t;
	struct err e;
	int r;

	/* --help before the topology: the options' syntax alone (no topology) reaches it, and a topology hwloc
	   cannot load, or pmucheck refuses, must not keep the help from being read */
	if (!run_cli_parse(argc, argv, NULL, &rc, &e) && rc.help) {
		usage(stdout);
		return 0;
	}
	r = topo_load(&t, &e);
	if (r)
		return cli_fail("run", r, &e);
	r = run_cli_parse(argc, argv, &t, &rc, &e);
	if (!r && rc.resume)
		r = run_cli_resume(rc.resume, &t, &e);
	else if (!r)
		r = run_cli_execute(&rc, &t, argc, argv, &e);
	topo_free(&t);
	return r ? cli_fail("run", r, &e) : 0;
}

CLI_COMMAND("run", cmd_run, "measure the kernels and write a results directory");
