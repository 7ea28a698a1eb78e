/* merge_plot.c — one figure per node type: every node (x, in the type's order) against each figure in
 * per cent of the type's median, so that a slow DIMM or a node with its prefetchers off stands out
 * from the band around 100 %. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "merge_int.h"
#include "out_plot.h"

static int type_plot(const struct merge *m, unsigned ti, struct out_plot *p)
{
	const struct merge_type *t = &m->type[ti];

	snprintf(p->name, sizeof p->name, "type-%u", ti + 1);
	snprintf(p->title, sizeof p->title, "Node type %u: %u nodes", ti + 1, t->nnode);
	snprintf(p->xlabel, sizeof p->xlabel, "node (row of the type's table)");
	snprintf(p->ylabel, sizeof p->ylabel, "%% of the type's median");
	for (unsigned k = 0; k < t->nfig; k++) {
		struct out_series *s = out_plot_series(p, t->fig[k].name);
		if (!s)
			return -1;
		for (unsigned i = 0; i < t->nnode; i++) {
			const struct merge_node *nd = &m->node[t->node[i]];
			double v = k < nd->nval ? nd->val[k] : 0;
			if (v > 0 && t->fig[k].median > 0 &&
			    out_series_add(s, i + 1, 100 * v / t->fig[k].median, nd->noisy[k]))
				return -1;
		}
	}
	return 0;
}

int merge_plots(const struct merge *m, const char *out, char **plots, struct merge_summary *s, struct err *e)
{
	char dir[PATH_MAX];
	int rc = 0;

	snprintf(dir, sizeof dir, "%s/plots", out);
	for (unsigned ti = 0; ti < m->ntype && !rc && !s->gnuplot_missing; ti++) {
		struct out_plot p = {0};
		if (!m->type[ti].nfig)
			continue;
		if (mkdir(dir, 0777) && errno != EEXIST)
			return err_set(e, E_RUNTIME, "%s: %s", dir, strerror(errno));
		if (type_plot(m, ti, &p))
			rc = err_set(e, E_RUNTIME, "out of memory");
		else if (!(rc = out_plot_draw(&p, dir, &s->gnuplot_missing, e)) && !s->gnuplot_missing) {
			if (!(plots[ti] = malloc(64)))
				rc = err_set(e, E_RUNTIME, "out of memory");
			else
				snprintf(plots[ti], 64, "plots/%s.png", p.name);
			s->plots += !rc;
		}
		out_plot_free(&p);
	}
	if (s->gnuplot_missing)
		rc = 0; /* merge.md says the figures are missing; the tables stand */
	return rc;
}
