/* cli_prefetch.c — pmucheck prefetch: show, change and restore the hardware prefetchers.
 *
 * off/on are explicit user actions that stay in force after pmucheck exits (as likwid-features
 * does); the values before the first of them are kept, and 'restore' puts them back.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "msr.h"
#include "pf.h"
#include "topo.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck prefetch status|off [NAMES]|on [NAMES]|restore [-c|--cpus LIST]\n\n"
		"  status         per CPU the prefetcher MSR and the state of each prefetcher\n"
		"  off [NAMES]    disable the named prefetchers (default all); stays after exit\n"
		"  on [NAMES]     enable the named prefetchers (default all); stays after exit\n"
		"  restore        put back the values from before 'off'/'on', and those of a run\n"
		"                 that was killed\n"
		"  -c, --cpus LIST  only these CPUs, e.g. 0-3,8 (default: all); restore puts back\n"
		"                 the other threads of their cores too, which share their MSR\n\n"
		"NAMES is a comma-separated list such as l2-stream,l1-ip; 'status' shows this CPU's.\n");
}

/* The one CPU-list parser `run` uses too (hwloc's, with the checks that each CPU exists and is allowed
 * here and none is listed twice). Any CPU of the machine, not only those of this process's affinity: an
 * MSR file is written from wherever pmucheck runs. */
static int parse_cpus(const char *text, int *cpus, int max, int *n, struct err *e)
{
	struct topo t;
	int rc = topo_load_machine(&t, e);

	if (rc)
		return rc;
	rc = topo_parse_cpulist(&t, "--cpus", text, cpus, max, n, e);
	topo_free(&t);
	return rc;
}

/* Restoring some CPUs restores every thread of their cores: the threads of a core share its prefetcher
   MSR (harness/prefetch/pf_saved.c), so a thread saved after a sibling changed the core saved the changed
   value, and only the sibling's older entry, put back after it, leaves the core as it was. Restored alone,
   the listed thread's entry went and the sibling's changed one stayed for a later restore to write ('off
   --cpus 0', 'off', 'restore --cpus 0', 'restore' left the core's prefetchers off). */
static int widen_to_cores(int *cpus, int max, int *n, struct err *e)
{
	struct topo t;
	int rc = topo_load_machine(&t, e);

	if (rc)
		return rc;
	*n = topo_add_core_siblings(&t, cpus, *n, max);
	topo_free(&t);
	return 0;
}

/* Reads every CPU's value before printing anything, so a failure prints only the reason. */
static int read_values(const struct pf_table *t, const int *cpus, int n, uint64_t *v, struct err *e)
{
	for (int i = 0; i < n; i++) {
		int fd, rc = msr_open(cpus[i], 0, &fd, e);

		if (rc)
			return rc;
		rc = msr_read(fd, cpus[i], t->msr, &v[i], e);
		close(fd);
		if (rc)
			return rc;
	}
	return 0;
}

static int print_status(const int *cpus, int ncpus, struct err *e)
{
	static int all[PF_MAX_CPUS];
	static uint64_t v[PF_MAX_CPUS];
	const struct pf_table *t;
	struct cpuid_info id;
	const char *model;
	int rc;

	if (cpuid_read(&id))
		return err_set(e, E_USAGE, "PMUCHECK_FAKE_CPUID is not Vendor:family:model");
	rc = pf_table_for(&id, &t, &model, e);
	if (rc)
		return rc;
	if (!cpus) {
		ncpus = msr_cpus(all, PF_MAX_CPUS, e);
		if (ncpus <= 0)
			return ncpus < 0 ? ncpus
					 : err_set(e, E_RUNTIME,
						   "no CPU has an MSR file in %s "
						   "(try 'modprobe msr' as root)",
						   msr_dir());
		cpus = all;
	}
	rc = read_values(t, cpus, ncpus, v, e);
	if (rc)
		return rc;
	printf("%s family 0x%x model 0x%x: %s, MSR 0x%" PRIx32 " (a set bit disables)\n", id.vendor,
	       id.family, id.model, model, t->msr);
	printf("cpu  msr               ");
	for (unsigned b = 0; b < t->nbits; b++)
		printf(" %s", t->bits[b].name);
	for (int i = 0; i < ncpus; i++) {
		printf("\n%-4d 0x%016" PRIx64, cpus[i], v[i]);
		for (unsigned b = 0; b < t->nbits; b++) /* padded to the name, but no trailing blanks */
			printf(" %-*s", b + 1 < t->nbits ? (int)strlen(t->bits[b].name) : 0,
			       v[i] >> t->bits[b].bit & 1 ? "off" : "on");
	}
	printf("\n");
	return 0;
}

static int restore(const int *cpus, int ncpus, struct err *e)
{
	char report[8192];
	int rc = pf_restore_saved(cpus, ncpus, report, sizeof report, e);

	if (rc < 0) {
		printf("%s", report); /* the CPUs that were put back, even though some could not be */
		return rc;
	}
	printf("%s", rc ? report : "nothing to restore: no saved prefetcher values\n");
	return 0;
}

static int change(const char *action, const char *names, const int *cpus, int ncpus, struct err *e)
{
	uint64_t bits;
	int rc;

	/* an empty list would switch nothing yet hold the prefetchers (a state file to restore) */
	if (names && !*names)
		return err_set(e, E_USAGE,
			       "prefetch %s: NAMES is empty (leave it out for all; 'pmucheck prefetch "
			       "status' names them)",
			       action);
	rc = pf_parse_names(names ? names : "all", &bits, e);
	if (rc)
		return rc;
	rc = strcmp(action, "off") ? pf_hold(cpus, ncpus, 0, bits, e) : pf_hold(cpus, ncpus, bits, 0, e);
	return rc ? rc : print_status(cpus, ncpus, e);
}

/* the short options, for getopt_long and for cli_option_error's message alike */
#define SHORTOPTS ":c:h"

static int cmd_prefetch(int argc, char **argv)
{
	static const struct option opts[] = {
		{"cpus", required_argument, NULL, 'c'}, {"help", no_argument, NULL, 'h'}, {0}};
	static const struct cli_list lists[] = {{'c', "--cpus"}};
	static int cpus[PF_MAX_CPUS];
	const int *sel = NULL;
	const char *action;
	struct err e;
	unsigned given = 0;
	int c, n = 0, rc;

	cli_getopt_start();
	while ((c = getopt_long(argc, argv, SHORTOPTS, opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c != 'c')
			return cli_fail("prefetch", cli_option_error(c, argv, SHORTOPTS, opts, &e), &e);
		if (cli_list_given_twice(c, lists, 1, &given, &e))
			return cli_fail("prefetch", E_USAGE, &e);
		rc = parse_cpus(optarg, cpus, PF_MAX_CPUS, &n, &e);
		if (rc)
			return cli_fail("prefetch", rc, &e);
		sel = cpus;
	}
	action = optind < argc ? argv[optind++] : "status";
	if (argc - optind > (strcmp(action, "on") && strcmp(action, "off") ? 0 : 1)) {
		/* the first word past what the action takes: off and on take one list of names */
		int extra = optind + (strcmp(action, "on") && strcmp(action, "off") ? 0 : 1);
		return cli_fail("prefetch", err_set(&e, E_USAGE, "unexpected '%s'", argv[extra]), &e);
	}
	if (!strcmp(action, "status"))
		rc = print_status(sel, n, &e);
	else if (!strcmp(action, "off") || !strcmp(action, "on"))
		rc = change(action, optind < argc ? argv[optind] : NULL, sel, n, &e);
	else if (!strcmp(action, "restore")) {
		rc = sel ? widen_to_cores(cpus, PF_MAX_CPUS, &n, &e) : 0;
		if (!rc)
			rc = restore(sel, n, &e);
	} else
		rc = err_set(&e, E_USAGE, "unknown action '%s' (status, off, on, restore)", action);
	return rc ? cli_fail("prefetch", rc, &e) : 0;
}

CLI_COMMAND("prefetch", cmd_prefetch, "show, switch off/on, or restore the hardware prefetchers");
