/* discover_job.h — what `pmucheck discover`'s options (cli_discover.c) hand its job (discover_job.c),
 * and the job's steps, which cmd_discover calls in turn. */
#ifndef PMUCHECK_DISCOVER_JOB_H
#define PMUCHECK_DISCOVER_JOB_H

#include <stdbool.h>

#include "cli_run.h"
#include "disc.h"
#include "plan.h"
#include "run_events.h"

#define VENDOR_FILES_MAX 8

struct disc_cli {
	const char *vendor[VENDOR_FILES_MAX];
	unsigned nvendor;
	struct disc_filter filter;
	const char *add_events, *sysfs, *write;
	int no_libpfm, no_sysfs, list, dry_run, help;
	/* forwarded to the run */
	char *run_argv[40];
	char run_names[40][24]; /* the options' whole names, "--prefetch", that run_argv points to */
	int run_argc;
	const char *budget, *kernels, *sizes;
};

/* Everything between the options and the run: the candidates, their groups here and on their CPU, the
   time, and which groups the budget leaves out. */
struct disc_job {
	struct disc_list l;
	struct disc_plan target;
	struct run_events here;
	bool *planned;
	char *events;
	char *av[64];
	struct run_cli rc;
	struct plan pl;
	char pfm_version[32];
};

/* discover_job.c: the job's steps, in the order cmd_discover (cli_discover.c) calls them. */
int discover_job_run_args(const struct disc_cli *d, const char *events, char **av, int max);
int discover_job_build_candidates(const struct disc_cli *d, struct disc_list *l, char *pfm_version,
				  size_t len, struct err *e);
int discover_job_plan_and_say(const struct disc_cli *d, struct topo *t, struct disc_job *j, struct err *e);
int discover_job_measure(const struct disc_cli *d, struct topo *t, struct disc_job *j, struct err *e);
void discover_job_free(struct disc_job *j);

#endif
