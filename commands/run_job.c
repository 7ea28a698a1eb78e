/* run_job.c — one run from the checked options to the finished results directory: the experiments
 * (the command line's, or a preset's steps), the prefetcher session, the level probe, machine.json,
 * raw.csv and the measurement of every experiment. `pmucheck run` and the default command call it. */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_run.h"
#include "run_job_int.h"
#include "clock_aperf.h"
#include "core_clock.h"
#include "cpu_limit.h"
#include "disturb.h"
#include "ctr.h"
#include "experiment.h"
#include "file_copy.h"
#include "level_check.h"
#include "levels.h"
#include "levels_from.h"
#include "levels_history.h"
#include "machine.h"
#include "progress_line.h"
#include "results.h"
#include "run_prefetch.h"
#include "run_record.h"
#include "summary.h"
#include "sysinfo.h"
#include "tsc.h"
#include "tsc_drift.h"

static void command_line(int argc, char **argv, char *out, size_t len)
{
	size_t off = (size_t)snprintf(out, len, "pmucheck");
	for (int i = 0; i < argc && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, " %s", argv[i]);
}

/* The experiments: the steps of --preset, or the command line's one. */
static int build_experiments(struct run_cli *rc, const struct topo *t, struct run_job *j, struct err *e)
{
	char presets[4096], skipped[2048];
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
		r = experiment_preset(&j->presets, rc->preset, found ? &j->arch : NULL, &rc->cfg.plan,
				      rc->cfg.reps, t, &j->xs, &j->nxs, skipped, sizeof skipped, e);
	for (char *line = skipped, *next; !r && *line; line = next) {
		next = line + strcspn(line, "\n");
		fprintf(stderr, "pmucheck run: skipping %.*s\n", (int)(next - line), line);
		next += *next == '\n';
	}
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
			return experiment_error(x, r, e);
	}
	return 0;
}

/* The most threads any point of `of` from raw.csv point `from` on has (the experiments' points are numbered
   one after the other, as measure_experiment numbers them). */
static int most_threads_from(const struct run_job *j, enum most_of of, int from)
{
	int most = 0;

	for (int i = 0, base = 0; i < j->nxs; base += j->xs[i].plan.npoints, i++)
		for (int k = 0; k < j->xs[i].plan.npoints; k++) {
			const struct plan_point *pt = &j->xs[i].plan.points[k];
			if (base + k >= from && (of != MOST_OF_DRAM || pt->level == LEVEL_DRAM) &&
			    (of != MOST_OF_PATH || path_probe_point(pt)) && pt->threads > most)
				most = pt->threads;
		}
	return most;
}

/* The most threads any point of `of` has: the threaded probes read with as many. */
int run_job_most_threads(const struct run_job *j, enum most_of of)
{
	return most_threads_from(j, of, 0);
}

/* --levels-from DIR: the sizes the run there measured become this machine's measured ones. */
static int take_levels(const char *dir, struct topo *t, struct err *e)
{
	uint64_t measured[TOPO_MAX_LEVELS];
	int r = levels_from_run(dir, t, measured, e);

	if (!r)
		topo_take_measured(t, measured);
	return r;
}

/* Finds where the levels really end, on the first CPU; the plans are rebuilt from that. */
static int probe_levels(struct run_cli *rc, struct topo *t, struct run_job *j, double tsc_hz, struct err *e)
{
	int r;

	fprintf(stderr, "pmucheck run: measuring where each cache level ends (pointer chase on CPU %d)\n",
		rc->cfg.plan.cpus[0]);
	r = levels_measure(&j->probe, t, rc->cfg.plan.cpus[0], tsc_hz, &j->clock, rc->cfg.plan.quick, e);
	if (r)
		return r;
	j->probed = 1;
	levels_apply(&j->probe, t);
	levels_history_apply(&j->history, &j->probe, t, rc->cfg.plan.cpus[0], (int64_t)time(NULL));
	for (int i = 0; i < j->probe.ndisagreements; i++)
		fprintf(stderr, "pmucheck run: %s\n", j->probe.disagreements[i]);
	return 0;
}

/* The paper's figures travel with the results, so a copied results directory shows them too. */
static int copy_reference(const char *dir, const char *src, char *rel, size_t len, struct err *e)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	char dst[4096];
	FILE *in, *out;
	int why;

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
	if ((why = file_copy(in, out)))
		return err_set(e, E_RUNTIME, "%s: %s", dst, strerror(why));
	return 0;
}

/* machine.json's config.ports: the core's L1 ports per cycle that the config gives (kern_ports), each
   field only where given, which the analysis judges the points' clocks by (analysis/agg.c). */
static json_t *ports_json(const struct kern_ports *p)
{
	json_t *o = json_object();

#define PORT_JSON(field, key, most, one, many) \
	if (p && p->field > 0) \
		json_object_set_new(o, key, json_real(p->field));
	KERN_PORTS_FIELDS(PORT_JSON)
#undef PORT_JSON
	return o;
}

/* machine.json's "config", "preset" and "counters": what was chosen and what each experiment counts. */
static int experiments_json(struct run_cli *rc, struct run_job *j, json_t **config, json_t **preset,
			    json_t **counters, struct err *e)
{
	json_t *steps = json_array(), *per = json_array();
	char warning[512];

	*config = json_pack("{s:s, s:s, s:o, s:o}", "path", j->config_path, "arch",
			    j->arch.has_arch && j->arch.arch.title ? j->arch.arch.title : "none", "pmu",
			    experiment_pmu_json(&j->arch, warning, sizeof warning), "ports",
			    ports_json(j->arch.has_arch ? &j->arch.arch.ports : NULL));
	for (int i = 0; i < j->nxs; i++) {
		struct experiment *x = &j->xs[i];
		json_t *ev = run_events_json(&x->ev);
		char rel[512] = "";
		int r;

		json_object_set_new(ev, "experiment", json_string(x->name));
		json_object_set_new(ev, "hypotheses",
				    x->hypotheses ? json_incref(x->hypotheses) : json_object());
		json_array_append_new(per, ev);
		if (!x->name[0])
			continue;
		r = x->reference ? copy_reference(rc->dir, x->reference, rel, sizeof rel, e) : 0;
		if (r) {
			json_decref(steps);
			json_decref(per);
			return r;
		}
		json_array_append_new(steps,
				      json_pack("{s:s, s:s, s:s, s:s}", "name", x->name, "note",
						x->note ? x->note : "", "reference", rel, "skipped",
						x->skipped));
	}
	if (rc->preset) {
		const struct cfg_preset *p = cfg_preset_find(&j->presets, rc->preset);
		json_t *refs = json_array(), *st;
		size_t k;
		/* the paper tables, once each, for the report to show beside the measured ones */
		json_array_foreach(steps, k, st)
		{
			json_t *ref = json_object_get(st, "reference"), *seen;
			size_t m;
			int dup = !json_string_length(ref);
			json_array_foreach(refs, m, seen) dup |= json_equal(seen, ref);
			if (!dup)
				json_array_append(refs, ref);
		}
		*preset = json_pack("{s:s, s:s, s:o, s:o}", "name", p->name, "title",
				    p->title ? p->title : "", "steps", steps, "reference", refs);
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
		json_object_set_new(j->mf.probe, "history", levels_history_json(&j->history));
	}
	mj = machine_json(&j->mf);
	r = results_write_json(rc->dir, "machine.json", mj, e);
	json_decref(mj);
	return r;
}

/* What the points are judged against once the run (or a preset's step) ended: the speed probe's best so
   far, or this machine's over its recent runs where that is higher (speed_history.h); machine.json's
   speed_probe.judged_against_gbps, by which the analysis judges them too. */
static double judged_against(const struct run_job *j)
{
	return speed_history_against(&j->speed_history, speed_probe_figures(&j->speed).best);
}

/* Keeps each measured point's speed probe reading and path probe ratio at its raw.csv point number (base +
   its index), for machine.json: a point this run did not measure (one of the run a --resume continues) has
   none, 0. -1 when out of memory. */
static int keep_point_probes(struct run_job *j, int base, const struct run_point_result *res, int n)
{
	if (base + n > j->npoint_gbps) {
		double *grown = realloc(j->point_gbps, sizeof *grown * (size_t)(base + n));
		double *ratio = grown ? realloc(j->point_ratio, sizeof *ratio * (size_t)(base + n)) : NULL;
		if (grown)
			j->point_gbps = grown;
		if (!ratio)
			return -1;
		j->point_ratio = ratio;
		memset(grown + j->npoint_gbps, 0, sizeof *grown * (size_t)(base + n - j->npoint_gbps));
		memset(ratio + j->npoint_gbps, 0, sizeof *ratio * (size_t)(base + n - j->npoint_gbps));
		j->npoint_gbps = base + n;
	}
	for (int i = 0; i < n; i++) {
		j->point_gbps[base + i] = res[i].speed_gbps;
		j->point_ratio[base + i] = res[i].path_ratio;
	}
	return 0;
}

/* Whether the run measures its rows' best points again (--revisits, revisit.h; never with a preset): not
   a resumed one, whose first points' outcomes are not in memory to choose from (the revisits of the run it
   resumes, where it stopped in them, stay in raw.csv as its other points do). */
static int revisits_apply(const struct run_cli *rc)
{
	if (!rc->cfg.revisits)
		return 0;
	if (rc->resumed) {
		fprintf(stderr,
			"pmucheck run: a resumed run does not revisit (--revisits): the outcomes of "
			"the points measured before it stopped are not known to it\n");
		return 0;
	}
	return 1;
}

/* machine.json's disturbance.points.clock_samples: how many were taken, how many rejected for each reason
   (clock_reject_name), and the repetitions left without a clock. */
static json_t *clock_tally_json(const struct run_clock_tally *c)
{
	json_t *o = json_pack("{s:I, s:I}", "taken", (json_int_t)c->samples, "repetitions_without_clock",
			      (json_int_t)c->reps_without);

	for (int k = 0; o && k < CLOCK_REJECTS; k++)
		json_object_set_new(o, clock_reject_name((enum clock_reject)k),
				    json_integer(c->rejected_by[k]));
	return o;
}

/* Adds n points' results to t, those this process measured (a resumed run's earlier points have none).
   Only the repetitions record_disturbed judges are counted (record_judged). */
static void tally_points(struct run_tally *t, const struct run_point_result *res, int n)
{
	for (int i = 0; i < n; i++)
		if (res[i].reps > 0) {
			t->points++;
			t->noisy += res[i].noisy_why != 0;
			t->reps += res[i].reps_judged;
			t->reps_disturbed += res[i].reps_disturbed;
			t->reps_by_chains += res[i].reps_by_chains;
			record_clock_tally_add(&t->clock, &res[i].clock);
		}
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
	st.run_ghz = j->mf.core_ghz;
	st.clock = j->clock;
	st.aperf = j->mclock.use_aperf ? &j->mclock.aperf : NULL;
	st.point_base = *base;
	st.resume_after = rc->resumed ? rc->resumed->last_point : -1;
	st.experiment = x->name;
	st.budget_start = j->budget_start;
	for (const struct experiment *y = x + 1; y < j->xs + j->nxs; y++)
		for (int i = 0; i < y->plan.npoints; i++)
			st.threads_after += y->plan.points[i].threads;
	st.set_prefetch = run_pf_set;
	st.pf_ctx = &j->pf;
	st.show_progress = progress_line_show;
	st.progress_ctx = &j->progress;
	st.speed = j->speed.v ? &j->speed : NULL;
	st.speed_all = j->speed_all.v ? &j->speed_all : NULL;
	st.own_cores = topo_distinct_cores(t, cfg.plan.cpus, cfg.plan.ncpus);
	st.memory = j->memory.v ? &j->memory : NULL;
	st.memory_all = j->memory_all.v ? &j->memory_all : NULL;
	st.path = j->path.all.v ? &j->path : NULL;
	st.llc = j->llc.v ? &j->llc : NULL;
	st.limit = cpu_limit_cpus(&j->limit) > 0 ? &j->limit : NULL;
	st.results = calloc((size_t)x->plan.npoints, sizeof *st.results);
	r = st.results ? run_measure(&st, e) : err_set(e, E_RUNTIME, "out of memory");
	/* the points measured before a failure too: machine.json is written all the same */
	if (st.results && keep_point_probes(j, *base, st.results, x->plan.npoints) && !r)
		r = err_set(e, E_RUNTIME, "out of memory");
	if (!r && revisits_apply(rc))
		r = revisit_run(&st, cfg.revisits, &j->revisits, e);
	if (j->revisits.n && keep_point_probes(j, *base + x->plan.npoints, j->revisits.res, j->revisits.n) &&
	    !r)
		r = err_set(e, E_RUNTIME, "out of memory");
	if (!r) {
		/* each point judged before it against the probe's best so far and this machine's, the first ones
		   against few samples of the run's own: again against every sample and this machine's recent runs
		   (speed_history.h), as the analysis judges them (machine.json speed_probe.point_gbps,
		   judged_against_gbps) */
		run_judge_slow(st.results, x->plan.npoints, judged_against(j));
		run_judge_slow(j->revisits.res, j->revisits.n, judged_against(j));
		tally_points(&j->tally, st.results, x->plan.npoints);
		tally_points(&j->tally, j->revisits.res, j->revisits.n);
		if (x->name[0])
			printf("\n%s\n", x->name);
		int before = st.resume_after - *base + 1;
		struct summary_probe sp = {j->probe.npoints ? &j->probe : NULL,
					   &cfg.plan,
					   j->mf.core_ghz,
					   before < 0                         ? 0
						   : before > x->plan.npoints ? x->plan.npoints
									      : before,
					   t->sockets > 0 ? t->cores / t->sockets : 0,
					   t,
					   &j->clock};
		struct summary_revisits rv = {j->revisits.res, j->revisits.n, j->revisits.of};
		summary_print(stdout, &x->plan, st.results, &sp, &rv, rc->dir, rc->reported_levels,
			      rc->levels_from);
	}
	*base += x->plan.npoints + j->revisits.n;
	free(st.results);
	return r;
}

/* raw.csv to write to: new, or for --resume the interrupted one, cut back to its last whole point. */
static int open_raw(struct run_cli *rc, struct run_job *j, struct err *e)
{
	struct resume_info *ri = rc->resumed;
	int r;

	if (!ri || !ri->header_end)
		return raw_create(&j->raw, rc->dir, e);
	r = resume_trim(rc->dir, ri, e);
	if (r)
		return r;
	fprintf(stderr, "pmucheck run: resuming %s after point %d\n", rc->dir, ri->last_point);
	return raw_append(&j->raw, rc->dir, e);
}

/* Restores the prefetchers. A failed restore fails the run; after an earlier error it is printed beside
   that error, which stays the one reported. */
static int end_prefetch(struct run_job *j, int r, struct err *e)
{
	struct err pe;
	int pr = run_pf_end(&j->pf, &pe);

	if (pr && !r) {
		*e = pe;
		return pr;
	}
	if (pr)
		fprintf(stderr, "pmucheck run: %s\n", pe.msg);
	return r;
}

/* A probe's readings before the run's points, by raw.csv point, as machine.json keeps them: null where a
   point has none (0), or where it is no finite number (json_real would give NULL, the array would lose the
   entry and every later point shift). */
static json_t *per_point(const double *v, int n)
{
	json_t *per = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(per, isfinite(v[i]) && v[i] > 0 ? json_real(v[i]) : json_null());
	return per;
}

/* The CPUs the points run on: a point of N threads takes the plan's first N, so the first of the most
   threads any point has (a one-thread run on a 128-CPU guest uses one); /proc/stat's steal is theirs. */
static int cpus_used(const struct run_job *j, const struct plan_opts *plan)
{
	int most = run_job_most_threads(j, MOST_OF_ALL);

	return most < plan->ncpus ? most : plan->ncpus;
}

/* How disturbed the machine was while it measured: /proc/stat's samples of the CPUs the points ran on
   (none when it could not be read) and the speed probe's figures. */
static void record_disturbance(struct run_job *j, const struct plan_opts *plan)
{
	struct disturb_sample after;
	json_t *speed = speed_probe_json(&j->speed), *speed_all = speed_probe_json(&j->speed_all),
	       *memory = speed_probe_json(&j->memory), *memory_all = speed_probe_json(&j->memory_all),
	       *path = path_probe_json(&j->path), *llc = level_check_json(&j->llc);

	json_decref(j->mf.disturbance);
	j->mf.disturbance = j->before.procs_running < 0 ||
			disturb_read(disturb_proc_dir(), plan->cpus, cpus_used(j, plan), &after, NULL)
		? json_object()
		: disturb_json(&j->before, &after);
	if (j->limit.version) {
		j->throttle_read[1] = cpu_limit_sample(&j->limit, &j->throttle[1], NULL) == 0;
		json_object_set_new(j->mf.disturbance, "cpu_limit",
				    cpu_limit_json(&j->limit, j->throttle_read[0] ? &j->throttle[0] : NULL,
						   j->throttle_read[1] ? &j->throttle[1] : NULL));
	}
	if (speed && j->npoint_gbps)
		json_object_set_new(speed, "point_gbps", per_point(j->point_gbps, j->npoint_gbps));
	if (speed) {
		json_object_set_new(speed, "judged_against_gbps", json_real(judged_against(j)));
		json_object_set_new(j->mf.disturbance, "speed_probe", speed);
		json_object_set_new(j->mf.disturbance, "speed_history",
				    speed_history_json(&j->speed_history));
	}
	if (speed_all)
		json_object_set_new(j->mf.disturbance, "speed_probe_threads", speed_all);
	if (memory)
		json_object_set_new(j->mf.disturbance, "memory_probe", memory);
	if (memory_all)
		json_object_set_new(j->mf.disturbance, "memory_probe_threads", memory_all);
	if (path) {
		json_object_set_new(path, "point_ratio", per_point(j->point_ratio, j->npoint_gbps));
		json_object_set_new(j->mf.disturbance, "path_probe", path);
	}
	if (llc)
		json_object_set_new(j->mf.disturbance, "level_check", llc);
	if (j->tally.points)
		json_object_set_new(
			j->mf.disturbance, "points",
			json_pack("{s:I, s:I, s:I, s:I, s:f, s:I, s:o}", "measured",
				  (json_int_t)j->tally.points, "noisy", (json_int_t)j->tally.noisy,
				  "repetitions", (json_int_t)j->tally.reps, "repetitions_disturbed",
				  (json_int_t)j->tally.reps_disturbed, "disturbed_past", RECORD_DISTURBED,
				  "repetitions_by_chains", (json_int_t)j->tally.reps_by_chains,
				  "clock_samples", clock_tally_json(&j->tally.clock)));
	if (j->revisits.asked) {
		json_t *began = json_array();
		for (int i = 0; i < j->revisits.rounds; i++)
			json_array_append_new(began, json_real(j->revisits.began[i]));
		json_object_set_new(j->mf.disturbance, "revisits",
				    json_pack("{s:i, s:i, s:i, s:f, s:f, s:f, s:s, s:o, s:s}", "asked",
					      j->revisits.asked, "rounds", j->revisits.rounds, "points",
					      j->revisits.n, "seconds", j->revisits.seconds, "apart_s",
					      REVISIT_APART_S, "rival", j->revisits.rival, "rivals_left_out",
					      j->revisits.rivals_left_out, "rounds_began_s", began,
					      "why_fewer", j->revisits.why));
	}
}

/* The largest working set a check of the last cache level chases (level_check_point) over the plans. */
static uint64_t llc_check_cap(const struct run_job *j, const struct topo *t)
{
	uint64_t cap = 0;

	for (int i = 0; i < j->nxs; i++)
		for (int k = 0; k < j->xs[i].plan.npoints; k++) {
			uint64_t b = level_check_point(t, &j->xs[i].plan.points[k]);
			if (b > cap)
				cap = b;
		}
	return cap;
}

/* Whether the run probes where each level ends and plans again from that: not with --reported-levels, nor
   with --levels-from (or a resumed run's own levels). The dry run says so of its plan. */
static int levels_probed(const struct run_cli *rc)
{
	return !rc->reported_levels && !rc->levels_from;
}

/* What measure() holds beside the points' buffers until the run ends: the speed probes (one thread's, and one
   per thread of the most), the memory probes (one thread's, and one split over the DRAM threads), the path
   probe (one thread's, and one per thread of the most that reach memory) and the last-level check's chase.
   The level probe's buffer is freed before the points begin. */
static uint64_t probe_bytes(const struct run_job *j, const struct topo *t)
{
	int most = run_job_most_threads(j, MOST_OF_ALL), path = run_job_most_threads(j, MOST_OF_PATH);

	return SPEED_PROBE_BYTES * (1 + (uint64_t)(most > 1 ? most : 0)) +
		MEMORY_PROBE_BYTES * (1 + (run_job_most_threads(j, MOST_OF_DRAM) > 1)) +
		(path > 1 ? PATH_PROBE_BYTES * (1 + (uint64_t)path) : 0) + llc_check_cap(j, t);
}

/* A resumed run gets the part of --time-budget that its points left had in the interrupted run: the
   points share the budget by their threads (harness/run/budget.h), so the share of the threads left.
   The whole budget again gave the last tenth of a run ten times its time on a machine that kept its
   points from confirming. */
static void resume_budget(struct run_cli *rc, const struct run_job *j)
{
	double all = 0, left = 0;
	int base = 0, points_left = 0;

	for (int x = 0; x < j->nxs; x++) {
		for (int i = 0; i < j->xs[x].plan.npoints; i++) {
			double w = j->xs[x].plan.points[i].threads;
			all += w;
			if (base + i > rc->resumed->last_point) {
				left += w;
				points_left++;
			}
		}
		base += j->xs[x].plan.npoints;
	}
	if (!(all > 0))
		return;
	fprintf(stderr,
		"pmucheck run: resuming %s: %d of %d points left, given %.0f s of its --time-budget %.0f s "
		"(their share)\n",
		rc->dir, points_left, base, rc->cfg.time_budget * left / all, rc->cfg.time_budget);
	rc->cfg.time_budget *= left / all;
}

/* The points of every experiment's plan: machine.json's "points". */
static int points_planned(const struct run_job *j)
{
	int n = 0;

	for (int i = 0; i < j->nxs; i++)
		n += j->xs[i].plan.npoints;
	return n;
}

/* A resumed run goes on by point number, so its plan must be the one it was interrupted in: with fewer CPUs
   to use (taskset), without MSR access or on a CPU lacking a width, the same arguments plan other points,
   and the run would end "finished" with the others never measured. */
static int resume_same_points(const struct run_cli *rc, const struct run_job *j, struct err *e)
{
	int npoints = points_planned(j);

	if (rc->resumed && rc->resumed->points >= 0 && npoints != rc->resumed->points)
		return err_set(
			e, E_USAGE,
			"--resume: %s planned %d points, and its arguments plan %d here (other CPUs to "
			"use, prefetcher access or instructions): resume it where and as it ran",
			rc->dir, rc->resumed->points, npoints);
	return 0;
}

/* One prefetcher state planned either way has the same points: `off` resumed without MSR access would go on
   measuring `uncontrolled` (the prefetchers as they run) under the rows of `off`. Only where measure() wrote
   machine.json (its points): the first one, written before the prefetch session opened, says control false
   for a run killed in its level probe. */
static int resume_same_prefetch(const struct run_cli *rc, const struct run_job *j, struct err *e)
{
	if (!rc->resumed || rc->resumed->points < 0)
		return 0;
	if (rc->resumed->prefetch_control == 1 && !j->pf.ctl)
		return err_set(
			e, E_USAGE,
			"--resume: %s switched the prefetchers as it measured, and here they cannot be "
			"(%s): resume it where and as it ran",
			rc->dir, j->pf.reason);
	if (rc->resumed->prefetch_control == 0 && j->pf.ctl)
		return err_set(
			e, E_USAGE,
			"--resume: %s measured the prefetchers as they ran (no control), and here they "
			"would be switched: resume it as it ran (without the access it lacked)",
			rc->dir);
	return 0;
}

/* Whether rc resumes a run that measured points: raw.csv holds more than its point 0. */
static bool resumed_points(const struct run_cli *rc)
{
	return rc->resumed && rc->resumed->last_point > 0;
}

/* OMP_THREAD_LIMIT below the widest point's threads: the run found it at that point, half a --quick run in,
   and a --resume in the same environment could never finish. Of a resumed run, the points it measures: from
   the last one raw.csv holds (from), which it cuts and measures again (resume_trim); those before it are
   done, the widest among them perhaps (a preset's step of every core before its one-thread steps). raw.csv
   numbers the points of the plan the prefetch states this machine allows left (run_pf_use): the check
   counts in that plan. */
static int omp_limit_check(const struct run_job *j, int from, struct err *e)
{
	int widest = most_threads_from(j, MOST_OF_ALL, from);

	if (omp_get_thread_limit() < widest)
		return err_set(e, E_USAGE,
			       "OpenMP may run %d threads (OMP_THREAD_LIMIT), and the widest point has %d: "
			       "raise the limit or give --threads",
			       omp_get_thread_limit(), widest);
	return 0;
}

static int measure(struct run_cli *rc, struct topo *t, struct run_job *j, struct err *e)
{
	double tsc_hz;
	json_t *config = NULL, *preset = NULL, *counters = NULL;
	struct err speed_err;
	int r, base = 0, npoints, most, dram_most, path_most;
	uint64_t llc_cap;

	run_pf_open(&j->pf, rc->cfg.plan.cpus, rc->cfg.plan.ncpus,
		    j->arch.has_arch ? j->arch.arch.prefetch : NULL);
	for (int i = 0; i < j->nxs; i++)
		run_pf_use(&j->pf, &j->xs[i].opts);
	/* Again: the prefetch states this machine allows change the points, and the measured levels (below).
	   A resumed run is refused before anything is measured (the TSC, the level probe's seconds): its
	   prefetcher access is known now, and its points too where its levels are the interrupted run's. */
	r = resume_same_prefetch(rc, j, e);
	if (!r && !levels_probed(rc))
		r = plan_all(t, j, e);
	if (!r && !levels_probed(rc))
		r = resume_same_points(rc, j, e);
	if (!r && resumed_points(rc)) /* its levels are the interrupted run's: not probed (run_cli_resume) */
		r = omp_limit_check(j, rc->resumed->last_point, e);
	if (r)
		return r;
	tsc_hz = tsc_calibrate_hz(rc->cfg.plan.quick ? 30 : 100);
	run_job_say_skipped(j, t);
	run_job_say_unlike_cores(rc, j, t);
	/* the level probe samples the core clock too (its cycles) */
	clock_bounds_read(CLOCK_SYSFS_ROOT, &j->sys.cpu, j->arch.has_arch ? j->arch.arch.max_ghz : 0,
			  j->config_path, &j->clock);
	/* A resumed run probes only where raw.csv has no point yet (run_cli_resume): its points depend on the
	   levels measured now, so they are checked after the probe. */
	if (levels_probed(rc)) {
		r = probe_levels(rc, t, j, tsc_hz, e);
		if (!r)
			r = plan_all(t, j, e);
		if (!r)
			r = resume_same_points(rc, j, e);
		if (r)
			return r;
	}
	npoints = points_planned(j);
	j->mf.points = npoints;
	j->mf.without_point = run_job_say_levels_without_point(j);
	run_job_say_short_of_dram(j);
	r = experiments_json(rc, j, &config, &preset, &counters, e);
	if (r)
		return r;
	j->mf.tsc_hz = tsc_hz;
	j->mf.clock = &j->clock;
	/* on the CPU the points start on: clock.core_ghz stands for every point whose own clock samples were
	   all rejected */
	j->mclock = (struct clock_machine){.tsc_hz = tsc_hz, .bounds = &j->clock};
	r = topo_on_cpu(rc->cfg.plan.cpus[0], clock_machine_measure, &j->mclock, e);
	if (r)
		return r;
	j->mf.core_ghz = j->mclock.no_clock ? 0 : j->mclock.ghz;
	j->mf.core_clock_note = j->mclock.no_clock ? j->mclock.why.msg : NULL;
	j->mf.aperf_note = j->mclock.use_aperf ? NULL : j->mclock.aperf_why;
	j->mf.counters = counters;
	j->mf.config = config;
	j->mf.preset = preset;
	r = write_machine(rc, j, e);
	if (!r)
		r = open_raw(rc, j, e);
	if (!r)
		fprintf(stderr, "pmucheck run: %d points into %s\n", npoints, rc->dir);
	if (!r && rc->resumed)
		resume_budget(rc, j); /* of the points as the prefetch states allowed just now */
	most = run_job_most_threads(j, MOST_OF_ALL);
	dram_most = run_job_most_threads(j, MOST_OF_DRAM);
	path_most = run_job_most_threads(j, MOST_OF_PATH);
	if (cpu_limit_find(CPU_LIMIT_ROOT, &j->limit, &speed_err))
		fprintf(stderr, "pmucheck run: %s: the CPU quota is not recorded\n", speed_err.msg);
	run_job_say_cpu_limit(j, 0, most);
	if (disturb_read(disturb_proc_dir(), rc->cfg.plan.cpus, cpus_used(j, &rc->cfg.plan), &j->before,
			 NULL))
		j->before.procs_running = -1;
	if (j->limit.version)
		j->throttle_read[0] = cpu_limit_sample(&j->limit, &j->throttle[0], NULL) == 0;
	if (speed_probe_init(&j->speed, KP_SPEED_PROBE, SPEED_PROBE_BYTES, tsc_hz, &speed_err) ||
	    (most > 1 &&
	     speed_probe_init_threads(&j->speed_all, KP_SPEED_PROBE, SPEED_PROBE_BYTES * (uint64_t)most,
				      tsc_hz, most, &speed_err)) ||
	    speed_probe_init(&j->memory, KP_SPEED_PROBE, MEMORY_PROBE_BYTES, tsc_hz, &speed_err) ||
	    (dram_most > 1 &&
	     speed_probe_init_threads(&j->memory_all, KP_SPEED_PROBE, MEMORY_PROBE_BYTES, tsc_hz, dram_most,
				      &speed_err)))
		fprintf(stderr, "pmucheck run: %s: no speed probe\n", speed_err.msg);
	if (path_most > 1 && path_probe_init(&j->path, path_most, tsc_hz, &speed_err))
		fprintf(stderr, "pmucheck run: %s: no path probe\n", speed_err.msg);
	j->speed.watched = 1; /* the run waits on it (run.c: probe_machine) */
	speed_history_read(&j->speed_history, CLOCK_SYSFS_ROOT, t, rc->cfg.plan.cpus[0],
			   j->speed.v ? j->speed.v->name : NULL, SPEED_PROBE_BYTES,
			   fmax(j->clock.max_ghz, j->mf.core_ghz), (int64_t)time(NULL));
	j->speed.prior_best = j->speed_history.machine_best;
	llc_cap = llc_check_cap(j, t);
	if (llc_cap &&
	    level_check_init(&j->llc, t, j->probed ? &j->probe : NULL, llc_cap, rc->cfg.plan.cpus[0], tsc_hz,
			     &speed_err))
		fprintf(stderr, "pmucheck run: %s: the last cache level is not checked\n", speed_err.msg);
	for (int i = 0; i < j->nxs && !r; i++)
		r = measure_experiment(rc, t, j, &j->xs[i], &base, tsc_hz, e);
	speed_history_add(&j->speed_history, speed_probe_figures(&j->speed).best, (int64_t)time(NULL));
	record_disturbance(j, &rc->cfg.plan);
	j->mf.tsc_hz_end = tsc_calibrate_hz(rc->cfg.plan.quick ? 30 : 100);
	if (tsc_drifted(tsc_hz, j->mf.tsc_hz_end))
		fprintf(stderr,
			"pmucheck run: warning: the TSC ran at %.4f GHz as the measurements ended and "
			"%.4f GHz as they began: every time was converted at the first (a guest moved to "
			"another host?)\n",
			j->mf.tsc_hz_end * 1e-9, tsc_hz * 1e-9);
	run_job_say_speed(j);
	run_job_say_revisits(j);
	run_job_say_cpu_limit(j, 1, most);
	r = end_prefetch(j, r, e);
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
	end_prefetch(j, E_RUNTIME, NULL); /* only after an early return: measure() ended the session */
	if (j->dir_lock >= 0)
		close(j->dir_lock);
	for (int i = 0; i < j->nxs; i++)
		experiment_free(&j->xs[i]);
	free(j->xs);
	cfg_free(&j->arch);
	cfg_free(&j->presets);
	json_decref(j->mf.prefetch);
	json_decref(j->mf.counters);
	json_decref(j->mf.probe);
	json_decref(j->mf.without_point);
	json_decref(j->mf.config);
	json_decref(j->mf.preset);
	json_decref(j->mf.disturbance);
	speed_probe_free(&j->speed);
	free(j->point_gbps);
	free(j->point_ratio);
	revisit_done_free(&j->revisits);
	speed_probe_free(&j->speed_all);
	speed_probe_free(&j->memory);
	speed_probe_free(&j->memory_all);
	path_probe_free(&j->path);
	level_check_free(&j->llc);
	free(j);
}

int run_cli_execute(struct run_cli *rc, struct topo *t, int argc, char **argv, struct err *e)
{
	struct run_job *j = calloc(1, sizeof *j);
	uint64_t probes;
	int r;

	if (!j)
		return err_set(e, E_RUNTIME, "out of memory");
	j->dir_lock = -1;
	j->budget_start = progress_now();
	topo_caches_of(t, rc->cfg.plan.cpus[0]);
	progress_line_init(&j->progress, rc->progress);
	/* Every check first: bad input is refused before anything is written. */
	sysinfo_read(&j->sys);
	/* a resumed run that wrote no point yet plans as it began: from --levels-from's run too */
	r = rc->levels_from && (!rc->resumed || !rc->resumed->header_end) ? take_levels(rc->levels_from, t, e)
									  : 0;
	if (!r)
		r = build_experiments(rc, t, j, e);
	if (!r)
		r = plan_all(t, j, e);
	/* on the sizes hwloc reports or --levels-from's: the level probe's, from which the run plans again,
	   are never larger (topo.h measured) */
	probes = r ? 0 : probe_bytes(j, t);
	for (int i = 0; i < j->nxs && !r; i++)
		if ((r = plan_check_memory(&j->xs[i].plan, probes, SYSINFO_PROC, e)))
			r = experiment_error(&j->xs[i], r, e);
	/* a resumed run that measured points is checked once its plan is the one raw.csv numbers (measure) */
	if (!r && !resumed_points(rc))
		r = omp_limit_check(j, 0, e);
	if (!r && !rc->resumed) /* the same words for a dry run and the run */
		r = results_out_free(rc->out, rc->results_root, e);
	if (!r && rc->dry_run) {
		/* The states the real run would measure: without MSR access the off states are skipped. */
		run_pf_predict(&j->pf, rc->cfg.plan.cpus, rc->cfg.plan.ncpus,
			       j->arch.has_arch ? j->arch.arch.prefetch : NULL);
		for (int i = 0; i < j->nxs; i++)
			run_pf_use(&j->pf, &j->xs[i].opts);
		run_job_say_skipped(j, t);
		if (levels_probed(rc)) {
			levels_history_preview(&j->history, t, rc->cfg.plan.cpus[0], (int64_t)time(NULL));
			run_job_say_probe_ahead(j, t);
		}
		run_job_say_unlike_cores(rc, j, t);
		r = plan_all(t, j, e);
		if (!r)
			json_decref(run_job_say_levels_without_point(j));
		if (!r)
			run_job_say_short_of_dram(j);
		if (!r && !cpu_limit_find(CPU_LIMIT_ROOT, &j->limit, NULL))
			run_job_say_cpu_limit(j, 0, run_job_most_threads(j, MOST_OF_ALL));
		if (!r && rc->json)
			run_job_say_plan_json(j, t, levels_probed(rc), rc->cfg.revisits);
		else if (!r)
			run_job_say_plan(j, rc->cfg.revisits);
		goto out;
	}
	if (!r && !rc->resumed)
		r = results_create_dir(rc->out, rc->results_root, j->sys.host, rc->dir, sizeof rc->dir, e);
	if (!r)
		r = results_lock_dir(rc->dir, &j->dir_lock, e);
	if (!r) {
		results_utc_now(j->started, sizeof j->started, 0);
		if (rc->resumed)
			snprintf(j->started, sizeof j->started, "%s", rc->resumed->started);
		command_line(argc, argv, j->command, sizeof j->command);
		j->mf = (struct machine_facts){.sys = &j->sys,
					       .topo = t,
					       .command = j->command,
					       .started = j->started,
					       .threads_max = rc->cfg.plan.ncpus,
					       .argc = rc->argc,
					       .argv = rc->argv,
					       .resumed = rc->resumed != NULL,
					       .points = rc->resumed ? rc->resumed->points : -1,
					       .plan_cpus = rc->cfg.plan.cpus,
					       .nplan_cpus = rc->cfg.plan.ncpus,
					       .levels_from = rc->resumed ? NULL : rc->levels_from};
		if (rc->resumed) {
			j->mf.probe = json_incref(rc->resumed->levels);
			/* its probe's times stand for its latency points in the summary as in the analysis */
			j->probe.npoints = levels_curve_read(rc->resumed->levels, j->probe.size, j->probe.ns,
							     j->probe.cycles, LEVELS_MAX_POINTS);
		}
		/* Marked partial, with the arguments --resume needs, before anything is measured. A resumed run
		   has both already, and rewrites machine.json once its plan is checked against the one it
		   was interrupted in (measure): refused, it leaves the directory as it found it. */
		if (!rc->resumed)
			r = results_mark_partial(rc->dir, 1, e);
		if (!r && !rc->resumed)
			r = write_machine(rc, j, e);
	}
	if (!r)
		r = measure(rc, t, j, e);
out:
	job_free(j);
	return r;
}
