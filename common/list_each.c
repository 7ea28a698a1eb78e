/* list_each.c — see list_each.h. */
#include <stdlib.h>
#include <string.h>

#include "list_each.h"

int list_each(const char *option, const char *list,
	      int (*fn)(void *ctx, const char *option, const char *item, struct err *e), void *ctx,
	      struct err *e)
{
	char *copy = strdup(list), *next;
	int rc = 0, n = 1;

	if (!copy)
		return err_set(e, E_RUNTIME, "out of memory");
	if (!*list)
		rc = err_set(e, E_USAGE, "%s: empty list", option);
	for (char *it = copy; it && !rc; it = next, n++) {
		if ((next = strchr(it, ',')))
			*next++ = '\0';
		rc = *it ? fn(ctx, option, it, e)
			 : err_set(e, E_USAGE, "%s: empty item at position %d of '%s'", option, n, list);
	}
	free(copy);
	return rc;
}
