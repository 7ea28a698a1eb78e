/* pf.c — prefetcher sessions: the run loop's pf_open .. pf_close.
 *
 * Order matters: the lock is taken before any value is read (so nobody else's change is mistaken
 * for an original), the originals are on disk and in the signal guard before the first write, and
 * the state file is removed only after its values are back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr.h"
#include "pf.h"
#include "pf_signal.h"
#include "pf_state.h"
#include "pf_stop.h"

struct pf_ctl {
	const struct pf_table *t;
	int lock_fd;
	int n;
	int cpu[PF_MAX_CPUS];
	int fd[PF_MAX_CPUS];
	uint64_t start[PF_MAX_CPUS];
	char state_path[4096];
};

/* Lock, then read the values to save: reading first could save another session's changes. */
static int start_session(struct pf_ctl *c, struct err *e)
{
	struct pf_saved s = {.kind = PF_SESSION,
			     .pid = getpid(),
			     .msr = c->t->msr,
			     .mask = pf_table_mask(c->t),
			     .n = c->n};
	int rc = pf_lock(&c->lock_fd, NULL, 0, e); /* a second session is refused at once */

	if (rc)
		return rc;
	rc = pf_refuse_stale_session(e);
	for (int i = 0; !rc && i < c->n; i++)
		rc = msr_read(c->fd[i], c->cpu[i], c->t->msr, &c->start[i], e);
	if (rc)
		goto fail;
	snprintf(s.layout, sizeof s.layout, "%s", c->t->layout);
	memcpy(s.cpu, c->cpu, (size_t)c->n * sizeof *c->cpu);
	memcpy(s.val, c->start, (size_t)c->n * sizeof *c->start);
	pf_state_path(PF_SESSION, c->state_path, sizeof c->state_path);
	rc = pf_state_write(c->state_path, &s, e);
	if (rc)
		goto fail;
	pf_guard_arm(c->t->msr, s.mask, c->n, c->fd, c->start, c->state_path);
	pf_stop_at("state-saved");
	return 0;
fail:
	pf_unlock(c->lock_fd);
	return rc;
}

int pf_open(struct pf_ctl **out, const int *cpus, int ncpus, struct err *e)
{
	struct pf_ctl *c = calloc(1, sizeof *c);
	int rc;

	*out = NULL;
	if (!c)
		return err_set(e, E_RUNTIME, "out of memory");
	rc = pf_machine_table(&c->t, e);
	if (rc)
		goto fail;
	c->n = pf_cpu_list(cpus, ncpus, c->cpu, e);
	if (c->n < 0) {
		rc = c->n;
		goto fail;
	}
	rc = pf_open_msrs(c->cpu, c->n, c->fd, e);
	if (rc)
		goto fail;
	rc = start_session(c, e);
	if (rc) {
		pf_close_msrs(c->fd, c->n);
		goto fail;
	}
	*out = c;
	return 0;
fail:
	free(c);
	return rc;
}

int pf_check(const int *cpus, int ncpus, struct err *e)
{
	const struct pf_table *t;
	int cpu[PF_MAX_CPUS], fd[PF_MAX_CPUS], n, rc;

	rc = pf_machine_table(&t, e);
	if (rc)
		return rc;
	n = pf_cpu_list(cpus, ncpus, cpu, e);
	if (n < 0)
		return n;
	rc = pf_open_msrs(cpu, n, fd, e);
	if (!rc)
		pf_close_msrs(fd, n);
	return rc;
}

/* One session write: read-modify-write of the table bits, fenced against the signal handler. */
static int session_write(struct pf_ctl *c, int i, uint64_t bits, struct err *e)
{
	uint64_t mask = pf_table_mask(c->t);
	int rc;

	pf_guard_enter();
	rc = msr_update(c->fd[i], c->cpu[i], c->t->msr, mask, bits & mask, NULL, e);
	pf_guard_leave();
	return rc;
}

int pf_set(struct pf_ctl *c, const char *names_off, struct err *e)
{
	uint64_t off;
	int rc = pf_parse_names_in(c->t, names_off, &off, e);

	for (int i = 0; !rc && i < c->n; i++) {
		rc = session_write(c, i, off, e);
		if (i == 0)
			pf_stop_at("first-write");
	}
	return rc;
}

int pf_values(struct pf_ctl *c, char *buf, size_t len)
{
	size_t used = 0;

	for (int i = 0; i < c->n; i++) {
		uint64_t v;
		int k;

		if (msr_read(c->fd[i], c->cpu[i], c->t->msr, &v, NULL))
			goto fail;
		k = snprintf(buf + used, len - used, "%s%d=0x%" PRIx64, i ? ";" : "", c->cpu[i], v);
		if (k < 0 || (size_t)k >= len - used)
			goto fail;
		used += (size_t)k;
	}
	return 0;
fail:
	if (len)
		buf[0] = 0;
	return E_RUNTIME;
}

int pf_restore(struct pf_ctl *c, struct err *e)
{
	int rc = 0;

	/* Every CPU is tried even after a failure: the others must not stay changed. */
	for (int i = 0; i < c->n; i++) {
		struct err one;

		if (session_write(c, i, c->start[i], &one) && !rc)
			rc = err_set(e, E_RUNTIME, "%s", one.msg);
		if (i == 0)
			pf_stop_at("restore-first");
	}
	return rc;
}

void pf_close(struct pf_ctl *c)
{
	if (!c)
		return;
	/* When the restore fails the state file stays, and the next start tries again. */
	if (!pf_restore(c, NULL)) {
		pf_stop_at("close-restored");
		pf_state_remove(c->state_path, NULL);
	}
	pf_guard_disarm();
	pf_unlock(c->lock_fd);
	pf_close_msrs(c->fd, c->n);
	free(c);
}
