#include <stdio.h>
#include <stdlib.h>

#include "fresh_fail.h"

static int initialised;
static long want_tid = -1, want_n; /* -1: no failure asked for */
static long done;                  /* fresh allocations of thread want_tid so far */

void fresh_fail_init(void)
{
	const char *v = getenv("PMUCHECK_TEST_FAIL_ALLOC");
	long tid, n;
	char end;

	if (initialised)
		return;
	initialised = 1;
	if (v && sscanf(v, "%ld:%ld%c", &tid, &n, &end) == 2 && tid >= 0 && n >= 1) {
		want_tid = tid;
		want_n = n;
	}
}

/* Only thread want_tid counts, and a thread's allocations come one after the other: no lock. */
int fresh_fail_check(int tid, struct err *e)
{
	if (tid != want_tid || ++done != want_n)
		return 0;
	return err_set(e, E_RUNTIME,
		       "thread %d: fresh memory refused by PMUCHECK_TEST_FAIL_ALLOC=%ld:%ld (an injected "
		       "failure, for tests)",
		       tid, want_tid, want_n);
}
