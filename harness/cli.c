#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

extern const struct cli_command *const __start_cli_commands[] __attribute__((weak));
extern const struct cli_command *const __stop_cli_commands[] __attribute__((weak));

unsigned cli_command_count(void)
{
	return (unsigned)(__stop_cli_commands - __start_cli_commands);
}

const struct cli_command *cli_command_at(unsigned i)
{
	return i < cli_command_count() ? __start_cli_commands[i] : NULL;
}

const struct cli_command *cli_command_find(const char *name)
{
	for (unsigned i = 0; i < cli_command_count(); i++)
		if (strcmp(__start_cli_commands[i]->name, name) == 0)
			return __start_cli_commands[i];
	return NULL;
}

int cli_fail(const char *cmd, int status, const struct err *e)
{
	fprintf(stderr, "pmucheck %s: %s\n", cmd, e ? e->msg : "failed");
	if (status == E_USAGE)
		fprintf(stderr, "(try 'pmucheck %s --help')\n", cmd);
	return err_exit_status(status);
}

int cli_dir_command(const char *cmd, int argc, char **argv, void (*usage)(FILE *), int *quiet,
		    const char **dir)
{
	static const struct option opts[] = {
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	struct err e;
	int c;

	*quiet = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		if (c == 'q') {
			*quiet = 1;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			err_set(&e, E_USAGE, "unknown option '%s'", argv[optind - 1]);
			return cli_fail(cmd, E_USAGE, &e);
		}
	}
	if (optind != argc - 1) {
		err_set(&e, E_USAGE, "expected one results directory");
		return cli_fail(cmd, E_USAGE, &e);
	}
	*dir = argv[optind];
	return -1;
}

static int parse_number(const char *option, const char *text, uint64_t *out, const char **end,
			struct err *e)
{
	char *p;

	if (!text || !*text || !isdigit((unsigned char)text[0]))
		return err_set(e, E_USAGE, "%s: '%s' is not a non-negative number", option,
			       text ? text : "");
	errno = 0;
	*out = strtoull(text, &p, 10);
	if (errno == ERANGE)
		return err_set(e, E_USAGE, "%s: '%s' is too large", option, text);
	*end = p;
	return 0;
}

int cli_parse_u64(const char *option, const char *text, uint64_t *out, struct err *e)
{
	const char *end;
	int rc = parse_number(option, text, out, &end, e);

	if (rc)
		return rc;
	if (*end)
		return err_set(e, E_USAGE, "%s: '%s' is not a whole number", option, text);
	return 0;
}

int cli_parse_size(const char *option, const char *text, uint64_t *out, struct err *e)
{
	static const struct {
		const char *suffix;
		unsigned shift;
	} units[] = {{"", 0},	  {"k", 10},   {"K", 10},  {"KiB", 10}, {"m", 20},
		     {"M", 20},	  {"MiB", 20}, {"g", 30},  {"G", 30},   {"GiB", 30}};
	const char *end;
	uint64_t v;
	int rc = parse_number(option, text, &v, &end, e);

	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return err_set(e, E_USAGE, "%s: '%s' is too large", option, text);
		*out = v << units[i].shift;
		return 0;
	}
	return err_set(e, E_USAGE, "%s: '%s' has an unknown unit (use k, M or G, binary)", option,
		       text);
}
