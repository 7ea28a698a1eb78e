/* json_file.c — see json_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_file.h"

/* The file's own faults, said before jansson's: it reads a directory and an empty file alike as "'[' or '{'
   expected near end of file", which names neither. */
static int check_file(const char *path, int fd, int flags, struct err *e)
{
	struct stat st;

	if (fstat(fd, &st))
		return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return err_set(e, E_USAGE, "%s is a directory, not a file", path);
	if ((flags & JSON_FILE_PLAIN) && !S_ISREG(st.st_mode))
		return err_set(e, E_USAGE, "%s is not a plain file", path);
	if (S_ISREG(st.st_mode) && st.st_size == 0)
		return err_set(e, E_USAGE, "%s: empty file", path);
	return 0;
}

/* root is an object of pmucheck's format (JSON_FILE_FORMAT). */
static int check_format(const char *path, const json_t *root, struct err *e)
{
	const json_t *v = json_object_get(root, "format");

	if (!json_is_object(root))
		return err_set(e, E_USAGE, "%s:1: expected a JSON object", path);
	if (!json_is_integer(v))
		return err_set(e, E_USAGE, "%s: no \"format\": not written by pmucheck", path);
	if (json_integer_value(v) != 1)
		return err_set(e, E_USAGE, "%s: format %lld, this pmucheck reads format 1", path,
			       (long long)json_integer_value(v));
	return 0;
}

int json_file_load(const char *path, int flags, json_t **root, struct err *e)
{
	/* O_NOFOLLOW: a link fails with ELOOP instead of being read; O_NONBLOCK: a FIFO opens at once, to be
	   refused by check_file, instead of holding the reader until someone writes it */
	int plain = flags & JSON_FILE_PLAIN ? O_NOFOLLOW | O_NONBLOCK : 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | plain);
	json_error_t je;
	int rc;

	*root = NULL;
	if (fd < 0 && errno == ENOENT && (flags & JSON_FILE_OPTIONAL))
		return 0;
	if (fd < 0 && errno == ELOOP && plain)
		return err_set(e, E_USAGE, "%s is a link, which is not followed", path);
	/* a link loop is the input's fault, as a missing file is */
	if (fd < 0)
		return err_set(e, errno == ENOENT || errno == ELOOP ? E_USAGE : E_RUNTIME, "%s: %s", path,
			       strerror(errno));
	rc = check_file(path, fd, flags, e);
	if (!rc && !(*root = json_loadfd(fd, JSON_REJECT_DUPLICATES, &je)))
		/* the input ended before its first byte: a pipe or device with no bytes (/dev/null), empty as
		   check_file says of a plain file, which it cannot see from the size (not a read error) */
		rc = je.position == 0 && strstr(je.text, "end of file")
			? err_set(e, E_USAGE, "%s: empty file", path)
			: err_set(e, E_USAGE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	close(fd);
	if (!rc && (flags & JSON_FILE_FORMAT) && (rc = check_format(path, *root, e))) {
		json_decref(*root);
		*root = NULL;
	}
	return rc;
}
