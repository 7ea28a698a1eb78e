/* results.h — the results directory and its machine.json (format: docs/results-format.md). */
#ifndef PMUCHECK_RESULTS_H
#define PMUCHECK_RESULTS_H

#include <jansson.h>

#include "err.h"

/* Holds DIR for this process (an flock on the directory, released when it exits; *fd to close, -1 when
   none): E_USAGE naming it where another pmucheck holds it, a run still running into it, whose raw.csv a
   --resume would cut back and append to at once (points written twice, their rows out of order). Where
   the filesystem has no such lock, none: 0. */
int results_lock_dir(const char *dir, int *fd, struct err *e);

/* What results_create_dir would say of `out` (NULL: none given) or else of `root` without creating either,
   for a dry run to refuse what the run would: E_USAGE where out or root is empty, out exists already (a
   link to nothing too), root is a link to nothing, or the directory out or root would be made in (or root
   itself, where it exists) is no directory this process may write in. */
int results_out_free(const char *out, const char *root, struct err *e);

/* Creates a new directory: `out` when given (it must not exist), else <root>/<host>-<UTC time>, with a
   -2, -3, ... suffix rather than reuse an existing one. Writes its path to dir. A directory that cannot
   be created is the user's to fix: E_USAGE. */
int results_create_dir(const char *out, const char *root, const char *host, char *dir, size_t len,
		       struct err *e);

/* Writes obj to dir/name through a temporary file and a rename, so readers never see half a file. */
int results_write_json(const char *dir, const char *name, json_t *obj, struct err *e);

/* Creates or removes dir/PARTIAL, the marker of a run that has not finished. */
int results_mark_partial(const char *dir, int partial, struct err *e);

/* "2026-11-21T10:22:57Z" */
void results_utc_now(char *out, size_t len, int compact);

#endif
