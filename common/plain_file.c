/* plain_file.c — see plain_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plain_file.h"

int plain_fopen(const char *path, FILE **f, struct err *e)
{
	/* O_NONBLOCK: a FIFO opens at once, to be refused below, instead of waiting for a writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;
	struct stat st;

	*f = NULL;
	if (fd < 0)
		return err_set(e, errno == ENOENT || errno == ELOOP ? E_USAGE : E_RUNTIME, "%s: %s", path,
			       strerror(errno));
	if (fstat(fd, &st))
		rc = err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		rc = err_set(e, E_USAGE, "%s is a directory, not a file", path);
	else if (!S_ISREG(st.st_mode))
		rc = err_set(e, E_USAGE, "%s is not a plain file", path);
	/* reads of a plain file never block; cleared all the same, so that none can end short with EAGAIN */
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) || !(*f = fdopen(fd, "r")))
		rc = err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	else
		return 0;
	close(fd);
	return rc;
}
