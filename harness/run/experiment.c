#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "ctr.h"
#include "ctr_int.h"
#include "experiment.h"
#include "run_prefetch.h"

int experiment_load_config(const char *path, const struct cpuid_info *cpu, struct cfg *c, int *found,
			   char *chosen, size_t len, struct err *e)
{
	int rc;

	*found = 0;
	memset(c, 0, sizeof *c);
	if (!path) {
		struct err why;
		rc = cfg_select_for_cpu(NULL, cpu->vendor, cpu->family, cpu->model, chosen, len, &why);
		if (rc == E_RUNTIME) {
			/* An installed binary without its configs still measures; it just has no candidates. */
			snprintf(chosen, len, "none (%s)", why.msg);
			return 0;
		}
		if (rc)
			return err_set(e, rc, "%s", why.msg);
		path = chosen;
	}
	rc = cfg_load(path, c, e);
	if (rc)
		return err_wrap(e, E_USAGE, "--config");
	if (!c->has_arch) {
		cfg_free(c);
		return err_set(e, E_USAGE,
			       "--config: %s has no [arch] section: it is not an architecture config", path);
	}
	if (path != chosen)
		snprintf(chosen, len, "%s", path);
	*found = 1;
	return 0;
}

json_t *experiment_pmu_json(const struct cfg *c, char *warning, size_t len)
{
	const char *want = c->has_arch ? c->arch.pmu : NULL;
	char here[CTR_NAME_MAX], note[512];
	unsigned bare = 0;
	int known = ctr_pfm_core_pmu(here, sizeof here), agrees = !want || !known || !strcmp(want, here);

	*warning = '\0';
	for (unsigned i = 0; i < c->nevents; i++)
		bare += c->events[i].backend == CFG_PAPI && !strstr(c->events[i].spec, "::");
	if (!want)
		snprintf(note, sizeof note, "the config names no libpfm4 PMU");
	else if (!known)
		snprintf(note, sizeof note, "libpfm4 detects no core PMU here: its names cannot be counted");
	else if (agrees)
		snprintf(note, sizeof note, "libpfm4's core PMU is the config's");
	else {
		snprintf(note, sizeof note,
			 "libpfm4's core PMU here is %s, the config's is %s: %u of its events are PAPI names "
			 "without a pmu:: prefix, which libpfm4 resolves against %s, another PMU's table",
			 here, want, bare, here);
		snprintf(warning, len, "%s", note);
	}
	return json_pack("{s:o, s:o, s:b, s:s}", "config", want ? json_string(want) : json_null(), "libpfm4",
			 known ? json_string(here) : json_null(), "agrees", agrees, "note", note);
}

/* Counted in every plain run besides the config's candidates: software events that any Linux counts,
   so that even a machine without a PMU validates one event end to end (page faults against `touch`). */
static const char *const software_events[] = {"page-faults", "minor-faults"};
#define NSOFTWARE (sizeof software_events / sizeof *software_events)

/* Whether arch lists spec itself: a software event it gives a hypothesis for is counted once, as its. */
static int config_lists(const struct cfg *arch, const char *spec)
{
	for (unsigned i = 0; arch && i < arch->nevents; i++)
		if (!strcmp(arch->events[i].spec, spec))
			return 1;
	return 0;
}

/* The candidate events of arch that `want` accepts (NULL: all, plus the software events), resolved
   leniently: what this machine cannot count is recorded as not measured. Each candidate's hypothesis goes
   to x->hypotheses under the name raw.csv gives its row: the spec, which for a box wildcard is the summed
   row's name. */
static int config_events(struct experiment *x, const struct cfg *arch, const struct cfg_run *want,
			 struct err *e)
{
	unsigned cap = NSOFTWARE, n = 0;
	char(*boxes)[CTR_SPEC_MAX] = NULL;
	const char **specs, **conflicts, **sums;
	int rc;

	for (unsigned i = 0; arch && i < arch->nevents; i++)
		cap += boxes_room(arch->events[i].spec);
	specs = calloc(cap, sizeof *specs);
	conflicts = calloc(cap, sizeof *conflicts);
	sums = calloc(cap, sizeof *sums);
	boxes = calloc(cap, sizeof *boxes);
	x->hypotheses = json_object();
	if (!specs || !conflicts || !sums || !boxes || !x->hypotheses) {
		rc = err_set(e, E_RUNTIME, "out of memory");
		goto out;
	}
	for (unsigned i = 0; !want && i < NSOFTWARE; i++)
		if (!config_lists(arch, software_events[i]))
			specs[n++] = software_events[i];
	for (unsigned i = 0; arch && i < arch->nevents; i++) {
		const struct cfg_event *ce = &arch->events[i];
		unsigned from = n;

		if (want && !cfg_run_wants(want, ce->quantity))
			continue;
		/* the first of two events with one spec is the hypothesis its rows are judged against */
		if (!json_object_get(x->hypotheses, ce->spec))
			json_object_set_new(x->hypotheses, ce->spec, cfg_event_hypothesis_json(ce));
		n = boxes_append(ce->spec, CTR_SYSFS_PMUS, boxes, specs, sums, n);
		while (from < n)
			conflicts[from++] = ce->conflict;
	}
	rc = run_events_setup_specs(&x->ev, specs, conflicts, sums, n, RUN_EVENTS_LENIENT, e);
out:
	free(specs);
	free(conflicts);
	free(sums);
	free(boxes);
	return rc;
}

int experiment_plain(struct experiment *x, const struct plan_opts *base, int reps, const char *events,
		     int keep_going, const struct cfg *arch, struct err *e)
{
	memset(x, 0, sizeof *x);
	x->opts = *base;
	x->reps = reps;
	if (events)
		return run_events_setup(&x->ev, events,
					keep_going ? RUN_EVENTS_KEEP_GOING : RUN_EVENTS_STRICT, e);
	return config_events(x, arch, NULL, e);
}

static void note(struct experiment *x, const char *fmt, const char *what)
{
	size_t n = strlen(x->skipped);
	snprintf(x->skipped + n, sizeof x->skipped - n, "%s", n ? "; " : "");
	n = strlen(x->skipped);
	snprintf(x->skipped + n, sizeof x->skipped - n, fmt, what);
}

/* The step's thread counts on this machine: "socket" is every CPU in use; more than that is skipped. */
static void step_threads(struct experiment *x, const struct cfg_run *r)
{
	char over[128] = "";

	x->opts.nthreads = 0;
	for (unsigned i = 0; i < r->threads.n && x->opts.nthreads < PLAN_MAX_THREADS; i++) {
		int t = r->threads.v[i] == CFG_THREADS_SOCKET ? x->opts.ncpus : (int)r->threads.v[i];
		int dup = 0;
		if (t > x->opts.ncpus) {
			size_t n = strlen(over);
			snprintf(over + n, sizeof over - n, "%s%d", n ? ", " : "", t);
			continue;
		}
		for (int j = 0; j < x->opts.nthreads; j++)
			dup |= x->opts.threads[j] == t;
		if (!dup)
			x->opts.threads[x->opts.nthreads++] = t;
	}
	if (over[0])
		note(x, "%s threads (more than the CPUs in use)", over);
}

static void step_places(struct experiment *x, const struct cfg_run *r, const struct topo *t)
{
	x->opts.nplaces = 0;
	if (!r->placement || (r->placement & CFG_LOCAL))
		x->opts.places[x->opts.nplaces++] = (struct buf_place){BUF_LOCAL, -1};
	if (r->placement & CFG_REMOTE) {
		if (t->numa_nodes > 1)
			x->opts.places[x->opts.nplaces++] = (struct buf_place){BUF_REMOTE, -1};
		else
			note(x, "%s memory (one NUMA node)", "remote");
	}
	if (r->placement & CFG_INTERLEAVE)
		x->opts.places[x->opts.nplaces++] = (struct buf_place){BUF_INTERLEAVE, -1};
}

/* Whether this CPU has the instructions of kernel `name` (a family: of one of its variants); an unknown name is
   left to plan_build to refuse. */
static int kernel_runs_here(const char *name)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_find(name, &f);

	if (!f || strchr(name, '.'))
		return !v || cpuid_isa_ok(v->isa);
	for (unsigned i = 0; i < f->nvariants; i++)
		if (cpuid_isa_ok(f->variants[i].isa))
			return 1;
	return 0;
}

/* Fills x from one preset step; *runs is 0 when nothing of the step can run here (x->skipped says why). */
static int step(struct experiment *x, const char *path, const struct cfg_run *r, const struct cfg *arch,
		const struct plan_opts *base, int reps, const struct topo *t, int *runs, struct err *e)
{
	int rc, can = 0;
	char *kernels = x->kernels;

	memset(x, 0, sizeof *x);
	snprintf(x->name, sizeof x->name, "%s", r->name);
	snprintf(x->at, sizeof x->at, "%s:%u", path, r->line);
	x->opts = *base;
	x->reps = r->repeat ? (int)r->repeat : reps;
	x->reference = r->reference;
	x->note = r->note;

	kernels[0] = 0;
	for (unsigned i = 0; i < r->nkernels; i++) {
		size_t n = strlen(kernels);
		snprintf(kernels + n, sizeof x->kernels - n, "%s%s", i ? "," : "", r->kernels[i]);
		can |= kernel_runs_here(r->kernels[i]);
	}
	/* a step of widths this CPU lacks only (load.avx512 without AVX-512): skipped, as its variants are */
	if (!can)
		note(x, "%s (this CPU lacks their instructions)", kernels);
	x->opts.kernels = kernels;
	x->opts.explicit_kernels = 0; /* widths this CPU lacks are skipped, not refused */
	_Static_assert(CFG_RUN_MAX_SIZES == PLAN_MAX_SIZES && CFG_RUN_MAX_ARGS == PLAN_MAX_ARGS &&
			       CFG_RUN_MAX_THREADS == PLAN_MAX_THREADS,
		       "a step's lists are a run's (cfg.h)");
	x->opts.nsizes = 0;
	for (unsigned i = 0; i < r->sizes.n; i++)
		x->opts.sizes[x->opts.nsizes++] = r->sizes.v[i];
	x->opts.level_mask = r->sizes.n ? 0 : r->levels; /* both LEVEL_BIT masks */
	x->opts.nargs = 0;
	for (unsigned i = 0; i < r->args.n; i++)
		x->opts.args[x->opts.nargs++] = r->args.v[i];
	step_threads(x, r);
	step_places(x, r, t);
	rc = run_pf_states(r->prefetch == CFG_PF_ON            ? "on"
				   : r->prefetch == CFG_PF_OFF ? "off"
							       : "on,off",
			   &x->opts, e);
	if (rc)
		return experiment_error(x, rc, e);
	*runs = can && x->opts.nthreads > 0 && x->opts.nplaces > 0;
	return *runs ? config_events(x, arch, r, e) : 0;
}

int experiment_preset_known(const struct cfg *presets, const char *name, struct err *e)
{
	char names[512] = "";

	if (cfg_preset_find(presets, name))
		return 0;
	for (unsigned i = 0; i < presets->npresets; i++) {
		size_t used = strlen(names);
		snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", presets->presets[i].name);
	}
	return err_set(e, E_USAGE, "--preset: no preset '%s' (%s has: %s)", name, presets->path, names);
}

int experiment_error(const struct experiment *x, int r, struct err *e)
{
	return x->name[0] ? err_wrap(e, r, "%s: preset step %s", x->at, x->name) : r;
}

int experiment_preset(const struct cfg *presets, const char *name, const struct cfg *arch,
		      const struct plan_opts *base, int reps, const struct topo *t, struct experiment **out,
		      int *n, char *skipped, size_t len, struct err *e)
{
	const struct cfg_preset *p = cfg_preset_find(presets, name);
	struct experiment *xs;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!p)
		return experiment_preset_known(presets, name, e);
	xs = calloc(p->nruns, sizeof *xs);
	if (!xs)
		return err_set(e, E_RUNTIME, "out of memory");
	if (len)
		skipped[0] = 0;
	for (unsigned i = 0; i < p->nruns && !rc; i++) {
		int runs = 0;
		size_t used = strnlen(skipped, len);

		rc = step(&xs[*n], presets->path, &presets->runs[p->first_run + i], arch, base, reps, t,
			  &runs, e);
		/* a step that runs in part (helm2020's 16 threads on 2 CPUs, molka2017's remote memory on one
		   NUMA node) says what it leaves out as one skipped whole does */
		if (!rc && xs[*n].skipped[0] && used + 1 < len)
			snprintf(skipped + used, len - used, "%s%s%s here: %s", used ? "\n" : "",
				 runs ? "part of " : "", xs[*n].name, xs[*n].skipped);
		if (!rc && runs)
			(*n)++;
	}
	if (rc) {
		/* the failed step too: its hypotheses may be built (xs is zeroed past it) */
		for (int i = 0; i <= *n && i < (int)p->nruns; i++)
			experiment_free(&xs[i]);
		free(xs);
		*n = 0;
		return rc;
	}
	*out = xs;
	return 0;
}

void experiment_free(struct experiment *x)
{
	plan_free(&x->plan);
	run_events_free(&x->ev);
	json_decref(x->hypotheses);
	x->hypotheses = NULL;
}
