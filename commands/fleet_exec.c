/* fleet_exec.c — fork, exec a Slurm client, read its stdout and stderr, wait. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fleet_exec.h"

extern char **environ;

/* Reads both pipes to their end (a client that fills one while we wait on the other would block). */
static void drain(int fo, int fe, char *out, size_t olen, char *errb, size_t elen)
{
	struct pollfd p[2] = {{.fd = fo, .events = POLLIN}, {.fd = fe, .events = POLLIN}};
	size_t n[2] = {0, 0}, cap[2] = {olen - 1, elen - 1};
	char *buf[2] = {out, errb}, sink[4096];

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t r = n[i] < cap[i] ? read(p[i].fd, buf[i] + n[i], cap[i] - n[i])
						  : read(p[i].fd, sink, sizeof sink);
			if (r <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
			} else if (n[i] < cap[i]) {
				n[i] += (size_t)r;
			}
		}
	}
	out[n[0]] = errb[n[1]] = 0;
}

int fleet_exec(char *const argv[], char *out, size_t len, struct err *e)
{
	posix_spawn_file_actions_t fa;
	int po[2], pe[2], st = 0, rc;
	char errb[512];
	pid_t pid;

	if (pipe2(po, O_CLOEXEC))
		return err_set(e, E_RUNTIME, "pipe: %s", strerror(errno));
	if (pipe2(pe, O_CLOEXEC)) {
		close(po[0]);
		close(po[1]);
		return err_set(e, E_RUNTIME, "pipe: %s", strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	if (rc) {
		close(po[0]);
		close(pe[0]);
		return err_set(e, rc == ENOENT ? E_USAGE : E_RUNTIME, "%s: %s%s", argv[0], strerror(rc),
			       rc == ENOENT ? " (pmucheck fleet needs the Slurm client commands on PATH)"
					    : "");
	}
	drain(po[0], pe[0], out, len, errb, sizeof errb);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	errb[strcspn(errb, "\n")] = 0;
	return err_set(e, E_RUNTIME, "%s failed (%s %d): %s", argv[0], WIFEXITED(st) ? "exit" : "signal",
		       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), errb[0] ? errb : "no message");
}
