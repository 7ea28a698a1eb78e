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

int level_latency_dram_like(enum level l, double ns)
{
	return l != LEVEL_DRAM && ns >= LEVEL_DRAM_NS;
}
