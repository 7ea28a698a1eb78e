/* run_job.c — one run from the checked options to the finished results directory: the experiments
 * (the command line's, or a preset's steps), the prefetcher session, the level probe, machine.json,
 * raw.csv and the measurement of every experiment. `pmucheck run` and the default command call it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_run.h"
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
#include "summary.h"
#include "sysinfo.h"
#include "tsc.h"

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
	struct levels_probe probe; /* the level probe; on --resume only its curve, the interrupted run's
				      (levels_curve_read) */
	int probed;
	struct levels_history history; /* the probes before it on this machine (levels_history.h) */
	struct raw_writer raw;
	struct machine_facts mf;
	struct clock_bounds clock;
	struct err clock_err;     /* why the run's core clock is missing */
	struct clock_aperf aperf; /* the per-repetition clock from APERF/MPERF, where this thread counts it */
	int use_aperf;
	char aperf_why[CTR_REASON_MAX];  /* why it is not used */
	struct disturb_sample before;    /* /proc/stat as the measurements start; procs_running -1: unread */
	struct cpu_limit limit;          /* the cgroup's CPU quota; version 0: not known */
	struct cpu_throttle throttle[2]; /* its throttling as the measurements start and end */
	int throttle_read[2];
	struct speed_probe speed;      /* the machine's own speed before each point (speed_probe.h) */
	struct speed_probe speed_all;  /* the same by the most threads any point has, before those */
	struct speed_probe memory;     /* the memory's, before each DRAM point */
	struct speed_probe memory_all; /* the same by the most threads any DRAM point has, before those */
	struct level_check llc; /* whether the last cache level held each of its points (level_check.h) */
	char started[32], finished[32], command[2048];
	double budget_start; /* progress_now() as the run began: --time-budget counts from here */
	struct progress_line progress;
};

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
			return x->name[0] ? err_wrap(e, r, "preset step %s", x->name) : r;
	}
	return 0;
}

/* The point's placement as --placement spells it ("node:1", "interleave"). */
static const char *place_name(const struct experiment *x, const struct plan_point *pt, char *buf, size_t len)
{
	buf_format_placement(&x->opts.places[pt->place], buf, len);
	return buf;
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
			char place[32], arg[48];
			/* one column whatever the family calls its argument ("k=24", "offset=60", "arg=0") */
			snprintf(arg, sizeof arg, "%s=%llu", pt->fam->arg_name ? pt->fam->arg_name : "arg",
				 (unsigned long long)pt->arg);
			printf("%5d  %-18s %-10s %2d thr %12llu B/array  %-4s  %s  %s\n", total + k,
			       pt->var->name, arg, pt->threads, (unsigned long long)pt->bytes,
			       level_name(pt->level), x->opts.pf_states[pt->pf],
			       place_name(x, pt, place, sizeof place));
		}
		total += x->plan.npoints;
		printf("%d points, %u events (%u groups), at most %d repetitions each\n", x->plan.npoints,
		       x->ev.nev, x->ev.plan.ngroups, x->reps);
	}
	if (j->nxs > 1)
		printf("%d points in all\n", total);
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static json_t *experiment_plan_json(const struct experiment *x, int first)
{
	json_t *points = json_array(), *events = json_array(), *fixed = json_array();

	for (int k = 0; k < x->plan.npoints; k++) {
		const struct plan_point *pt = &x->plan.points[k];
		char place[32];
		json_array_append_new(
			points,
			json_pack("{s:i, s:s, s:s, s:o, s:I, s:i, s:I, s:s, s:s, s:s}", "index", first + k,
				  "kernel", pt->var->name, "family", pt->fam->name, "arg_name",
				  pt->fam->arg_name ? json_string(pt->fam->arg_name) : json_null(), "arg",
				  (json_int_t)pt->arg, "threads", pt->threads, "bytes_per_array",
				  (json_int_t)pt->bytes, "level", level_name(pt->level), "prefetch",
				  x->opts.pf_states[pt->pf], "placement",
				  place_name(x, pt, place, sizeof place)));
	}
	for (unsigned k = 0; k < x->ev.nev; k++) {
		const struct ctr_event *ev = &x->ev.evs[k];
		json_array_append_new(events,
				      json_pack("{s:s, s:s, s:s?}", "event", ev->spec, "status",
						ctr_status_name(ev->status), "reason",
						ev->status == CTR_OK ? NULL : ev->reason));
	}
	for (unsigned k = 0; k < x->ev.nfixed; k++)
		json_array_append_new(fixed, json_string(x->ev.fixed[k].spec));
	return json_pack("{s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:i}", "name", str_or_null(x->name),
			 "skipped_variants", str_or_null(x->plan.skipped), "levels_without_point",
			 str_or_null(x->plan.no_level), "points", points, "groups", (int)x->ev.plan.ngroups,
			 "events", events, "fixed_events", fixed, "most_reps", x->reps);
}

/* --dry-run --json: the facts print_plan and say_skipped give, as one object (docs/results-format.md). */
static void print_plan_json(const struct run_job *j)
{
	json_t *xs = json_array(), *o;
	int total = 0;

	for (int i = 0; i < j->nxs; i++) {
		json_array_append_new(xs, experiment_plan_json(&j->xs[i], total));
		total += j->xs[i].plan.npoints;
	}
	o = json_pack("{s:i, s:{s:b, s:o, s:o}, s:o, s:i}", "format", 1, "prefetch", "control",
		      j->pf.ctl || j->pf.predicted, "skipped", str_or_null(j->pf.skipped), "reason",
		      j->pf.ctl || j->pf.predicted ? json_null() : json_string(j->pf.reason), "experiments",
		      xs, "points_total", total);
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(o);
}

static void say_skipped(const struct run_job *j, const struct topo *t)
{
	char warning[512];

	json_decref(experiment_pmu_json(&j->arch, warning, sizeof warning));
	if (*warning)
		fprintf(stderr, "pmucheck run: warning: %s\n", warning);
	if (!t->ncaches)
		fprintf(stderr,
			"pmucheck run: warning: hwloc reports no data cache for CPU %d (a VM that hides the "
			"CPUID cache leaves, or a CPU hwloc does not know): every point is planned and "
			"labelled as DRAM, also those of --sizes inside a cache\n",
			t->cpus[0]);
	if (!j->pf.ctl && !j->pf.predicted)
		fprintf(stderr, "pmucheck run: prefetchers not controlled%s%s%s: %s\n",
			j->pf.skipped[0] ? ", skipping the '" : "", j->pf.skipped,
			j->pf.skipped[0] ? "' experiments" : "", j->pf.reason);
	for (int i = 0; i < j->nxs; i++) {
		int said = 0;
		/* a preset's steps mostly skip the same variants: each list once */
		for (int k = 0; k < i && !said; k++)
			said = !strcmp(j->xs[k].plan.skipped, j->xs[i].plan.skipped);
		if (j->xs[i].plan.skipped[0] && !said)
			fprintf(stderr, "pmucheck run: skipping %s: this CPU lacks their instructions\n",
				j->xs[i].plan.skipped);
	}
}

/* The cache levels the final plan (after the level probe) has no point in at some thread count: on stderr,
   and for machine.json (levels.without_point, which report.md lists), "STEP: L3 with 56 threads (...)". */
static json_t *say_levels_without_point(const struct run_job *j)
{
	json_t *all = json_array();

	for (int i = 0; i < j->nxs; i++)
		if (j->xs[i].plan.no_level[0]) {
			fprintf(stderr, "pmucheck run: %s%sno point in %s\n", j->xs[i].name,
				j->xs[i].name[0] ? ": " : "", j->xs[i].plan.no_level);
			json_array_append_new(all,
					      json_sprintf("%s%s%s", j->xs[i].name,
							   j->xs[i].name[0] ? ": " : "",
							   j->xs[i].plan.no_level));
		}
	if (!json_array_size(all)) {
		json_decref(all);
		return NULL;
	}
	return all;
}

/* The most threads any point has (of the DRAM points only: dram): the threaded probes read with as many. */
static int most_threads(const struct run_job *j, int dram)
{
	int most = 0;

	for (int i = 0; i < j->nxs; i++)
		for (int k = 0; k < j->xs[i].plan.npoints; k++)
			if ((!dram || j->xs[i].plan.points[k].level == LEVEL_DRAM) &&
			    j->xs[i].plan.points[k].threads > most)
				most = j->xs[i].plan.points[k].threads;
	return most;
}

/* --cpus naming cores of another kind than the first CPU's, or with other caches: every thread's points are
   sized from the first CPU's caches (plan.h), so on those a point labelled L2 may run from L3 (a hybrid CPU's
   E-cores share a larger L2 four ways) or one labelled L3 from L2. The default CPUs leave such cores out; a
   user's list is kept. Only the CPUs a point runs on are named: a point of N threads takes the list's first
   N, so with --threads or a preset's steps below the list's length the rest are never used. */
static void say_unlike_cores(const struct run_cli *rc, const struct run_job *j, const struct topo *t)
{
	int used = most_threads(j, 0) < rc->cfg.plan.ncpus ? most_threads(j, 0) : rc->cfg.plan.ncpus;
	char list[256];
	int n = topo_unlike_first(t, rc->cfg.plan.cpus, used, list, sizeof list);

	if (n)
		fprintf(stderr,
			"pmucheck run: warning: --cpus: CPU%s %s %s of another kind than CPU %d or with "
			"other cache sizes, while every thread's points are sized from CPU %d's caches: "
			"on %s a point labelled for a cache level may run from another (the default CPUs "
			"leave such cores out)\n",
			n == 1 ? "" : "s", list, n == 1 ? "is on a core" : "are on cores",
			rc->cfg.plan.cpus[0], rc->cfg.plan.cpus[0], n == 1 ? "it" : "them");
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
	r = levels_measure(&j->probe, t, rc->cfg.plan.cpus[0], tsc_hz, rc->cfg.plan.quick, e);
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
	int copied, why;

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
	copied = file_copy(in, out);
	why = errno;
	fclose(in);
	if (fclose(out) || copied)
		return err_set(e, E_RUNTIME, "%s: %s", dst, strerror(copied ? why : errno));
	return 0;
}

/* machine.json's "config", "preset" and "counters": what was chosen and what each experiment counts. */
static int experiments_json(struct run_cli *rc, struct run_job *j, json_t **config, json_t **preset,
			    json_t **counters, struct err *e)
{
	json_t *steps = json_array(), *per = json_array();
	char warning[512];

	*config = json_pack("{s:s, s:s, s:o}", "path", j->config_path, "arch",
			    j->arch.has_arch && j->arch.arch.title ? j->arch.arch.title : "none", "pmu",
			    experiment_pmu_json(&j->arch, warning, sizeof warning));
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
	st.aperf = j->use_aperf ? &j->aperf : NULL;
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
	st.llc = j->llc.v ? &j->llc : NULL;
	st.limit = cpu_limit_cpus(&j->limit) > 0 ? &j->limit : NULL;
	st.results = calloc((size_t)x->plan.npoints, sizeof *st.results);
	r = st.results ? run_measure(&st, e) : err_set(e, E_RUNTIME, "out of memory");
	if (!r) {
		if (x->name[0])
			printf("\n%s\n", x->name);
		int before = st.resume_after - *base + 1;
		struct summary_probe sp = {j->probe.npoints ? &j->probe : NULL, &cfg.plan, j->mf.core_ghz,
					   before < 0                         ? 0
						   : before > x->plan.npoints ? x->plan.npoints
									      : before};
		summary_print(stdout, &x->plan, st.results, &sp, rc->dir, rc->reported_levels,
			      rc->levels_from);
	}
	*base += x->plan.npoints;
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

/* How disturbed the machine was while it measured: /proc/stat's samples (none when it could not be read)
   and the speed probe's figures. */
static void record_disturbance(struct run_job *j)
{
	struct disturb_sample after;
	json_t *speed = speed_probe_json(&j->speed), *speed_all = speed_probe_json(&j->speed_all),
	       *memory = speed_probe_json(&j->memory), *memory_all = speed_probe_json(&j->memory_all),
	       *llc = level_check_json(&j->llc);

	json_decref(j->mf.disturbance);
	j->mf.disturbance = j->before.procs_running < 0 || disturb_read(DISTURB_PROC, &after, NULL)
		? json_object()
		: disturb_json(&j->before, &after);
	if (j->limit.version) {
		j->throttle_read[1] = cpu_limit_sample(&j->limit, &j->throttle[1], NULL) == 0;
		json_object_set_new(j->mf.disturbance, "cpu_limit",
				    cpu_limit_json(&j->limit, j->throttle_read[0] ? &j->throttle[0] : NULL,
						   j->throttle_read[1] ? &j->throttle[1] : NULL));
	}
	if (speed)
		json_object_set_new(j->mf.disturbance, "speed_probe", speed);
	if (speed_all)
		json_object_set_new(j->mf.disturbance, "speed_probe_threads", speed_all);
	if (memory)
		json_object_set_new(j->mf.disturbance, "memory_probe", memory);
	if (memory_all)
		json_object_set_new(j->mf.disturbance, "memory_probe_threads", memory_all);
	if (llc)
		json_object_set_new(j->mf.disturbance, "level_check", llc);
}

/* A speed probe's figures, as each line below the summaries states them; tenth_of: what they were taken
   over. */
static void say_figures(const struct speed_probe_figures *x, const char *tenth_of)
{
	printf("ran at %.1f GB/s at best, %.1f median, %.1f or less in a tenth of %s ", x->best, x->median,
	       x->p10, tenth_of);
	printf("(%.0f %% below the best)", 100 * (1 - x->p10 / x->best));
}

/* The speed probes' figures below the summaries: what they mean for comparing this run with another. */
static void say_speed(const struct run_job *j)
{
	struct speed_probe_figures f = speed_probe_figures(&j->speed), s = speed_probe_figures(&j->speed_all),
				   m = speed_probe_figures(&j->memory),
				   a = speed_probe_figures(&j->memory_all);

	if (f.n) {
		printf("machine speed: a %llu-byte %s read before each point ",
		       (unsigned long long)j->speed.bytes, j->speed.v->name);
		say_figures(&f, "the points");
		printf(": the machine itself was that much slower at times");
		/* as report.md words it (out_report_md.c): one point, its threads, after it */
		if (j->speed.waited == 1)
			printf("; before 1 point, where it read below %.0f %% of its best so far or its "
			       "threads shared a core, the run waited for it (%.1f s) and after it, it %s",
			       100 * SPEED_PROBE_SLOW, j->speed.waited_s,
			       j->speed.recovered ? "read at speed again" : "still read slow");
		else if (j->speed.waited)
			printf("; before %d points, where it read below %.0f %% of its best so far or their "
			       "threads shared a core, the run waited for it (%.1f s in all) and after %d of "
			       "them it read at speed again",
			       j->speed.waited, 100 * SPEED_PROBE_SLOW, j->speed.waited_s,
			       j->speed.recovered);
		printf("\n");
	}
	if (s.n) {
		printf("machine speed, %d threads: the same read by each of them at once before each "
		       "%d-thread point ",
		       j->speed_all.threads, j->speed_all.threads);
		say_figures(&s, "them");
		if (j->speed_all.judged)
			printf("; they shared a core (read together below %.0f %% of %d times one thread's "
			       "speed) before %d of them%s",
			       100 * SPEED_PROBE_SHARED, j->speed_all.threads, j->speed_all.shared,
			       j->speed_all.shared ? ", flagged noisy" : "");
		/* 100 % on cores of their own, each thread reading its own L1: below it, the host slowed the
		   points of as many threads by about as much (report.md's Run quality judges it) */
		if (j->speed_all.judged && f.n && f.median > 0)
			printf("; their median %.0f %% of %d times one thread's median",
			       100 * s.median / (j->speed_all.threads * f.median), j->speed_all.threads);
		printf("\n");
	}
	if (m.n) {
		printf("memory speed: a %llu MiB %s read before each DRAM point ",
		       (unsigned long long)(j->memory.bytes >> 20), j->memory.v->name);
		say_figures(&m, "them");
		printf(": the memory, shared with the host's other tenants, was that much slower at times\n");
	}
	if (a.n) {
		printf("memory speed, %d threads: the same read split over them before each %d-thread DRAM "
		       "point ",
		       j->memory_all.threads, j->memory_all.threads);
		say_figures(&a, "them");
		printf("\n");
	}
	if (j->llc.n) {
		const char *l = level_name(j->llc.level);
		printf("%s check: a chase over each %s point's working set before it, and after it ", l, l);
		printf("where that one read past the level; %d of %d read %.1f ns or slower ", j->llc.past,
		       j->llc.n, j->llc.past_ns);
		printf("(%s%s) before and after%s, %d only before (a burst); ",
		       j->llc.by_probe ? "where the level probe ended " : "DRAM-like",
		       j->llc.by_probe ? l : "", j->llc.past ? ", flagged noisy" : "", j->llc.bursts);
		printf("the slowest %.1f ns, at %llu KiB\n", j->llc.worst_ns,
		       (unsigned long long)(j->llc.worst_at >> 10));
	}
}

/* Where the run's cgroup has a CPU quota: below the threads of its points, a warning before they run
   (CFS bandwidth control stops every thread of the cgroup for the rest of a period once the quota is
   spent), and after them how often it did. */
static void say_cpu_limit(const struct run_job *j, int after, int threads)
{
	double cpus = cpu_limit_cpus(&j->limit);
	const char *worth = cpus == 1 ? "CPU's" : "CPUs'";
	const struct cpu_throttle *a = &j->throttle[0], *b = &j->throttle[1];

	if (!(cpus > 0))
		return;
	if (!after && cpus < threads)
		fprintf(stderr,
			"pmucheck run: the cgroup %s may use %.2g %s worth of time (%s), less than the %d "
			"CPU%s its %d-thread points keep busy: the kernel stops the run's threads for the "
			"rest of each %.0f ms period once they used it, which slows those points and leaves "
			"more of them noisy; machine.json records how often it did\n",
			j->limit.cgroup, cpus, worth, j->limit.version == 1 ? "cpu.cfs_quota_us" : "cpu.max",
			threads, threads > 1 ? "s" : "", threads, (double)j->limit.period_us / 1000);
	if (after && j->throttle_read[0] && j->throttle_read[1])
		printf("CPU limit: the cgroup %s may use %.2g %s worth of time; the kernel stopped the "
		       "run's threads in %llu of %llu periods, %.1f s in all: the points measured across "
		       "such a stop are slower or noisy\n",
		       j->limit.cgroup, cpus, worth, b->throttled - a->throttled, b->periods - a->periods,
		       (double)(b->throttled_ns - a->throttled_ns) * 1e-9);
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

static int measure(struct run_cli *rc, struct topo *t, struct run_job *j, struct err *e)
{
	double tsc_hz = tsc_calibrate_hz(rc->cfg.plan.quick ? 30 : 100);
	json_t *config = NULL, *preset = NULL, *counters = NULL;
	struct err speed_err;
	int r, base = 0, npoints = 0, most, dram_most;
	uint64_t llc_cap;

	run_pf_open(&j->pf, rc->cfg.plan.cpus, rc->cfg.plan.ncpus,
		    j->arch.has_arch ? j->arch.arch.prefetch : NULL);
	for (int i = 0; i < j->nxs; i++)
		run_pf_use(&j->pf, &j->xs[i].opts);
	say_skipped(j, t);
	say_unlike_cores(rc, j, t);
	r = rc->reported_levels || rc->levels_from ? 0 : probe_levels(rc, t, j, tsc_hz, e);
	/* Again: the prefetch states this machine allows and the measured levels change the points. */
	if (!r)
		r = plan_all(t, j, e);
	if (r)
		return r;
	j->mf.without_point = say_levels_without_point(j);
	r = experiments_json(rc, j, &config, &preset, &counters, e);
	if (r)
		return r;
	j->mf.tsc_hz = tsc_hz;
	clock_bounds_read(CLOCK_SYSFS_ROOT, &j->sys.cpu, &j->clock);
	j->mf.clock = &j->clock;
	if (clock_core_ghz(tsc_hz, 20, &j->clock, &j->mf.core_ghz, &j->clock_err))
		j->mf.core_clock_note = j->clock_err.msg;
	j->use_aperf = clock_aperf_find(clock_aperf_pmus(), &j->aperf, j->aperf_why, sizeof j->aperf_why) ==
			0 &&
		clock_aperf_try(&j->aperf, j->aperf_why, sizeof j->aperf_why) == 0;
	j->mf.aperf_note = j->use_aperf ? NULL : j->aperf_why;
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
	if (!r && rc->resumed)
		resume_budget(rc, j); /* of the points as the prefetch states allowed just now */
	most = most_threads(j, 0);
	dram_most = most_threads(j, 1);
	if (cpu_limit_find(CPU_LIMIT_ROOT, &j->limit, &speed_err))
		fprintf(stderr, "pmucheck run: %s: the CPU quota is not recorded\n", speed_err.msg);
	say_cpu_limit(j, 0, most);
	if (disturb_read(DISTURB_PROC, &j->before, NULL))
		j->before.procs_running = -1;
	if (j->limit.version)
		j->throttle_read[0] = cpu_limit_sample(&j->limit, &j->throttle[0], NULL) == 0;
	if (speed_probe_init(&j->speed, SPEED_PROBE_BYTES, tsc_hz, &speed_err) ||
	    (most > 1 &&
	     speed_probe_init_threads(&j->speed_all, SPEED_PROBE_BYTES * (uint64_t)most, tsc_hz, most,
				      &speed_err)) ||
	    speed_probe_init(&j->memory, MEMORY_PROBE_BYTES, tsc_hz, &speed_err) ||
	    (dram_most > 1 &&
	     speed_probe_init_threads(&j->memory_all, MEMORY_PROBE_BYTES, tsc_hz, dram_most, &speed_err)))
		fprintf(stderr, "pmucheck run: %s: no speed probe\n", speed_err.msg);
	j->speed.watched = 1; /* the run waits on it (run.c: probe_machine) */
	llc_cap = llc_check_cap(j, t);
	if (llc_cap &&
	    level_check_init(&j->llc, t, j->probed ? &j->probe : NULL, llc_cap, rc->cfg.plan.cpus[0], tsc_hz,
			     &speed_err))
		fprintf(stderr, "pmucheck run: %s: the last cache level is not checked\n", speed_err.msg);
	for (int i = 0; i < j->nxs && !r; i++)
		r = measure_experiment(rc, t, j, &j->xs[i], &base, tsc_hz, e);
	record_disturbance(j);
	say_speed(j);
	say_cpu_limit(j, 1, most);
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
	speed_probe_free(&j->speed_all);
	speed_probe_free(&j->memory);
	speed_probe_free(&j->memory_all);
	level_check_free(&j->llc);
	free(j);
}

int run_cli_execute(struct run_cli *rc, struct topo *t, int argc, char **argv, struct err *e)
{
	struct run_job *j = calloc(1, sizeof *j);
	int r;

	if (!j)
		return err_set(e, E_RUNTIME, "out of memory");
	j->budget_start = progress_now();
	progress_line_init(&j->progress, rc->progress);
	/* Every check first: bad input is refused before anything is written. */
	sysinfo_read(&j->sys);
	r = rc->levels_from && !rc->resumed ? take_levels(rc->levels_from, t, e) : 0;
	if (!r)
		r = build_experiments(rc, t, j, e);
	if (!r)
		r = plan_all(t, j, e);
	if (!r && rc->dry_run) {
		/* The states the real run would measure: without MSR access the off states are skipped. */
		run_pf_predict(&j->pf, rc->cfg.plan.cpus, rc->cfg.plan.ncpus,
			       j->arch.has_arch ? j->arch.arch.prefetch : NULL);
		for (int i = 0; i < j->nxs; i++)
			run_pf_use(&j->pf, &j->xs[i].opts);
		say_skipped(j, t);
		say_unlike_cores(rc, j, t);
		r = plan_all(t, j, e);
		if (!r)
			json_decref(say_levels_without_point(j));
		if (!r && !cpu_limit_find(CPU_LIMIT_ROOT, &j->limit, NULL))
			say_cpu_limit(j, 0, most_threads(j, 0));
		if (!r && rc->json)
			print_plan_json(j);
		else if (!r)
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
		j->mf = (struct machine_facts){.sys = &j->sys,
					       .topo = t,
					       .command = j->command,
					       .started = j->started,
					       .threads_max = rc->cfg.plan.ncpus,
					       .argc = rc->argc,
					       .argv = rc->argv,
					       .resumed = rc->resumed != NULL,
					       .levels_from = rc->resumed ? NULL : rc->levels_from};
		if (rc->resumed) {
			j->mf.probe = json_incref(rc->resumed->levels);
			/* its probe's times stand for its latency points in the summary as in the analysis */
			j->probe.npoints = levels_curve_read(rc->resumed->levels, j->probe.size, j->probe.ns,
							     LEVELS_MAX_POINTS);
		}
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
