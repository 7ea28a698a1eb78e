/* cli_version.c — `pmucheck version` (and `pmucheck --version`): pmucheck's version and the versions of
 * the libraries whose behaviour decides what it can count, for bug reports. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "machine.h"
#include "version.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck version\n"
		"       pmucheck --version\n\n"
		"Prints the version of pmucheck and of PAPI, libpfm4 and hwloc.\n");
}

static int cmd(int argc, char **argv)
{
	struct lib_versions v;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "pmucheck version: unexpected argument '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	machine_lib_versions(&v);
	printf("pmucheck %s\nPAPI %s\nlibpfm4 %s\nhwloc %s\n", PMUCHECK_VERSION, v.papi, v.libpfm4, v.hwloc);
	return 0;
}

CLI_COMMAND("version", cmd, "the version of pmucheck and of PAPI, libpfm4 and hwloc");
