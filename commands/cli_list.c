/* cli_list.c — `pmucheck list kernels|events [EVENT...]`: what can be run and what can be counted. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpu_id.h"
#include "ctr.h"
#include "kern.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck list [--json] kernels\n"
		"       pmucheck list [--json] events [EVENT...]\n\n"
		"kernels: the kernel families and their variants, and those this CPU lacks the\n"
		"         instructions of (a run skips them, --kernels refuses them).\n"
		"events:  what this machine can count through each backend (perf, PAPI); with EVENTs,\n"
		"         how each resolves (backend, scope, encoding, status) — exit 2 naming every\n"
		"         malformed or unknown one.\n"
		"--json:  the same facts as one JSON object on stdout (docs/results-format.md).\n");
}

static void print_json(json_t *o)
{
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(o);
}

static json_t *kernels_json(void)
{
	json_t *arr = json_array();

	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *fam = kern_family_at(i);
		json_t *vars = json_array(), *lacking = json_array();
		for (unsigned j = 0; j < fam->nvariants; j++) {
			json_array_append_new(vars, json_string(fam->variants[j].name));
			if (!cpuid_isa_ok(fam->variants[j].isa))
				json_array_append_new(lacking, json_string(fam->variants[j].name));
		}
		json_array_append_new(
			arr,
			json_pack("{s:s, s:s, s:o, s:o, s:s?, s:o}", "family", fam->name, "summary",
				  fam->summary, "variants", vars, "unavailable", lacking, "arg_name",
				  fam->arg_name, "arg_max",
				  fam->arg_name ? json_integer((json_int_t)fam->arg_max) : json_null()));
	}
	return json_pack("{s:o}", "kernels", arr);
}

static int list_kernels(int json)
{
	int lacking = 0;

	if (json) {
		print_json(kernels_json());
		return 0;
	}
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *fam = kern_family_at(i);
		printf("%-10s %s\n          ", fam->name, fam->summary);
		for (unsigned j = 0; j < fam->nvariants; j++)
			printf(" %s", fam->variants[j].name);
		printf("\n");
	}
	/* A Zen 2 or Zen 3 lists load.avx512 above as any other: say here which variants a run skips and
	   --kernels refuses on this CPU, as run_job_say.c words it */
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *fam = kern_family_at(i);
		for (unsigned j = 0; j < fam->nvariants; j++)
			if (!cpuid_isa_ok(fam->variants[j].isa))
				printf("%s %s",
				       lacking++ ? "" : "not on this CPU (it lacks their instructions):",
				       fam->variants[j].name);
	}
	if (lacking)
		printf("\n");
	return 0;
}

static json_t *resolved_json(const struct ctr_event *evs, int n)
{
	json_t *arr = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(arr,
				      json_pack("{s:s, s:s, s:s, s:s, s:s, s:s?, s:s?}", "event", evs[i].spec,
						"backend", ctr_backend_name(evs[i].backend), "scope",
						ctr_scope_name(evs[i].scope), "pool", evs[i].pool, "status",
						ctr_status_name(evs[i].status), "encoding",
						evs[i].status == CTR_OK ? evs[i].encoding : NULL, "reason",
						evs[i].status == CTR_OK ? NULL : evs[i].reason));
	return json_pack("{s:o}", "events", arr);
}

static int resolve_events(int n, char **specs, int json)
{
	/* on the heap: over a KiB each, so 10000 (a vendor file's worth) would overflow an 8 MiB stack */
	struct ctr_event *evs = calloc((size_t)n, sizeof *evs);
	struct err e;
	int rc;

	if (!evs)
		return cli_fail("list", err_set(&e, E_RUNTIME, "out of memory for %d events", n), &e);
	rc = ctr_resolve_list((const char *const *)specs, (unsigned)n, evs, &e);
	if (json) {
		print_json(resolved_json(evs, n));
		free(evs);
		return rc ? cli_fail("list", rc, &e) : 0;
	}
	printf("%-32s %-7s %-7s %-12s %-14s %s\n", "event", "backend", "scope", "pool", "status",
	       "encoding / reason");
	for (int i = 0; i < n; i++)
		printf("%-32s %-7s %-7s %-12s %-14s %s\n", evs[i].spec, ctr_backend_name(evs[i].backend),
		       ctr_scope_name(evs[i].scope), evs[i].pool, ctr_status_name(evs[i].status),
		       evs[i].status == CTR_OK ? evs[i].encoding : evs[i].reason);
	free(evs);
	return rc ? cli_fail("list", rc, &e) : 0;
}

/* the short options, for getopt_long and for cli_option_error's message alike */
#define SHORTOPTS "h"

static int cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'}, {"json", no_argument, NULL, 'j'}, {0}};
	struct err e;
	int c, json = 0;

	cli_getopt_start();
	while ((c = getopt_long(argc, argv, SHORTOPTS, opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'j') {
			json = 1;
			continue;
		}
		return cli_fail("list", cli_option_error(c, argv, SHORTOPTS, opts, &e), &e);
	}
	if (optind < argc && !strcmp(argv[optind], "kernels") && optind + 1 == argc)
		return list_kernels(json);
	if (optind < argc && !strcmp(argv[optind], "events")) {
		if (optind + 1 == argc) {
			json_t *list = ctr_list_events_json();
			if (json)
				print_json(list);
			else
				ctr_list_events_print(list, stdout), json_decref(list);
			return 0;
		}
		return resolve_events(argc - optind - 1, argv + optind + 1, json);
	}
	if (optind == argc)
		return cli_fail("list", err_set(&e, E_USAGE, "what to list: kernels or events"), &e);
	/* the word refused: the first after `kernels`, or the first */
	return cli_fail("list",
			err_set(&e, E_USAGE, "unexpected argument '%s' (kernels, or events [NAME...])",
				argv[optind + !strcmp(argv[optind], "kernels")]),
			&e);
}

CLI_COMMAND("list", cmd, "list kernels, or the events this machine can count");
