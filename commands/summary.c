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

/* Median of the chase.plain latencies measured in a level (one thread); cycles over the points with a clock
   (*cyc = 0 when none has one). */
static int latency(const struct plan *p, const struct run_point_result *res, int level, double *ns, double *cyc)
{
	double v[64], c[64];
	int n = 0, nc = 0;

	for (int i = 0; i < p->npoints && n < 64; i++) {
		const struct plan_point *pt = &p->points[i];
		if (!(pt->fam->flags & KF_LATENCY) || pt->var->flags || pt->threads != 1 || level_of(pt) != level ||
		    res[i].ns_median <= 0)
			continue;
		v[n++] = res[i].ns_median;
		if (res[i].core_ghz > 0) /* a point without a clock has no cycles, not 0 of them */
			c[nc++] = res[i].ns_median * res[i].core_ghz;
	}
	if (!n)
		return 0;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	qsort(c, (size_t)nc, sizeof *c, cmp_double);
	*ns = v[n / 2];
	*cyc = nc ? c[nc / 2] : 0;
	return 1;
}

void summary_print(FILE *f, const struct plan *p, const struct run_point_result *res, const char *dir)
{
	double best[NLEVELS][ACC_N][2] = {{{0}}};
	int maxthreads = 1, noisy = 0;

	for (int i = 0; i < p->npoints; i++) {
		const struct plan_point *pt = &p->points[i];
		int a = access_of(pt), l = level_of(pt), wide = pt->threads > 1;
		if (pt->threads > maxthreads)
			maxthreads = pt->threads;
		if (a < 0 || l < 0)
			continue;
		if (res[i].gbps_median > best[l][a][wide])
			best[l][a][wide] = res[i].gbps_median;
	}
	fprintf(f, "\nbest median bandwidth in GB/s (10^9 B/s), 1 thread / %d threads; latency of a pointer chase\n",
		maxthreads);
	fprintf(f, "%-5s", "level");
	for (int a = 0; a < ACC_N; a++)
		fprintf(f, " %17s", acc_names[a]);
	fprintf(f, " %20s\n", "latency");
	for (int l = 0; l < NLEVELS; l++) {
		double ns, cyc;
		fprintf(f, "%-5s", levels[l]);
		for (int a = 0; a < ACC_N; a++) {
			char cell[32];
			if (best[l][a][0] > 0 || best[l][a][1] > 0)
				snprintf(cell, sizeof cell, "%.1f / %.1f", best[l][a][0], best[l][a][1]);
			else
				snprintf(cell, sizeof cell, "-");
			fprintf(f, " %17s", cell);
		}
		if (!latency(p, res, l, &ns, &cyc))
			fprintf(f, " %20s\n", "-");
		else if (cyc > 0)
			fprintf(f, " %8.2f ns %5.1f cyc\n", ns, cyc);
		else
			fprintf(f, " %8.2f ns   ? cyc\n", ns);
	}
	for (int i = 0; i < p->npoints; i++)
		noisy += res[i].cv > record_cv_limit(&p->points[i]);
	if (noisy)
		fprintf(f, "%d of %d points stayed noisy after re-measuring (flagged in raw.csv; machine busy?)\n", noisy,
			p->npoints);
	fprintf(f, "levels as measured by the latency probe where it disagreed with the reported sizes; raw data: "
		   "%s/raw.csv\n", dir);
}
