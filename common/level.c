#include <string.h>

#include "level.h"

static const char *const names[LEVEL_COUNT] = {"L1", "L2", "L3", "DRAM"};

const char *level_name(enum level l)
{
	return (unsigned)l < LEVEL_COUNT ? names[l] : "";
}

enum level level_parse(const char *s)
{
	for (int l = 0; l < LEVEL_COUNT; l++)
		if (s && !strcmp(s, names[l]))
			return (enum level)l;
	return LEVEL_NONE;
}
