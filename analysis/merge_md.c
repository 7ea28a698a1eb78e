/* merge_md.c — merge.md: what was merged and refused, per node type the nodes' figures side by side
 * with the median and spread, its figure and its outliers, per architecture the merged event table.
 * report.html is this page with its figures inlined. */
#include <math.h>
#include <string.h>

#include "merge_int.h"
#include "thresholds.h"

/* Disagreeing nodes named in the Markdown table before "and N more" (every one is in events.csv). */
#define MD_MAX_NAMED 8

static void cell(FILE *f, double v)
{
	if (v > 0 && isfinite(v))
		fprintf(f, " %.4g |", v);
	else
		fputs(" |", f);
}

static int is_outlier(const struct merge *m, unsigned node)
{
	for (unsigned o = 0; o < m->nout; o++)
		if (m->out[o].node == node)
			return 1;
	return 0;
}

static int type_noisy(const struct merge_type *t, const struct merge *m)
{
	for (unsigned i = 0; i < t->nnode; i++) {
		const struct merge_node *nd = &m->node[t->node[i]];
		for (unsigned k = 0; k < nd->nval; k++)
			if (nd->noisy[k] && nd->val[k] > 0)
				return 1;
	}
	return 0;
}

static void type_md(FILE *f, const struct merge *m, unsigned ti, const char *plot)
{
	const struct merge_type *t = &m->type[ti];

	fprintf(f, "## Node type %u: %u node(s)\n\n%s\n\n", ti + 1, t->nnode, t->label);
	fputs("| fact | most common value |\n|---|---|\n", f);
	for (int k = 0; k < MF_COUNT; k++)
		fprintf(f, "| %s | %s |\n", merge_fact_names[k],
			t->split[k]             ? "(split: no value on more nodes than another)"
				: t->fact[k][0] ? t->fact[k]
						: "(none)");
	fputs("\nPeak figures (peaks.csv of each node; bandwidths in GB/s, latencies in ns); outlier nodes "
	      "in "
	      "**bold**:\n\n| node |",
	      f);
	for (unsigned k = 0; k < t->nfig; k++)
		fprintf(f, " %s |", t->fig[k].name);
	fputs("\n|---|", f);
	for (unsigned k = 0; k < t->nfig; k++)
		fputs("---:|", f);
	fputc('\n', f);
	for (unsigned i = 0; i < t->nnode; i++) {
		const struct merge_node *nd = &m->node[t->node[i]];
		fprintf(f, is_outlier(m, t->node[i]) ? "| **%s** |" : "| %s |", nd->name);
		for (unsigned k = 0; k < t->nfig; k++)
			if (k < nd->nval && nd->noisy[k] && nd->val[k] > 0)
				fprintf(f, " %.4g (noisy) |", nd->val[k]);
			else
				cell(f, k < nd->nval ? nd->val[k] : NAN);
		fputc('\n', f);
	}
	fputs("| *median* |", f);
	for (unsigned k = 0; k < t->nfig; k++)
		cell(f, t->fig[k].median);
	fputs("\n| *spread* |", f);
	for (unsigned k = 0; k < t->nfig; k++)
		if (isfinite(t->fig[k].spread))
			fprintf(f, " ±%.1f %% |", t->fig[k].spread * 100);
		else
			fputs(" |", f);
	fputs("\n\n", f);
	if (type_noisy(t, m))
		fputs("A figure marked (noisy) is a disturbed point's (peaks.csv quality `noisy`): "
		      "shown, but left out of the median and the spread, and never called an outlier.\n\n",
		      f);
	if (plot)
		fprintf(f, "![Type %u: every node's figures in %% of the type's median](%s)\n\n", ti + 1,
			plot);
	if (t->nnode < THR_MERGE_MIN_NODES)
		fprintf(f,
			"Fewer than %d nodes: no figure is called an outlier (of two nodes neither is the "
			"odd one); facts are still compared, and where a type of more nodes has this CPU, "
			"each node is an outlier by how its type differs from that one.\n\n",
			THR_MERGE_MIN_NODES);
	fputs("Outliers:\n\n", f);
	unsigned n = 0;
	for (unsigned o = 0; o < m->nout; o++) {
		const struct merge_node *nd = &m->node[m->out[o].node];
		if (nd->type != ti)
			continue;
		/* one item per node, its reasons joined */
		if (!o || m->out[o - 1].node != m->out[o].node)
			fprintf(f, "%s- **%s** (`%s`): ", n++ ? "\n" : "", nd->name, nd->dir);
		else
			fputs("; ", f);
		fputs(m->out[o].reason, f);
	}
	if (n)
		fputc('\n', f);
	fputs(n ? "\n" : "- none\n\n", f);
}

static void arch_md(FILE *f, const struct merge *m, const struct merge_arch *a)
{
	fprintf(f,
		"## Events: %s, %u node(s)\n\n| event | verdict | on nodes | nodes that disagree |\n"
		"|---|---|---:|---|\n",
		a->name, a->nnode);
	for (unsigned k = 0; k < a->nev; k++) {
		unsigned agree, best = merge_ev_majority(a, &a->ev[k], &agree), named = 0, other = 0;
		fprintf(f, "| `%s` | %s | %u of %u |", a->ev[k].name, verdict_class_names[best], agree,
			a->nnode);
		for (unsigned i = 0; i < a->nnode; i++) {
			unsigned c = a->ev[k].cls[i];
			if (c == best)
				continue;
			if (named++ < MD_MAX_NAMED)
				fprintf(f, "%s %s: %s", named > 1 ? "," : "", m->node[a->node[i]].name,
					c < VC_COUNT ? verdict_class_names[c] : "not listed");
			else
				other++;
		}
		if (other)
			fprintf(f, " and %u more (events.csv)", other);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

int merge_write_md(FILE *f, const struct merge *m, const struct merge_summary *s, const char *const *plots)
{
	fprintf(f, "# pmucheck merge: %u node(s), %u node type(s), %u architecture(s)\n\n", m->nnode,
		m->ntype, m->narch);
	fprintf(f,
		"%u node(s) are outliers. A figure is an outlier when it lies more than %.1f robust standard "
		"deviations (1.4826 x the median absolute deviation, on a log scale) and more than a factor "
		"of %g from its type's median (%.0f %% above it, %.1f %% below), in a type of at least %d "
		"nodes; a fact (microcode, prefetcher MSRs, THP, "
		"governor, SMT, cache sizes, pmucheck version) when it differs from the type's most common "
		"value; a node of a type of fewer than %d nodes when a type of more nodes has its CPU (it "
		"is built otherwise: sockets, cores, CPUs, NUMA nodes or memory). The spread is that robust "
		"standard deviation, relative to the median.\n\n",
		m->outlier_nodes, THR_MERGE_Z, 1 + THR_MERGE_MIN_DEV, THR_MERGE_MIN_DEV * 100,
		100 * THR_MERGE_MIN_DEV / (1 + THR_MERGE_MIN_DEV), THR_MERGE_MIN_NODES, THR_MERGE_MIN_NODES);
	if (s->gnuplot_missing)
		fputs("Figures: none, gnuplot could not be started (install gnuplot-nox and merge "
		      "again).\n\n",
		      f);
	if (s->nrefused) {
		fprintf(f, "## Refused: %u directories\n\n", s->nrefused);
		for (unsigned i = 0; i < s->nrefused; i++)
			fprintf(f, "- `%s`: %s\n", s->refused[i].dir, s->refused[i].reason);
		fputc('\n', f);
	}
	for (unsigned ti = 0; ti < m->ntype; ti++)
		type_md(f, m, ti, plots ? plots[ti] : NULL);
	for (unsigned ai = 0; ai < m->narch; ai++)
		arch_md(f, m, &m->arch[ai]);
	return ferror(f) ? -1 : 0;
}
