/* run_job_say.c — what a run says to the user as it plans and as it ends: the plan (--dry-run, as JSON
 * with --json), the variants and prefetch states it skips, the levels without a point, --cpus on unlike
 * cores, the cgroup's CPU quota and the speed probes' figures. run_job.c decides when; nothing here
 * measures. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "level.h"
#include "num.h"
#include "run_job_int.h"
#include "stats.h"

/* The point's placement as --placement spells it ("node:1", "interleave"). */
static const char *place_name(const struct experiment *x, const struct plan_point *pt, char *buf, size_t len)
{
	buf_format_placement(&x->opts.places[pt->place], buf, len);
	return buf;
}

/* --dry-run: the points, one line each, per experiment. */
void run_job_say_plan(const struct run_job *j, int revisits)
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
	if (revisits)
		printf("then up to %d rounds of each bandwidth row's best point (in the first round also "
		       "each variant's best within %.0f %% of it, where the budget holds them) and each "
		       "one-thread latency point again, as the time budget allows (--revisits)\n",
		       revisits, 100 * REVISIT_RIVAL);
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

/* The plan's level_history: {"file", "probes", "measured": {"L<n>": bytes}} where it took its sizes from it,
   else null. */
static json_t *history_json(const struct run_job *j, const struct topo *t, int level_probe)
{
	if (!level_probe || !j->history.n)
		return json_null();
	return json_pack("{s:s, s:i, s:o}", "file", j->history.path, "probes", j->history.n, "measured",
			 topo_measured_json(t));
}

/* --dry-run --json: the facts run_job_say_plan and run_job_say_skipped give, as one object (docs/results-format.md). */
void run_job_say_plan_json(const struct run_job *j, const struct topo *t, int level_probe, int revisits)
{
	json_t *xs = json_array(), *o;
	int total = 0;

	for (int i = 0; i < j->nxs; i++) {
		json_array_append_new(xs, experiment_plan_json(&j->xs[i], total));
		total += j->xs[i].plan.npoints;
	}
	o = json_pack("{s:i, s:{s:b, s:o, s:o}, s:b, s:o, s:o, s:i, s:i}", "format", 1, "prefetch", "control",
		      j->pf.ctl || j->pf.predicted, "skipped", str_or_null(j->pf.skipped), "reason",
		      j->pf.ctl || j->pf.predicted ? json_null() : json_string(j->pf.reason), "level_probe",
		      level_probe, "level_history", history_json(j, t, level_probe), "experiments", xs,
		      "points_total", total, "revisits", revisits);
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(o);
}

/* The levels measured short in t, "L3 8192 KiB, ...", or "every level as reported". */
static void short_levels(const struct topo *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (int l = 0; l < t->ncaches && used < len; l++)
		if (t->caches[l].measured)
			used += (size_t)snprintf(buf + used, len - used, "%sL%d %llu KiB", used ? ", " : "",
						 l + 1, (unsigned long long)(t->caches[l].measured >> 10));
	if (!buf[0])
		snprintf(buf, len, "every level as reported");
}

/* A dry run on the sizes hwloc reports lists points a run's level probe may find far larger than what this
   CPU keeps: on a 2-vCPU Emerald Rapids guest told of a 300 MiB L3, --quick --dry-run listed L3 points of
   151 MiB and DRAM ones of 1.2 GiB, where the run, its probe ending L3 at 8 MiB, measured 3.4-4 MiB and
   64-128 MiB per thread. So it plans on the sizes this machine's level history gives, as a run does before
   its own probe is added (levels_history_preview), where there is one. */
void run_job_say_probe_ahead(const struct run_job *j, const struct topo *t)
{
	char sizes[256];

	if (!j->history.n) {
		const char *none = j->history.why[0] ? "no level history read: "
						     : "no level probe of this machine in the last day in ";
		fprintf(stderr,
			"pmucheck run: planned on the cache sizes hwloc reports (%s%s); a run first measures "
			"where each level ends (a pointer chase) and plans again from that, never "
			"larger: its points' levels, and a sweep's sizes, may differ (--reported-levels "
			"keeps these, --levels-from DIR takes an earlier run's)\n",
			none, j->history.why[0] ? j->history.why : j->history.path);
		return;
	}
	short_levels(t, sizes, sizeof sizes);
	fprintf(stderr,
		"pmucheck run: planned on the level sizes this machine's last %d level probe%s give (%s; "
		"history %s); a run first measures where each level ends again, adds that to the history "
		"and plans from what it then gives, never larger than reported: its points may differ "
		"(--reported-levels plans on hwloc's sizes, --levels-from DIR on an earlier run's)\n",
		j->history.n, j->history.n == 1 ? "" : "s", sizes, j->history.path);
}

void run_job_say_skipped(const struct run_job *j, const struct topo *t)
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
json_t *run_job_say_levels_without_point(const struct run_job *j)
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

/* Points of --sizes the plan calls DRAM below the sweep's smallest DRAM point of their kernel (plan_point
   dram_from): a shared last-level cache may serve part of such a stream, which makes its DRAM figure faster
   than the memory, the one thing issue 14 forbids a figure. Said, with one of them, not refused: a user may
   want that size. */
void run_job_say_short_of_dram(const struct run_job *j)
{
	const struct plan_point *first = NULL;
	int n = 0;

	for (int i = 0; i < j->nxs; i++)
		for (int k = 0; k < j->xs[i].plan.npoints; k++)
			if (j->xs[i].plan.points[k].dram_from) {
				first = first ? first : &j->xs[i].plan.points[k];
				n++;
			}
	if (!n)
		return;
	fprintf(stderr,
		"pmucheck run: %d point%s of --sizes that the plan calls DRAM lie%s below the smallest DRAM "
		"point the sweep would give %s kernel (%s at %.0f MiB a thread with %d thread%s: from "
		"%.0f MiB, 4x the last-level cache as the sweep reckons it, for a stream no less than the "
		"reported one up to %llu MiB): a shared last-level cache may serve a part of such a stream, "
		"and its DRAM figure be faster than the memory\n",
		n, n == 1 ? "" : "s", n == 1 ? "s" : "", n == 1 ? "its" : "their", first->var->name,
		(double)(first->bytes * first->fam->arrays) / (1 << 20), first->threads,
		first->threads == 1 ? "" : "s", (double)first->dram_from / (1 << 20),
		(unsigned long long)(PLAN_DRAM_REPORTED_LLC_CAP >> 20));
}

/* --cpus naming cores of another kind than the first CPU's, or with other caches: every thread's points are
   sized from the first CPU's caches (plan.h), so on those a point labelled L2 may run from L3 (a hybrid CPU's
   E-cores share a larger L2 four ways) or one labelled L3 from L2. The default CPUs leave such cores out; a
   user's list is kept. Only the CPUs a point runs on are named: a point of N threads takes the list's first
   N, so with --threads or a preset's steps below the list's length the rest are never used. */
void run_job_say_unlike_cores(const struct run_cli *rc, const struct run_job *j, const struct topo *t)
{
	int most = run_job_most_threads(j, MOST_OF_ALL),
	    used = most < rc->cfg.plan.ncpus ? most : rc->cfg.plan.ncpus;
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

/* A speed probe's figures, as each line below the summaries states them; tenth_of: what they were taken
   over. */
static void say_figures(const struct speed_probe_figures *x, const char *tenth_of)
{
	char b[3][32];

	printf("ran at %s GB/s at best, %s median, %s or less in a tenth of %s ",
	       num_format_rate(x->best, b[0], sizeof b[0]), num_format_rate(x->median, b[1], sizeof b[1]),
	       num_format_rate(x->p10, b[2], sizeof b[2]), tenth_of);
	printf("(%.0f %% below the best)", 100 * (1 - x->p10 / x->best));
}

/* The speed probe's best against this machine's earlier runs (speed_history.h): a run slow from its start to
   its end has no faster sample of its own to say so. */
static void say_history(const struct run_job *j, const struct speed_probe_figures *f)
{
	const struct speed_history *h = &j->speed_history;

	if (h->why[0]) {
		fprintf(stderr,
			"pmucheck run: no speed history kept (%s): the points are judged against this run's "
			"speed probe alone\n",
			h->why);
		return;
	}
	if (h->unsaved[0])
		fprintf(stderr, "pmucheck run: this run's speed is not added to the history (%s)\n",
			h->unsaved);
	if (!h->n)
		return;
	printf("machine speed over runs: the same read at %.1f GB/s at best in this machine's %d earlier",
	       h->machine_best, h->n);
	printf(" run%s of the last day%s (%s); this run's best is %.0f %% of it", h->n == 1 ? "" : "s",
	       h->n < SPEED_HISTORY_PASSED_OVER ? "" : ", one run in eight passed over", h->path,
	       100 * f->best / h->machine_best);
	if (speed_history_slow_run(h, f->best)) {
		printf(": the machine ran slow for the whole run, and each point before which the read");
		printf(" was below %.0f %% of %.1f GB/s is marked noisy (slow-machine)",
		       100 * NOISY_SLOW_SHARE, h->machine_best);
	}
	printf("\n");
}

/* The speed probes' figures below the summaries: what they mean for comparing this run with another. */
void run_job_say_speed(const struct run_job *j)
{
	struct speed_probe_figures f = speed_probe_figures(&j->speed), s = speed_probe_figures(&j->speed_all),
				   m = speed_probe_figures(&j->memory),
				   a = speed_probe_figures(&j->memory_all);
	struct path_probe_figures p = path_probe_figures(&j->path);

	if (f.n) {
		printf("machine speed: a %llu-byte %s read before each point ",
		       (unsigned long long)j->speed.bytes, j->speed.v->name);
		say_figures(&f, "the points");
		printf(": the machine itself was that much slower at times");
		/* as report.md words it (out_report_md.c): one point, its threads, after it */
		if (j->speed.waited == 1)
			printf("; before 1 point, where it read below %.0f %% of its best so far or this "
			       "machine's, or its threads shared a core, the run waited for it (%.1f s) and "
			       "after it, it %s",
			       100 * SPEED_PROBE_SLOW, j->speed.waited_s,
			       j->speed.recovered ? "read at speed again" : "still read slow");
		else if (j->speed.waited)
			printf("; before %d points, where it read below %.0f %% of its best so far or this "
			       "machine's, or their threads shared a core, the run waited for it (%.1f s in "
			       "all) and after %d of them it read at speed again",
			       j->speed.waited, 100 * SPEED_PROBE_SLOW, j->speed.waited_s,
			       j->speed.recovered);
		printf("\n");
		say_history(j, &f);
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
		double share = f.n ? stats_thread_share(s.median, j->speed_all.threads, f.median) : 0;
		if (j->speed_all.judged && share > 0)
			printf("; their median %.0f %% of %d times one thread's median", 100 * share,
			       j->speed_all.threads);
		printf("\n");
	}
	if (m.n) {
		printf("memory speed: a %llu MiB %s read before each DRAM point of the plan ",
		       (unsigned long long)(j->memory.bytes >> 20), j->memory.v->name);
		say_figures(&m, "them");
		printf(": the memory, shared with the host's other tenants, was that much slower at times\n");
	}
	if (a.n) {
		printf("memory speed, %d threads: the same read split over them before each %d-thread DRAM "
		       "point of the plan ",
		       j->memory_all.threads, j->memory_all.threads);
		say_figures(&a, "them");
		printf("\n");
	}
	if (p.n) {
		printf("paths to memory, %d threads: %s stores of %llu MiB by each of them at once ",
		       j->path.all.threads, j->path.one.v->name,
		       (unsigned long long)(j->path.one.bytes >> 20));
		printf("before each %d-thread point that reaches memory read %.2fx one thread's at best, ",
		       j->path.all.threads, p.best);
		printf("%.2fx median, %.2fx or less before a tenth of them", p.median, p.p10);
		if (p.shared)
			printf("; before %d of %d (below %.0f %% of %dx) their stores shared paths out of "
			       "the cores, and the %d-thread DRAM and non-temporal figures there are what "
			       "shared paths give",
			       p.shared, p.n, 100 * PATH_PROBE_SHARED, j->path.all.threads,
			       j->path.all.threads);
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
   spent), and after them how often it did; where a looser parent, shared with other jobs, stopped the
   run in more periods than the tightest quota, that parent too (cpu_limit_worst). */
void run_job_say_cpu_limit(const struct run_job *j, int after, int threads)
{
	double cpus = cpu_limit_cpus(&j->limit);
	const char *worth = cpus == 1 ? "CPU's" : "CPUs'";
	const struct cpu_throttle *a = &j->throttle[0], *b = &j->throttle[1];
	const struct cpu_stat *sa, *sb;
	int t = j->limit.tight, w;
	char cg[PATH_MAX];

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
	if (!after || !j->throttle_read[0] || !j->throttle_read[1])
		return;
	printf("CPU limit: the cgroup %s may use %.2g %s worth of time; the kernel stopped the run's threads "
	       "in %llu of %llu periods, %.1f s in all",
	       j->limit.cgroup, cpus, worth, b->at[t].throttled - a->at[t].throttled,
	       b->at[t].periods - a->at[t].periods,
	       (double)(b->at[t].throttled_ns - a->at[t].throttled_ns) * 1e-9);
	if ((w = cpu_limit_worst(&j->limit, a, b)) != t) {
		sa = &a->at[w];
		sb = &b->at[w];
		/* the run's own cgroup (looser than a parent's: a systemd service's CPUQuota inside a
		   tighter slice) or a parent shared with other jobs: its quota is spent by all under it */
		printf("; the quota of %s (%.2g CPUs' worth, spent by whatever runs under it) in %llu of "
		       "%llu periods, %.1f s",
		       cpu_limit_level_cgroup(&j->limit, w, cg),
		       (double)j->limit.level[w].quota_us / (double)j->limit.level[w].period_us,
		       sb->throttled - sa->throttled, sb->periods - sa->periods,
		       (double)(sb->throttled_ns - sa->throttled_ns) * 1e-9);
	}
	printf(": the points measured across such a stop are slower or noisy\n");
}

/* What --revisits measured, and why fewer rounds than asked where so. */
void run_job_say_revisits(const struct run_job *j)
{
	const struct revisit_done *d = &j->revisits;

	if (!d->asked)
		return;
	printf("revisits: %d of %d rounds, %d points in %.1f s, each row's best point", d->rounds, d->asked,
	       d->n, d->seconds);
	if (d->rival > 0)
		printf(" (in the first round also each variant's best within %.0f %% of it)", 100 * d->rival);
	printf(" and each one-thread latency point measured again (raw.csv points past the plan's; a "
	       "bandwidth is the best of its row's points, a latency the median of its sizes, each at its "
	       "fastest visit)");
	if (d->rivals_left_out[0])
		printf("; %s", d->rivals_left_out);
	if (d->why[0])
		printf("; %s", d->why);
	printf("\n");
}
