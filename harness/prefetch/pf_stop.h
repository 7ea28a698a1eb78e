/* pf_stop.h — named stop points for the kill-point tests (internal to pf*.c).
 *
 * A SIGKILL can land between any two instructions; random kills find most places, never all. With
 * PMUCHECK_TEST_STOP=POINT the process stops itself (SIGSTOP) when it reaches POINT, so that a test
 * can look at the MSRs and state files there and end it with any signal exactly there
 * (tests/integration/prefetch_killpoints.sh). Honoured only when every MSR file is an ordinary file
 * (msr_is_fake): a stop point never holds real prefetchers changed. The points, in session order:
 *   state-tmp       a state file's temporary is written and synced, not yet renamed
 *   state-saved     the state file is committed, no MSR written yet (a session's guard is armed)
 *   first-write     the first CPU's MSR is changed, the others not yet
 *   restore-first   a session's restore has put back the first CPU, not yet the others
 *   close-restored  pf_close has put every CPU back and not yet removed the state file
 *   guard-first     the signal handler (or exit) has put back the first CPU, not yet the others
 *   recover-first   a restore from a state file (the next start, prefetch restore) has put back
 *                   the first CPU, not yet the others
 */
#ifndef PMUCHECK_PF_STOP_H
#define PMUCHECK_PF_STOP_H

/* Reads the setting (once). pf_guard_arm calls it, so that the signal handler's pf_stop_at only
   compares strings: getenv and readdir are not async-signal-safe. */
void pf_stop_init(void);

/* Stops the process when point is the one asked for. */
void pf_stop_at(const char *point);

#endif
