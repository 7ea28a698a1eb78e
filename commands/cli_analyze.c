/* cli_analyze.c — `pmucheck analyze DIR`: turns a results directory's raw data into verdicts. */
#include <stdio.h>

#include "analyze.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck analyze [-q|--quiet] DIR\n\n"
		"Reads DIR/raw.csv and DIR/machine.json (written by 'pmucheck run', possibly on another\n"
		"machine) and writes into DIR:\n"
		"  events.csv events.json events.md  what every event counts, its scale, levels, verdict\n"
		"  peaks.csv peaks.md                 bandwidth, latency and indicator events per level\n"
		"  stalls.md                          memory-stall events (when a chase point counted one)\n"
		"  boxes.csv boxes.md                 each box's share of a box wildcard's sum (when "
		"counted)\n"
		"Bad input: a message naming file and line, exit 2, nothing written.\n");
}

static int cmd(int argc, char **argv)
{
	struct analyze_summary s;
	struct err e = {{0}};
	const char *dir;
	int quiet, rc = cli_dir_command("analyze", argc, argv, usage, &quiet, &dir);

	if (rc >= 0)
		return rc;
	rc = analyze_dir(dir, &s, &e);
	if (rc)
		return cli_fail("analyze", rc, &e);
	if (s.torn) /* even with --quiet: the figures lack a point the run measured */
		fprintf(stderr,
			"pmucheck analyze: %s/raw.csv ends in a row its interruption cut: its last "
			"point is left out ('pmucheck run --resume %s' measures it again)\n",
			dir, dir);
	if (!quiet) {
		printf("%lu rows, %u points, %u events:", s.rows, s.points, s.events);
		for (int k = 0; k < VC_COUNT; k++)
			if (s.classes[k])
				printf(" %u %s", s.classes[k], verdict_class_names[k]);
		printf("\nwrote events.{csv,json,md}, peaks.{csv,md}%s%s in %s\n",
		       s.stall_rows ? ", stalls.md" : "", s.box_rows ? ", boxes.{csv,md}" : "", dir);
	}
	return 0;
}

CLI_COMMAND("analyze", cmd, "correlate counts with known volumes: event verdicts and peak rates");
