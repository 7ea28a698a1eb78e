#include <errno.h>

#include "file_copy.h"

int file_copy(FILE *in, FILE *out)
{
	char buf[8192];
	size_t n;

	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			return -1;
	if (ferror(in)) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return fflush(out) ? -1 : 0;
}
