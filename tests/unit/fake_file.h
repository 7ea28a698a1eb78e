/* fake_file.h — writes the one-line files of the fake sysfs trees the unit tests build (cpumask, type,
 * format and event aliases, topology ids). */
#ifndef PMUCHECK_FAKE_FILE_H
#define PMUCHECK_FAKE_FILE_H

#include <stdio.h>

/* Writes text to path, replacing it; 0, or -1 when it cannot be written. */
static inline int fake_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

#endif
