/* discover_job.c — `pmucheck discover` once its options are checked (cli_discover.c): the candidates
 * from every source, their groups here and on their CPU and the time they take (printed), then the run
 * of the compact plan counting them, candidates.json, the analysis and the discovered config, loaded
 * back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cfg.h"
#include "discover_job.h"
#include "file_copy.h"
#include "out_report.h"
#include "results.h"
#include "run_prefetch.h"

/* The architecture config of libpfm4's core PMU here (or of the one LIBPFM_FORCE_PMU names): its
   [arch] pmu_uncore says which of libpfm4's uncore PMUs belong to it, which libpfm4's API does not.
   Without such a config *arch stays empty: no uncore PMU beyond those libpfm4 detects. What was found
   goes into say, printed once every source is read (a refused one prints nothing but its error). */
static int arch_of_core_pmu(struct cfg *arch, char *say, size_t len, struct err *e)
{
	char pmu[CTR_NAME_MAX], path[4096];
	int found = 0, rc;

	if (!ctr_pfm_core_pmu(pmu, sizeof pmu)) {
		snprintf(say, len, "libpfm4 core PMU: none detected\n");
		return 0;
	}
	if ((rc = cfg_select_for_pmu(NULL, pmu, path, sizeof path, &found, e)) || !found) {
		snprintf(
			say, len,
			"libpfm4 core PMU: %s (no config names it in [arch] pmu: no uncore PMUs beyond those "
			"libpfm4 detects)\n",
			pmu);
		return rc;
	}
	if ((rc = cfg_load(path, arch, e)))
		return rc;
	snprintf(say, len, "libpfm4 core PMU: %s; its uncore PMUs (%s [arch] pmu_uncore): %s\n", pmu, path,
		 arch->arch.pmu_uncore ? arch->arch.pmu_uncore : "none");
	return 0;
}

/* The sources read, for the message that none gave a candidate: those left out (--no-sysfs,
   --no-libpfm) are not named, the vendor files and --add-events are. */
static void sources_read(const struct disc_cli *d, const char *pfm_version, char *out, size_t len)
{
	size_t n = 0;

	out[0] = 0;
	if (!d->no_sysfs)
		n += (size_t)snprintf(out + n, len - n, "sysfs");
	if (!d->no_libpfm && n < len)
		n += (size_t)snprintf(out + n, len - n, "%slibpfm4 %s", n ? ", " : "", pfm_version);
	for (unsigned i = 0; i < d->nvendor && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%svendor file %s", n ? ", " : "", d->vendor[i]);
	if (d->add_events && n < len)
		snprintf(out + n, len - n, "%s--add-events", n ? ", " : "");
}

/* Every source, then the filters. Nothing is kept when a source is refused. */
int discover_job_build_candidates(const struct disc_cli *d, struct disc_list *l, char *pfm_version,
				  size_t len, struct err *e)
{
	char pmu_say[4096 + 256] = "";
	unsigned npmus = 0;
	int rc = 0;

	snprintf(pfm_version, len, "not read");
	if (!d->no_sysfs)
		rc = disc_sysfs(d->sysfs ? d->sysfs : CTR_SYSFS_PMUS, l, e);
	if (!rc && !d->no_libpfm) {
		struct cfg arch = {0};
		if (!(rc = arch_of_core_pmu(&arch, pmu_say, sizeof pmu_say, e)))
			rc = disc_pfm(d->filter.pmus, arch.arch.pmu_uncore, l, &npmus, pfm_version, len, e);
		cfg_free(&arch);
	}
	for (unsigned i = 0; !rc && i < d->nvendor; i++)
		rc = disc_vendor(d->vendor[i], l, e);
	if (!rc && d->add_events)
		rc = disc_given(d->add_events, l, e);
	if (!rc) {
		fputs(pmu_say, stdout);
		rc = disc_filter_apply(l, &d->filter, e);
	}
	if (!rc && !l->n) {
		char sources[256];

		sources_read(d, pfm_version, sources, sizeof sources);
		rc = err_set(e, E_RUNTIME,
			     "no candidate events: the sources (%s) named none that the filters keep "
			     "(try --all, --pmu, --vendor FILE)",
			     sources);
	}
	return rc;
}

/* Every candidate, one line each; the last column is its group on the candidates' CPU (from 1). */
static void print_list(const struct disc_list *l, const struct disc_plan *p)
{
	printf("# name\tspec\tpmu\torigin\tconfig\tconfig1\tcounters\tscale\tunit\tsource\tgroup\n");
	for (unsigned i = 0; i < l->n; i++) {
		const struct disc_cand *c = &l->c[i];
		unsigned group = 0;
		printf("%s\t%s\t%s\t%s\t", c->name, c->spec, c->pmu, disc_origin_names[c->origin]);
		if (c->has_config)
			printf("0x%llx\t0x%llx\t", (unsigned long long)c->config,
			       (unsigned long long)c->config1);
		else
			printf("\t\t");
		for (unsigned g = 0; g < p->groups.ngroups && !group; g++)
			for (unsigned k = 0; k < p->groups.groups[g].n; k++)
				if (p->groups.groups[g].ev[k] == &p->evs[i])
					group = g + 1;
		printf("%u\t%g\t%s\t%s\t%u\n", c->counters, c->scale, c->unit, c->source, group);
	}
}

static void print_sources(const struct disc_list *l, const char *pfm_version)
{
	unsigned by[DISC_ORIGINS] = {0}, uncore = 0;

	for (unsigned i = 0; i < l->n; i++) {
		by[l->c[i].origin]++;
		uncore += l->c[i].uncore;
	}
	printf("candidates: %u (sysfs %u, libpfm4 %u, vendor %u, given %u; %u uncore); %u entries of the "
	       "sources skipped (metrics, fixed-counter events, encodings libpfm4 refuses); libpfm4 %s\n",
	       l->n, by[DISC_SYSFS], by[DISC_LIBPFM], by[DISC_VENDOR], by[DISC_GIVEN], uncore, l->skipped,
	       pfm_version);
}

/* Groups per PMU of the target plan, one line. */
static void print_target(const struct disc_plan *p)
{
	printf("groups on the candidates' CPU: %u (never multiplexed)", p->groups.ngroups);
	for (unsigned g = 0; g < p->groups.ngroups; g++) {
		const char *pool = p->groups.groups[g].pool;
		unsigned n = 0, events = 0;
		int first = 1;
		for (unsigned k = 0; k < g; k++)
			first &= strcmp(p->groups.groups[k].pool, pool) != 0;
		if (!first)
			continue;
		for (unsigned k = g; k < p->groups.ngroups; k++)
			if (!strcmp(p->groups.groups[k].pool, pool))
				n++, events += p->groups.groups[k].n;
		unsigned counters = p->groups.groups[g].ev[0]->counters;
		printf("%s %s: %u event%s in %u group%s", g ? "," : ":", pool, events, events == 1 ? "" : "s",
		       n, n == 1 ? "" : "s");
		/* 0 is a pool without a limit (software and free-running PMUs: msr, power), not one of none */
		if (counters)
			printf(" of at most %u", counters);
		else
			printf(", no counter limit");
	}
	printf("\n");
}

/* Seconds per pass of each point (a pass over a DRAM buffer outlasts the shortest timed call): the
   bytes it moves at 4 GB/s, a pointer chase's lines at 100 ns each (a DRAM access, Molka Fig. 7). */
static double *pass_times(const struct plan *pl)
{
	double *t = calloc((size_t)pl->npoints + 1, sizeof *t);

	for (int i = 0; t && i < pl->npoints; i++) {
		const struct plan_point *pt = &pl->points[i];
		double bytes = (double)pt->bytes * pt->fam->arrays;
		t[i] = pt->var->access == KA_LATENCY ? bytes / KERN_LINE * 100e-9 : bytes / 4e9;
	}
	return t;
}

static void say_time(const char *what, double least, double typical)
{
	printf("%s: at least %.0f s (one repetition per group), about %.0f s (three)\n", what, least,
	       typical);
}

/* The run's arguments: the compact plan, the events, and what the user forwarded. *events is kept by
   the caller for as long as the run_cli refers to it. */
int discover_job_run_args(const struct disc_cli *d, const char *events, char **av, int max)
{
	int n = 0;

	av[n++] = (char *)"discover";
	av[n++] = (char *)"--kernels";
	av[n++] = (char *)d->kernels;
	av[n++] = (char *)"--threads";
	av[n++] = (char *)"1";
	if (d->sizes) {
		av[n++] = (char *)"--sizes";
		av[n++] = (char *)d->sizes;
	} else {
		av[n++] = (char *)"--quick"; /* one size per level */
	}
	av[n++] = (char *)"--time-budget";
	av[n++] = (char *)d->budget;
	av[n++] = (char *)"--keep-going";
	/* the candidates' counts are what discover is for: a revisit counts none (revisit.h) */
	av[n++] = (char *)"--revisits";
	av[n++] = (char *)"0";
	av[n++] = (char *)"--events";
	av[n++] = (char *)events;
	for (int i = 0; i < d->run_argc && n < max - 1; i++)
		av[n++] = d->run_argv[i];
	av[n] = NULL;
	return n;
}

/* "spec,spec,..." of the candidates still planned. */
static char *event_list(const struct disc_list *l, const bool *planned)
{
	size_t len = 1;
	char *s, *p;

	for (unsigned i = 0; i < l->n; i++)
		len += strlen(l->c[i].spec) + 1;
	if (!(s = p = malloc(len)))
		return NULL;
	*s = '\0';
	for (unsigned i = 0; i < l->n; i++)
		if (planned[i])
			p += sprintf(p, "%s%s", p == s ? "" : ",", l->c[i].spec);
	return s;
}

/* The first k groups of this machine whose least time fits the budget; the rest are left out. */
static void fit_budget(struct disc_job *j, const double *pass, double budget)
{
	unsigned ng = j->here.plan.ngroups, k = ng;
	double least, typical;

	for (; k > 0; k--) {
		disc_estimate(pass, (unsigned)j->pl.npoints, k, j->rc.cfg.min_seconds, &least, &typical);
		if (least <= budget)
			break;
	}
	for (unsigned g = k; g < ng; g++)
		for (unsigned m = 0; m < j->here.plan.groups[g].n; m++) {
			const struct ctr_event *ev = j->here.plan.groups[g].ev[m];
			if (ev >= j->here.evs && ev < j->here.evs + j->here.nev)
				j->planned[ev - j->here.evs] = false;
		}
	if (k < ng)
		printf("time budget: %u of %u groups fit in --time-budget %.0f s; the events of the other %u "
		       "are "
		       "left out and recorded as not measured\n",
		       k, ng, budget, ng - k);
}

int discover_job_plan_and_say(const struct disc_cli *d, struct topo *t, struct disc_job *j, struct err *e)
{
	unsigned countable = 0;
	double least, typical, *pass;
	const char **specs;
	int rc;

	specs = calloc(j->l.n + 1, sizeof *specs);
	j->planned = calloc(j->l.n + 1, sizeof *j->planned);
	if (!specs || !j->planned) {
		free(specs);
		return err_set(e, E_RUNTIME, "out of memory");
	}
	for (unsigned i = 0; i < j->l.n; i++) {
		specs[i] = j->l.c[i].spec;
		j->planned[i] = true;
	}
	rc = run_events_setup_specs(&j->here, specs, NULL, NULL, j->l.n, RUN_EVENTS_LENIENT, e);
	free(specs);
	if (!rc)
		rc = disc_plan_build(&j->l, &j->target, e);
	/* the prefetcher states the run will measure, as its dry run predicts them (by pmucheck's lists:
	   an architecture config whose [arch] prefetch says otherwise is the run's to read): both where
	   the MSRs can be switched, so twice the points; a bad --prefetch is refused before the plan */
	if (!rc)
		rc = run_pf_states(j->rc.prefetch, &j->rc.cfg.plan, e);
	if (!rc) {
		struct run_pf pf;
		run_pf_predict(&pf, j->rc.cfg.plan.cpus, j->rc.cfg.plan.ncpus, NULL);
		run_pf_use(&pf, &j->rc.cfg.plan);
		rc = plan_build(&j->rc.cfg.plan, t, &j->pl, e);
	}
	if (rc)
		return rc;
	for (unsigned i = 0; i < j->here.nev; i++)
		countable += j->here.evs[i].status == CTR_OK;
	print_sources(&j->l, j->pfm_version);
	if (d->list)
		print_list(&j->l, &j->target);
	print_target(&j->target);
	printf("plan: %d points (%s, one thread, one size per level unless --sizes; prefetchers %s)\n",
	       j->pl.npoints, d->kernels,
	       j->rc.cfg.plan.npf > 1 ? "on and off" : j->rc.cfg.plan.pf_states[0]);
	pass = pass_times(&j->pl);
	disc_estimate(pass, (unsigned)j->pl.npoints, j->target.groups.ngroups, j->rc.cfg.min_seconds, &least,
		      &typical);
	say_time("time on the candidates' CPU", least, typical);
	printf("countable here: %u of %u candidates, in %u groups%s\n", countable, j->l.n,
	       j->here.plan.ngroups,
	       countable < j->l.n ? "; the others are recorded as not measured, with the reason" : "");
	for (unsigned i = 0; i < j->here.nev && countable < j->l.n; i++)
		if (j->here.evs[i].status != CTR_OK) {
			printf("  e.g. %s: %s\n", j->here.evs[i].spec, j->here.evs[i].reason);
			break;
		}
	disc_estimate(pass, (unsigned)j->pl.npoints, j->here.plan.ngroups, j->rc.cfg.min_seconds, &least,
		      &typical);
	say_time("time here", least, typical);
	fit_budget(j, pass, j->rc.cfg.time_budget);
	free(pass);
	return 0;
}

/* candidates.json: the candidates, the target groups, and per candidate what this machine made of it. */
static int write_candidates(struct disc_job *j, struct err *e)
{
	json_t *root = disc_json(&j->l, &j->target), *cands = json_object_get(root, "candidates");
	int rc;

	for (unsigned i = 0; i < j->l.n; i++) {
		json_t *o = json_array_get(cands, i);
		json_object_set_new(o, "planned", json_boolean(j->planned[i]));
		json_object_set_new(o, "status_here", json_string(ctr_status_name(j->here.evs[i].status)));
		json_object_set_new(o, "reason_here", json_string(j->here.evs[i].reason));
	}
	json_object_set_new(root, "libpfm4", json_string(j->pfm_version));
	rc = results_write_json(j->rc.dir, "candidates.json", root, e);
	json_decref(root);
	return rc;
}

/* The discovered config must load; --write puts a copy where the user asked. */
static int check_config(const char *dir, const char *write, unsigned *events, struct err *e)
{
	char path[4096];
	struct cfg c;
	FILE *in, *out;
	int why;

	snprintf(path, sizeof path, "%s/discovered.ini", dir);
	if (cfg_load(path, &c, e))
		return err_wrap(e, E_RUNTIME, "the discovered config does not load");
	*events = c.nevents;
	cfg_free(&c);
	if (!write)
		return 0;
	if (!(in = fopen(path, "r")))
		return err_set(e, E_RUNTIME, "%s: cannot read", path);
	if (!(out = fopen(write, "wx"))) {
		why = errno;
		fclose(in);
		return err_set(e, E_RUNTIME, "--write %s: cannot create it: %s", write, strerror(why));
	}
	if ((why = file_copy(in, out)))
		return err_set(e, E_RUNTIME, "--write %s: write failed: %s", write, strerror(why));
	return 0;
}

int discover_job_measure(const struct disc_cli *d, struct topo *t, struct disc_job *j, struct err *e)
{
	struct analyze_summary sum;
	struct out_report_summary rep;
	unsigned written = 0;
	int ac, rc;

	free(j->events);
	if (!(j->events = event_list(&j->l, j->planned)))
		return err_set(e, E_RUNTIME, "out of memory");
	/* every candidate left out by the budget (fit_budget): the run stopped at "an empty name" */
	if (!*j->events)
		return err_set(e, E_USAGE,
			       "--time-budget %.0f s: not one group of candidates fits in it (the time each "
			       "takes is above); give it more",
			       j->rc.cfg.time_budget);
	ac = discover_job_run_args(d, j->events, j->av, 64);
	if ((rc = run_cli_parse(ac, j->av, t, &j->rc, e)) ||
	    (rc = run_cli_execute(&j->rc, t, ac, j->av, e)) || (rc = write_candidates(j, e)) ||
	    (rc = analyze_dir(j->rc.dir, &sum, e)) || (rc = out_report(j->rc.dir, &rep, e)) ||
	    (rc = check_config(j->rc.dir, d->write, &written, e)))
		return rc;
	printf("\ndiscovered: %u events with a hypothesis in %s/discovered.ini (it loads)%s%s\n", written,
	       j->rc.dir, d->write ? ", copied to " : "", d->write ? d->write : "");
	printf("verdicts: %s/events.md; candidates and sources: candidates.json; report: report.html\n",
	       j->rc.dir);
	return 0;
}

void discover_job_free(struct disc_job *j)
{
	disc_free(&j->l);
	disc_plan_free(&j->target);
	run_events_free(&j->here);
	plan_free(&j->pl);
	free(j->planned);
	free(j->events);
	free(j);
}
