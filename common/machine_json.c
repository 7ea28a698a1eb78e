/* machine_json.c — see machine_json.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "machine_json.h"

/* The file's own faults, said before jansson's: it reads a directory and an empty file alike as "'[' or '{'
   expected near end of file", which names neither. */
static int check_file(const char *path, FILE *f, struct err *e)
{
	struct stat st;

	if (fstat(fileno(f), &st))
		return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return err_set(e, E_USAGE, "%s is a directory, not a file", path);
	if (S_ISREG(st.st_mode) && st.st_size == 0)
		return err_set(e, E_USAGE, "%s: empty file", path);
	return 0;
}

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

int machine_json_load(const char *path, json_t **root, struct err *e)
{
	FILE *f = fopen(path, "r");
	json_error_t je;
	int rc;

	*root = NULL;
	if (!f)
		return err_set(e, errno == ENOENT ? E_USAGE : E_RUNTIME, "%s: %s", path, strerror(errno));
	rc = check_file(path, f, e);
	if (!rc && !(*root = json_loadf(f, JSON_REJECT_DUPLICATES, &je)))
		rc = err_set(e, E_USAGE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	fclose(f);
	if (!rc && (rc = check_format(path, *root, e))) {
		json_decref(*root);
		*root = NULL;
	}
	return rc;
}
