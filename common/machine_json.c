/* machine_json.c — see machine_json.h. */
#include "json_file.h"
#include "machine_json.h"

int machine_json_load(const char *path, json_t **root, struct err *e)
{
	int rc = json_file_load(path, 0, root, e);

	if (!rc && (rc = json_file_format(path, *root, e))) {
		json_decref(*root);
		*root = NULL;
	}
	return rc;
}
