/* merge_stat.c — a node type's median and spread per figure, and its outliers: figures far from the
 * median on a log scale by the robust rule of thresholds.h, and facts (microcode, prefetcher MSRs,
 * THP, governor, SMT, cache sizes, pmucheck version) that differ from the type's most common value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "merge_int.h"
#include "stats.h"
#include "thresholds.h"

/* 1/1.4826: the median absolute deviation of a normal distribution in standard deviations. */
#define MAD_TO_Z 0.6745

/* A figure the comparison may use: measured, and not from a disturbed point (a noisy figure would
   move the type's median and be called an outlier for what disturbed its node's run). */
static double node_val(const struct merge_node *nd, unsigned f)
{
	return f < nd->nval && !nd->noisy[f] ? nd->val[f] : NAN;
}

static int add_outlier(struct merge *m, unsigned node, const char *reason)
{
	struct merge_outlier *o = realloc(m->out, (m->nout + 1) * sizeof *o);

	if (!o)
		return -1;
	m->out = o;
	o[m->nout].node = node;
	snprintf(o[m->nout].reason, sizeof o->reason, "%s", reason);
	m->nout++;
	return 0;
}

/* Median and MAD of ln(value) over the type's nodes; buf holds nnode doubles. */
static void fig_stats(const struct merge *m, const struct merge_type *t, unsigned f, double *buf, double *med,
		      double *mad)
{
	unsigned n = 0;

	for (unsigned i = 0; i < t->nnode; i++) {
		double v = node_val(&m->node[t->node[i]], f);
		if (v > 0)
			buf[n++] = log(v);
	}
	t->fig[f].n = n;
	*med = stats_median(buf, n);
	for (unsigned i = 0; i < n; i++)
		buf[i] = fabs(buf[i] - *med);
	*mad = stats_median(buf, n);
}

/* The most common value of fact k among the type's nodes; where two values are each on as many nodes
   as any (two nodes of one type on two microcode versions), the type is split and none of them is taken
   for the type's: naming the first node's would make the other the odd one out by the order of the
   directories given. */
static void fact_mode(const struct merge *m, struct merge_type *t, int k)
{
	unsigned best = 0;

	t->fact[k][0] = 0;
	t->split[k] = 0;
	for (unsigned i = 0; i < t->nnode; i++) {
		const char *v = m->node[t->node[i]].fact[k];
		unsigned c = 0;
		for (unsigned j = 0; j < t->nnode; j++)
			c += !strcmp(v, m->node[t->node[j]].fact[k]);
		if (c > best) {
			best = c;
			t->split[k] = 0;
			snprintf(t->fact[k], MERGE_TEXT, "%s", v);
		} else if (c == best && strcmp(v, t->fact[k])) {
			t->split[k] = 1;
		}
	}
	if (t->split[k])
		t->fact[k][0] = 0;
}

/* Whether types a and b are built otherwise: in more than memory that rounding to GiB can put apart
   (MemTotal of identical nodes whose kernels reserve a few MiB more or less falls on both sides of a half
   GiB: 1 GiB, or MERGE_MEM_SAME of a large node's), which is no DIMM gone (a DIMM is 4 GiB and more). */
#define MERGE_MEM_SAME 0.03
static int shape_differs(const struct merge_type *a, const struct merge_type *b)
{
	for (int k = 0; k < MS_COUNT; k++) {
		long long x = a->shape[k], y = b->shape[k], d = x > y ? x - y : y - x;
		if (x != y &&
		    !(k == MS_GIB && x > 0 && y > 0 &&
		      (d <= 1 || (double)d <= MERGE_MEM_SAME * (double)(x > y ? x : y))))
			return 1;
	}
	return 0;
}

/* The type a type of too few nodes to judge (THR_MERGE_MIN_NODES) is measured against: the one of the
   most nodes, THR_MERGE_MIN_NODES at least (of two nodes neither is the odd one), of the same CPU and built
   otherwise (shape_differs); -1 where none. A node with a DIMM gone, SMT switched on or a core disabled is
   built otherwise than its peers and so forms a type of its own, of one node, where no figure and no fact of
   it was compared: it was no outlier. */
static int peer_type(const struct merge *m, unsigned ti)
{
	const struct merge_type *t = &m->type[ti];
	int best = -1;

	if (t->nnode >= THR_MERGE_MIN_NODES)
		return -1;
	for (unsigned i = 0; i < m->ntype; i++)
		if (m->type[i].nnode >= THR_MERGE_MIN_NODES && !strcmp(m->type[i].cpu, t->cpu) &&
		    (best < 0 || m->type[i].nnode > m->type[best].nnode))
			best = (int)i;
	return best >= 0 && shape_differs(t, &m->type[best]) ? best : -1;
}

/* Appends the nth part of a shape to buf: "4 CPUs", ", 8 GiB of memory". */
static void shape_text(char *buf, size_t len, int nth, int k, long long v)
{
	static const char *const unit[MS_COUNT] = {"socket(s)", "cores", "CPUs", "NUMA node(s)",
						   "GiB of memory"};
	size_t n = strlen(buf);

	if (k == MS_GIB && v < 0)
		snprintf(buf + n, len - n, "%smemory unknown", nth ? ", " : "");
	else
		snprintf(buf + n, len - n, "%s%lld %s", nth ? ", " : "", v, unit[k]);
}

/* "node type 2 has 8 GiB of memory where type 1 (12 nodes of the same CPU) has 24 GiB of memory": what
   differs. */
static void shape_why(const struct merge *m, unsigned ti, unsigned pi, char *why, size_t len)
{
	const struct merge_type *t = &m->type[ti], *p = &m->type[pi];
	char mine[160] = "", theirs[160] = "";

	for (int k = 0, n = 0; k < MS_COUNT; k++)
		if (t->shape[k] != p->shape[k]) {
			shape_text(mine, sizeof mine, n, k, t->shape[k]);
			shape_text(theirs, sizeof theirs, n++, k, p->shape[k]);
		}
	snprintf(why, len, "node type %u has %s where type %u (%u nodes of the same CPU) has %s", ti + 1,
		 mine, pi + 1, p->nnode, theirs);
}

static int node_outliers(struct merge *m, unsigned ti, unsigned node, const double *med, const double *mad)
{
	const struct merge_type *t = &m->type[ti];
	const struct merge_node *nd = &m->node[node];
	int peer = peer_type(m, ti);
	char why[400];
	int any = 0;

	if (peer >= 0) {
		shape_why(m, ti, (unsigned)peer, why, sizeof why);
		if (add_outlier(m, node, why))
			return -1;
		any = 1;
	}
	for (int k = 0; k < MF_COUNT && t->nnode > 1; k++)
		if (t->split[k] || strcmp(nd->fact[k], t->fact[k])) {
			if (t->split[k])
				snprintf(why, sizeof why,
					 "%s %s; its type's nodes are split, no value on more nodes than "
					 "another",
					 merge_fact_names[k], nd->fact[k][0] ? nd->fact[k] : "(none)");
			else
				snprintf(why, sizeof why, "%s %s; its type's most common: %s",
					 merge_fact_names[k], nd->fact[k][0] ? nd->fact[k] : "(none)",
					 t->fact[k][0] ? t->fact[k] : "(none)");
			if (add_outlier(m, node, why))
				return -1;
			any = 1;
		}
	for (unsigned f = 0; f < t->nfig; f++) {
		double v = node_val(nd, f), d = v > 0 ? log(v) - med[f] : 0;
		double z = mad[f] > 0 ? MAD_TO_Z * fabs(d) / mad[f] : INFINITY;
		if (!(v > 0) || t->fig[f].n < THR_MERGE_MIN_NODES || fabs(d) <= log1p(THR_MERGE_MIN_DEV) ||
		    z <= THR_MERGE_Z)
			continue;
		/* a median absolute deviation of 0 says at least half the values equal the median, not
		   that all others do: two nodes of five may lie either side */
		if (isinf(z))
			snprintf(why, sizeof why,
				 "%s %.4g, %.0f %% %s the type's median %.4g (spread 0: at least half the "
				 "type's nodes at the median)",
				 t->fig[f].name, v, fabs(expm1(d)) * 100, d < 0 ? "below" : "above",
				 exp(med[f]));
		else
			snprintf(why, sizeof why,
				 "%s %.4g, %.0f %% %s the type's median %.4g (robust z %.1f)", t->fig[f].name,
				 v, fabs(expm1(d)) * 100, d < 0 ? "below" : "above", exp(med[f]), z);
		if (add_outlier(m, node, why))
			return -1;
		any = 1;
	}
	m->outlier_nodes += any;
	return 0;
}

int merge_judge(struct merge *m)
{
	int rc = 0;

	for (unsigned ti = 0; ti < m->ntype && !rc; ti++) {
		struct merge_type *t = &m->type[ti];
		double *buf = malloc((t->nnode + 1) * sizeof *buf), *med = calloc(t->nfig + 1, sizeof *med),
		       *mad = calloc(t->nfig + 1, sizeof *mad);
		if (!buf || !med || !mad)
			rc = -1;
		for (unsigned f = 0; f < t->nfig && !rc; f++) {
			fig_stats(m, t, f, buf, &med[f], &mad[f]);
			t->fig[f].median = t->fig[f].n ? exp(med[f]) : NAN;
			t->fig[f].spread = t->fig[f].n > 1 ? expm1(mad[f] / MAD_TO_Z) : NAN;
		}
		for (int k = 0; k < MF_COUNT && !rc; k++)
			fact_mode(m, t, k);
		for (unsigned i = 0; i < t->nnode && !rc; i++)
			rc = node_outliers(m, ti, t->node[i], med, mad);
		free(buf);
		free(med);
		free(mad);
	}
	return rc;
}
