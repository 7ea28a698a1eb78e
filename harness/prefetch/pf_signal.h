/* pf_signal.h — puts the saved prefetcher values back when a session's process ends abnormally
 * (internal to pf*.c).
 *
 * A signal handler may only use async-signal-safe calls, so everything it needs (descriptors, MSR,
 * mask, saved values, state file path) is copied into static memory when a session is armed. On
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS and SIGABRT the handler writes the values back
 * (table bits only, pread + pwrite), removes the state file (kept when a CPU could not be put back:
 * the next start retries), and re-raises the signal with its default action, so the exit status and
 * core dump are what they would have been. exit() without pf_close does the same through atexit. Signals the process ignores (nohup) stay ignored.
 */
#ifndef PMUCHECK_PF_SIGNAL_H
#define PMUCHECK_PF_SIGNAL_H

#include <stdint.h>

/* Arms the guard for n CPUs (fds open read-write, vals the values to put back). The arrays are
   copied; state_path is removed after a restore. One session per process. */
void pf_guard_arm(uint32_t msr, uint64_t mask, int n, const int *fds, const uint64_t *vals,
		  const char *state_path);

/* Disarms and puts the previous signal actions back. Never returns once a handler has started on
   another thread: the process is about to die of the signal, and the handler may still be using the
   descriptors the caller would close. */
void pf_guard_disarm(void);

/* Brackets every session write. A handler running on another thread waits for the write in
   progress before it restores, and once a handler has started, enter never returns: the process
   is about to die of the signal, and a write now could undo the restore. */
void pf_guard_enter(void);
void pf_guard_leave(void);

#endif
