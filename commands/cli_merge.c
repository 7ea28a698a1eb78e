/* cli_merge.c — `pmucheck merge [-o OUT] DIR...`: many nodes' analysed results directories in, one
 * comparison out (analysis/merge.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "merge.h"
#include "results.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck merge [-q|--quiet] [-o|--out OUT] DIR...\n\n"
		"Reads many analysed results directories (one per node, e.g. from 'pmucheck fleet';\n"
		"'pmucheck analyze DIR' first) and writes them into a new directory OUT (it must not\n"
		"exist; default merge-<UTC time>, or merge-<UTC time>-2, ... when that exists):\n"
		"  merge.md, report.html   per node type (CPU, sockets, cores, NUMA nodes, memory): the\n"
		"                          nodes' peak figures side by side with median and spread, a "
		"figure\n"
		"                          of every node against the median (plots/), the outliers and why;\n"
		"                          per architecture: each event's verdict and the nodes that "
		"disagree\n"
		"  nodes.csv               every node's figures beside its type's median\n"
		"  outliers.csv            every outlier: node, directory, reason\n"
		"  events.csv              per architecture and event: verdict, on how many nodes, who "
		"disagrees\n"
		"  merge.json              all of it, for tools\n"
		"A directory that cannot be read (not a pmucheck results directory, malformed, another\n"
		"format, not analysed, interrupted) is refused by name on stderr and in merge.md; the\n"
		"others are merged. A directory given twice (DIR and DIR/, or through a link) is refused.\n"
		"Exit status: 0 merged, 1 failure, 2 bad usage or no directory could be merged.\n");
}

/* merge writes a new directory, as `run --out` does: into an existing one (an analysed results
   directory, say) it would replace that directory's own events.csv and report.html. */
static int out_is_new(const char *out, struct err *e)
{
	struct stat st;

	return lstat(out, &st)
		? 0
		: err_set(e, E_USAGE, "-o/--out %s: exists (merge writes a new directory)", out);
}

/* merge-<UTC time>, or the first of merge-<UTC time>-2, -3, ... that is free (two merges in one second),
   as run names its results directories: claimed by making it, so that two merges started together each
   get one (checked first and made at the end, one of them failed with "-o ...: File exists", an option
   never given). */
static int default_out(char *out, size_t len, struct err *e)
{
	char stamp[32];

	results_utc_now(stamp, sizeof stamp, 1);
	snprintf(out, len, "merge-%s", stamp);
	for (int i = 2; mkdir(out, 0777); i++) {
		/* not the user's input: the working directory's (no write permission, a full disk) */
		if (errno != EEXIST || i == 1000)
			return err_set(e, E_RUNTIME, "cannot create %s: %s", out, strerror(errno));
		snprintf(out, len, "merge-%s-%d", stamp, i);
	}
	return 0;
}

/* The same directory given twice (DIR and DIR/, or through a link) would count its node twice. One that
   does not resolve is left to merge, which refuses it by name. */
static int distinct(char *const *dirs, unsigned n, struct err *e)
{
	char **real = calloc(n, sizeof *real);
	int rc = 0;

	if (!real)
		return err_set(e, E_RUNTIME, "out of memory");
	for (unsigned i = 0; i < n && !rc; i++) {
		real[i] = realpath(dirs[i], NULL);
		for (unsigned j = 0; real[i] && j < i && !rc; j++)
			if (real[j] && !strcmp(real[i], real[j]))
				rc = err_set(e, E_USAGE, "%s and %s are the same directory: each node once",
					     dirs[j], dirs[i]);
	}
	for (unsigned i = 0; i < n; i++)
		free(real[i]);
	free(real);
	return rc;
}

/* the short options, for getopt_long and for cli_option_error's message alike */
#define SHORTOPTS "o:qh"

static int cmd(int argc, char **argv)
{
	static const struct option opts[] = {{"out", required_argument, NULL, 'o'},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct merge_summary s;
	struct err e = {{0}};
	char def[64];
	char *const *dirs;
	unsigned ndirs;
	const char *out = NULL;
	int c, quiet = 0, rc;

	cli_getopt_start();
	while ((c = getopt_long(argc, argv, SHORTOPTS, opts, NULL)) != -1) {
		if (c == 'o') {
			out = optarg;
		} else if (c == 'q') {
			quiet = 1;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			return cli_fail("merge", cli_option_error(c, argv, SHORTOPTS, opts, &e), &e);
		}
	}
	if (optind == argc) {
		err_set(&e, E_USAGE, "expected one or more results directories");
		return cli_fail("merge", E_USAGE, &e);
	}
	dirs = argv + optind;
	ndirs = (unsigned)(argc - optind);
	if ((rc = distinct(dirs, ndirs, &e)) ||
	    (rc = out ? out_is_new(out, &e) : default_out(def, sizeof def, &e)))
		return cli_fail("merge", rc, &e);
	rc = merge_dirs(dirs, ndirs, out ? out : def, !out, &s, &e);
	if (!out) {
		if (rc)
			rmdir(def); /* claimed, and nothing merged into it */
		out = def;
	}
	for (unsigned i = 0; i < s.nrefused; i++)
		fprintf(stderr, "pmucheck merge: refused %s\n", s.refused[i].reason);
	if (!rc && s.gnuplot_missing)
		fprintf(stderr, "pmucheck merge: gnuplot not found: the report has no figures\n");
	if (!rc && !quiet)
		printf("merged %u nodes (%u refused) of %u node types and %u architectures: %u outlier "
		       "nodes\n"
		       "wrote %s/merge.md, report.html, nodes.csv, outliers.csv, events.csv, merge.json, %u "
		       "figures\n",
		       s.nodes, s.nrefused, s.types, s.archs, s.outliers, out, s.plots);
	merge_summary_free(&s);
	return rc ? cli_fail("merge", rc, &e) : 0;
}

CLI_COMMAND("merge", cmd, "compare many nodes' results: per node type and architecture, with outliers");
