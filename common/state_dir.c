#include <errno.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>

#include "state_dir.h"

const char *state_dir(void)
{
	const char *dir = getenv("PMUCHECK_STATE_DIR");

	if (dir && *dir)
		return dir;
	dir = getenv("PMUCHECK_MSR_DIR");
	return dir && *dir ? dir : "/var/lib/pmucheck";
}

int state_lock(int fd, int wait_ms)
{
	const struct timespec step = {.tv_nsec = 2000000};
	int rc;

	for (int waited = 0; (rc = flock(fd, LOCK_EX | LOCK_NB)) && errno == EWOULDBLOCK && waited < wait_ms;
	     waited += 2)
		nanosleep(&step, NULL);
	return rc;
}
