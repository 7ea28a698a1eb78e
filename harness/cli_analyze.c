/* cli_analyze.c — `pmucheck analyze DIR`: turns a results directory's raw data into verdicts. */
#include <getopt.h>
#include <stdio.h>

#include "analyze.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pmucheck analyze [--quiet] DIR\n\n"
		   "Reads DIR/raw.csv and DIR/machine.json (written by 'pmucheck run', possibly on another\n"
		   "machine) and writes into DIR:\n"
		   "  events.csv events.json events.md  what every event counts, its scale, levels, verdict\n"
		   "  peaks.csv peaks.md                 bandwidth, latency and indicator events per level\n"
		   "  stalls.md                          memory-stall events (when the chase variants ran)\n"
		   "Bad input: a message naming file and line, exit 2, nothing written.\n");
}

static int cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {0}};
	struct analyze_summary s;
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
		return cli_fail("analyze", E_USAGE, &e);
	}
	rc = analyze_dir(argv[optind], &s, &e);
	if (rc)
		return cli_fail("analyze", rc, &e);
	if (!quiet) {
		printf("%lu rows, %u points, %u events:", s.rows, s.points, s.events);
		for (int k = 0; k < VC_COUNT; k++)
			if (s.classes[k])
				printf(" %u %s", s.classes[k], verdict_class_names[k]);
		printf("\nwrote events.{csv,json,md}, peaks.{csv,md}%s in %s\n",
		       s.stall_rows ? ", stalls.md" : "", argv[optind]);
	}
	return 0;
}

CLI_COMMAND("analyze", cmd, "correlate counts with known volumes: event verdicts and peak rates");
