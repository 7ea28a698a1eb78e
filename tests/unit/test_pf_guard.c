/* The prefetcher signal guard (harness/prefetch/pf_signal.c) against a handler that runs on another
 * thread than the one that ends the session: an OpenMP worker gets the SIGINT while the main thread
 * is in pf_close. */
#define _GNU_SOURCE /* gettid */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "pf_signal.h"

static int handler_tid;

/* A session write in progress for a second: the handler waits for it before it restores, which holds
   the handler between its start and its use of the descriptors while the main thread disarms. */
static void *writer(void *arg)
{
	const struct timespec write_time = {.tv_sec = 1};

	(void)arg;
	pf_guard_enter();
	nanosleep(&write_time, NULL);
	pf_guard_leave();
	for (;;)
		pause();
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&handler_tid, gettid(), __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

/* Whether the thread has the signal blocked: it does while its handler runs (sa_mask). */
static int blocked_in(int tid, int sig)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "SigBlk: %llx", &mask) == 1)
			break;
	fclose(f);
	return mask >> (sig - 1) & 1;
}

/* The child arms the guard, has SIGTERM's handler start on a worker thread and wait there for a
   write in progress, and disarms meanwhile. Before the fix disarm returned, and pf_close would have
   closed the descriptors the handler was about to write through; now the disarming thread stops,
   and the handler ends the process with the signal. */
static void test_disarm_waits_for_a_handler_running_on_another_thread(void **state)
{
	const struct timespec step = {.tv_nsec = 1000000}, settle = {.tv_nsec = 20000000};
	char dir[] = "/tmp/pmucheck-guard.XXXXXX", msr[64], state_path[64];
	int status, pipefd[2];
	char said = 0;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(msr, sizeof msr, "%s/msr", dir);
	snprintf(state_path, sizeof state_path, "%s/prefetch.state", dir);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint64_t val = 0;
		int fd = open(msr, O_RDWR | O_CREAT, 0600);
		pthread_t w, x;

		close(pipefd[0]);
		if (fd < 0 || pwrite(fd, &val, sizeof val, 0x1a4) != sizeof val)
			_exit(10);
		signal(SIGTERM, SIG_DFL);
		pf_guard_arm(0x1a4, 0xf, 1, &fd, &val, state_path);
		if (pthread_create(&w, NULL, writer, NULL) || pthread_create(&x, NULL, worker, NULL))
			_exit(11);
		while (!__atomic_load_n(&handler_tid, __ATOMIC_SEQ_CST))
			nanosleep(&step, NULL);
		nanosleep(&settle, NULL); /* the writer is in its write */
		pthread_kill(x, SIGTERM);
		while (!blocked_in(handler_tid, SIGTERM))
			nanosleep(&step, NULL);
		nanosleep(&settle, NULL); /* the handler is past its first instructions */
		pf_guard_disarm();
		if (write(pipefd[1], "r", 1) != 1) /* disarm returned: pf_close would close fd now */
			_exit(12);
		_exit(0);
	}
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], &said, 1), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	close(pipefd[0]);
	unlink(msr);
	unlink(state_path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disarm_waits_for_a_handler_running_on_another_thread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
