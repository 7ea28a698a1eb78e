/* cli_export.c — `pmucheck export DIR --format perf|likwid|papi [--out DIR]`: metric definitions
 * other tools load, from the events the analysis validated. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cli.h"
#include "out_report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck export DIR -f|--format perf|likwid|papi [-o|--out OUTDIR]\n\n"
		"Turns the events 'pmucheck analyze DIR' judged exact or approximate (and only those)\n"
		"into metrics, each with its evidence (levels, prefetch state, error, R^2, DIR):\n"
		"  perf    OUTDIR/metrics.json    pmu-events metrics (MetricName, MetricExpr, ...), for a "
		"perf\n"
		"                                 build; OUTDIR/perf-stat.txt: perf stat lines any perf "
		"runs\n"
		"  likwid  OUTDIR/<arch>/<METRIC>.txt  LIKWID groups (copy <arch> to ~/.likwid/groups/);\n"
		"          a core event validated in user and kernel mode counts on PMC0:KERNEL (LIKWID\n"
		"          counts user mode alone without it), which LIKWID's perf_event backend opens only\n"
		"          at perf_event_paranoid <= 1, with CAP_PERFMON or as root\n"
		"  papi    OUTDIR/papi_user_events.csv  for PAPI_USER_EVENTS_FILE\n"
		"Events are named by their encoding (event code, umask) as perf's and LIKWID's own tables\n"
		"name them on the measured CPU, as the [export] section of its config lists them\n"
		"(configs/<arch>.ini for machine.json's config), raw cpu/event=...,umask=.../ otherwise.\n"
		"All three divide by the same scale (events per quantity), stated in each description.\n"
		"OUTDIR defaults to DIR/metrics. Events a format cannot name are listed with the reason.\n"
		"A validated event that analyze named as the indicator of a level in peaks.csv also gets\n"
		"<metric>_of_peak: its rate as a share of the highest rate measured (perf; LIKWID, which\n"
		"evaluates it per hardware thread: of one core, for a core's counter, and none where\n"
		"peaks.csv has no one-core rate).\n"
		"Not exported: stall decompositions and miss latencies. Their events count cycles, which\n"
		"analyze judges against the measured latency in stalls.md, never with an exact or\n"
		"approximate verdict; read them there.\n"
		"An earlier export of DIR to OUTDIR is replaced: its LIKWID groups of events this one does\n"
		"not export are removed, and where nothing is exported, its files of the format; files of\n"
		"another results directory's export and the user's stay. Each removal is listed.\n"
		"Exit status: 0 written; 1 nothing to export (no event validated, or none this format\n"
		"can name; no file is written); 2 bad usage, no events.json (run analyze first), or\n"
		"raw.csv changed since its analysis (a run resumed since: run analyze again).\n");
}

static int parse_format(const char *s, enum out_export_format *fmt)
{
	for (int i = 0; i < OX_COUNT; i++)
		if (strcmp(s, out_export_format_names[i]) == 0) {
			*fmt = (enum out_export_format)i;
			return 0;
		}
	return -1;
}

/* the short options, for getopt_long and for cli_option_error's message alike */
#define SHORTOPTS "f:o:h"

static int cmd(int argc, char **argv)
{
	static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
					     {"out", required_argument, NULL, 'o'},
					     {"help", no_argument, NULL, 'h'},
					     {0}};
	enum out_export_format fmt = OX_COUNT;
	struct out_export_summary s;
	struct err e = {{0}};
	const char *out = NULL, *dir;
	int c, rc;

	cli_getopt_start();
	while ((c = getopt_long(argc, argv, SHORTOPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_format(optarg, &fmt)) {
				err_set(&e, E_USAGE, "--format: unknown format '%s' (perf, likwid or papi)",
					optarg);
				return cli_fail("export", E_USAGE, &e);
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return cli_fail("export", cli_option_error(c, argv, SHORTOPTS, opts, &e), &e);
		}
	}
	if (optind != argc - 1 || fmt == OX_COUNT) {
		err_set(&e, E_USAGE, "%s",
			fmt == OX_COUNT ? "--format perf|likwid|papi is required"
					: "expected one results directory");
		return cli_fail("export", E_USAGE, &e);
	}
	if (out && !*out) {
		err_set(&e, E_USAGE, "--out: an empty directory name");
		return cli_fail("export", E_USAGE, &e);
	}
	dir = argv[optind];
	rc = out_export(dir, out, fmt, cfg_export_names, &s, &e);
	if (*s.removed)
		fprintf(stderr,
			"pmucheck export: removed what an earlier export of %s wrote, which this one "
			"does not write again (where a file could not be, it says why): %s\n",
			dir, s.removed);
	if (rc)
		return cli_fail("export", rc, &e);
	if (s.skipped)
		fprintf(stderr, "pmucheck export: left out of the %s export: %s\n",
			out_export_format_names[fmt], s.skipped_why);
	if (!s.validated) {
		fprintf(stderr,
			"pmucheck export: nothing validated in %s/events.json: no event is exact or "
			"approximate, so there is no metric to define; no files written\n",
			dir);
		return 1;
	}
	if (!s.metrics) {
		fprintf(stderr,
			"pmucheck export: none of the %u validated events can be named in %s "
			"syntax; no files written\n",
			s.validated, out_export_format_names[fmt]);
		return 1;
	}
	printf("%u metrics from %u validated events: %s\n", s.metrics, s.validated, s.written);
	return 0;
}

CLI_COMMAND("export", cmd, "metric definitions for perf, LIKWID or PAPI from the validated events");
