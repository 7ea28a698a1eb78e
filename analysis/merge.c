/* merge.c — `pmucheck merge`: reads the directories one by one (each reduced to a node and closed
 * before the next), refuses by name those it cannot read, judges each node type, then writes every
 * table, the figures and the report. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileset.h"
#include "merge_int.h"
#include "out_report_html.h"

static int refuse(struct merge_summary *s, const char *dir, const char *reason)
{
	struct merge_refusal *r = realloc(s->refused, (s->nrefused + 1) * sizeof *r);

	if (!r)
		return -1;
	s->refused = r;
	r += s->nrefused++;
	snprintf(r->dir, sizeof r->dir, "%s", dir);
	/* the reason names the directory or a file inside it; keep it whole */
	snprintf(r->reason, sizeof r->reason, "%s", reason);
	return 0;
}

static void merge_free(struct merge *m)
{
	for (unsigned i = 0; i < m->nnode; i++) {
		free(m->node[i].val);
		free(m->node[i].noisy);
	}
	for (unsigned i = 0; i < m->ntype; i++) {
		free(m->type[i].node);
		free(m->type[i].fig);
	}
	for (unsigned i = 0; i < m->narch; i++) {
		for (unsigned k = 0; k < m->arch[i].nev; k++)
			free(m->arch[i].ev[k].cls);
		free(m->arch[i].ev);
		free(m->arch[i].node);
	}
	free(m->node);
	free(m->type);
	free(m->arch);
	free(m->out);
	memset(m, 0, sizeof *m);
}

void merge_summary_free(struct merge_summary *s)
{
	free(s->refused);
	memset(s, 0, sizeof *s);
}

/* merge.md and report.html (the same page, figures inlined) from one Markdown text. */
static int write_pages(struct fileset *o, const struct merge *m, const struct merge_summary *s,
		       const char *const *plots, const char *out, struct err *e)
{
	char *md = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&md, &len), *f, *html, *in;
	int rc;

	if (!mem)
		return err_set(e, E_RUNTIME, "out of memory");
	rc = merge_write_md(mem, m, s, plots);
	if (fclose(mem) || rc) {
		free(md);
		return err_set(e, E_RUNTIME, "out of memory");
	}
	if (!(rc = fileset_open(o, "merge.md", &f, e)) && !(rc = fileset_open(o, "report.html", &html, e))) {
		fwrite(md, 1, len, f);
		if (!(in = fmemopen(md, len ? len : 1, "r")))
			rc = err_set(e, E_RUNTIME, "out of memory");
		else {
			rc = out_report_html(html, in, out, "pmucheck merge", e);
			fclose(in);
		}
	}
	free(md);
	return rc;
}

static int write_all(const struct merge *m, struct merge_summary *s, const char *out, int out_made,
		     struct err *e)
{
	struct fileset o = {.dir = out};
	char **plots = calloc(m->ntype + 1, sizeof *plots);
	int rc;

	if (!plots)
		return err_set(e, E_RUNTIME, "out of memory");
	/* a new directory only (cli_merge.c checked; another process may have made it since); one that
	   cannot be made (no such parent, '') is the user's -o, as run's --out */
	if (!out_made && mkdir(out, 0777))
		rc = err_set(e, E_USAGE, "-o %s: cannot create it: %s", out, strerror(errno));
	else if (!(rc = merge_plots(m, out, plots, s, e)) && !(rc = merge_write_tables(&o, m, s, e)) &&
		 !(rc = write_pages(&o, m, s, (const char *const *)plots, out, e)))
		rc = fileset_commit(&o, e);
	if (rc)
		fileset_abort(&o);
	for (unsigned i = 0; i < m->ntype; i++)
		free(plots[i]);
	free(plots);
	return rc;
}

int merge_dirs(char *const *dirs, unsigned n, const char *out, int out_made, struct merge_summary *s,
	       struct err *e)
{
	struct merge m = {0};
	int rc = 0;

	memset(s, 0, sizeof *s);
	for (unsigned i = 0; i < n && !rc; i++) {
		struct err de = {{0}};
		int r = merge_read_dir(&m, dirs[i], &de);
		if (r == E_USAGE && refuse(s, dirs[i], de.msg))
			rc = err_set(e, E_RUNTIME, "out of memory");
		else if (r && r != E_USAGE)
			rc = err_set(e, r, "%s", de.msg);
	}
	if (!rc && !m.nnode)
		rc = err_set(e, E_USAGE, "none of the %u directories could be merged", n);
	if (!rc && merge_judge(&m))
		rc = err_set(e, E_RUNTIME, "out of memory");
	if (!rc) {
		s->nodes = m.nnode;
		s->types = m.ntype;
		s->archs = m.narch;
		s->outliers = m.outlier_nodes;
		rc = write_all(&m, s, out, out_made, e);
	}
	merge_free(&m);
	return rc;
}
