/* pf_session — a prefetcher session as the run loop holds one, for the signal and lock tests.
 *
 * Recovers a stale state like every pmucheck start, opens a session on all fake MSR files, turns
 * every prefetcher off, prints "set", then ends as MODE says:
 *   spin   toggle all off / all on forever, so a signal lands between or during writes (default)
 *   threads  spin, with the signals blocked in the toggling thread so that they are handled on
 *          another thread while the writes go on (as in a run whose OpenMP workers catch them)
 *   hold   keep them off and sleep (for the lock tests)
 *   close  pf_close and exit 0          exit   exit(3) without pf_close
 *   segv   a real invalid access         abort  abort()
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pf.h"

static void fail(const char *what, const struct err *e)
{
	fprintf(stderr, "pf_session: %s: %s\n", what, e->msg);
	exit(1);
}

static void *idle_worker(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* Leaves the worker as the only thread that can take the guarded signals. */
static void handle_signals_elsewhere(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT};
	pthread_t worker;
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&set, sigs[i]);
	pthread_create(&worker, NULL, idle_worker, NULL);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int main(int argc, char **argv)
{
	/* volatile: the compiler cannot see the access is invalid; not NULL, which UBSan stops first */
	static int *volatile nowhere = (int *)16;
	const char *mode = argc > 1 ? argv[1] : "spin";
	char report[8192];
	struct pf_ctl *c;
	struct err e;

	if (pf_recover_stale(report, sizeof report, &e) < 0)
		fail("recover", &e);
	if (pf_open(&c, NULL, 0, &e))
		fail("open", &e);
	if (pf_set(c, "all", &e))
		fail("set", &e);
	printf("set\n");
	fflush(stdout);
	if (!strcmp(mode, "close")) {
		pf_close(c);
		return 0;
	}
	if (!strcmp(mode, "exit"))
		exit(3);
	if (!strcmp(mode, "segv"))
		*nowhere = 1;
	if (!strcmp(mode, "abort"))
		abort();
	if (!strcmp(mode, "threads"))
		handle_signals_elsewhere();
	if (!strcmp(mode, "hold"))
		for (;;)
			pause();
	for (;;)
		if (pf_set(c, NULL, &e) || pf_set(c, "all", &e))
			fail("toggle", &e);
}
