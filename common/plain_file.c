/* plain_file.c — see plain_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plain_file.h"

int file_read_open(const char *path, int flags, int *fd, struct err *e)
{
	int nofollow = flags & FILE_READ_NOFOLLOW ? O_NOFOLLOW : 0, rc;
	struct stat st;

	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | nofollow);
	if (*fd < 0 && errno == ENOENT && (flags & FILE_READ_OPTIONAL))
		return 0;
	if (*fd < 0 && errno == ELOOP && nofollow)
		return err_set(e, E_USAGE, "%s is a link, which is not followed", path);
	/* no such file and a link loop are the input's faults */
	if (*fd < 0)
		return err_set(e, errno == ENOENT || errno == ELOOP ? E_USAGE : E_RUNTIME, "%s: %s", path,
			       strerror(errno));
	if (fstat(*fd, &st))
		rc = err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		rc = err_set(e, E_USAGE, "%s is a directory, not a file", path);
	else if ((flags & FILE_READ_PLAIN) && !S_ISREG(st.st_mode))
		rc = err_set(e, E_USAGE, "%s is not a plain file", path);
	/* reads then wait for data as usual: a pipe's writer may be slow (discover --vendor <(...)) */
	else if (fcntl(*fd, F_SETFL, fcntl(*fd, F_GETFL) & ~O_NONBLOCK))
		rc = err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	else
		return 0;
	close(*fd);
	*fd = -1;
	return rc;
}

int plain_fopen(const char *path, int flags, FILE **f, struct err *e)
{
	int fd, rc = file_read_open(path, flags | FILE_READ_PLAIN, &fd, e);

	*f = NULL;
	if (rc)
		return rc;
	if (!(*f = fdopen(fd, "r"))) {
		rc = err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return rc;
}
