/* export_names.c — see export_names.h. */
#include <stdlib.h>
#include <string.h>

#include "export_names.h"

void export_hw_of(unsigned long long config, unsigned long long config1, struct export_hw *hw)
{
	hw->event = (unsigned)((config & 0xff) | ((config >> 24) & 0xf00));
	hw->umask = (unsigned)((config >> 8) & 0xff);
	hw->edge = (unsigned)((config >> 18) & 1);
	hw->inv = (unsigned)((config >> 23) & 1);
	hw->cmask = (unsigned)((config >> 24) & 0xff);
	hw->offcore = config1;
}

const struct export_core_name *export_core_lookup(const struct export_names *n, unsigned event,
						  unsigned umask, unsigned cmask, unsigned long long offcore)
{
	for (unsigned i = 0; n && i < n->ncore; i++) {
		const struct export_core_name *c = &n->core[i];
		if (c->event == event && c->umask == umask && c->cmask == cmask && c->offcore == offcore)
			return c;
	}
	return NULL;
}

const struct export_uncore_name *export_uncore_lookup(const struct export_names *n, const char *pmu,
						      unsigned event, unsigned umask)
{
	for (unsigned i = 0; n && i < n->nuncore; i++) {
		const struct export_uncore_name *u = &n->uncore[i];
		if (!strcmp(u->pmu, pmu) && u->event == event && u->umask == umask)
			return u;
	}
	return NULL;
}

void export_names_free(struct export_names *n)
{
	for (unsigned i = 0; i < n->ncore; i++)
		free(n->core[i].perf), free(n->core[i].likwid);
	for (unsigned i = 0; i < n->nuncore; i++)
		free(n->uncore[i].pmu), free(n->uncore[i].likwid), free(n->uncore[i].lclass);
	free(n->core), free(n->uncore), free(n->likwid_dir);
	memset(n, 0, sizeof *n);
}
