/* pf_state.h — what the pf*.c files share and nobody else needs: the state files, the lock that
 * guards them, and the CPU set a change works on.
 *
 * A state file is text, so an administrator can read what pmucheck will put back:
 *     # pmucheck prefetcher state ...
 *     kind session            session: restore when the owner died; held: only on request
 *     pid 1234
 *     msr 0x1a4
 *     mask 0xf                the bits that were changed and will be restored
 *     layout intel-1a4        the table's layout (pf_layout_named), which vouches for msr and mask
 *                             at the restore without the config that may have named it
 *     cpu 0 0x0000000000400000   one line per CPU: its value before the change
 * It is written to a temporary name, fsync'd and renamed, so a crash leaves the old or the new one.
 */
#ifndef PMUCHECK_PF_STATE_H
#define PMUCHECK_PF_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "err.h"
#include "pf.h"

enum pf_kind { PF_SESSION, PF_HELD };

struct pf_saved {
	enum pf_kind kind;
	pid_t pid;
	uint32_t msr;
	uint64_t mask;
	char layout[32]; /* "" in files written before it was recorded */
	/* the MSR files the values were read from (msr_dir() when written; "" in files written before it
	   was recorded, which were /dev/cpu's or a test's alike) */
	char msrdir[1024];
	int n;
	int cpu[PF_MAX_CPUS];
	uint64_t val[PF_MAX_CPUS];
};

/* Path of the state file of a kind in the state directory. */
void pf_state_path(enum pf_kind kind, char *buf, size_t len);

/* Returns 0 and fills s (*found 0 when the file does not exist), E_RUNTIME when it cannot be read or
   parsed. */
int pf_state_read(const char *path, struct pf_saved *s, int *found, struct err *e);
int pf_state_write(const char *path, const struct pf_saved *s, struct err *e);
int pf_state_remove(const char *path, struct err *e);

/* Takes the lock (creating the state directory if needed) into *fd, waiting up to wait_ms while
   another process has it. E_RUNTIME naming the holder's pid when another process still has it (then
   *busy, if given, is set), or with the reason the lock file cannot be used. */
int pf_lock(int *fd, int *busy, int wait_ms, struct err *e);

/* How long the restorers wait for the lock. A pmucheck killed a moment ago (kill(2) has returned)
   holds it until its exit has closed its files, and its values are exactly what they must put back:
   that took up to 26 ms on a 2-vCPU guest with the other vCPU busy. A live session keeps the lock,
   and a pmucheck started beside one waits this long once, then leaves it alone. */
#define PF_LOCK_WAIT_RESTORE_MS 500
void pf_unlock(int fd);

/* With the lock held, a session file belongs to a dead process nobody restored: E_RUNTIME saying
   so (and to run 'pmucheck prefetch restore'), 0 when there is none. */
int pf_refuse_stale_session(struct err *e);

/* The CPUs asked for, or all that have an MSR file when cpus is NULL; returns the count in out. */
int pf_cpu_list(const int *cpus, int ncpus, int *out, struct err *e);

/* Opens all n MSR files read-write, or none (E_RUNTIME with the reason). */
int pf_open_msrs(const int *cpu, int n, int *fd, struct err *e);
void pf_close_msrs(const int *fd, int n);

#endif
