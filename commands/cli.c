#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

extern const struct cli_command *const __start_cli_commands[] __attribute__((weak));
extern const struct cli_command *const __stop_cli_commands[] __attribute__((weak));

static unsigned cli_command_count(void)
{
	return (unsigned)(__stop_cli_commands - __start_cli_commands);
}

static const struct cli_command *cli_command_at(unsigned i)
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

void cli_usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck [COMMAND] [OPTIONS]\n\n"
		"Validates hardware performance events against kernels with exactly known memory\n"
		"traffic. Without a command: run, then analyze and report the new results.\n\n"
		"commands:\n");
	for (unsigned i = 0; i < cli_command_count(); i++)
		fprintf(f, "  %-10s %s\n", cli_command_at(i)->name, cli_command_at(i)->summary);
	fprintf(f,
		"\n'pmucheck help COMMAND' or 'pmucheck COMMAND --help' describes each command;\n"
		"'pmucheck --version' prints the versions.\n");
}

int cli_fail(const char *cmd, int status, const struct err *e)
{
	fprintf(stderr, "pmucheck %s: %s\n", cmd, e ? e->msg : "failed");
	if (status == E_USAGE)
		fprintf(stderr, "(try 'pmucheck %s --help')\n", cmd);
	return err_exit_status(status);
}

void cli_getopt_start(void)
{
	optind = 0;
	opterr = 0;
}

/* An abbreviation getopt_long refused although options begin with it: it begins two that differ (glibc takes
   the first of those that differ in nothing), so it is ambiguous, not unknown ("--pre": --prefetch and
   --preset); their names into e. 0 where no option begins with it. */
static int ambiguous(const char *word, size_t len, const struct option *longopts, struct err *e)
{
	char names[ERR_MSG_MAX / 2] = "";
	size_t k = 0;
	int n = 0;

	for (const struct option *o = longopts; o->name && len > 2 && !strncmp(word, "--", 2); o++)
		if (!strncmp(o->name, word + 2, len - 2) && k < sizeof names) {
			k += (size_t)snprintf(names + k, sizeof names - k, "%s--%s", n ? ", " : "", o->name);
			n++;
		}
	return n > 1 ? err_set(e, E_USAGE, "option '%.*s' is ambiguous: %s", (int)len, word, names) : 0;
}

/* getopt_long sets optopt to 0 for a long option it does not know or finds ambiguous, to the option's
   value for one whose value is wrong (missing, or given to one that takes none), and to the letter for a
   short option. An unknown letter inside a cluster ("-Zq") leaves getopt on the cluster's word, so
   argv[optind - 1] is then the word before it ("run"): the letter is named instead. */
int cli_option_error(int c, char **argv, const char *shortopts, const struct option *longopts, struct err *e)
{
	const char *word = argv[optind - 1];
	size_t len = strcspn(word, "=");
	int known = optopt > 0 && optopt != ':' && strchr(shortopts, optopt);

	for (const struct option *o = longopts; o->name && !known && !strncmp(word, "--", 2); o++)
		known = optopt && o->val == optopt && !strncmp(o->name, word + 2, len - 2);
	if (!known && optopt)
		return err_set(e, E_USAGE, "unknown option '-%c'", optopt);
	if (!known && ambiguous(word, len, longopts, e))
		return E_USAGE;
	if (!known)
		return err_set(e, E_USAGE, "unknown option '%s'", word);
	if (c == '?' && word[len])
		return err_set(e, E_USAGE, "option '%.*s' takes no value", (int)len, word);
	return err_set(e, E_USAGE, "option '%s' needs a value", word);
}

/* A list given twice is refused rather than one list replacing or extending the other: which of the two
   would be meant is a guess. */
int cli_list_given_twice(int c, const struct cli_list *lists, unsigned n, unsigned *given, struct err *e)
{
	for (unsigned i = 0; i < n; i++) {
		if (lists[i].c != c)
			continue;
		if (*given & 1u << i)
			return err_set(e, E_USAGE,
				       "%s: given twice (one comma-separated list holds them all)",
				       lists[i].name);
		*given |= 1u << i;
	}
	return 0;
}

/* the short options, for getopt_long and for cli_option_error's message alike */
#define SHORTOPTS "qh"

int cli_dir_command(const char *cmd, int argc, char **argv, void (*usage)(FILE *), int *quiet,
		    const char **dir)
{
	static const struct option opts[] = {
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	struct err e;
	int c;

	*quiet = 0;
	cli_getopt_start();
	while ((c = getopt_long(argc, argv, SHORTOPTS, opts, NULL)) != -1) {
		if (c == 'q') {
			*quiet = 1;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			return cli_fail(cmd, cli_option_error(c, argv, SHORTOPTS, opts, &e), &e);
		}
	}
	if (optind != argc - 1) {
		err_set(&e, E_USAGE, "expected one results directory");
		return cli_fail(cmd, E_USAGE, &e);
	}
	*dir = argv[optind];
	return -1;
}
