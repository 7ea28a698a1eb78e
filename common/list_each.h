/* list_each.h — the comma-separated lists a user types (--sizes, --threads, --prefetch, ...), split one way
 * for every option: an empty list or an empty item is refused with its position, where strtok would skip it
 * silently. */
#ifndef PMUCHECK_LIST_EACH_H
#define PMUCHECK_LIST_EACH_H

#include "err.h"

/* Hands each item of list to fn(ctx, option, item, e) in order, stopping at the first that fails; E_USAGE
   naming option for an empty list or item; fn's status otherwise. */
int list_each(const char *option, const char *list,
	      int (*fn)(void *ctx, const char *option, const char *item, struct err *e), void *ctx,
	      struct err *e);

#endif
