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

/* What became of the run's clock samples (harness record_clock_tally): each kind of rejection counted, and
   where some lay above the maximum, what that says. Such a sample is no disturbance: a core that ran faster
   than the bound the run took, which a config's max_ghz gives where a guest has neither cpufreq nor CPUID's
   leaf 0x16, and describes the CPU the guest is told of (QEMU's "EPYC" is Zen 1's whatever the host). Each
   is a sample missing, and where all of a repetition's are, a repetition without a clock: in raw.csv only
   its clock_note says why, one repetition at a time. */
static void clock_samples(FILE *f, const struct machine *m)
{
	const struct machine_points *p = &m->points;
	long long rejected = p->clock_disturbed + p->clock_above_max + p->clock_below_floor + p->clock_unread;
	char kind[192];
	int first = 1;

	if (p->clock_taken <= 0)
		return;
	if (!rejected) {
		fprintf(f, "- **Clock samples**: none of the run's %lld was rejected.\n", p->clock_taken);
		return;
	}
	fprintf(f, "- **Clock samples**: %lld of the run's %lld (%.1f %%) were rejected: ", rejected,
		p->clock_taken, 100.0 * (double)rejected / (double)p->clock_taken);
	rejected_kind(f, p->clock_disturbed, "as disturbed (their N and 2N chains disagreed)", &first);
	snprintf(kind, sizeof kind, "above the %.3g GHz maximum, from %s", m->max_ghz,
		 *m->max_source ? m->max_source : "a source not recorded");
	rejected_kind(f, p->clock_above_max, kind, &first);
	rejected_kind(f, p->clock_below_floor, "below the floor", &first);
	rejected_kind(f, p->clock_unread, "whose APERF/MPERF reading failed", &first);
	fprintf(f, "; %lld repetitions were left without a clock (raw.csv's clock_note says why)",
		p->reps_without_clock);
	if (p->reps_without_clock > 0 && m->core_ghz > 0)
		fprintf(f, ", and a point none of whose repetitions kept one took the run's, %.2f GHz",
			m->core_ghz);
	else if (p->reps_without_clock > 0)
		fprintf(f,
			", and a point none of whose repetitions kept one has no clock, as the run's own "
			"was rejected too: no figure in cycles");
	if (p->clock_above_max > 0)
		fprintf(f,
			". A sample above the maximum is no disturbance but a core faster than the CPU that "
			"bound is of: where it is a config's max_ghz, the guest may be told of an older CPU "
			"than its host's, whose figures in cycles then lack their clock; `run --config` with "
			"the host's architecture's file takes its bound and ports");
	fprintf(f, ".\n");
}

void out_report_clock(FILE *f, const struct agg *a)
{
	clock_spread(f, a);
	clock_samples(f, &a->m);
}
