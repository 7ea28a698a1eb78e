/* pmucheck — which hardware performance events can be trusted, for what, on this machine.
 * main only dispatches to the subcommand; each lives in its own cli_<name>.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pf.h"
#include "prefetch_config.h"

/* A pmucheck killed during a run (SIGKILL, power loss) may have left prefetchers switched off;
   whatever runs next puts them back first. */
static void recover_prefetchers(void)
{
	char report[8192];
	struct err e;
	int rc = pf_recover_stale(report, sizeof report, &e);

	/* what was put back is said even when some CPU could not be */
	if (report[0])
		fprintf(stderr, "pmucheck: a previous pmucheck did not finish; %s", report);
	if (rc < 0)
		fprintf(stderr, "pmucheck: warning: %s\n", e.msg);
}

int main(int argc, char **argv)
{
	const struct cli_command *cmd;

	/* first: the recovery below checks a state file against the CPU's table, which for a model of a
	   known layout that only its config names comes from that config */
	pf_set_layout_source(prefetch_config_layout);
	recover_prefetchers();

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cli_usage(stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		argv[1] = (char *)"version";
	if (argc < 2 || argv[1][0] == '-') {
		cmd = cli_command_find("all");
		if (!cmd) {
			cli_usage(stderr);
			return 2;
		}
		return cmd->fn(argc, argv);
	}
	cmd = cli_command_find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "pmucheck: unknown command '%s'\n\n", argv[1]);
		cli_usage(stderr);
		return 2;
	}
	return cmd->fn(argc - 1, argv + 1);
}
