/* cli_report.c — `pmucheck report DIR`: figures and a readable report of an analysed results
 * directory. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "out_report.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pmucheck report [--quiet] DIR\n\n"
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
	static const struct option opts[] = {
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {0}};
	struct out_report_summary s;
	struct err e = {{0}};
	int quiet = 0, c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		err_set(&e, E_USAGE, "expected one results directory");
		return cli_fail("report", E_USAGE, &e);
	}
	rc = out_report(argv[optind], &s, &e);
	if (rc)
		return cli_fail("report", rc, &e);
	if (s.gnuplot_missing)
		fprintf(stderr, "pmucheck report: gnuplot not found: the report has no figures\n");
	if (!quiet)
		printf("wrote %s/report.md, %s/report.html and %u figures in %s/plots (%u events not "
		       "measured, listed at the top)\n",
		       argv[optind], argv[optind], s.plots, argv[optind], s.not_measured);
	return 0;
}

CLI_COMMAND("report", cmd, "figures and a report (Markdown, HTML) of an analysed results directory");
