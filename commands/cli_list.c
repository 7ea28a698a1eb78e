/* cli_list.c — `pmucheck list kernels|events [EVENT...]`: what can be run and what can be counted. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ctr.h"
#include "kern.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck list kernels\n"
		"       pmucheck list events [EVENT...]\n\n"
		"kernels: the kernel families and their variants.\n"
		"events:  what this machine can count through each backend (perf, PAPI); with EVENTs,\n"
		"         how each resolves (backend, scope, encoding, status) — exit 2 naming every\n"
		"         malformed or unknown one.\n");
}

static int list_kernels(void)
{
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *fam = kern_family_at(i);
		printf("%-10s %s\n          ", fam->name, fam->summary);
		for (unsigned j = 0; j < fam->nvariants; j++)
			printf(" %s", fam->variants[j].name);
		printf("\n");
	}
	return 0;
}

static int resolve_events(int n, char **specs)
{
	struct ctr_event evs[n];
	struct err e;
	int rc = ctr_resolve_list((const char *const *)specs, (unsigned)n, evs, &e);

	printf("%-32s %-7s %-7s %-12s %-14s %s\n", "event", "backend", "scope", "pool", "status",
	       "encoding / reason");
	for (int i = 0; i < n; i++)
		printf("%-32s %-7s %-7s %-12s %-14s %s\n", evs[i].spec, ctr_backend_name(evs[i].backend),
		       ctr_scope_name(evs[i].scope), evs[i].pool, ctr_status_name(evs[i].status),
		       evs[i].status == CTR_OK ? evs[i].encoding : evs[i].reason);
	return rc ? cli_fail("list", rc, &e) : 0;
}

static int cmd(int argc, char **argv)
{
	static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {0}};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 2;
	}
	if (optind < argc && !strcmp(argv[optind], "kernels") && optind + 1 == argc)
		return list_kernels();
	if (optind < argc && !strcmp(argv[optind], "events")) {
		if (optind + 1 == argc) {
			ctr_list_events(stdout);
			return 0;
		}
		return resolve_events(argc - optind - 1, argv + optind + 1);
	}
	usage(stderr);
	return 2;
}

CLI_COMMAND("list", cmd, "list kernels, or the events this machine can count");
