#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

int err_set(struct err *e, int status, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return status;
}

int err_wrap(struct err *e, int status, const char *fmt, ...)
{
	if (e) {
		char prefix[ERR_MSG_MAX], old[ERR_MSG_MAX];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(prefix, sizeof prefix, fmt, ap);
		va_end(ap);
		memcpy(old, e->msg, sizeof old);
		snprintf(e->msg, sizeof e->msg, "%s: %s", prefix, old);
	}
	return status;
}

int err_exit_status(int status)
{
	if (status == 0)
		return 0;
	return status == E_USAGE ? 2 : 1;
}
