/* merge_out.c — the merged tables: nodes.csv (every node's figures beside its type's median),
 * outliers.csv, events.csv (per architecture, on how many nodes each event's verdict holds and which
 * nodes disagree), merge.json (all of it for tools) and merge.md (for people). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fileset.h"
#include "merge_int.h"
#include "thresholds.h"
#include "version.h"

unsigned merge_ev_majority(const struct merge_arch *a, const struct merge_event *ev, unsigned *agree)
{
	unsigned cnt[VC_COUNT] = {0}, best = 0;

	for (unsigned i = 0; i < a->nnode; i++)
		if (ev->cls[i] < VC_COUNT)
			cnt[ev->cls[i]]++;
	/* ties go to the later class, the weaker claim (exact before approximate ... not measured): of
	   one node exact and one not measured, the event must not read as exact */
	for (unsigned c = 1; c < VC_COUNT; c++)
		if (cnt[c] && cnt[c] >= cnt[best])
			best = c;
	*agree = cnt[best];
	return best;
}

static const char *cls_name(unsigned c)
{
	return c < VC_COUNT ? verdict_class_names[c] : "not listed";
}

static void num_field(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
}

static void jstr(FILE *f, const char *s)
{
	json_t *j = json_string(s);

	json_dumpf(j, f, JSON_ENCODE_ANY);
	json_decref(j);
}

static void jnum(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

static double node_val(const struct merge_node *nd, unsigned f)
{
	return f < nd->nval ? nd->val[f] : NAN;
}

static void write_nodes_csv(FILE *f, const struct merge *m)
{
	fputs("type,node,dir,figure,value,type_median,type_spread,deviation,quality\n", f);
	for (unsigned ti = 0; ti < m->ntype; ti++)
		for (unsigned i = 0; i < m->type[ti].nnode; i++) {
			const struct merge_type *t = &m->type[ti];
			const struct merge_node *nd = &m->node[t->node[i]];
			for (unsigned k = 0; k < t->nfig; k++) {
				double v = node_val(nd, k);
				if (!(v > 0))
					continue;
				fprintf(f, "%u,", ti + 1);
				csv_field(f, nd->name);
				fputc(',', f);
				csv_field(f, nd->dir);
				fputc(',', f);
				csv_field(f, t->fig[k].name);
				fprintf(f, ",%.6g,", v);
				num_field(f, t->fig[k].median);
				fputc(',', f);
				num_field(f, t->fig[k].spread);
				fputc(',', f);
				if (t->fig[k].median > 0)
					fprintf(f, "%.4f", v / t->fig[k].median - 1);
				fprintf(f, ",%s\n", nd->noisy[k] ? "noisy" : "ok");
			}
		}
}

static void write_outliers_csv(FILE *f, const struct merge *m)
{
	fputs("type,node,dir,reason\n", f);
	for (unsigned i = 0; i < m->nout; i++) {
		const struct merge_node *nd = &m->node[m->out[i].node];
		fprintf(f, "%u,", nd->type + 1);
		csv_field(f, nd->name);
		fputc(',', f);
		csv_field(f, nd->dir);
		fputc(',', f);
		csv_field(f, m->out[i].reason);
		fputc('\n', f);
	}
}

static void write_events_csv(FILE *f, const struct merge *m)
{
	fputs("architecture,event,class,nodes_agreeing,nodes,disagreeing\n", f);
	for (unsigned ai = 0; ai < m->narch; ai++) {
		const struct merge_arch *a = &m->arch[ai];
		for (unsigned k = 0; k < a->nev; k++) {
			unsigned agree, c = merge_ev_majority(a, &a->ev[k], &agree);
			char *list = NULL;
			size_t len = 0;
			FILE *l = open_memstream(&list, &len);
			csv_field(f, a->name);
			fputc(',', f);
			csv_field(f, a->ev[k].name);
			fprintf(f, ",%s,%u,%u,", cls_name(c), agree, a->nnode);
			for (unsigned i = 0; i < a->nnode && l; i++)
				if (a->ev[k].cls[i] != c)
					fprintf(l, "%s%s=%s", ftell(l) ? ";" : "", m->node[a->node[i]].name,
						cls_name(a->ev[k].cls[i]));
			if (l)
				fclose(l);
			csv_field(f, list ? list : "");
			fputc('\n', f);
			free(list);
		}
	}
}

static void write_refused_json(FILE *f, const struct merge_summary *s)
{
	fputs("  \"refused\": [", f);
	for (unsigned i = 0; i < s->nrefused; i++) {
		fputs(i ? ",\n    { \"dir\": " : "\n    { \"dir\": ", f);
		jstr(f, s->refused[i].dir);
		fputs(", \"reason\": ", f);
		jstr(f, s->refused[i].reason);
		fputs(" }", f);
	}
	fputs(" ],\n", f);
}

static void write_type_json(FILE *f, const struct merge *m, unsigned ti)
{
	const struct merge_type *t = &m->type[ti];

	fputs("{ \"type\": ", f);
	fprintf(f, "%u, \"label\": ", ti + 1);
	jstr(f, t->label);
	fputs(",\n      \"facts\": {", f);
	for (int k = 0; k < MF_COUNT; k++) {
		fputs(k ? ", " : " ", f);
		jstr(f, merge_fact_names[k]);
		fputs(": ", f);
		if (t->split[k])
			fputs("null", f);
		else
			jstr(f, t->fact[k]);
	}
	fputs(" },\n      \"figures\": [", f);
	for (unsigned k = 0; k < t->nfig; k++) {
		fputs(k ? ",\n        { \"figure\": " : "\n        { \"figure\": ", f);
		jstr(f, t->fig[k].name);
		fputs(", \"median\": ", f);
		jnum(f, t->fig[k].median);
		fputs(", \"spread\": ", f);
		jnum(f, t->fig[k].spread);
		fprintf(f, ", \"nodes\": %u, \"lower_is_better\": %s }", t->fig[k].n,
			t->fig[k].latency ? "true" : "false");
	}
	fputs(" ],\n      \"nodes\": [", f);
	for (unsigned i = 0; i < t->nnode; i++) {
		unsigned n = t->node[i], first = 1;
		const struct merge_node *nd = &m->node[n];
		fputs(i ? ",\n        { \"node\": " : "\n        { \"node\": ", f);
		jstr(f, nd->name);
		fputs(", \"dir\": ", f);
		jstr(f, nd->dir);
		fputs(", \"values\": {", f);
		for (unsigned k = 0; k < t->nfig; k++)
			if (node_val(nd, k) > 0) {
				fputs(first ? " " : ", ", f);
				jstr(f, t->fig[k].name);
				fprintf(f, ": %.6g", node_val(nd, k));
				first = 0;
			}
		fputs(" }, \"noisy\": [", f);
		first = 1;
		for (unsigned k = 0; k < t->nfig; k++)
			if (node_val(nd, k) > 0 && nd->noisy[k]) {
				fputs(first ? " " : ", ", f);
				jstr(f, t->fig[k].name);
				first = 0;
			}
		fputs(" ], \"outlier\": [", f);
		first = 1;
		for (unsigned o = 0; o < m->nout; o++)
			if (m->out[o].node == n) {
				fputs(first ? " " : ", ", f);
				jstr(f, m->out[o].reason);
				first = 0;
			}
		fputs(" ] }", f);
	}
	fputs(" ] }", f);
}

static void write_arch_json(FILE *f, const struct merge *m, const struct merge_arch *a)
{
	fputs("{ \"architecture\": ", f);
	jstr(f, a->name);
	fprintf(f, ", \"nodes\": %u, \"events\": [", a->nnode);
	for (unsigned k = 0; k < a->nev; k++) {
		unsigned agree, c = merge_ev_majority(a, &a->ev[k], &agree), first = 1;
		fputs(k ? ",\n        { \"event\": " : "\n        { \"event\": ", f);
		jstr(f, a->ev[k].name);
		fprintf(f, ", \"class\": \"%s\", \"nodes_agreeing\": %u, \"disagreeing\": [", cls_name(c),
			agree);
		for (unsigned i = 0; i < a->nnode; i++)
			if (a->ev[k].cls[i] != c) {
				fputs(first ? " { \"node\": " : ", { \"node\": ", f);
				jstr(f, m->node[a->node[i]].name);
				fprintf(f, ", \"class\": \"%s\" }", cls_name(a->ev[k].cls[i]));
				first = 0;
			}
		fputs(" ] }", f);
	}
	fputs(" ] }", f);
}

static void write_json(FILE *f, const struct merge *m, const struct merge_summary *s)
{
	fputs("{ \"format\": 1, \"pmucheck\": ", f);
	jstr(f, PMUCHECK_VERSION);
	fprintf(f, ",\n  \"thresholds\": { \"z\": %g, \"min_deviation\": %g, \"min_nodes\": %d },\n",
		THR_MERGE_Z, THR_MERGE_MIN_DEV, THR_MERGE_MIN_NODES);
	fprintf(f, "  \"nodes\": %u, \"outlier_nodes\": %u,\n", m->nnode, m->outlier_nodes);
	write_refused_json(f, s);
	fputs("  \"types\": [", f);
	for (unsigned ti = 0; ti < m->ntype; ti++) {
		fputs(ti ? ",\n    " : "\n    ", f);
		write_type_json(f, m, ti);
	}
	fputs(" ],\n  \"architectures\": [", f);
	for (unsigned ai = 0; ai < m->narch; ai++) {
		fputs(ai ? ",\n    " : "\n    ", f);
		write_arch_json(f, m, &m->arch[ai]);
	}
	fputs(" ] }\n", f);
}

int merge_write_tables(struct fileset *o, const struct merge *m, const struct merge_summary *s, struct err *e)
{
	FILE *nodes, *outl, *ev, *js;
	int rc;

	if ((rc = fileset_open(o, "nodes.csv", &nodes, e)) ||
	    (rc = fileset_open(o, "outliers.csv", &outl, e)) ||
	    (rc = fileset_open(o, "events.csv", &ev, e)) || (rc = fileset_open(o, "merge.json", &js, e)))
		return rc;
	write_nodes_csv(nodes, m);
	write_outliers_csv(outl, m);
	write_events_csv(ev, m);
	write_json(js, m, s);
	return 0;
}
