#define _GNU_SOURCE /* gettid */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pf.h"
#include "pf_signal.h"
#include "pf_stop.h"

/* Every signal whose default action ends the process (signal(7): Term or Core) and that can be caught:
   a session that SIGPIPE (`pmucheck run | head`), SIGXCPU or SIGXFSZ (ulimit, a batch system's limits),
   SIGUSR1 or SIGALRM (Slurm's --signal) ended left the prefetchers as the session had set them until the
   next pmucheck start. The real-time signals are left alone (glibc takes some for itself). */
static const int guarded[] = {SIGINT,  SIGTERM,   SIGHUP,  SIGQUIT, SIGSEGV, SIGBUS,   SIGABRT, SIGPIPE,
			      SIGALRM, SIGUSR1,   SIGUSR2, SIGXCPU, SIGXFSZ, SIGILL,   SIGFPE,  SIGTRAP,
			      SIGSYS,  SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSTKFLT};
#define NGUARDED (int)(sizeof guarded / sizeof guarded[0])

static struct {
	volatile sig_atomic_t armed;
	int dying;   /* a handler has started: no more session writes (atomic) */
	int writer;  /* thread id of the session write in progress, 0 when none (atomic) */
	pid_t owner; /* a forked child must not restore its parent's session */
	uint32_t msr;
	uint64_t mask;
	int n;
	int fds[PF_MAX_CPUS];
	uint64_t vals[PF_MAX_CPUS];
	char state_path[4096];
} guard;

static struct sigaction previous[NGUARDED];
static bool installed[NGUARDED];

/* A stack overflow is a SIGSEGV too; the handler then needs a stack of its own. */
static char alt_stack[64 * 1024];

static void put_back(void)
{
	int failed = 0;

	/* sequentially consistent, mirrored in pf_guard_disarm */
	if (!__atomic_load_n(&guard.armed, __ATOMIC_SEQ_CST) || getpid() != guard.owner)
		return;
	/* A CPU that cannot be read or written (gone offline) does not stop the others. */
	for (int i = 0; i < guard.n; i++) {
		uint64_t v;

		if (pread(guard.fds[i], &v, sizeof v, guard.msr) != sizeof v) {
			failed = 1;
			continue;
		}
		v = (v & ~guard.mask) | (guard.vals[i] & guard.mask);
		if (pwrite(guard.fds[i], &v, sizeof v, guard.msr) != sizeof v)
			failed = 1;
		else if (i == 0)
			pf_stop_at("guard-first");
	}
	/* Then the state file stays whole, for the next start to retry (putting back a CPU that is
	   already back writes nothing); dropping the restored CPUs from it is no work for a handler. */
	if (failed)
		return;
	unlink(guard.state_path);
	guard.armed = 0;
}

void pf_guard_enter(void)
{
	/* Sequentially consistent store then load, mirrored in on_signal: either the handler sees
	   this writer and waits for it, or this writer sees the handler and does not write. */
	__atomic_store_n(&guard.writer, gettid(), __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&guard.dying, __ATOMIC_SEQ_CST))
		return;
	pf_guard_leave();
	for (;;)
		pause(); /* until the handler's re-raised signal ends the process */
}

void pf_guard_leave(void)
{
	__atomic_store_n(&guard.writer, 0, __ATOMIC_SEQ_CST);
}

/* A write on this very thread was interrupted and will never resume; one on another thread
   finishes within microseconds (bounded anyway, so a stuck write cannot hang the exit). */
static void wait_for_writer(void)
{
	int self = gettid(), w;

	for (long spins = 0; spins < 100000000; spins++) {
		w = __atomic_load_n(&guard.writer, __ATOMIC_SEQ_CST);
		if (!w || w == self)
			return;
		__builtin_ia32_pause();
	}
}

static void on_signal(int sig)
{
	int saved_errno = errno;

	__atomic_store_n(&guard.dying, 1, __ATOMIC_SEQ_CST);
	wait_for_writer();
	put_back();
	signal(sig, SIG_DFL);
	raise(sig); /* pending until this handler returns (sig is blocked in it), then default action */
	errno = saved_errno;
}

static void on_exit_put_back(void)
{
	put_back();
}

static void install(void)
{
	static bool at_exit_registered;
	stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack};
	struct sigaction sa;

	if (!at_exit_registered && !atexit(on_exit_put_back))
		at_exit_registered = true;
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NGUARDED; i++) /* one restore at a time, even if signals pile up */
		sigaddset(&sa.sa_mask, guarded[i]);
	/* Only a signal whose default action stands is caught: one ignored on entry (nohup's SIGHUP, SIGINT
	   of a background job) does not end the process, so there is nothing to restore, and catching it
	   would; one with a handler of its own (a library's) is that handler's to act on. */
	for (int i = 0; i < NGUARDED; i++) {
		sigaction(guarded[i], NULL, &previous[i]);
		installed[i] = !(previous[i].sa_flags & SA_SIGINFO) && previous[i].sa_handler == SIG_DFL;
		if (installed[i])
			sigaction(guarded[i], &sa, NULL);
	}
}

void pf_guard_arm(uint32_t msr, uint64_t mask, int n, const int *fds, const uint64_t *vals,
		  const char *state_path)
{
	guard.armed = 0;
	guard.dying = 0;
	guard.writer = 0;
	guard.owner = getpid();
	guard.msr = msr;
	guard.mask = mask;
	guard.n = n;
	memcpy(guard.fds, fds, (size_t)n * sizeof *fds);
	memcpy(guard.vals, vals, (size_t)n * sizeof *vals);
	strncpy(guard.state_path, state_path, sizeof guard.state_path - 1);
	pf_stop_init();
	install();
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* the handler sees complete data once armed */
	guard.armed = 1;
}

void pf_guard_disarm(void)
{
	/* Sequentially consistent store then load, mirrored in on_signal (dying, then armed in put_back):
	   either a handler on another thread sees the guard disarmed and leaves the descriptors alone, or
	   this thread sees the handler and goes no further. The caller closes the descriptors next, and a
	   results file opened after that could get their numbers and the handler's pwrite. */
	__atomic_store_n(&guard.armed, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&guard.dying, __ATOMIC_SEQ_CST))
		for (;;)
			pause(); /* until the handler's re-raised signal ends the process */
	for (int i = 0; i < NGUARDED; i++)
		if (installed[i])
			sigaction(guarded[i], &previous[i], NULL);
}
