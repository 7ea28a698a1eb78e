/* cli_discover.c — `pmucheck discover`: judge every event this CPU can name, with no hand-written config.
 *
 * Candidates from sysfs, libpfm4 and vendor files (harness/discover/disc.h), filtered, grouped as they
 * would be on their CPU (the estimate), then one ordinary run of the compact plan (load, store and a
 * pointer chase, one point per level, prefetchers on and off where controllable) counting the ones this
 * machine can count; its results directory gets candidates.json, the analysis writes discovered.ini and
 * discovered.md, and the config is loaded back to prove it loads. docs/discover.md explains it all.
 * Here: the options and their checks; the job itself is discover_job.c. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "discover_job.h"
#include "num.h"
#include "results.h"

#define DEFAULT_KERNELS "load.sse,store.sse,chase.plain"
#define DEFAULT_BUDGET "300"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck discover [OPTIONS]\n\n"
		"Finds what every event this CPU names counts, with no hand-written config: candidates from\n"
		"the kernel's sysfs aliases, libpfm4's tables and vendor event files, measured on a compact\n"
		"plan (one point per level and access kind, prefetchers on and off where controllable), in\n"
		"groups that fit the counters (never multiplexed). Writes a results directory with\n"
		"candidates.json, the usual tables, discovered.ini (a config of the hypotheses found, for\n"
		"'pmucheck run --config') and a report with a \"Discovered\" section (docs/discover.md).\n\n"
		"Candidates:\n"
		"      --vendor FILE       a vendor event file: Intel perfmon or Linux perf pmu-events JSON\n"
		"                          (repeatable, up to %d)\n"
		"      --pmu PATTERNS      only these PMUs (fnmatch, comma-separated: 'skx,skx_unc_imc*');\n"
		"                          libpfm4 reads the PMUs named even when this CPU lacks them\n"
		"      --only PATTERNS     only events whose name or spec matches ('L2*,*MISS*', case "
		"ignored)\n"
		"      --all               every event (default: memory hierarchy, stalls, memory uncore)\n"
		"      --max N             at most N candidates\n"
		"      --add-events LIST   also these events (perf or PAPI syntax), source 'given'\n"
		"      --no-libpfm, --no-sysfs   leave a source out\n"
		"      --sysfs DIR         PMU aliases from DIR instead of %s\n"
		"  -l, --list              also print every candidate: name, spec, PMU, source, encoding\n"
		"  -n, --dry-run           print how many candidates, their groups and the time; measure "
		"nothing\n\n"
		"The run (as 'pmucheck run'):\n"
		"      --time-budget S     seconds the run may take (default %s); groups that do not fit\n"
		"                          even at one repetition are left out and reported as not measured\n"
		"  -k, --kernels LIST      (default %s)\n"
		"  -s, --sizes LIST        (default: one per cache level and DRAM)\n"
		"      --prefetch LIST, --cpus LIST, --reps N, --min-time MS, --reported-levels,\n"
		"      --out DIR, --results ROOT, --progress, --no-progress\n"
		"  -w, --write FILE        also write the discovered config to FILE (must not exist, in a\n"
		"                          writable directory: checked before the run)\n"
		"  -h, --help\n\n"
		"A PATTERNS or LIST option is given once, its items comma-separated.\n",
		VENDOR_FILES_MAX, CTR_SYSFS_PMUS, DEFAULT_BUDGET, DEFAULT_KERNELS);
}

enum {
	OPT_VENDOR = 256,
	OPT_PMU,
	OPT_ONLY,
	OPT_ALL,
	OPT_MAX,
	OPT_ADD,
	OPT_NO_LIBPFM,
	OPT_NO_SYSFS,
	OPT_SYSFS,
	OPT_BUDGET,
	OPT_PASS_VALUE, /* run options with a value, forwarded as given */
	OPT_PASS_FLAG,  /* run options without one */
};

static const struct option options[] = {
	{"vendor", required_argument, NULL, OPT_VENDOR},
	{"pmu", required_argument, NULL, OPT_PMU},
	{"only", required_argument, NULL, OPT_ONLY},
	{"all", no_argument, NULL, OPT_ALL},
	{"max", required_argument, NULL, OPT_MAX},
	{"add-events", required_argument, NULL, OPT_ADD},
	{"no-libpfm", no_argument, NULL, OPT_NO_LIBPFM},
	{"no-sysfs", no_argument, NULL, OPT_NO_SYSFS},
	{"sysfs", required_argument, NULL, OPT_SYSFS},
	{"list", no_argument, NULL, 'l'},
	{"dry-run", no_argument, NULL, 'n'},
	{"time-budget", required_argument, NULL, OPT_BUDGET},
	{"kernels", required_argument, NULL, 'k'},
	{"sizes", required_argument, NULL, 's'},
	{"write", required_argument, NULL, 'w'},
	{"prefetch", required_argument, NULL, OPT_PASS_VALUE},
	{"cpus", required_argument, NULL, OPT_PASS_VALUE},
	{"reps", required_argument, NULL, OPT_PASS_VALUE},
	{"min-time", required_argument, NULL, OPT_PASS_VALUE},
	{"out", required_argument, NULL, OPT_PASS_VALUE},
	{"results", required_argument, NULL, OPT_PASS_VALUE},
	{"reported-levels", no_argument, NULL, OPT_PASS_FLAG},
	{"progress", no_argument, NULL, OPT_PASS_FLAG},
	{"no-progress", no_argument, NULL, OPT_PASS_FLAG},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

#define SHORTOPTS ":lnk:s:w:h"

/* its comma-separated lists, each to be given once, as run's (cli_list_given_twice) */
static const struct cli_list lists[] = {{OPT_PMU, "--pmu"},
					{OPT_ONLY, "--only"},
					{OPT_ADD, "--add-events"},
					{'k', "--kernels"},
					{'s', "--sizes"}};

static int parse(int argc, char **argv, struct disc_cli *d, struct err *e)
{
	unsigned given = 0;
	int c, idx;
	uint64_t v;

	memset(d, 0, sizeof *d);
	d->budget = DEFAULT_BUDGET;
	d->kernels = DEFAULT_KERNELS;
	cli_getopt_start();
	while ((c = getopt_long(argc, argv, SHORTOPTS, options, &idx)) != -1) {
		if (cli_list_given_twice(c, lists, sizeof lists / sizeof *lists, &given, e))
			return E_USAGE;
		switch (c) {
		case OPT_VENDOR:
			if (d->nvendor == VENDOR_FILES_MAX)
				return err_set(e, E_USAGE, "--vendor: more than %d files", VENDOR_FILES_MAX);
			d->vendor[d->nvendor++] = optarg;
			break;
		case OPT_PMU:
			d->filter.pmus = optarg;
			break;
		case OPT_ONLY:
			d->filter.only = optarg;
			break;
		case OPT_ALL:
			d->filter.all = true;
			break;
		case OPT_MAX:
			if (num_parse_u64("--max", optarg, &v, e))
				return E_USAGE;
			if (v < 1 || v > 1000000)
				return err_set(e, E_USAGE, "--max: %s is out of range (1..1000000)", optarg);
			d->filter.max = (unsigned)v;
			break;
		case OPT_ADD:
			d->add_events = optarg;
			break;
		case OPT_NO_LIBPFM:
			d->no_libpfm = 1;
			break;
		case OPT_NO_SYSFS:
			d->no_sysfs = 1;
			break;
		case OPT_SYSFS:
			d->sysfs = optarg;
			break;
		case 'l':
			d->list = 1;
			break;
		case 'n':
			d->dry_run = 1;
			break;
		case OPT_BUDGET:
			d->budget = optarg;
			break;
		case 'k':
			d->kernels = optarg;
			break;
		case 's':
			d->sizes = optarg;
			break;
		case 'w':
			d->write = optarg;
			break;
		case OPT_PASS_VALUE:
		case OPT_PASS_FLAG:
			if (d->run_argc + 2 >= (int)(sizeof d->run_argv / sizeof d->run_argv[0]) - 16)
				return err_set(e, E_USAGE, "too many options");
			/* by its whole name, as two words where it has a value: the word typed may be an
			   abbreviation this table resolves and run's does not (--pre: --prefetch here,
			   --prefetch or --preset there) */
			snprintf(d->run_names[d->run_argc], sizeof d->run_names[0], "--%s",
				 options[idx].name);
			d->run_argv[d->run_argc] = d->run_names[d->run_argc];
			d->run_argc++;
			if (c == OPT_PASS_VALUE)
				d->run_argv[d->run_argc++] = optarg;
			break;
		case 'h':
			d->help = 1;
			return 0;
		default:
			return cli_option_error(c, argv, SHORTOPTS, options, e);
		}
	}
	if (optind < argc)
		return err_set(e, E_USAGE, "unexpected argument '%s'", argv[optind]);
	if (d->no_sysfs && d->sysfs)
		return err_set(e, E_USAGE, "--sysfs and --no-sysfs: give one of them");
	if (d->no_sysfs && d->no_libpfm && !d->nvendor && !d->add_events)
		return err_set(
			e, E_USAGE,
			"--no-sysfs and --no-libpfm leave no source of candidates: give --vendor FILE or "
			"--add-events LIST");
	return 0;
}

/* Whether dir holds a PMU: a directory with a type file. */
static int has_pmu(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		char path[4096];
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/type", dir, de->d_name);
		found = !access(path, R_OK);
	}
	if (d)
		closedir(d);
	return found;
}

/* What the whole run would otherwise find out only at its end (--write) or take for a machine without
   PMUs (a --sysfs that is no directory, or holds no PMU). */
static int check_paths(const struct disc_cli *d, struct err *e)
{
	char parent[4096], *slash;
	struct stat st;
	int why = 0;

	if (d->sysfs && (stat(d->sysfs, &st) || !S_ISDIR(st.st_mode)))
		return err_set(e, E_USAGE, "--sysfs %s: not a directory", d->sysfs);
	/* a PMU is a directory with a type file (/sys/bus/event_source/devices/cpu/type): one level too high
	   or too low, the tree gave no candidate, and the run went on with none from sysfs */
	if (d->sysfs && !has_pmu(d->sysfs))
		return err_set(e, E_USAGE,
			       "--sysfs %s: no PMU in it (a directory with a 'type' file, as in "
			       "/sys/bus/event_source/devices)",
			       d->sysfs);
	if (!d->write)
		return 0;
	if (!*d->write)
		return err_set(e, E_USAGE, "--write: an empty file name");
	/* lstat: a link, dangling or not, is there too, and creating the file would follow it */
	if (!lstat(d->write, &st))
		return err_set(e, E_USAGE, "--write %s: the file exists", d->write);
	slash = strrchr(d->write, '/');
	if (!(slash ? slash[1] : 1))
		return err_set(e, E_USAGE, "--write %s: names a directory, not a file", d->write);
	if (strlen(d->write) >= sizeof parent || strlen(slash ? slash + 1 : d->write) > NAME_MAX)
		return err_set(e, E_USAGE, "--write %.64s...: cannot create it: %s", d->write,
			       strerror(ENAMETOOLONG));
	snprintf(parent, sizeof parent, "%s", d->write);
	slash = strrchr(parent, '/');
	if (!slash)
		strcpy(parent, ".");
	else
		slash[slash == parent] = '\0'; /* "/x.ini" is created in "/" */
	if (stat(parent, &st))
		why = errno;
	else if (!S_ISDIR(st.st_mode))
		why = ENOTDIR;
	else if (access(parent, W_OK | X_OK))
		why = errno;
	return why ? err_set(e, E_USAGE, "--write %s: cannot create it: %s", d->write, strerror(why)) : 0;
}

static int cmd_discover(int argc, char **argv)
{
	struct disc_job *j = calloc(1, sizeof *j);
	struct disc_cli d;
	struct topo t;
	struct err e;
	int rc, ac;

	if (!j)
		return cli_fail("discover", E_RUNTIME, &(struct err){"out of memory"});
	rc = parse(argc, argv, &d, &e);
	if (!rc && d.help) {
		usage(stdout);
		free(j);
		return 0;
	}
	if (rc) {
		free(j);
		return cli_fail("discover", rc, &e);
	}
	if ((rc = topo_load(&t, &e))) {
		free(j);
		return cli_fail("discover", rc, &e);
	}
	rc = check_paths(&d, &e);
	/* the run's options are checked first, with no events: bad input stops before any work */
	ac = discover_job_run_args(&d, "page-faults", j->av, 64);
	if (!rc)
		rc = run_cli_parse(ac, j->av, &t, &j->rc, &e);
	/* as run's dry run checks them: the dry run passed an --out that exists, which the run then refused */
	if (!rc)
		rc = results_out_free(j->rc.out, j->rc.results_root, &e);
	if (!rc)
		rc = discover_job_build_candidates(&d, &j->l, j->pfm_version, sizeof j->pfm_version, &e);
	if (!rc)
		rc = discover_job_plan_and_say(&d, &t, j, &e);
	if (!rc && d.dry_run)
		printf("dry run: nothing measured, nothing written\n");
	else if (!rc)
		rc = discover_job_measure(&d, &t, j, &e);
	discover_job_free(j);
	topo_free(&t);
	return rc ? cli_fail("discover", rc, &e) : 0;
}

CLI_COMMAND("discover", cmd_discover,
	    "judge every event this CPU names, and write a config of what they count");
