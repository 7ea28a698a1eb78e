/* out_discovered.h — discovered.ini and discovered.md from a discovery's results directory (see
 * out_discovered.c). */
#ifndef PMUCHECK_OUT_DISCOVERED_H
#define PMUCHECK_OUT_DISCOVERED_H

#include <jansson.h>

#include "out.h"

/* The longest [event NAME] the config loader takes: a section name holds at most 49 characters
   (inih's INI_MAX_SECTION), "event " included. */
#define DISC_INI_NAME (49 - 6 + 1)

/* A discovery's DIR/candidates.json into *root (the caller's to json_decref); *root NULL and 0 where dir
   holds none. Read before any output is written, so that a damaged one fails the analysis with nothing
   written. */
int out_discovered_read(const char *dir, json_t **root, struct err *e);

/* Writes discovered.ini and discovered.md into the set from root (out_discovered_read); does nothing (0)
   where root is NULL. v and order as for out_events. */
int out_discovered(struct fileset *o, const char *dir, const json_t *root, const struct agg *a,
		   const struct verdict *v, const uint32_t *order, struct err *e);

#endif
