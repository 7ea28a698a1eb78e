/* cli_run.h — the run command's parsing and execution, shared with the default command (run, then
 * analyze and report). */
#ifndef PMUCHECK_CLI_RUN_H
#define PMUCHECK_CLI_RUN_H

#include "resume.h"
#include "run.h"
#include "topo.h"

struct run_cli {
	struct run_config cfg;
	const char *out;             /* --out */
	const char *results_root;    /* --results */
	const char *prefetch;        /* --prefetch */
	const char *events;          /* --events */
	const char *config;          /* --config */
	const char *preset;          /* --preset */
	const char *resume;          /* --resume */
	struct resume_info *resumed; /* set while a run is being resumed */
	int argc;                    /* the arguments, for machine.json (a resumed run re-parses them) */
	char **argv;
	int keep_going;
	int reported_levels;     /* --reported-levels: the reported sizes, no level probe */
	const char *levels_from; /* --levels-from DIR, or a resumed run's own directory: the level sizes the
	                            run there had (its machine.json), no probe of its own */
	char dir[4096];          /* the results directory, once created */
	int help;
	int dry_run;
	int json;     /* --json: the dry run's plan as JSON */
	int progress; /* --progress 1, --no-progress 0, else -1 (when stderr is a terminal) */
};

/* Parses argv (argv[0] is the command name) and checks it against the machine, or with t NULL its syntax
   alone (fleet: the nodes will run it). Nothing is written. */
int run_cli_parse(int argc, char **argv, const struct topo *t, struct run_cli *rc, struct err *e);
/* Creates the results directory and measures. The level probe may set t's measured cache sizes. */
int run_cli_execute(struct run_cli *rc, struct topo *t, int argc, char **argv, struct err *e);

#endif
