/* cli_all.c — `pmucheck [RUN OPTIONS]`: the default validation of this machine. Runs, analyses the new
 * results directory and writes its report, then says where everything is. */
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "cli.h"
#include "cli_run.h"
#include "out_report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck [all] [RUN OPTIONS]\n\n"
		"Validates this machine: 'pmucheck run' with the given options (see 'pmucheck run --help'),\n"
		"then 'pmucheck analyze' and 'pmucheck report' on the new results directory.\n");
}

static void verdict_summary(const struct analyze_summary *s)
{
	printf("\nevents: %u in %lu raw rows over %u points:", s->events, s->rows, s->points);
	for (int c = 0; c < VC_COUNT; c++)
		if (s->classes[c])
			printf(" %u %s", s->classes[c], verdict_class_names[c]);
	printf("\n");
}

static int cmd_all(int argc, char **argv)
{
	struct analyze_summary sum;
	struct out_report_summary rep;
	struct run_cli rc;
	struct topo t;
	struct err e;
	int r;

	/* Called as plain `pmucheck [OPTIONS]`, argv[0] is the program: name the command instead, so the
	   run's recorded command line reads "pmucheck all ...". */
	argv[0] = (char *)"all";
	/* --help before the topology, as `run --help`: a topology hwloc cannot load, or pmucheck refuses,
	   must not keep the help from being read */
	if (!run_cli_parse(argc, argv, NULL, &rc, &e) && rc.help) {
		usage(stdout);
		return 0;
	}
	r = topo_load(&t, &e);
	if (r)
		return cli_fail("all", r, &e);
	r = run_cli_parse(argc, argv, &t, &rc, &e);
	if (!r && rc.resume)
		r = err_set(&e, E_USAGE,
			    "--resume: use 'pmucheck run --resume DIR', then 'pmucheck analyze DIR'");
	if (!r)
		r = run_cli_execute(&rc, &t, argc, argv, &e);
	topo_free(&t);
	if (r)
		return cli_fail("all", r, &e);
	if (rc.dry_run) /* the plan is all a dry run gives: nothing was measured to analyze */
		return 0;
	r = analyze_dir(rc.dir, &sum, &e);
	if (r)
		return cli_fail("analyze", r, &e);
	verdict_summary(&sum);
	r = out_report(rc.dir, &rep, &e);
	if (r)
		return cli_fail("report", r, &e);
	printf("results:  %s/raw.csv, machine.json\n", rc.dir);
	printf("analysis: %s/events.md, peaks.md\n", rc.dir);
	printf("report:   %s/report.html (report.md, %d figures in plots/)\n", rc.dir, (int)rep.plots);
	return 0;
}

CLI_COMMAND("all", cmd_all, "run, analyze and report (the default when no command is given)");
