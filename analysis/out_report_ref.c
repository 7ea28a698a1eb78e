/* out_report_ref.c — a paper's table beside pmucheck's. Molka et al.'s Tables 2 and 3 list, per
 * level and access, achievable bandwidth, transfers/s and the best indicator event with its maximal
 * rate: the same columns peaks.csv has, so the two are joined row by row. Other reference files are
 * shown as published, with their source comments. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"
#include "out_report_csv.h"
#include "out_report_ref.h"

/* The paper's level or resource names as peaks.csv spells them. */
static const char *our_level(const char *paper)
{
	static const char *const map[][2] = {{"L1D", "L1"},
					     {"local_DRAM", "DRAM"},
					     {"remote_DRAM", "remote DRAM"},
					     {"memory_controller", "DRAM"}};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(paper, map[i][0]) == 0)
			return map[i][1];
	return paper;
}

static const char **peak_row(const struct out_csv *p, const char *level, const char *access)
{
	int lc = out_csv_col(p, "level"), ac = out_csv_col(p, "access");

	for (unsigned i = 0; lc >= 0 && ac >= 0 && i < p->nrows; i++)
		if (!strcmp(p->rows[i][lc], level) && !strcmp(p->rows[i][ac], access))
			return (const char **)p->rows[i];
	return NULL;
}

/* A cell of row's column c (div > 0: a figure shown divided by it), mark after a figure. Text as a
   Markdown cell holds it (out_md_text): an event named with a '|' (any name is valid to a PMU's alias)
   split the row. */
static void cell(FILE *f, const char **row, int c, double div, const char *mark)
{
	const char *s = row && c >= 0 ? row[c] : "";
	char text[1024];

	if (div > 0 && *s)
		fprintf(f, " %.4g%s |", atof(s) / div, mark);
	else
		fprintf(f, " %s%s |", *s ? out_md_text(s, text, sizeof text) : "–", *s ? mark : "");
}

/* How many threads the measured figures of the paper's per-socket table (all its cores) come from, the
   most of any row: peaks.csv's all-cores figures are the run's widest points on one socket, which may be
   fewer threads than the socket has cores, or none. Returns that most. */
static int here_threads(const struct out_csv *peaks, int per_socket, char *buf, size_t len)
{
	int tc = out_csv_col(peaks, "threads_all_cores"), most = 0;

	buf[0] = '\0';
	if (!per_socket)
		return 0;
	for (unsigned i = 0; tc >= 0 && i < peaks->nrows; i++)
		if (atoi(peaks->rows[i][tc]) > most)
			most = atoi(peaks->rows[i][tc]);
	if (most > 0)
		snprintf(buf, len, " (%d threads)", most);
	else
		snprintf(buf, len, " (only 1 thread was run)");
	return most;
}

/* Molka's Table 2 (per core) or Table 3 (per socket) beside peaks.csv. */
static void joined(FILE *f, const struct out_csv *t, const struct out_csv *peaks, int per_socket)
{
	int lc = out_csv_col(t, per_socket ? "resource" : "level"), ac = out_csv_col(t, "access");
	int gb = out_csv_col(t, per_socket ? "peak_GBps" : "achievable_GBps");
	int tr = out_csv_col(t, "million_transfers_per_s"), ind = out_csv_col(t, "indicator");
	int mx = out_csv_col(t, "max_million_events_per_s");
	const char *suffix = per_socket ? "all_cores" : "1_core";
	/* the rate on the same points as the figures beside it: one core's in the per-core table */
	int mr = out_csv_peak_rate_col(peaks, suffix);
	int old_rate = mr >= 0 && !strcmp(peaks->cols[mr], "indicator_max_events_per_s");
	char mg[32], mt[48], here[48];
	int most, fewer = 0;

	snprintf(mg, sizeof mg, "gbps_%s", suffix);
	snprintf(mt, sizeof mt, "transfers_per_s_%s", suffix);
	most = here_threads(peaks, per_socket, here, sizeof here);
	fprintf(f,
		"| Level | Access | GB/s paper | GB/s here%s | Mtransfers/s paper | Mtransfers/s here | "
		"Indicator paper | Indicator here | Max Mevents/s paper | Max Mevents/s here |\n"
		"|---|---|---|---|---|---|---|---|---|---|\n",
		here);
	for (unsigned i = 0; i < t->nrows; i++) {
		const char **r = (const char **)t->rows[i];
		const char **m = peak_row(peaks, our_level(r[lc]), r[ac]);
		int tc = out_csv_col(peaks, "threads_all_cores"), n = m && tc >= 0 ? atoi(m[tc]) : 0;
		char mark[24] = "";
		/* a row of fewer threads than the header's (an L1 of 2 under 4 threads): said, as peaks.md does */
		if (per_socket && n > 0 && n != most) {
			snprintf(mark, sizeof mark, " (%d)", n);
			fewer = 1;
		}
		fputc('|', f);
		cell(f, r, lc, 0, "");
		cell(f, r, ac, 0, "");
		cell(f, r, gb, 0, "");
		cell(f, m, out_csv_col(peaks, mg), 0, mark);
		cell(f, r, tr, 0, "");
		cell(f, m, out_csv_col(peaks, mt), 1e6, mark);
		cell(f, r, ind, 0, "");
		cell(f, m, out_csv_col(peaks, "indicator"), 0, "");
		cell(f, r, mx, 0, "");
		cell(f, m, mr, 1e6,
		     old_rate ? "" : mark); /* the old rate is the higher of two: no one thread count */
		fputc('\n', f);
	}
	if (fewer)
		fprintf(f, "\n(N): a measured figure of N threads, the most its row was measured with.\n");
	/* the old rate stands in both tables, as in the export, but is not one core's: said, so a per-core
	   table of it is not read as the split's */
	if (old_rate)
		fprintf(f,
			"\nMax Mevents/s here: peaks.csv has one rate, written before the one-core and "
			"all-core rates were split: the higher of the two.\n");
}

static void as_published(FILE *f, const struct out_csv *t)
{
	for (unsigned c = 0; c < t->ncols; c++)
		fprintf(f, "%s %s", c ? " |" : "|", t->cols[c]);
	fputs(" |\n|", f);
	for (unsigned c = 0; c < t->ncols; c++)
		fputs("---|", f);
	fputc('\n', f);
	for (unsigned i = 0; i < t->nrows; i++) {
		fputc('|', f);
		for (unsigned c = 0; c < t->ncols; c++) {
			for (const char *s = t->rows[i][c]; *s; s++)
				fputc(*s == '|' ? '/' : *s, f);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
}

/* Molka's Table 2 layout has level and achievable_GBps, Table 3 resource and peak_GBps. */
static int has(const struct out_csv *t, const char *where, const char *gbps)
{
	return out_csv_col(t, "access") >= 0 && out_csv_col(t, where) >= 0 && out_csv_col(t, gbps) >= 0;
}

/* A reference path as recorded, else relative to the results directory, else configs/reference/. */
static int locate(const char *dir, const char *ref, char *path, size_t len)
{
	const char *base = strrchr(ref, '/') ? strrchr(ref, '/') + 1 : ref;

	snprintf(path, len, "%s", ref);
	if (!access(path, R_OK))
		return 0;
	snprintf(path, len, "%s/%s", dir, ref);
	if (!access(path, R_OK))
		return 0;
	snprintf(path, len, "configs/reference/%s", base);
	return access(path, R_OK);
}

void out_report_references(FILE *f, const struct out_rdata *d)
{
	char path[PATH_MAX];
	struct out_csv peaks, t;

	if (!*d->a.m.preset)
		return;
	fprintf(f, "## Seed paper reference: preset %s\n\n", d->a.m.preset);
	snprintf(path, sizeof path, "%s/peaks.csv", d->dir);
	if (out_csv_read(path, &peaks))
		memset(&peaks, 0, sizeof peaks);
	for (unsigned i = 0; i < d->a.m.nreferences; i++) {
		const char *name = d->a.m.references[i];
		if (locate(d->dir, name, path, sizeof path) || out_csv_read(path, &t)) {
			fprintf(f, "- Reference table `%s`: not found or not readable here.\n\n", name);
			continue;
		}
		fprintf(f, "### %s\n\n%s\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
			t.comments ? t.comments : "");
		if (has(&t, "level", "achievable_GBps"))
			joined(f, &t, &peaks, 0);
		else if (has(&t, "resource", "peak_GBps"))
			joined(f, &t, &peaks, 1);
		else
			as_published(f, &t);
		fputc('\n', f);
		out_csv_free(&t);
	}
	out_csv_free(&peaks);
}
