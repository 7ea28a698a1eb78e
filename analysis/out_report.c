/* out_report.c — `pmucheck report DIR`: figures first (gnuplot), then report.md and report.html,
 * both committed together (analysis' out_files) so a failure leaves no half report. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out.h"
#include "out_report.h"
#include "out_report_html.h"
#include "out_report_md.h"

/* Figures of an earlier report that this data no longer supports would outlive it in plots/. */
static void remove_old_figures(const char *plotdir)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(plotdir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *dot = strrchr(de->d_name, '.');
		if (dot && (!strcmp(dot, ".png") || !strcmp(dot, ".svg") || !strcmp(dot, ".gp"))) {
			snprintf(path, sizeof path, "%s/%s", plotdir, de->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

static int draw(struct out_figures *figs, const char *dir, const char **why_no_plots,
		struct out_report_summary *sum, struct err *e)
{
	char plotdir[PATH_MAX];
	struct stat st;
	int missing = 0, rc;

	snprintf(plotdir, sizeof plotdir, "%s/plots", dir);
	/* Its old figures are removed: a plots that is a link (a results directory copied from elsewhere)
	   would have them removed, and new ones written, wherever it points. */
	if (!lstat(plotdir, &st) && !S_ISDIR(st.st_mode))
		return err_set(e, E_USAGE, "%s is a %s, not the directory report writes its figures into",
			       plotdir, S_ISLNK(st.st_mode) ? "link" : "file");
	remove_old_figures(plotdir);
	if (figs->n && mkdir(plotdir, 0777) && errno != EEXIST)
		return err_set(e, E_RUNTIME, "%s: %s", plotdir, strerror(errno));
	for (unsigned i = 0; i < figs->n; i++) {
		rc = out_plot_draw(&figs->p[i], plotdir, &missing, e);
		if (missing) {
			/* the report still says everything else; it says why the figures are missing */
			*why_no_plots = "gnuplot could not be started (install gnuplot-nox and run "
					"'pmucheck report' again)";
			sum->gnuplot_missing = 1;
			remove_old_figures(plotdir); /* the script written for gnuplot */
			out_figures_free(figs);
			return 0;
		}
		if (rc)
			return rc;
	}
	sum->plots = figs->n;
	return 0;
}

static int write_report(const struct out_rdata *d, const struct out_figures *figs, const char *why_no_plots,
			struct out_report_summary *sum, struct err *e)
{
	struct fileset o = {.dir = d->dir};
	char *text = NULL, title[512];
	size_t len = 0;
	FILE *mem, *md, *html, *in;
	int rc;

	if (!(mem = open_memstream(&text, &len)))
		return err_set(e, E_RUNTIME, "report: out of memory");
	sum->not_measured = out_report_md(mem, d, figs, why_no_plots);
	fclose(mem);
	snprintf(title, sizeof title, "pmucheck report: %s, %s", d->a.m.host, d->a.m.cpu);
	if ((rc = fileset_open(&o, "report.md", &md, e)) || (rc = fileset_open(&o, "report.html", &html, e)))
		goto out;
	fwrite(text, 1, len, md);
	if (!(in = fmemopen(text, len ? len : 1, "r"))) {
		rc = err_set(e, E_RUNTIME, "report: out of memory");
		goto out;
	}
	rc = out_report_html(html, in, d->dir, title, e);
	fclose(in);
	if (!rc)
		rc = fileset_commit(&o, e);
out:
	if (rc)
		fileset_abort(&o);
	free(text);
	return rc;
}

int out_report(const char *dir, struct out_report_summary *sum, struct err *e)
{
	struct out_rdata d;
	struct out_figures figs = {0};
	const char *why_no_plots = NULL;
	int rc;

	memset(sum, 0, sizeof *sum);
	if ((rc = out_rdata_load(&d, dir, e)))
		return rc;
	if (!(rc = out_figures_build(&d, &figs, e)) && !(rc = draw(&figs, dir, &why_no_plots, sum, e)))
		rc = write_report(&d, &figs, why_no_plots, sum, e);
	out_figures_free(&figs);
	out_rdata_free(&d);
	return rc;
}
