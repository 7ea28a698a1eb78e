/* fake_file.h — writes the one-line files of the fake sysfs, procfs and cgroup trees the unit tests build
 * (cpumask, type, format and event aliases, topology ids, cgroup quotas). */
#ifndef PMUCHECK_FAKE_FILE_H
#define PMUCHECK_FAKE_FILE_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Writes text to path, replacing it; 0, or -1 when it cannot be written. */
static inline int fake_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* Writes text to root/rel, making root and the directories between; 0, or -1 when it cannot. */
static inline int fake_put_at(const char *root, const char *rel, const char *text)
{
	char path[1024];

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755); /* one that exists is fine; one that cannot be made fails the write */
		*p = '/';
	}
	return fake_put(path, text);
}

#endif
