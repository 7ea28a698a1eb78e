#include <errno.h>

#include "file_copy.h"

int file_copy(FILE *in, FILE *out)
{
	char buf[8192];
	size_t n;
	int why = 0;

	errno = 0;
	while (!why && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			why = errno ? errno : EIO;
	if (!why && ferror(in))
		why = errno ? errno : EIO;
	if (!why && fflush(out))
		why = errno ? errno : EIO;
	fclose(in);
	if (fclose(out) && !why)
		why = errno ? errno : EIO;
	return why;
}
