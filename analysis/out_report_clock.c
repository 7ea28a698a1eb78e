/* out_report_clock.c — report.md's lines on the core clock (out_report_clock.h). */
#include <stdlib.h>

#include "out_report_clock.h"
#include "stats.h"

/* How far the core clock moved over the points (each point's the highest of its repetitions', tenth to
   ninetieth percentile). On the shared development VM the host moved it by 3-6 % within a --quick run and by
   6.5 % between two runs minutes apart (3.38 and 3.60 GHz medians): a GB/s figure carries the clock it was
   measured at, a figure in bytes per cycle does not. */
static void clock_spread(FILE *f, const struct agg *a)
{
	double *v = malloc((a->npoints ? a->npoints : 1) * sizeof *v), med, lo, hi;
	size_t n = 0;

	for (uint32_t i = 0; v && i < a->npoints; i++)
		if (a->points[i].core_ghz > 0)
			v[n++] = a->points[i].core_ghz;
	med = v && n ? stats_median(v, n) : 0; /* sorts v */
	if (med > 0) {
		lo = stats_decile(v, n, 1);
		hi = stats_decile(v, n, 9);
		fprintf(f,
			"- **Core clock**: the points' repetitions ran at %.2f GHz (median of %zu points), "
			"%.2f-%.2f GHz from their tenth to their ninetieth percentile (%.1f %% apart). A "
			"bandwidth in GB/s carries the clock it was measured at; compare bytes per cycle "
			"between runs, or with another machine of the same CPU",
			med, n, lo, hi, 100 * (hi / lo - 1));
		if (a->m.aperf_known && a->m.aperf_not_used[0])
			fprintf(f,
				". Each repetition's clock comes from chains of N and 2N dependent adds, "
				"timed with the TSC (APERF/MPERF %s)",
				a->m.aperf_not_used);
		else if (a->m.aperf_known && a->m.points.reps_by_chains > 0)
			fprintf(f,
				". Each repetition's clock is APERF/MPERF's, counted by the perf msr PMU "
				"around its calls, but for %lld repetitions some thread's came from add "
				"chains (its APERF/MPERF group did not start; raw.csv's clock_note says "
				"which)",
				a->m.points.reps_by_chains);
		else if (a->m.aperf_known)
			fprintf(f,
				". Each repetition's clock is APERF/MPERF's, counted by the perf msr PMU "
				"around its calls");
		fprintf(f, ".\n");
	}
	free(v);
}

/* One kind of rejected sample, in a list that begins after "were rejected: " (first: none before it). */
static void rejected_kind(FILE *f, long long n, const char *what, int *first)
{
	if (n <= 0)
		return;
	fprintf(f, "%s%lld %s", *first ? "" : ", ", n, what);
	*first = 0;
}

/* What became of the run's clock samples (harness record_clock_tally): each kind of rejection counted, the
   points left to the run's clock, and where most samples lay above a config's maximum
   (clock_config_max_too_low), what that says: a maximum a config gives where a guest has neither cpufreq nor
   CPUID's leaf 0x16 describes the CPU the guest is told of (QEMU's "EPYC" is Zen 1's whatever the host), and
   samples that agree with themselves above it are a faster core, not a disturbance. In raw.csv only each
   pass's clock_note says why, and only its first reason. */
static void clock_samples(FILE *f, const struct agg *a)
{
	const struct machine *m = &a->m;
	const struct machine_points *p = &m->points;
	long long rejected = machine_clock_rejected(p);
	char kind[sizeof m->max_source + 64];
	uint32_t of_run = 0;
	int first = 1;

	if (p->clock_taken <= 0)
		return;
	for (uint32_t i = 0; i < a->npoints; i++)
		of_run += a->points[i].clock_of_run != 0;
	fprintf(f, "- **Clock samples**: ");
	if (!rejected)
		fprintf(f, "none of the %lld the run took (a resumed run's since it resumed) was rejected",
			p->clock_taken);
	else
		fprintf(f,
			"%lld of the %lld the run took (a resumed run's since it resumed; %.1f %%) were "
			"rejected: ",
			rejected, p->clock_taken, 100.0 * (double)rejected / (double)p->clock_taken);
	rejected_kind(f, p->clock_rejected_by[CLOCK_REJECT_DISTURBED],
		      "as disturbed (their N and 2N chains disagreed)", &first);
	snprintf(kind, sizeof kind, "above the %.3g GHz maximum, from %s", m->max_ghz,
		 *m->max_source ? m->max_source : "a source not recorded");
	rejected_kind(f, p->clock_rejected_by[CLOCK_REJECT_ABOVE_MAX], kind, &first);
	rejected_kind(f, p->clock_rejected_by[CLOCK_REJECT_BELOW_FLOOR], "below the floor", &first);
	rejected_kind(f, p->clock_rejected_by[CLOCK_REJECT_UNREAD], "whose APERF/MPERF reading failed",
		      &first);
	if (p->reps_without_clock > 0)
		fprintf(f, "; %lld repetition%s left without a clock (raw.csv's clock_note says why)",
			p->reps_without_clock, p->reps_without_clock == 1 ? " was" : "s were");
	if (of_run > 0 && m->core_ghz > 0)
		fprintf(f,
			", and %u point%s, none of whose repetitions kept one, "
			"%s judged at the run's %.2f GHz",
			of_run, of_run == 1 ? "" : "s", of_run == 1 ? "was" : "were", m->core_ghz);
	else if (of_run > 0)
		fprintf(f,
			", and %u point%s, none of whose repetitions kept one, %s none at all, the run's "
			"own rejected too: no figure in cycles",
			of_run, of_run == 1 ? "" : "s", of_run == 1 ? "has" : "have");
	if (clock_config_max_too_low(m->max_from, p->clock_taken, p->clock_rejected_by))
		fprintf(f,
			". Most samples whose runs agreed lay above the config's maximum: no "
			"disturbance but cores faster than the config's CPU (or a TSC rate that moved: "
			"see the TSC line), as a guest told of an older CPU than its host's has; a copy "
			"of the config with the host's max_ghz, given to `run --config`, keeps their clock");
	fprintf(f, ".\n");
}

void out_report_clock(FILE *f, const struct agg *a)
{
	clock_spread(f, a);
	clock_samples(f, a);
}
