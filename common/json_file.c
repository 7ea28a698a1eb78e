/* json_file.c — see json_file.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_file.h"
#include "plain_file.h"

/* An empty plain file, said before jansson's "'[' or '{' expected near end of file" (a directory, which
   jansson reads alike, file_read_open refused). */
static int check_empty(const char *path, int fd, struct err *e)
{
	struct stat st;

	if (fstat(fd, &st))
		return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
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
	int open_flags = (flags & JSON_FILE_OPTIONAL ? FILE_READ_OPTIONAL : 0) |
		(flags & JSON_FILE_PLAIN ? FILE_READ_NOFOLLOW | FILE_READ_PLAIN : 0) |
		(flags & JSON_FILE_RESULTS ? FILE_READ_PLAIN : 0);
	json_error_t je;
	FILE *f = NULL;
	int fd, rc;

	*root = NULL;
	if ((rc = file_read_open(path, open_flags, &fd, e)) || fd < 0)
		return rc;
	rc = check_empty(path, fd, e);
	/* through stdio's buffer: json_loadfd reads one byte per read(2), 54,000 system calls for a quick
	   run's machine.json and events.json, which made merge of 400 such directories take 22 s */
	if (!rc && !(f = fdopen(fd, "r")))
		rc = err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	if (!rc && !(*root = json_loadf(f, JSON_REJECT_DUPLICATES, &je)))
		/* the input ended before its first byte: a pipe or device with no bytes (/dev/null), empty as
		   check_empty says of a plain file, which it cannot see from the size (not a read error) */
		rc = je.position == 0 && strstr(je.text, "end of file")
			? err_set(e, E_USAGE, "%s: empty file", path)
			: err_set(e, E_USAGE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	if (f)
		fclose(f); /* and fd */
	else
		close(fd);
	if (!rc && (flags & JSON_FILE_FORMAT) && (rc = check_format(path, *root, e))) {
		json_decref(*root);
		*root = NULL;
	}
	return rc;
}
