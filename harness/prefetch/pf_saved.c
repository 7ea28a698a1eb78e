/* pf_saved.c — prefetcher changes that outlive the process, and putting saved values back later:
 * pmucheck prefetch off/on (held changes), the restore at the next start after a session was
 * killed, and pmucheck prefetch restore.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msr.h"
#include "pf.h"
#include "pf_state.h"
#include "pf_stop.h"

static void appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* Whether cpu is in the list; a NULL list holds every CPU. */
static int in_list(int cpu, const int *list, int n)
{
	if (!list)
		return 1;
	for (int i = 0; i < n; i++)
		if (list[i] == cpu)
			return 1;
	return 0;
}

/* Puts back the saved values of the selected CPUs (table bits only) and drops them from s; the
   file then holds what is left, or goes. Every CPU is tried even after a failure, as pf_restore does:
   one offline CPU must not leave the others changed. The ones that fail stay saved, and the first
   failure is returned. Newest first: the two hardware threads of a core share its prefetcher MSR (Intel's
   disclosure of MSR 0x1A4: "If hyper-threading is enabled, both the threads share the same MSR"; the SDM's
   MSR tables give its prefetcher bits the scope "Core"), so a thread saved after its sibling changed the core
   saved the changed value, and only the older entry, written last, leaves the core as it was before either.
   Where the MSR is a thread's own (the scope of AMD's C000_0108 is not settled here: LIKWID switches it per
   hardware thread), each entry puts back its own thread, and the order does not matter. */
static int restore_file(const char *path, struct pf_saved *s, const int *cpus, int ncpus, char *report,
			size_t len, struct err *e)
{
	int kept = 0, done = 0, rc = 0;
	int put[PF_MAX_CPUS] = {0}; /* put back, by entry */

	for (int i = s->n - 1; i >= 0; i--) {
		struct err one;
		uint64_t old;
		int fd, one_rc;

		if (!in_list(s->cpu[i], cpus, ncpus))
			continue;
		one_rc = msr_open(s->cpu[i], 1, &fd, &one);
		if (!one_rc) {
			one_rc = msr_update(fd, s->cpu[i], s->msr, s->mask, s->val[i] & s->mask, &old, &one);
			close(fd);
		}
		if (one_rc) {
			if (!rc)
				rc = err_set(e, one_rc, "%s", one.msg);
			continue;
		}
		put[i] = 1;
		if (!done++)
			appendf(report, len,
				"restored MSR 0x%" PRIx32 " (bits 0x%" PRIx64 ") from %s, "
				"saved by pid %d:\n",
				s->msr, s->mask, path, (int)s->pid);
		appendf(report, len, "  CPU %d: 0x%016" PRIx64 " -> 0x%016" PRIx64 "\n", s->cpu[i], old,
			(old & ~s->mask) | (s->val[i] & s->mask));
		if (done == 1)
			pf_stop_at("recover-first");
	}
	for (int i = 0; i < s->n; i++)
		if (!put[i]) {
			s->cpu[kept] = s->cpu[i];
			s->val[kept++] = s->val[i];
		}
	s->n = kept;
	if (done) {
		struct err we;
		int wrc = kept ? pf_state_write(path, s, &we) : pf_state_remove(path, &we);

		if (wrc && !rc)
			rc = err_set(e, wrc, "%s", we.msg);
	}
	return rc ? rc : done;
}

int pf_recover_stale(char *report, size_t len, struct err *e)
{
	struct pf_saved s;
	char path[4096];
	int lock, busy, found, rc;

	if (len)
		report[0] = 0;
	pf_state_path(PF_SESSION, path, sizeof path);
	if (access(path, F_OK))
		return 0;
	rc = pf_lock(&lock, &busy, PF_LOCK_WAIT_RESTORE_MS, e);
	if (rc && busy)
		return 0; /* the owner is alive: its session is not stale */
	if (rc)
		goto out;
	rc = pf_state_read(path, &s, &found, e);
	if (rc == 0 && !found)
		; /* restored by someone else after our first look */
	else if (rc == 0 && s.kind != PF_SESSION)
		rc = err_set(e, E_RUNTIME, "%s is not a session's state (kind held)", path);
	else if (rc == 0)
		rc = restore_file(path, &s, NULL, 0, report, len, e);
	pf_unlock(lock);
out:
	if (rc < 0)
		return err_wrap(e, rc,
				"prefetchers left changed by a pmucheck that did not finish "
				"(%s) could not be restored; run 'pmucheck prefetch restore' as root",
				path);
	return 0;
}

int pf_restore_saved(const int *cpus, int ncpus, char *report, size_t len, struct err *e)
{
	static struct pf_saved s; /* 12 KiB, and pmucheck restores from one thread */
	int lock, found, total = 0, rc = pf_lock(&lock, NULL, PF_LOCK_WAIT_RESTORE_MS, e);

	if (len)
		report[0] = 0;
	if (rc)
		return rc;
	/* A dead session's values first: they were read after any held change was made. */
	for (int kind = PF_SESSION; kind <= PF_HELD; kind++) {
		char path[4096];

		pf_state_path(kind, path, sizeof path);
		rc = pf_state_read(path, &s, &found, e);
		if (rc == 0 && !found)
			continue;
		if (rc == 0)
			rc = restore_file(path, &s, cpus, ncpus, report, len, e);
		if (rc < 0)
			break;
		total += rc;
	}
	pf_unlock(lock);
	return rc < 0 ? rc : total;
}

/* Adds the current values of the CPUs not yet in the held file: the first change is the original. */
static int save_held(const struct pf_table *t, const int *cpu, const int *fd, int n, struct err *e)
{
	static struct pf_saved s;
	char path[4096];
	int found, rc;

	pf_state_path(PF_HELD, path, sizeof path);
	rc = pf_state_read(path, &s, &found, e);
	if (rc < 0)
		return rc;
	if (!found)
		s = (struct pf_saved){.kind = PF_HELD, .msr = t->msr, .mask = pf_table_mask(t)};
	if (s.msr != t->msr || s.mask != pf_table_mask(t))
		return err_set(e, E_RUNTIME,
			       "%s was saved for MSR 0x%" PRIx32 " bits 0x%" PRIx64
			       ", not this CPU's table; run 'pmucheck prefetch restore' first",
			       path, s.msr, s.mask);
	s.pid = getpid();
	snprintf(s.layout, sizeof s.layout, "%s", t->layout); /* files from before it was recorded too */
	for (int i = 0; i < n; i++) {
		if (in_list(cpu[i], s.cpu, s.n))
			continue;
		if (s.n == PF_MAX_CPUS)
			return err_set(e, E_RUNTIME, "%s: too many CPUs", path);
		rc = msr_read(fd[i], cpu[i], t->msr, &s.val[s.n], e);
		if (rc)
			return rc;
		s.cpu[s.n++] = cpu[i];
	}
	return pf_state_write(path, &s, e);
}

int pf_hold(const int *cpus, int ncpus, uint64_t disable, uint64_t enable, struct err *e)
{
	static int cpu[PF_MAX_CPUS], fd[PF_MAX_CPUS];
	const struct pf_table *t;
	uint64_t mask;
	int n, lock, rc = pf_machine_table(&t, e);

	if (rc)
		return rc;
	mask = pf_table_mask(t);
	n = pf_cpu_list(cpus, ncpus, cpu, e);
	if (n < 0)
		return n;
	rc = pf_open_msrs(cpu, n, fd, e);
	if (rc)
		return rc;
	rc = pf_lock(&lock, NULL, 0, e);
	if (rc)
		goto out_msrs;
	rc = pf_refuse_stale_session(e);
	if (!rc)
		rc = save_held(t, cpu, fd, n, e);
	if (!rc)
		pf_stop_at("state-saved");
	for (int i = 0; !rc && i < n; i++) {
		rc = msr_update(fd[i], cpu[i], t->msr, enable & mask, disable & mask, NULL, e);
		if (i == 0)
			pf_stop_at("first-write");
	}
	pf_unlock(lock);
out_msrs:
	pf_close_msrs(fd, n);
	return rc;
}
