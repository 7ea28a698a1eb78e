/* cli.h — subcommands register themselves; main.c dispatches by name.
 *
 * A subcommand is one file cli_<name>.c that defines `static int cmd(int argc, char **argv)` and says
 * CLI_COMMAND(name, cmd, "one line summary"). argv[0] is the subcommand's name; getopt_long works on it
 * as on a program. The function returns an exit status: 0 ok, 1 runtime failure, 2 bad usage or input.
 */
#ifndef PMUCHECK_CLI_H
#define PMUCHECK_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

#define CLI_COMMAND(cname, cfn, csummary) \
	static const struct cli_command cli_cmd_##cfn = {(cname), (cfn), (csummary)}; \
	static const struct cli_command *const cli_reg_##cfn \
		__attribute__((used, section("cli_commands"), aligned(sizeof(void *)))) = &cli_cmd_##cfn

const struct cli_command *cli_command_find(const char *name);

/* The program's usage: what pmucheck does and every command with its summary. */
void cli_usage(FILE *f);

/* Prints "pmucheck <cmd>: <msg>" to stderr, adds "(try 'pmucheck <cmd> --help')" for usage errors,
   and returns the exit status for status. */
int cli_fail(const char *cmd, int status, const struct err *e);

struct option;

/* Readies getopt_long (errors left to cli_option_error) for a parse of an argv from its start. glibc keeps
   its place inside a group of short options across parses where optind is set to 1: a parse that stopped at
   -X of "-Xn" left the next one to begin at n, the -X never reported (run and all parse their argv twice,
   without the machine for --help and then with it). optind 0 starts glibc's getopt afresh. */
void cli_getopt_start(void);

/* The message for getopt_long's error c ('?' or ':', with opterr 0) over argv, shortopts and longopts: the
   option's own word and what is wrong with it. Returns E_USAGE. */
int cli_option_error(int c, char **argv, const char *shortopts, const struct option *longopts, struct err *e);

/* A command's option that takes a comma-separated list: getopt_long's value for it, and its name. */
struct cli_list {
	int c;
	const char *name;
};

/* For each option c getopt_long returns: E_USAGE when c is one of the n (at most 32) lists and was given
   before (bits in *given), naming it. */
int cli_list_given_twice(int c, const struct cli_list *lists, unsigned n, unsigned *given, struct err *e);

/* Parses "[--quiet] DIR" and --help for the commands that read one results directory. Returns -1 when
   the command goes on with *dir, else the exit status to return (0 after --help, 2 for bad usage, with
   the message printed). */
int cli_dir_command(const char *cmd, int argc, char **argv, void (*usage)(FILE *), int *quiet,
		    const char **dir);

#endif
