/* out_peaks.c — peaks.csv and peaks.md: achievable bandwidth, latency, transfers/s and the best
 * indicator event per level and access type (Molka et al., Tables 2 and 3). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out.h"
#include "thresholds.h"

static const char *num(char *buf, size_t len, const char *fmt, double x)
{
	if (!(x > 0) || isinf(x))
		buf[0] = '\0';
	else
		snprintf(buf, len, fmt, x);
	return buf;
}

static int max_threads(const struct peak_table *t)
{
	int n = 0;

	for (unsigned g = 0; g < t->n; g++)
		for (int ac = 0; ac < KA_COUNT; ac++)
			if (t->g[g].row[ac].threads_all > n)
				n = t->g[g].row[ac].threads_all;
	return n;
}

static void write_csv(FILE *f, const struct agg *a, const struct peak_table *t)
{
	char b[14][48], q[PEAK_QUALITY_MAX], level[PEAK_NAME_MAX];

	fputs("level,access,gbps_1_core,gbps_all_cores,threads_all_cores,latency_ns,latency_cycles,"
	      "transfers_per_s_1_core,transfers_per_s_all_cores,bytes_per_transfer,"
	      "bytes_per_transfer_all_cores,indicator,indicator_max_events_per_s_1_core,"
	      "indicator_max_events_per_s_all_cores,points,bytes_per_cycle_1_core,"
	      "bytes_per_cycle_per_core_all,quality\n",
	      f);
	for (unsigned g = 0; g < t->n; g++)
		for (int ac = 0; ac < KA_COUNT; ac++) {
			const struct peak *p = &t->g[g].row[ac];
			if (!p->present)
				continue;
			out_csv_field(f, peak_group_name(&t->g[g], level, sizeof level), 0);
			out_csv_field(f, kern_access_names[ac], 0);
			out_csv_field(f, num(b[0], 48, "%.4g", p->gbps_one), 0);
			out_csv_field(f, num(b[1], 48, "%.4g", p->gbps_all), 0);
			out_csv_field(f, num(b[2], 48, "%.0f", p->threads_all), 0);
			out_csv_field(f, num(b[3], 48, "%.4g", p->latency_ns), 0);
			out_csv_field(f, num(b[4], 48, "%.4g", p->latency_cycles), 0);
			out_csv_field(f, num(b[5], 48, "%.6g", p->transfers_one), 0);
			out_csv_field(f, num(b[6], 48, "%.6g", p->transfers_all), 0);
			out_csv_field(f, num(b[7], 48, "%.0f", p->bpt_one), 0);
			out_csv_field(f, num(b[12], 48, "%.0f", p->bpt_all), 0);
			out_csv_field(f, p->indicator >= 0 ? a->events[p->indicator].name : "", 0);
			out_csv_field(f, num(b[8], 48, "%.6g", p->indicator >= 0 ? p->indicator_one : 0), 0);
			out_csv_field(f, num(b[13], 48, "%.6g", p->indicator >= 0 ? p->indicator_all : 0), 0);
			out_csv_field(f, num(b[9], 48, "%.0f", p->points), 0);
			out_csv_field(f, num(b[10], 48, "%.4g", p->bpc_one), 0);
			out_csv_field(f, num(b[11], 48, "%.4g", p->bpc_all), 0);
			peak_quality(p, q, sizeof q);
			out_csv_field(f, q, 1);
		}
}

/* Points on a level boundary belong to no level: said, so that a level without rows is explained. */
static void boundary_note(FILE *f, const struct agg *a)
{
	unsigned n = 0;

	for (uint32_t i = 0; i < a->npoints; i++)
		n += a->points[i].level == LV_EXCLUDED && peak_access(&a->points[i]) >= 0;
	if (n)
		fprintf(f,
			"\n%u point%s lay within %.0f %% below or %.0f %% above a cache limit and belong%s "
			"to no "
			"level (analysis/thresholds.h): left out of every row.\n",
			n, n == 1 ? "" : "s", THR_BOUNDARY_BELOW * 100, THR_BOUNDARY_ABOVE * 100,
			n == 1 ? "s" : "");
}

/* A cache level the plan had no point in at a thread count (machine.json levels.without_point; a level probe
   that ended a shared level short of the one below, on a busy machine too): said, so that its missing rows are
   not read as a level dropped. */
static void no_point_note(FILE *f, const struct agg *a)
{
	for (unsigned i = 0; i < a->m.nwithout_point; i++)
		fprintf(f,
			"\nNo point in a cache level, so no figure of it: %s (machine.json "
			"levels.without_point).\n",
			a->m.without_point[i]);
}

/* What a row's words on paths to memory mean, where the run timed the path probe (harness path_probe.h). */
static void path_note(FILE *f, const struct agg *a)
{
	if (a->m.path.npoint_ratio)
		fprintf(f,
			"\nPaths to memory: before each %d-thread point that reaches memory (DRAM, "
			"non-temporal stores) the run timed %d threads' non-temporal stores against one "
			"thread's; a row's quality gives that ratio for the point of its all-thread figure: "
			"below %.0f %% of %d, their stores shared paths out of the cores (on a VM, where the "
			"host put the vCPUs), and the figure is what shared paths give (report.md, Run "
			"quality).\n",
			a->m.path.threads, a->m.path.threads, 100 * a->m.path.shared_below,
			a->m.path.threads);
}

/* "64", or "64 / 16" where the all-cores figure came from a variant of another width (L1: load.avx512
   on one core, load.sse on all). */
static const char *bytes_per_transfer(const struct peak *p, char *buf, size_t len)
{
	if (p->bpt_one > 0 && p->bpt_all > 0 && p->bpt_one != p->bpt_all)
		snprintf(buf, len, "%.0f / %.0f", p->bpt_one, p->bpt_all);
	else
		num(buf, len, "%.0f", p->bpt_one > 0 ? p->bpt_one : p->bpt_all);
	return buf;
}

/* An all-cores figure of row p under a header of nt cores: "12.3 (2)" where the row's own figures are of
   fewer threads (*fewer set), as the run's summary marks them; the header said 4 cores over an L1 read of
   2 threads. */
static const char *all_cell(char *buf, size_t len, const char *fmt, double x, const struct peak *p, int nt,
			    int *fewer)
{
	size_t n = strlen(num(buf, len, fmt, x));

	if (n && p->threads_all != nt) {
		snprintf(buf + n, len - n, " (%d)", p->threads_all);
		*fewer = 1;
	}
	return buf;
}

static void write_md(FILE *f, const struct agg *a, const struct verdict *v, const struct peak_table *t)
{
	int nt = max_threads(t), fewer = 0;
	char b[11][48], q[PEAK_QUALITY_MAX], ghz[48], level[PEAK_NAME_MAX];

	fprintf(f,
		"# Peak rates\n\nHost %s, %s; %d socket(s), %d cores, core clock %s. Bandwidth is "
		"(bytes loaded + stored) / the point's time, min(2R) - min(R) over its repetitions' calls or "
		"min(R) where shorter (a "
		"noisy point's: the bound of its shortest call), 10^9 B/s, and per core and core cycle with "
		"the "
		"clock sampled around each repetition (the figure that does not move with turbo); latency is "
		"the single-thread pointer chase, median over the level's sizes, each at the faster of its "
		"own time and the level probe's fastest at that size or larger (in L1 at any size; in L2 "
		"and L3 from twice the level below where the point is larger) where the point ran as the "
		"probe did (local memory, prefetchers on or not controlled, huge pages).\n\n",
		*a->m.host ? a->m.host : "?", *a->m.cpu ? a->m.cpu : "unknown CPU", a->m.sockets, a->m.cores,
		*num(ghz, sizeof ghz, "%.3g GHz", a->m.core_ghz) ? ghz : "unknown (no clock sample held up)");
	char all[32];

	/* Only one thread measured: the all-cores columns stay empty and say so. */
	snprintf(all, sizeof all, nt > 1 ? "%d cores" : "all cores (not run)", nt);
	/* Two tables of the same rows, so that each fits a page (a report read at 1280 px). */
	fprintf(f,
		"| Level | Access | GB/s 1 core | GB/s %s | B/cycle 1 core | B/cycle/core %s | Latency ns | "
		"Latency cycles | Quality |\n",
		all, all);
	fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
	for (unsigned g = 0; g < t->n; g++)
		for (int ac = 0; ac < KA_COUNT; ac++) {
			const struct peak *p = &t->g[g].row[ac];
			if (!p->present)
				continue;
			peak_quality(p, q, sizeof q);
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				peak_group_name(&t->g[g], level, sizeof level), kern_access_names[ac],
				num(b[0], 48, "%.1f", p->gbps_one),
				all_cell(b[1], 48, "%.1f", p->gbps_all, p, nt, &fewer),
				num(b[8], 48, "%.1f", p->bpc_one),
				all_cell(b[9], 48, "%.1f", p->bpc_all, p, nt, &fewer),
				num(b[2], 48, "%.1f", p->latency_ns),
				num(b[3], 48, "%.0f", p->latency_cycles), q);
		}
	fprintf(f, "\nTransfers and the indicator event of the same rows:\n\n");
	fprintf(f,
		"| Level | Access | Mtransfers/s 1 core | Mtransfers/s %s | Bytes/transfer | Indicator | "
		"Max Mevents/s 1 core | Max Mevents/s %s |\n",
		all, all);
	fprintf(f, "|---|---|---|---|---|---|---|---|\n");
	for (unsigned g = 0; g < t->n; g++)
		for (int ac = 0; ac < KA_COUNT; ac++) {
			char name[512];
			const struct peak *p = &t->g[g].row[ac];
			if (!p->present)
				continue;
			fprintf(f, "| %s | %s | %s | %s | %s | %s (%s) | %s | %s |\n",
				peak_group_name(&t->g[g], level, sizeof level), kern_access_names[ac],
				num(b[4], 48, "%.0f", p->transfers_one / 1e6),
				all_cell(b[5], 48, "%.0f", p->transfers_all / 1e6, p, nt, &fewer),
				bytes_per_transfer(p, b[6], 48),
				p->indicator >= 0
					? out_md_text(a->events[p->indicator].name, name, sizeof name)
					: "n/a",
				p->indicator >= 0 ? verdict_class_names[v[p->indicator].cls]
						  : "none validated",
				num(b[7], 48, "%.0f", p->indicator >= 0 ? p->indicator_one / 1e6 : 0),
				all_cell(b[10], 48, "%.0f", p->indicator >= 0 ? p->indicator_all / 1e6 : 0, p,
					 nt, &fewer));
		}
	fprintf(f,
		"\nAccess types (raw.csv's `access`, from the kernels' descriptors): read = loads only, "
		"write = stores (with write-allocate), copy = a = b, triad = a = b + s*c, nt- = the same "
		"with non-temporal stores, latency = pointer chase (one access per transfer). Transfers are "
		"access-width instructions in L1 and 64-byte lines beyond. The "
		"indicator is a validated event that holds at this level for the access type (exact before "
		"approximate, then the one specific to fewer levels, then the higher rate), its highest rate "
		"on the points of each figure apart. Quality: a "
		"bandwidth is the best of every point of the row, a noisy one at the bound of its shortest "
		"call (never faster than the hardware; a noisy one without calls, from an older file, only "
		"where the figure has no clean one); a latency is the median of the clean points, of the "
		"noisy ones where there are none. A row whose figure is a noisy point's says which: the "
		"1-core figure, the all-cores figure or both.\n");
	if (fewer)
		fprintf(f,
			"\n(N) beside a %d-core figure: the row's figures of more than one thread are of N "
			"threads, the most it was measured with within a socket.\n",
			nt);
	boundary_note(f, a);
	no_point_note(f, a);
	path_note(f, a);
	out_thresholds_md(f);
}

int out_peaks(struct fileset *o, const struct agg *a, const struct verdict *v, const struct peak_table *t,
	      struct err *e)
{
	FILE *csv, *md;
	int rc;

	if ((rc = fileset_open(o, "peaks.csv", &csv, e)) || (rc = fileset_open(o, "peaks.md", &md, e)))
		return rc;
	write_csv(csv, a, t);
	write_md(md, a, v, t);
	return 0;
}
