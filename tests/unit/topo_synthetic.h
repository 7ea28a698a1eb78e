/* topo_synthetic.h — a unit test's topology from hwloc's synthetic description (HWLOC_SYNTHETIC), so
 * multi-socket and multi-L3 layouts are met on any machine. The test's setup calls topo_synthetic_load
 * with its description; topo_synthetic_free is its teardown. */
#ifndef PMUCHECK_TEST_TOPO_SYNTHETIC_H
#define PMUCHECK_TEST_TOPO_SYNTHETIC_H

#include <stdlib.h>

#include "topo.h"

static struct topo t;

static inline int topo_synthetic_load(const char *description)
{
	struct err e;

	setenv("HWLOC_SYNTHETIC", description, 1);
	return topo_load(&t, &e);
}

static inline int topo_synthetic_free(void **state)
{
	(void)state;
	topo_free(&t);
	unsetenv("HWLOC_SYNTHETIC");
	return 0;
}

#endif
