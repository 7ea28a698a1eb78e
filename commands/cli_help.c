/* cli_help.c — `pmucheck help [COMMAND]`: the command list, or a command's own --help text, so every
 * help (and the man page and completion generated from them) has one source: each command's usage(). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck help [COMMAND]\n\n"
		"Without COMMAND: the commands. With COMMAND: what 'pmucheck COMMAND --help' prints.\n");
}

static int cmd(int argc, char **argv)
{
	const struct cli_command *c;
	char *help_argv[] = {NULL, (char *)"--help", NULL};

	if (argc == 1) {
		cli_usage(stdout);
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "pmucheck help: unexpected argument '%s' (one command at most)\n\n", argv[2]);
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	c = cli_command_find(argv[1]);
	if (!c) {
		fprintf(stderr, "pmucheck help: unknown command '%s'\n\n", argv[1]);
		cli_usage(stderr);
		return 2;
	}
	help_argv[0] = (char *)c->name;
	return c->fn(2, help_argv);
}

CLI_COMMAND("help", cmd, "the commands, or one command's --help");
