/* out_discovered.h — discovered.ini and discovered.md from a discovery's results directory (see
 * out_discovered.c). */
#ifndef PMUCHECK_OUT_DISCOVERED_H
#define PMUCHECK_OUT_DISCOVERED_H

#include "out.h"

/* The longest [event NAME] the config loader takes: a section name holds at most 49 characters
   (inih's INI_MAX_SECTION), "event " included. */
#define DISC_INI_NAME (49 - 6 + 1)

/* Writes discovered.ini and discovered.md into the set when dir holds candidates.json; does nothing
   (0) otherwise. v and order as for out_events. */
int out_discovered(struct fileset *o, const char *dir, const struct agg *a, const struct verdict *v,
		   const uint32_t *order, struct err *e);

#endif
