#include <stdio.h>
#include <unistd.h>

#include "partial.h"

void partial_path(const char *dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" PARTIAL_NAME, dir);
}

int partial_marked(const char *dir)
{
	char path[4096];

	partial_path(dir, path, sizeof path);
	return access(path, F_OK) == 0;
}
