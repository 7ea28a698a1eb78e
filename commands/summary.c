#include <stdlib.h>
#include <string.h>

#include "run_record.h"
#include "summary.h"

enum { ACC_READ, ACC_WRITE, ACC_NT_WRITE, ACC_TRIAD, ACC_N };
static const char *const acc_names[ACC_N] = {"read", "write", "nt write", "triad"};
static const char *const levels[] = {"L1", "L2", "L3", "DRAM"};
#define NLEVELS 4

static int access_of(const struct plan_point *pt)
{
	if (!strcmp(pt->fam->name, "load"))
		return ACC_READ;
	if (!strcmp(pt->fam->name, "store"))
		return (pt->var->flags & KV_NT) ? ACC_NT_WRITE : ACC_WRITE;
	if (!strcmp(pt->fam->name, "triad") && !(pt->var->flags & KV_NT))
		return ACC_TRIAD;
	return -1;
}

static int level_of(const struct plan_point *pt)
{
	for (int l = 0; l < NLEVELS; l++)
		if (!strcmp(pt->level, levels[l]))
			return l;
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int noisy_point(const struct plan *p, const struct run_point_result *res, int i)
{
	return res[i].cv > record_cv_limit(&p->points[i]);
}

/* Median of the chase.plain latencies measured in a level (one thread), over its clean points or, when it
   has none, its noisy ones (*noisy = 1); cycles over the points with a clock (*cyc = 0 when none). */
static int latency(const struct plan *p, const struct run_point_result *res, int level, double *ns, double *cyc,
		   int *noisy)
{
	double v[64], c[64];
	int n = 0, nc = 0;

	for (int pass = 0; pass < 2 && !n; pass++) {
		*noisy = pass;
		for (int i = 0; i < p->npoints && n < 64; i++) {
			const struct plan_point *pt = &p->points[i];
			if (!(pt->fam->flags & KF_LATENCY) || pt->var->flags || pt->threads != 1 ||
			    level_of(pt) != level || res[i].ns_median <= 0 || noisy_point(p, res, i) != pass)
				continue;
			v[n++] = res[i].ns_median;
			if (res[i].core_ghz > 0)
				c[nc++] = res[i].ns_median * res[i].core_ghz;
		}
	}
	if (!n) {
		*noisy = 0;
		return 0;
	}
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	qsort(c, (size_t)nc, sizeof *c, cmp_double);
	*ns = v[n / 2];
	*cyc = nc ? c[nc / 2] : 0;
	return 1;
}

/* The best bandwidth of a cell ([clean, noisy] points): from its clean points, else from its noisy ones,
   then marked "*" (*marked set). */
static void bandwidth_cell(char *buf, size_t len, const double best[2], int *marked)
{
	int from_noisy = !(best[0] > 0) && best[1] > 0;

	snprintf(buf, len, "%.1f%s", from_noisy ? best[1] : best[0], from_noisy ? "*" : "");
	*marked |= from_noisy;
}

void summary_print(FILE *f, const struct plan *p, const struct run_point_result *res, const char *dir)
{
	double best[NLEVELS][ACC_N][2][2] = {{{{0}}}}; /* [level][access][threads > 1][noisy] */
	int maxthreads = 1, noisy = 0, marked = 0;

	for (int i = 0; i < p->npoints; i++) {
		const struct plan_point *pt = &p->points[i];
		int a = access_of(pt), l = level_of(pt), wide = pt->threads > 1;
		if (pt->threads > maxthreads)
			maxthreads = pt->threads;
		if (a < 0 || l < 0)
			continue;
		double *b = &best[l][a][wide][noisy_point(p, res, i)];
		if (res[i].gbps_median > *b)
			*b = res[i].gbps_median;
	}
	fprintf(f, "\nbest median bandwidth in GB/s (10^9 B/s), 1 thread / %d threads; latency of a pointer chase\n",
		maxthreads);
	fprintf(f, "%-5s", "level");
	for (int a = 0; a < ACC_N; a++)
		fprintf(f, " %17s", acc_names[a]);
	fprintf(f, " %20s\n", "latency");
	for (int l = 0; l < NLEVELS; l++) {
		double ns, cyc;
		int lat_noisy;
		fprintf(f, "%-5s", levels[l]);
		for (int a = 0; a < ACC_N; a++) {
			char cell[48] = "-", one[20], all[20];
			if (best[l][a][0][0] > 0 || best[l][a][0][1] > 0 || best[l][a][1][0] > 0 || best[l][a][1][1] > 0) {
				bandwidth_cell(one, sizeof one, best[l][a][0], &marked);
				bandwidth_cell(all, sizeof all, best[l][a][1], &marked);
				snprintf(cell, sizeof cell, "%s / %s", one, all);
			}
			fprintf(f, " %17s", cell);
		}
		if (!latency(p, res, l, &ns, &cyc, &lat_noisy))
			fprintf(f, " %20s\n", "-");
		else if (cyc > 0)
			fprintf(f, " %8.2f ns %5.1f cyc%s\n", ns, cyc, lat_noisy ? "*" : "");
		else
			fprintf(f, " %8.2f ns   ? cyc%s\n", ns, lat_noisy ? "*" : "");
		marked |= lat_noisy;
	}
	for (int i = 0; i < p->npoints; i++)
		noisy += noisy_point(p, res, i);
	if (noisy)
		fprintf(f, "%d of %d points stayed noisy after re-measuring (flagged in raw.csv; machine busy?)\n", noisy,
			p->npoints);
	if (marked)
		fprintf(f, "* from noisy points only: that cell had no clean point\n");
	fprintf(f, "levels as measured by the latency probe where it disagreed with the reported sizes; raw data: "
		   "%s/raw.csv\n", dir);
}
