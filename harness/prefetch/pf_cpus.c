/* pf_cpus.c — the CPU model's table and the set of MSR files a prefetcher change works on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr.h"
#include "pf_state.h"

int pf_machine_table(const struct pf_table **t, struct err *e)
{
	struct cpuid_info id;
	const char *model;

	if (cpuid_read(&id))
		return err_set(e, E_USAGE, "PMUCHECK_FAKE_CPUID='%s' is not Vendor:family:model",
			       getenv("PMUCHECK_FAKE_CPUID"));
	return pf_table_for(&id, t, &model, e);
}

int pf_cpu_list(const int *cpus, int ncpus, int *out, struct err *e)
{
	if (!cpus) {
		int n = msr_cpus(out, PF_MAX_CPUS, e);

		if (n == 0)
			return err_set(e, E_RUNTIME,
				       "no CPU has an MSR file in %s (try 'modprobe msr' "
				       "as root)",
				       msr_dir());
		return n;
	}
	if (ncpus <= 0)
		return err_set(e, E_USAGE, "no CPUs given for the prefetcher change");
	if (ncpus > PF_MAX_CPUS)
		return err_set(e, E_USAGE, "too many CPUs (%d, at most %d)", ncpus, PF_MAX_CPUS);
	memcpy(out, cpus, (size_t)ncpus * sizeof *cpus);
	return ncpus;
}

int pf_open_msrs(const int *cpu, int n, int *fd, struct err *e)
{
	for (int i = 0; i < n; i++) {
		int rc = msr_open(cpu[i], 1, &fd[i], e);

		if (rc) {
			while (i--)
				close(fd[i]);
			return rc;
		}
	}
	return 0;
}

void pf_close_msrs(const int *fd, int n)
{
	for (int i = 0; i < n; i++)
		close(fd[i]);
}

/* Called with the lock held: a session file then belongs to a dead process that nobody restored. */
int pf_refuse_stale_session(struct err *e)
{
	char path[4096];

	pf_state_path(PF_SESSION, path, sizeof path);
	if (access(path, F_OK))
		return 0;
	return err_set(e, E_RUNTIME,
		       "%s holds the prefetcher values of a pmucheck that did not finish; "
		       "run 'pmucheck prefetch restore' first",
		       path);
}
