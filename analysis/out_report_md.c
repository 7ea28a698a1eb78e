/* out_report_md.c — report.md. The reader first learns what this run could not tell (events not
 * measured and why, prefetcher states skipped, level limits in doubt), then sees the figures, then
 * the tables analyze wrote, included verbatim so there is one source for each number. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "busy.h"
#include "tsc_drift.h"
#include "noisy_why.h"
#include "num.h"
#include "out_report_clock.h"
#include "out_report_hypo.h"
#include "out_report_md.h"
#include "out_report_ref.h"
#include "peak.h"
#include "stats.h"
#include "thresholds.h"

static void header(FILE *f, const struct out_rdata *d)
{
	const struct machine *m = &d->a.m;

	fprintf(f, "# pmucheck report: %s, %s\n\n", *m->host ? m->host : "unknown host",
		*m->cpu ? m->cpu : "unknown CPU");
	fprintf(f,
		"Results directory `%s`: %lu raw rows, %u points, %u events. Run `%s` (pmucheck %s), "
		"%s to %s; kernel %s, microcode %s.\n\n",
		d->dir, d->a.rows, d->a.npoints, d->a.nevents, m->command, m->version, m->started,
		m->finished, *m->kernel ? m->kernel : "unknown", *m->microcode ? m->microcode : "unknown");
}

/* A speed probe that read THR_SPEED_SLOW or more below its best a tenth of the time; 0 when not recorded. */
static int probe_slow(const struct machine_probe *p)
{
	return p->points > 0 && p->p10 < (1 - THR_SPEED_SLOW) * p->best;
}

/* The threaded speed probe's median over the threads times the one-thread probe's median: 1 where each
   thread has a core to itself, since each reads its own L1; 0 where the run has no such figures. Judged only
   where the run judged whether the threads shared a core (points_shared >= 0: hwloc called the CPUs cores
   of their own), since hyperthreads of one core share its L1 ports. */
static double threads_share(const struct machine *m)
{
	const struct machine_probe *one = &m->speed, *all = &m->speed_all;

	if (all->points_shared < 0 || all->points <= 0 || one->points <= 0)
		return 0;
	return stats_thread_share(all->median, all->threads, one->median);
}

/* Whether the threads together read THR_SPEED_SLOW or more below their own cores' speed: the points of as
   many threads were slowed by as much (a neighbour on the host), which no repetition within them undoes. */
static int threads_slowed(const struct machine *m)
{
	double share = threads_share(m);

	return share > 0 && share < 1 - THR_SPEED_SLOW;
}

/* A speed probe's figures, as each Run quality line states them. */
static void probe_figures(FILE *f, const struct machine_probe *p)
{
	char b[3][32];

	fprintf(f, "ran at %s GB/s at best, %s median, and %s or less in a tenth of them ",
		num_format_rate(p->best, b[0], sizeof b[0]), num_format_rate(p->median, b[1], sizeof b[1]),
		num_format_rate(p->p10, b[2], sizeof b[2]));
	fprintf(f, "(%.0f %% below the best)", 100 * (1 - p->p10 / p->best));
}

/* Whether the threads had paths to memory of their own (harness path_probe.h): what their all-thread DRAM and
   non-temporal figures are. Nothing without the probe. */
static void paths_to_memory(FILE *f, const struct machine_path_probe *p)
{
	if (p->points <= 0)
		return;
	fprintf(f,
		"- **Paths to memory, %d threads**: %d threads' non-temporal stores (%s, %lld MiB each), "
		"timed together before each of %d point%s of as many threads that reach memory (DRAM, or "
		"non-temporal stores at any size; revisits included), read %.2fx one thread's at best, "
		"%.2fx median and %.2fx or less before a tenth of them (one thread %.1f GB/s at best, %d "
		"threads %.1f). ",
		p->threads, p->threads, p->kernel, p->bytes >> 20, p->points, p->points == 1 ? "" : "s",
		p->ratio_best, p->ratio_median, p->ratio_p10, p->gbps_one_best, p->threads, p->gbps_best);
	if (!p->points_shared) {
		fprintf(f, "Their stores had paths of their own.\n");
		return;
	}
	if (p->points_shared == p->points)
		fprintf(f, "Before every one of them, below %.0f %% of %dx, ", 100 * p->shared_below,
			p->threads);
	else
		fprintf(f, "Before %d of them, below %.0f %% of %dx, ", p->points_shared,
			100 * p->shared_below, p->threads);
	fprintf(f,
		"their stores shared paths out of the cores (on AMD likely a CCD's link to the I/O die): the "
		"%d-thread DRAM and non-temporal figures there are what shared paths give. On a bare machine "
		"that is the hardware's; on a VM it is where the host put the vCPUs, which the guest cannot "
		"choose, and two runs' such figures move with their ratios.",
		p->threads);
	if (p->points_shared < p->points)
		fprintf(f,
			" Before the other %d they had paths of their own: the host moved the vCPUs while "
			"the run measured, or the run's CPUs differ in their paths, so those figures were "
			"measured under different paths, and the peaks take the fastest.",
			p->points - p->points_shared);
	fprintf(f, "\n");
}

/* Whether the last cache level held its points' working sets (harness level_check.h): a chase before each
   point, and after it where that one read past the level. */
static void level_held(FILE *f, const struct machine_level_check *c)
{
	char where[64];

	snprintf(where, sizeof where,
		 c->by_probe ? "where the level probe ended %s" : "DRAM-like: no cache level is that slow%s",
		 c->by_probe ? c->level : "");
	fprintf(f,
		"- **%s share**: a chase over each %s point's working set before the point, and "
		"again after it where that one read past the level, ",
		c->level, c->level);
	if (!c->past)
		fprintf(f, "read below %.1f ns (%s) before or after each of the %d: the level held them",
			c->past_ns, where, c->points);
	else
		fprintf(f,
			"read %.1f ns or slower (%s) before and after %d of %d: the share of %s left to the "
			"run (the host's other tenants and other processes use it too) had shrunk below "
			"their working sets, so those points, flagged noisy, may have run partly from DRAM; "
			"their figures are lower bounds of %s's, and the verdicts leave them out",
			c->past_ns, where, c->past, c->points, c->level, c->level);
	fprintf(f, " (the slowest %.1f ns, at %lld KiB)", c->worst_ns, c->worst_bytes >> 10);
	if (c->bursts)
		fprintf(f,
			". Before %d more it read past the level but not after them: a burst shorter than "
			"the point, which its fastest calls miss; not flagged",
			c->bursts);
	fprintf(f, ".\n");
}

/* Whether the run's threads got the CPU when they wanted it: the machine's CPU pressure and the
   cgroup's CPU quota (harness disturb.h, cpu_limit.h). */
static void cpu_time(FILE *f, const struct machine *m)
{
	const struct machine_cpu_limit *c = &m->cpu_limit;

	if (m->cpu_pressure_percent >= 0)
		fprintf(f,
			"- **CPU pressure**: in %.1f %% of the time the run measured, at least one runnable "
			"task waited for a CPU (/proc/pressure/cpu, \"some\"; pmucheck's own threads "
			"included). Where that was one of pmucheck's threads, the point it measured took "
			"longer.\n",
			m->cpu_pressure_percent);
	if (!*c->cgroup)
		return;
	if (!(c->cpus > 0)) {
		fprintf(f, "- **CPU limit**: none on the run's cgroup (%s) or its parents.\n", c->cgroup);
		return;
	}
	fprintf(f, "- **CPU limit**: the run's cgroup (%s) may use %.2g CPU%s worth of time per %.0f ms",
		c->cgroup, c->cpus, c->cpus == 1 ? "'s" : "s'", (double)c->period_us / 1000);
	if (c->throttled >= 0)
		fprintf(f, "; the kernel stopped its threads in %lld of %lld periods, %.1f s in all",
			c->throttled, c->periods, c->throttled_s);
	/* whatever level it is (the run's own cgroup, looser than a parent's, or a parent shared with
	   other jobs), its quota is spent by all that runs under it */
	if (*c->parent.cgroup)
		fprintf(f,
			"; the quota of %s (%.2g CPUs' worth, spent by whatever runs under it) stopped them "
			"in %lld of its %lld periods, %.1f s",
			c->parent.cgroup, c->parent.cpus, c->parent.throttled, c->parent.periods,
			c->parent.throttled_s);
	fprintf(f,
		". While stopped, every thread of the run stands still: a point measured across a stop "
		"reads slower or stays noisy, and the points of more threads than the limit are stopped "
		"most.\n");
}

/* The speed probe's best against this machine's earlier runs (machine.json disturbance.speed_history), as
   the run says it (run_job_say.c): a run slow from its start to its end has no faster sample of its own. */
static void speed_over_runs(FILE *f, const struct machine *m)
{
	const struct machine_speed_history *h = &m->speed_history;

	if (h->not_kept[0])
		fprintf(f,
			"- **Machine speed over runs**: no history of this machine's runs was read (%s), so "
			"whether the machine ran slow for the whole run is not known: its points are judged "
			"against its own best alone.\n",
			h->not_kept);
	if (!h->runs)
		return;
	fprintf(f,
		"- **Machine speed over runs**: the same read ran at %.1f GB/s at best in this machine's %d "
		"earlier run%s of the last day (`%s`); this run's best is %.0f %% of it",
		h->machine_best, h->runs, h->runs == 1 ? "" : "s", h->file,
		100 * m->speed.best / h->machine_best);
	if (noisy_why_slow(m->speed.best, h->machine_best))
		fprintf(f,
			": the machine ran slow for the whole run, so its figures may all be slower "
			"than this machine's, and each point before which the read was below %.0f %% "
			"of %.1f GB/s is marked noisy (slow-machine)",
			100 * NOISY_SLOW_SHARE, h->machine_best);
	fprintf(f, ".\n");
}

/* What `run --revisits` measured (machine.json disturbance.revisits), as the run says it (run_job_say.c). */
static void revisited(FILE *f, const struct machine_revisits *r)
{
	if (!r->asked)
		return;
	fprintf(f,
		"- **Revisits**: %d of %d rounds (`--revisits`), %d points in %.1f s: each bandwidth row's "
		"best point",
		r->rounds, r->asked, r->points, r->seconds);
	/* a run before the rivals (machine.json without "rival") revisited the rows' best points alone, as
	   does one whose first round had room for those alone (rivals_left_out says so) */
	if (r->rival > 0)
		fprintf(f, " (in the first round also each variant's best within %.0f %% of it)",
			100 * r->rival);
	fprintf(f,
		" and each one-thread latency point measured again, rounds begun at least %.0f s apart, so a "
		"row's figure rests on visits seconds apart, as a shared host's slow phases are long",
		r->apart_s);
	if (r->rivals_left_out[0])
		fprintf(f, "; %s", r->rivals_left_out);
	if (r->why_fewer[0])
		fprintf(f, "; %s", r->why_fewer);
	fprintf(f, ".\n");
}

/* The fewest L1 points of one variant of which most past the ports even at their bound say so of the core,
   not of a few clocks that read low: --quick runs on the Zen 1 guest measured each variant at L1 2 to 12
   times, revisits included, the widest loads and stores (those a wider core takes past) 4 times or more. */
#define PORTS_FEW 4

/* A point of an L1 bandwidth row of the peak table. */
static int l1_bandwidth(const struct agg_point *p)
{
	return p->level == LV_L1 && peak_access(p) >= 0 && peak_access(p) != KA_LATENCY;
}

/* The variant (of the L1 bandwidth points, interned: agg.h) whose points most often went past the ports
   even at their bound, and how many of how many did; NULL where none did. */
static const char *widest_past(const struct agg *a, unsigned *past, unsigned *of)
{
	const char *best = NULL;

	*past = *of = 0;
	for (uint32_t i = 0; i < a->npoints; i++) {
		const char *v = a->points[i].variant;
		unsigned k = 0, n = 0;
		if (!a->points[i].ports_clock || !l1_bandwidth(&a->points[i]))
			continue;
		for (uint32_t j = 0; j < a->npoints; j++) {
			const struct agg_point *p = &a->points[j];
			if (p->variant != v || !l1_bandwidth(p))
				continue;
			n++;
			k += (unsigned)p->ports_clock;
		}
		if (!best || (double)k / n > (double)*past / *of) {
			best = v;
			*past = k;
			*of = n;
		}
	}
	return best;
}

/* The core's L1 ports the run's config gave (machine.json config.ports), how many points went past them at
   their clock, and, where most L1 points of a variant did even at their bound, what that says: not a
   disturbance but a core that does more a cycle than the config's CPU, as on a guest shown an older model
   than its host's. */
static void ports_line(FILE *f, const struct out_rdata *d)
{
	const char *file = strrchr(d->a.m.config_path, '/'), *variant;
	unsigned past = 0, clock = 0, k, n;
	char said[160];

	kern_ports_format(said, sizeof said, &d->a.m.ports);
	if (!said[0])
		return;
	for (uint32_t i = 0; i < d->a.npoints; i++) {
		past += (unsigned)d->a.points[i].past_ports;
		clock += (unsigned)d->a.points[i].ports_clock;
	}
	file = file ? file + 1 : d->a.m.config_path[0] ? d->a.m.config_path : "the run's config";
	fprintf(f, "- **L1 ports**: %s gives one core at most %s a cycle; ", file, said);
	if (!past) {
		fprintf(f, "no point went past them at its clock.\n");
		return;
	}
	fprintf(f,
		"%u point%s went past them at %s clock by more than %.0f %%, and %s at %s bound, which "
		"cannot run ahead of the hardware as a difference of two calls can",
		past, past == 1 ? "" : "s", past == 1 ? "its" : "their", 100 * KERN_PORTS_MARGIN,
		past == 1 ? "is taken" : "are taken", past == 1 ? "its" : "their");
	if (clock)
		fprintf(f,
			"; %u %s past them even so: %s clock read low, or the core does more than the "
			"config's CPU, and %s no figure in cycles",
			clock, clock == 1 ? "was" : "were", clock == 1 ? "its" : "their",
			clock == 1 ? "it has" : "they have");
	variant = widest_past(&d->a, &k, &n);
	if (variant && n >= PORTS_FEW && 2 * k > n)
		fprintf(f,
			". Most L1 points of %s did (%u of %u): this core does more a cycle than the "
			"config's CPU, as a guest shown an older CPU model than its host's would (QEMU's "
			"\"EPYC\" on a newer EPYC); a copy of the config with the host's CPU's ports (its "
			"`[arch]` keys load_bytes_per_cycle, store_bytes_per_cycle, loads_per_cycle and "
			"stores_per_cycle), given to `run --config`, judges it by those",
			variant, k, n);
	fprintf(f, ".\n");
}

/* How disturbed the machine was (machine.json's disturbance, the points' noise flags), and what that
   means: interference only ever makes a figure slower or noisier; verdicts leave noisy points out. */
static void run_quality(FILE *f, const struct out_rdata *d)
{
	const struct machine *m = &d->a.m;
	int busy, slow;
	unsigned noisy = 0, why[NW_COUNT] = {0}, unexplained = 0;
	char whys[512];

	for (uint32_t i = 0; i < d->a.npoints; i++) {
		noisy += d->a.points[i].noisy != 0;
		noisy_why_count(why, d->a.points[i].noisy_why);
		unexplained += d->a.points[i].noisy && !d->a.points[i].noisy_why;
	}
	noisy_why_format(whys, sizeof whys, why, unexplained);
	slow = probe_slow(&m->speed) || probe_slow(&m->memory) || probe_slow(&m->memory_all) ||
		noisy_why_slow(m->speed.best, m->speed_history.machine_best);
	busy = noisy * 10 > d->a.npoints || m->steal_percent >= BUSY_PERCENT || slow ||
		m->speed_all.points_shared > 0 || threads_slowed(m) || m->llc.past > 0 ||
		m->cpu_pressure_percent >= BUSY_PERCENT || m->cpu_limit.throttled > 0 ||
		*m->cpu_limit.parent.cgroup;
	fprintf(f, "## Run quality\n\n");
	if (m->steal_percent >= 0) {
		char cpus[64] = "all CPUs";
		if (m->steal_cpus == 1)
			snprintf(cpus, sizeof cpus, "the CPU it measured on");
		else if (m->steal_cpus > 1)
			snprintf(cpus, sizeof cpus, "the %lld CPUs it measured on", m->steal_cpus);
		fprintf(f,
			"- **Steal time**: %.1f %% of the time of %s went to other guests of the hypervisor "
			"while the run measured; ",
			m->steal_percent, cpus);
		if (m->others_runnable_before >= 0 && m->others_runnable_after >= 0)
			fprintf(f,
				"runnable tasks other than pmucheck's threads %lld before and %lld after.\n",
				m->others_runnable_before, m->others_runnable_after);
		else
			fprintf(f,
				"runnable tasks %lld before and %lld after (pmucheck's sampling thread "
				"included, and after, any of its threads still spinning).\n",
				m->runnable_before, m->runnable_after);
	} else {
		fprintf(f,
			"- **Steal time**: not recorded (no /proc/stat, a kernel without its steal field, or "
			"a run from before pmucheck recorded it).\n");
	}
	cpu_time(f, m);
	if (tsc_drifted(m->tsc_hz, m->tsc_hz_end))
		fprintf(f,
			"- **TSC**: it ran at %.4f GHz as the measurements began and %.4f GHz as they ended "
			"(%+.2f %%): every time was converted at the first rate, so the figures in "
			"seconds, GB/s and ns of the points after the change are off by as much (a guest "
			"moved to a host of another TSC rate, without invariant-TSC scaling).\n",
			m->tsc_hz * 1e-9, m->tsc_hz_end * 1e-9, 100 * (m->tsc_hz_end / m->tsc_hz - 1));
	if (m->speed.points > 0) {
		fprintf(f, "- **Machine speed**: a %s read of L1 timed before each of %d points ",
			m->speed.kernel, m->speed.points);
		probe_figures(f, &m->speed);
		fprintf(f,
			". Interference only slows it, so that is how much slower the machine itself was at "
			"those moments (a neighbour on the core, the host's clock): a point measured through "
			"such a moment is that much slower whatever the estimator, and two runs' figures may "
			"differ by as much");
		/* one point has threads of its own and is the one after which the machine read at speed, or
		   not: "their threads" and "after 1 of them" are for several */
		if (m->speed.points_waited == 1)
			fprintf(f,
				". Before 1 point, where it read below %.0f %% of its best so far or this "
				"machine's, or its threads shared a core, the run waited for the machine "
				"(%.1f s, capped by the time budget); after it, it %s",
				100 * m->speed.slow_below, m->speed.waited_seconds,
				m->speed.points_recovered > 0 ? "read at speed again" : "still read slow");
		else if (m->speed.points_waited > 1)
			fprintf(f,
				". Before %d points, where it read below %.0f %% of its best so far or this "
				"machine's, or their threads shared a core, the run waited for the machine "
				"(%.1f s in all, capped by the time budget); after %d of them it read at "
				"speed again",
				m->speed.points_waited, 100 * m->speed.slow_below, m->speed.waited_seconds,
				m->speed.points_recovered);
		fprintf(f, ".\n");
		speed_over_runs(f, m);
	}
	if (m->speed_all.points > 0) {
		fprintf(f,
			"- **Machine speed, %d threads**: the same read by each of %d threads at once, timed "
			"before each of %d points of as many threads, ",
			m->speed_all.threads, m->speed_all.threads, m->speed_all.points);
		probe_figures(f, &m->speed_all);
		if (m->speed_all.points_shared == 0)
			fprintf(f,
				". Before each of them the threads read together at %.0f %% or more of %d "
				"times one thread's speed: none shared a core with another",
				100 * m->speed_all.shared_below, m->speed_all.threads);
		if (m->speed_all.points_shared == 0 && threads_share(m) > 0)
			fprintf(f, "; their median is %.0f %% of %d times one thread's median%s",
				100 * threads_share(m), m->speed_all.threads,
				threads_slowed(m)
					? ", where threads on cores of their own read 100 %: something "
					  "on the host (a neighbour on a core's other hyperthread, the vCPUs "
					  "on fewer cores part of the time) slowed the points of as many "
					  "threads by about as much, and two runs' figures of those points "
					  "may differ by as much"
					: "");
		else if (m->speed_all.points_shared > 0)
			fprintf(f,
				". Before %d of them the threads read together below %.0f %% of %d times one "
				"thread's speed: they shared a core, which a host may do to a guest's vCPUs "
				"without steal time, and those points, flagged noisy, measured %d threads on "
				"fewer than %d cores",
				m->speed_all.points_shared, 100 * m->speed_all.shared_below,
				m->speed_all.threads, m->speed_all.threads, m->speed_all.threads);
		fprintf(f, ".\n");
	}
	if (m->memory.points > 0) {
		fprintf(f,
			"- **Memory speed**: a %lld MiB %s read timed before each of the plan's %d DRAM "
			"points ",
			m->memory.bytes >> 20, m->memory.kernel, m->memory.points);
		probe_figures(f, &m->memory);
		fprintf(f,
			". Memory bandwidth is shared with every tenant of the host's sockets: the DRAM "
			"figures, and the non-temporal stores' at every level, move with it, and two runs' "
			"may "
			"differ by as much. It reads with one thread, so a limit on the host's shared path "
			"that "
			"only several threads reach does not show in it%s.\n",
			m->memory_all.points > 0
				? "; the same read by several threads, next, shows such a limit "
				  "for reads, the path probe for stores"
				: "");
	}
	if (m->memory_all.points > 0) {
		fprintf(f,
			"- **Memory speed, %d threads**: the same %lld MiB read split over %d threads, timed "
			"before each of the plan's %d DRAM points of as many threads, ",
			m->memory_all.threads, m->memory_all.bytes >> 20, m->memory_all.threads,
			m->memory_all.points);
		probe_figures(f, &m->memory_all);
		fprintf(f, ": the %d-thread DRAM and non-temporal figures move with it.\n",
			m->memory_all.threads);
	}
	paths_to_memory(f, &m->path);
	if (m->llc.points > 0)
		level_held(f, &m->llc);
	revisited(f, &m->revisits);
	out_report_clock(f, &d->a);
	if (m->points.measured > 0 && !m->points.reps)
		fprintf(f,
			"- **Disturbed repetitions**: none judged: the %lld points the run measured were "
			"fresh memory's, whose page faults spread their calls even without interference.\n",
			m->points.measured);
	else if (m->points.measured > 0)
		fprintf(f,
			"- **Disturbed repetitions**: %lld of %lld (%.1f %%), of the %lld points the run "
			"measured (revisits included, fresh-memory points' not judged; a resumed run's since "
			"it resumed), took a call more than %.0f %% longer than the shortest of its length "
			"(of several threads, their longest thread's own), past a timer tick's or a quiet "
			"DRAM point's spread: interference met at least those, as a stretch through every "
			"call of a point leaves none past the shortest. A figure rests on its point's "
			"shortest calls, so they cost the run time, not the figure its truth, while two "
			"undisturbed calls of each length remain.\n",
			m->points.reps_disturbed, m->points.reps,
			100.0 * (double)m->points.reps_disturbed / (double)m->points.reps, m->points.measured,
			100 * m->points.past);
	fprintf(f,
		"- **Disturbed points**: %u of %u stayed noisy%s%s%s; the peaks take them at the bound of "
		"their shortest call, never faster than the hardware, and mark a figure that is one's; the "
		"verdicts leave them out.\n",
		noisy, d->a.npoints, noisy ? " (raw.csv's noisy_why; a point may have several reasons: " : "",
		whys, noisy ? ")" : "");
	ports_line(f, d);
	fprintf(f,
		"- **What it means**: interference makes a figure slower or noisier; faster only where it "
		"stretched every R call of a confirmed point alike and no 2R call, and then by no more "
		"than its confirmation lets pass (README, `pmucheck run`: with one thread half of 3 times "
		"its tolerance, somewhat more with several); %s.\n\n",
		busy ? "on a machine this disturbed, take bandwidths as lower bounds and latencies as upper "
		       "bounds, and repeat the run on a quiet machine before comparing them with other tools"
		     : "the machine was not judged disturbed, yet compare these figures with another run's "
		       "only as far as the two runs' speed and memory probes agree (their medians move with "
		       "the host between runs)");
}

/* Events with rows of one status, grouped by their first reason. Returns how many. */
static unsigned list_status(FILE *f, const struct agg *a, enum raw_status st, const char *what)
{
	unsigned n = 0;
	int done[a->nevents ? a->nevents : 1];

	memset(done, 0, sizeof done);
	for (uint32_t i = 0; i < a->nevents; i++) {
		const char *why = a->events[i].reason[st];
		if (done[i] || !a->events[i].rows[st])
			continue;
		fprintf(f, "- **%s**: ", what);
		for (uint32_t j = i, k = 0; j < a->nevents; j++) {
			const char *wj = a->events[j].reason[st];
			if (done[j] || !a->events[j].rows[st] || strcmp(wj ? wj : "", why ? why : ""))
				continue;
			done[j] = 1;
			n++;
			fprintf(f, "%s`%s`", k++ ? ", " : "", a->events[j].name);
		}
		fprintf(f, ". Reason: %s.\n", why && *why ? why : "none recorded");
	}
	return n;
}

static void list_prefetch(FILE *f, const struct machine *m)
{
	if (m->prefetch_control) {
		if (*m->prefetch_left_running)
			fprintf(f,
				"- **Prefetchers not switched**: %s. The `off` states leave it running, so "
				"`off` and `prefetch-blind` mean the switched prefetchers only.\n",
				m->prefetch_left_running);
		return;
	}
	fprintf(f,
		"- **Prefetcher control absent**: %s. Skipped prefetcher states: %s. Every measurement "
		"ran with the prefetchers as the machine had them (`uncontrolled`), so no verdict says "
		"whether an event holds with prefetchers off.\n",
		*m->prefetch_reason ? m->prefetch_reason : "no reason recorded",
		*m->prefetch_skipped ? m->prefetch_skipped : "none recorded");
}

static void list_levels(FILE *f, const struct machine *m)
{
	int measured = 0;

	for (unsigned i = 0; i < m->ndisagreements; i++)
		fprintf(f, "- **Cache level limits in doubt**: %s.\n", m->disagreements[i]);
	/* where the peaks have no all-thread figure of a level, the reader learns why */
	for (unsigned i = 0; i < m->nwithout_point; i++)
		fprintf(f, "- **No point in a cache level**: %s.\n", m->without_point[i]);
	for (int l = 0; l < MACHINE_NCACHE; l++)
		measured |= m->measured[l] > 0;
	if (!measured && !m->nlatency)
		fprintf(f,
			"- **Cache level limits not measured**: the latency probe did not run "
			"(`--reported-levels`); levels follow the reported cache sizes.\n");
}

/* Events whose every reading was taken, but which the analysis judged not measured (too few points, most
   readings impossible, the counter not read right): the verdict table says so, and so does this list,
   which a reader looks in first. Returns how many. */
static unsigned judged_not_measured(FILE *f, const struct out_rdata *d)
{
	json_t *ev;
	size_t i;
	unsigned n = 0;

	json_array_foreach(json_object_get(d->events, "events"), i, ev)
	{
		const char *name = json_string_value(json_object_get(ev, "event")),
			   *cls = json_string_value(json_object_get(ev, "class")),
			   *note = json_string_value(json_object_get(ev, "note"));
		int listed = 0;
		if (!name || !cls || strcmp(cls, "not measured"))
			continue;
		for (uint32_t k = 0; k < d->a.nevents; k++)
			if (!strcmp(d->a.events[k].name, name))
				listed = d->a.events[k].rows[RS_NOT_MEASURED] ||
					d->a.events[k].rows[RS_FAILED];
		if (listed)
			continue;
		fprintf(f, "- **Not measured, as the analysis judged its readings**: `%s`. Reason: %s.\n",
			name, note && *note ? note : "none recorded");
		n++;
	}
	return n;
}

static unsigned not_measured(FILE *f, const struct out_rdata *d, const struct out_figures *figs,
			     const char *why_no_plots)
{
	unsigned n;

	fprintf(f, "## What was not measured\n\n");
	if (d->a.m.hardware == 0)
		fprintf(f,
			"Hardware counters are not available on this machine: %s. Hardware events are "
			"*not measured*: no verdict either way.\n\n",
			d->a.m.counters_reason);
	list_status(f, &d->a, RS_NOT_MEASURED, "Not measured");
	list_status(f, &d->a, RS_FAILED, "Failed");
	/* the events listed just above, each once (one may be in both lists): counting only those without an
	   ok reading, `pmucheck report` said 0 events not measured or failed beside one listed as failed */
	n = 0;
	for (uint32_t i = 0; i < d->a.nevents; i++)
		n += d->a.events[i].rows[RS_NOT_MEASURED] || d->a.events[i].rows[RS_FAILED];
	n += judged_not_measured(f, d);
	list_status(f, &d->a, RS_MULTIPLEXED, "Multiplexed readings (never used)");
	list_prefetch(f, &d->a.m);
	list_levels(f, &d->a.m);
	if (why_no_plots)
		fprintf(f, "- **No figures**: %s.\n", why_no_plots);
	if (*figs->not_drawn) {
		char buf[sizeof figs->not_drawn], *line, *save;
		snprintf(buf, sizeof buf, "%s", figs->not_drawn);
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			fprintf(f, "- **Figure not drawn**: %s\n", line);
	}
	fputc('\n', f);
	return n;
}

static void verdict_counts(FILE *f, const struct out_rdata *d)
{
	static const char *const cls[] = {"exact",       "approximate", "prefetch-blind", "overcounts",
					  "undercounts", "unrelated",   "not measured",   "box"};
	json_t *evs = json_object_get(d->events, "events"), *ev;
	size_t i;

	fprintf(f, "## Verdicts\n\n%zu events:", json_array_size(evs));
	for (size_t c = 0; c < sizeof cls / sizeof cls[0]; c++) {
		unsigned n = 0;
		json_array_foreach(evs, i, ev)
			n += strcmp(json_string_value(json_object_get(ev, "class")), cls[c]) == 0;
		if (n)
			fprintf(f, " %u %s;", n, cls[c]);
	}
	fprintf(f, " only *exact* and *approximate* events go into `pmucheck export` metrics.\n\n");
	out_report_config_checks(f, evs);
}

static void figures(FILE *f, const struct out_figures *figs)
{
	if (!figs->n)
		return;
	fprintf(f, "## Figures\n\n");
	for (unsigned i = 0; i < figs->n; i++) {
		const struct out_plot *p = &figs->p[i];
		fprintf(f,
			"### %s\n\n![%s](plots/%s.png)\n\n%s [SVG](plots/%s.svg), "
			"[gnuplot script](plots/%s.gp).\n\n",
			p->title, p->title, p->name, p->caption, p->name, p->name);
	}
}

/* A table file analyze wrote, headings one level deeper. */
static void include(FILE *f, const char *dir, const char *name)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *in;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(in = fopen(path, "r")))
		return;
	while (getline(&line, &cap, in) > 0)
		fprintf(f, "%s%s", line[0] == '#' ? "#" : "", line);
	fputc('\n', f);
	free(line);
	fclose(in);
}

unsigned out_report_md(FILE *f, const struct out_rdata *d, const struct out_figures *figs,
		       const char *why_no_plots)
{
	unsigned n;

	header(f, d);
	run_quality(f, d);
	n = not_measured(f, d, figs, why_no_plots);
	verdict_counts(f, d);
	figures(f, figs);
	include(f, d->dir, "discovered.md");
	include(f, d->dir, "events.md");
	include(f, d->dir, "boxes.md");
	include(f, d->dir, "peaks.md");
	include(f, d->dir, "stalls.md");
	out_report_references(f, d);
	return n;
}
