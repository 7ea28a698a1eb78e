/* cli_report.c — `pmucheck report DIR`: figures and a readable report of an analysed results
 * directory. */
#include <stdio.h>

#include "cli.h"
#include "out_report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck report [-q|--quiet] DIR\n\n"
		"Reads DIR (raw.csv, machine.json and the tables of 'pmucheck analyze DIR') and writes:\n"
		"  plots/NAME.png, .svg, .gp  gnuplot figures (bandwidth vs size, events per line,\n"
		"                             NOP delay, line offset, pointer-chase stalls)\n"
		"  report.md                  what was not measured and why, figures, tables\n"
		"  report.html                the same, one self-contained file (figures inlined)\n"
		"Without gnuplot the report is written without figures and says so.\n"
		"Exit status: 0 written, 1 failure, 2 bad input (run 'pmucheck analyze DIR' first).\n");
}

static int cmd(int argc, char **argv)
{
	struct out_report_summary s;
	struct err e = {{0}};
	const char *dir;
	int quiet, rc = cli_dir_command("report", argc, argv, usage, &quiet, &dir);

	if (rc >= 0)
		return rc;
	rc = out_report(dir, &s, &e);
	if (rc)
		return cli_fail("report", rc, &e);
	if (s.gnuplot_missing)
		fprintf(stderr, "pmucheck report: gnuplot not found: the report has no figures\n");
	if (!quiet)
		printf("wrote %s/report.md, %s/report.html and %u figures in %s/plots (%u events not "
		       "measured or failed, listed at the top)\n",
		       dir, dir, s.plots, dir, s.not_measured);
	return 0;
}

CLI_COMMAND("report", cmd, "figures and a report (Markdown, HTML) of an analysed results directory");
