/* fresh_fail.h — a failure injected into a fresh-memory allocation (run.c: alloc_fresh), for the test of
 * a point whose memory one of its threads cannot get (tests/integration/fresh_fail.sh).
 *
 * A touch point maps new memory on every thread for every call, and a map refused on one thread while
 * the others got theirs is what once hung a run (its threads left the repetitions at different
 * barriers; run.c: measure_reps says how they decide together now). A machine out of memory cannot be
 * arranged on purpose, so with PMUCHECK_TEST_FAIL_ALLOC=THREAD:N the Nth fresh allocation (counted from
 * 1 over the whole run, calibration's included) of the points' thread THREAD (0 is the first) fails
 * with a message that names this variable, on the path a refused mmap takes. That failure maps nothing
 * and touches no hardware: the run ends with a runtime error as it would out of memory, its prefetchers
 * put back as after any failure. A value that is not THREAD:N, or a thread no point has, fails nothing,
 * as an unknown PMUCHECK_TEST_STOP point stops nothing. */
#ifndef PMUCHECK_FRESH_FAIL_H
#define PMUCHECK_FRESH_FAIL_H

#include "err.h"

/* Reads the setting (once), before any thread allocates: fresh_fail_check then only counts. */
void fresh_fail_init(void);

/* Counts a fresh allocation of thread tid; E_RUNTIME with the message when it is the one to fail. */
int fresh_fail_check(int tid, struct err *e);

#endif
