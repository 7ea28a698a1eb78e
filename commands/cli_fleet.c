/* cli_fleet.c — `pmucheck fleet`: one pmucheck run per node through Slurm. Submits
 * scripts/pmucheck-fleet.sbatch once per node (exclusive, into SHARED/<node>-<UTC time>/), prints the
 * job ids, and with --wait waits for them and says which nodes left an analysed results directory.
 * Slurm schedules; pmucheck only asks it (sbatch, squeue, scontrol, sinfo). */
#include <dirent.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cfg.h"
#include "cli.h"
#include "cli_run.h"
#include "experiment.h"
#include "fleet_exec.h"
#include "run_prefetch.h"

#define MAX_ARGS 64
#define POLL_SECONDS 2

struct fleet {
	const char *shared, *nodes, *partition, *script;
	int wait, quiet, help;
	char *sbatch[MAX_ARGS], *run[MAX_ARGS]; /* extra sbatch options; pmucheck run options */
	unsigned nsbatch, nrun;
	char script_buf[PATH_MAX], self[PATH_MAX];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmucheck fleet -s SHARED (-N NODES | -P PARTITION) [OPTIONS] [RUN OPTIONS] [-- RUN "
		"OPTIONS]\n\n"
		"Validates every node through Slurm: submits one batch job per node (sbatch --exclusive\n"
		"-w NODE scripts/pmucheck-fleet.sbatch) that runs 'pmucheck run' and 'pmucheck analyze' "
		"into\n"
		"SHARED/<node>-<UTC time>/, and prints the job ids. Then 'pmucheck merge SHARED/*-*/'.\n\n"
		"  -s, --shared DIR      a directory every node sees (results and job logs go there)\n"
		"  -N, --nodes LIST      Slurm node list, e.g. node[001-032],gpu7\n"
		"  -P, --partition NAME  every node of this partition (with -N: the job's partition)\n"
		"  -w, --wait            wait for the jobs, then say which nodes left results (exit 1 if "
		"one\n"
		"                        did not)\n"
		"      --sbatch OPT      one more sbatch option, e.g. --sbatch=--time=30 (repeatable)\n"
		"      --script FILE     the job script (default: pmucheck-fleet.sbatch of this pmucheck)\n"
		"      --quiet           print only the job ids\n"
		"Run options passed to every node's 'pmucheck run':\n"
		"  -q, --quick, -k, --kernels LIST, -e, --events LIST, --preset NAME, --time-budget S,\n"
		"  and everything after '--'; checked here but for what only a node can judge (its CPUs,\n"
		"  NUMA nodes, memory and events); --out, --results, --resume and --dry-run are refused.\n"
		"The nodes run the pmucheck that submitted (PMUCHECK in the job's environment): it must be\n"
		"where the nodes see it, or installed on every node.\n"
		"Exit status: 0 submitted (and, with --wait, every node left results), 1 failure, 2 bad "
		"usage.\n");
}

static int add(char **v, unsigned *n, const char *s, struct err *e)
{
	if (*n + 1 >= MAX_ARGS)
		return err_set(e, E_USAGE, "too many options (at most %d)", MAX_ARGS - 1);
	v[(*n)++] = (char *)s;
	return 0;
}

/* The job script next to this binary: the source tree's scripts/ (beside ./pmucheck, or above build/pmucheck,
   the path `make run` prints), or an installed share/pmucheck/. */
static int find_script(struct fleet *f, struct err *e)
{
	static const char *const near[] = {"scripts", "../scripts", "../share/pmucheck"};
	char dir[PATH_MAX];
	struct stat sb;

	if (f->script && (stat(f->script, &sb) || !S_ISREG(sb.st_mode)))
		return err_set(e, E_USAGE, "--script %s: not a file", f->script);
	if (f->script)
		return access(f->script, R_OK) ? err_set(e, E_USAGE, "--script %s: not readable", f->script)
					       : 0;
	snprintf(dir, sizeof dir, "%s", f->self);
	dirname(dir);
	for (size_t i = 0; i < sizeof near / sizeof near[0]; i++) {
		snprintf(f->script_buf, sizeof f->script_buf, "%s/%s/pmucheck-fleet.sbatch", dir, near[i]);
		if (!access(f->script_buf, R_OK)) {
			f->script = f->script_buf;
			return 0;
		}
	}
	return err_set(e, E_USAGE,
		       "pmucheck-fleet.sbatch not found next to %s (in scripts/, ../scripts/ or "
		       "../share/pmucheck/): give --script FILE",
		       f->self);
}

/* Whether the presets config (the one each node reads: PMUCHECK_CONFIG_DIR's or the installed one) has
   a preset of that name. */
static int preset_known(const char *name, struct err *e)
{
	char path[4096];
	struct cfg presets;
	int r = cfg_dir_file("presets.ini", path, sizeof path, e);

	if (!r)
		r = cfg_load(path, &presets, e);
	if (r)
		return err_wrap(e, r, "run options: --preset");
	r = experiment_preset_known(&presets, name, e);
	cfg_free(&presets);
	return r ? err_wrap(e, r, "run options") : 0;
}

/* The run options every node will be given, checked here as far as they do not depend on the machine
   (each node checks its CPUs, NUMA nodes, memory and events): a typo refused once here rather than in
   every node's job log. Options the job script sets, or that make a run measure nothing, are refused. */
static int check_run_options(const struct fleet *f, struct err *e)
{
	char *argv[MAX_ARGS + 1] = {"run"};
	struct run_cli rc;
	int r;

	memcpy(argv + 1, f->run, f->nrun * sizeof *argv);
	if ((r = run_cli_parse((int)f->nrun + 1, argv, NULL, &rc, e)))
		return err_wrap(e, r, "run options");
	if (rc.out || strcmp(rc.results_root, "results"))
		return err_set(
			e, E_USAGE,
			"run options: --out and --results are the job script's (each node's results go "
			"to SHARED/<node>-<UTC time>/)");
	if (rc.resume)
		return err_set(e, E_USAGE, "run options: --resume continues one node's run; resume it there");
	if (rc.dry_run || rc.help)
		return err_set(e, E_USAGE, "run options: %s measures nothing",
			       rc.help ? "--help" : "--dry-run");
	if ((r = run_pf_states_syntax(rc.prefetch, e)))
		return err_wrap(e, r, "run options");
	return rc.preset ? preset_known(rc.preset, e) : 0;
}

/* the short options, for getopt_long and for cli_option_error's message alike */
#define SHORTOPTS "s:N:P:wqk:e:h"

static int parse(int argc, char **argv, struct fleet *f, struct err *e)
{
	enum { O_SBATCH = 256, O_SCRIPT, O_PRESET, O_BUDGET, O_QUIET };
	static const struct option opts[] = {{"shared", required_argument, NULL, 's'},
					     {"nodes", required_argument, NULL, 'N'},
					     {"partition", required_argument, NULL, 'P'},
					     {"wait", no_argument, NULL, 'w'},
					     {"sbatch", required_argument, NULL, O_SBATCH},
					     {"script", required_argument, NULL, O_SCRIPT},
					     {"quiet", no_argument, NULL, O_QUIET},
					     {"quick", no_argument, NULL, 'q'},
					     {"kernels", required_argument, NULL, 'k'},
					     {"events", required_argument, NULL, 'e'},
					     {"preset", required_argument, NULL, O_PRESET},
					     {"time-budget", required_argument, NULL, O_BUDGET},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct stat sb;
	int c, rc = 0;

	cli_getopt_start();
	while (!rc && (c = getopt_long(argc, argv, SHORTOPTS, opts, NULL)) != -1) {
		switch (c) {
		case 's':
			f->shared = optarg;
			break;
		case 'N': /* a list given twice is refused, as run refuses its lists (README) */
			if (f->nodes)
				return err_set(e, E_USAGE, "--nodes given twice: give one list (%s,%s)",
					       f->nodes, optarg);
			f->nodes = optarg;
			break;
		case 'P':
			f->partition = optarg;
			break;
		case 'w':
			f->wait = 1;
			break;
		case O_QUIET:
			f->quiet = 1;
			break;
		case O_SBATCH:
			if (!*optarg)
				return err_set(e, E_USAGE, "--sbatch: an empty option");
			rc = add(f->sbatch, &f->nsbatch, optarg, e);
			break;
		case O_SCRIPT:
			f->script = optarg;
			break;
		case 'q':
			rc = add(f->run, &f->nrun, "--quick", e);
			break;
		case 'k':
			rc = add(f->run, &f->nrun, "--kernels", e) || add(f->run, &f->nrun, optarg, e);
			break;
		case 'e':
			rc = add(f->run, &f->nrun, "--events", e) || add(f->run, &f->nrun, optarg, e);
			break;
		case O_PRESET:
			rc = add(f->run, &f->nrun, "--preset", e) || add(f->run, &f->nrun, optarg, e);
			break;
		case O_BUDGET:
			rc = add(f->run, &f->nrun, "--time-budget", e) || add(f->run, &f->nrun, optarg, e);
			break;
		case 'h':
			f->help = 1;
			return 0;
		default:
			return cli_option_error(c, argv, SHORTOPTS, opts, e);
		}
	}
	for (int i = optind; !rc && i < argc; i++)
		rc = add(f->run, &f->nrun, argv[i], e);
	if (rc)
		return E_USAGE;
	if (!f->shared)
		return err_set(e, E_USAGE, "--shared DIR is required (a directory every node sees)");
	if (stat(f->shared, &sb) || !S_ISDIR(sb.st_mode))
		return err_set(e, E_USAGE, "--shared %s: not a directory", f->shared);
	if (!f->nodes && !f->partition)
		return err_set(e, E_USAGE, "which nodes? give --nodes LIST or --partition NAME");
	/* Slurm would be asked for the nodes of "" (scontrol show hostnames '', sinfo -p '') */
	if (f->nodes && !*f->nodes)
		return err_set(e, E_USAGE, "--nodes: the node list is empty");
	if (f->partition && !*f->partition)
		return err_set(e, E_USAGE, "--partition: the partition name is empty");
	if ((rc = check_run_options(f, e)))
		return rc;
	if (!realpath("/proc/self/exe", f->self))
		return err_set(e, E_RUNTIME, "/proc/self/exe: cannot find this pmucheck");
	return find_script(f, e);
}

/* The node names, one per line in buf (Slurm expands the list; a partition lists its nodes). */
static int node_list(const struct fleet *f, char *buf, size_t len, struct err *e)
{
	char *scontrol[] = {"scontrol", "show", "hostnames", (char *)f->nodes, NULL};
	char *sinfo[] = {"sinfo", "-h", "-N", "-o", "%N", "-p", (char *)f->partition, NULL};
	int rc = fleet_exec(f->nodes ? scontrol : sinfo, buf, len, e);

	if (!rc && !buf[strspn(buf, " \n")])
		rc = err_set(e, E_USAGE, "%s %s: no nodes", f->nodes ? "--nodes" : "--partition",
			     f->nodes ? f->nodes : f->partition);
	return rc;
}

static int submit(const struct fleet *f, const char *node, char *job, size_t len, struct err *e)
{
	char nodelist[300], output[2 * PATH_MAX + 64], part[300], *argv[3 * MAX_ARGS];
	char shared_pattern[2 * PATH_MAX];
	unsigned n = 0;
	size_t k = 0;
	int rc;

	/* sbatch reads --output as a pattern (%N the node, %j the job): a '%' of the path is written %% */
	for (const char *c = f->shared; *c && k + 2 < sizeof shared_pattern; c++) {
		if (*c == '%')
			shared_pattern[k++] = '%';
		shared_pattern[k++] = *c;
	}
	shared_pattern[k] = 0;
	snprintf(nodelist, sizeof nodelist, "--nodelist=%s", node);
	snprintf(output, sizeof output, "--output=%s/slurm-pmucheck-%%N-%%j.out", shared_pattern);
	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	argv[n++] = nodelist;
	argv[n++] = output;
	if (f->partition) {
		snprintf(part, sizeof part, "--partition=%s", f->partition);
		argv[n++] = part;
	}
	for (unsigned i = 0; i < f->nsbatch; i++)
		argv[n++] = f->sbatch[i];
	argv[n++] = (char *)f->script;
	argv[n++] = (char *)f->shared;
	for (unsigned i = 0; i < f->nrun; i++)
		argv[n++] = f->run[i];
	argv[n] = NULL;
	if ((rc = fleet_exec(argv, job, len, e)))
		return err_wrap(e, rc, "node %s", node);
	job[strcspn(job, ";\n")] = 0; /* "id" or "id;cluster" */
	return job[0] ? 0 : err_set(e, E_RUNTIME, "node %s: sbatch printed no job id", node);
}

/* Waits until squeue lists none of the jobs (ids comma-separated) as pending, running or completing. */
static int wait_jobs(char *ids, struct err *e)
{
	char *argv[] = {"squeue", "-h", "-o", "%i", "-t", "PD,R,CG,CF,S", "-j", ids, NULL};
	char out[65536];
	int fails = 0;

	for (;;) {
		int rc = fleet_exec(argv, out, sizeof out, e);
		if (rc && ++fails >= 5)
			return err_wrap(e, rc, "waiting for the jobs: ");
		if (!rc && !out[strspn(out, " \n")])
			return 0;
		fails = rc ? fails : 0;
		sleep(POLL_SECONDS);
	}
}

/* "<node>-YYYYMMDDTHHMMSSZ", the job script's name for node's directory. The stamp must follow the name
   whole: node n1 would otherwise take n1-b-<UTC time>, node n1-b's, for its own. */
static int is_node_dir(const char *name, const char *node)
{
	size_t nl = strlen(node);
	const char *t = name + nl + 1;

	if (strncmp(name, node, nl) || name[nl] != '-' || strlen(t) != 16 || t[8] != 'T' || t[15] != 'Z')
		return 0;
	return strspn(t, "0123456789") == 8 && strspn(t + 9, "0123456789") == 6;
}

/* An analysed results directory of node made since `since`, or 0. */
static int node_result(const char *shared, const char *node, time_t since, char *dir, size_t len)
{
	DIR *d = opendir(shared);
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		char p[PATH_MAX + 300];
		struct stat sb;
		if (!is_node_dir(de->d_name, node))
			continue;
		snprintf(p, sizeof p, "%s/%s/events.json", shared, de->d_name);
		if (!stat(p, &sb) && sb.st_mtime >= since) {
			snprintf(dir, len, "%s/%s", shared, de->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* After a node whose job sbatch refused, the nodes left in the list (strtok_r's *save) are named in e's
   message, so that a user knows which to submit again. */
static void not_submitted(char **save, struct err *e)
{
	char rest[ERR_MSG_MAX / 2] = "", old[ERR_MSG_MAX];
	size_t k = 0;
	unsigned named = 0, more = 0;

	/* every node counted, as many named as the message holds: the list was cut at about 50 names
	   without a word of the others */
	for (char *node = strtok_r(NULL, " \n", save); node; node = strtok_r(NULL, " \n", save)) {
		size_t need = strlen(node) + (k ? 1 : 0);
		if (!more && k + need < sizeof rest - 32) {
			k += (size_t)snprintf(rest + k, sizeof rest - k, "%s%s", k ? " " : "", node);
			named++;
		} else {
			more++;
		}
	}
	if (!named)
		return;
	if (more)
		snprintf(rest + k, sizeof rest - k, " and %u more", more);
	memcpy(old, e->msg, sizeof old);
	err_set(e, E_RUNTIME, "%s; not submitted after it (%u node%s): %s", old, named + more,
		named + more == 1 ? "" : "s", rest);
}

static int fleet(struct fleet *f, struct err *e)
{
	static char nodes[1 << 20];
	char *ids = NULL, *sub = NULL, *save = NULL, job[64];
	size_t idlen = 0, sublen = 0;
	FILE *idf = open_memstream(&ids, &idlen), *subf = open_memstream(&sub, &sublen);
	time_t since = time(NULL) - 1;
	unsigned n = 0, bad = 0;
	int rc;

	if (!idf || !subf) {
		rc = err_set(e, E_RUNTIME, "out of memory");
		goto out;
	}
	/* the job script reads it: the nodes run this very pmucheck */
	setenv("PMUCHECK", f->self, 1);
	if ((rc = node_list(f, nodes, sizeof nodes, e)))
		goto out;
	for (char *node = strtok_r(nodes, " \n", &save); node && !rc; node = strtok_r(NULL, " \n", &save)) {
		if ((rc = submit(f, node, job, sizeof job, e))) {
			not_submitted(&save, e);
			break;
		}
		fprintf(idf, "%s%s", n++ ? "," : "", job);
		fprintf(subf, "%s\n", node);
		printf(f->quiet ? "%s\n" : "%s: job %s\n", f->quiet ? job : node, job);
		fflush(stdout);
	}
	fclose(idf);
	fclose(subf);
	idf = subf = NULL;
	if (!rc && f->wait && n) {
		if (!f->quiet)
			printf("waiting for %u jobs\n", n);
		fflush(stdout);
		rc = wait_jobs(ids, e);
		save = NULL;
		/* the nodes submitted, not Slurm's list again: that may have changed or fail to come */
		for (char *node = strtok_r(sub, "\n", &save); node && !rc;
		     node = strtok_r(NULL, " \n", &save)) {
			char dir[PATH_MAX];
			if (node_result(f->shared, node, since, dir, sizeof dir)) {
				printf("%s: %s\n", node, dir);
			} else {
				printf("%s: no results; see %s/slurm-pmucheck-%s-*.out\n", node, f->shared,
				       node);
				bad++;
			}
		}
		if (!rc && bad)
			rc = err_set(e, E_RUNTIME, "%u of %u nodes left no analysed results directory", bad,
				     n);
	}
out:
	if (idf)
		fclose(idf);
	if (subf)
		fclose(subf);
	free(ids);
	free(sub);
	return rc;
}

static int cmd(int argc, char **argv)
{
	struct fleet f = {0};
	struct err e = {{0}};
	int rc = parse(argc, argv, &f, &e);

	if (!rc && f.help) {
		usage(stdout);
		return 0;
	}
	if (!rc)
		rc = fleet(&f, &e);
	return rc ? cli_fail("fleet", rc, &e) : 0;
}

CLI_COMMAND("fleet", cmd, "validate many nodes through Slurm: one exclusive job per node");
