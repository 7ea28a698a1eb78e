/* fileset.h — output files committed together or not at all.
 *
 * Each file is written under a temporary name (DIR/.NAME.PID.tmp) and renamed to DIR/NAME only when
 * every file of the set was written without error and no final name is a directory, so a failed
 * analysis, report or export leaves the directory as it was (only a rename that fails after the others,
 * the directory changed meanwhile, leaves those before it renamed, each whole). The one home of this pattern for analysis and export (prefetcher state files
 * and machine.json need fsync as well and keep their own writers).
 */
#ifndef PMUCHECK_FILESET_H
#define PMUCHECK_FILESET_H

#include <limits.h>
#include <stdio.h>

#include "err.h"

struct fileset {
	const char *dir;
	unsigned n, cap;
	struct fileset_file {
		char tmp[PATH_MAX], final[PATH_MAX];
		FILE *f;
	} * file;
};

/* Opens DIR/.NAME.PID.tmp for writing; *f stays owned by the set. */
int fileset_open(struct fileset *s, const char *name, FILE **f, struct err *e);
/* Closes every file still open (a write error fails the set; a writer may close its file early, set
   its f to NULL and check it itself) and renames them to their final names, none where a final name is
   a directory. On any failure every temporary file is removed. The set is empty afterwards either way. */
int fileset_commit(struct fileset *s, struct err *e);
/* Closes and removes every temporary file; the set is empty afterwards. */
void fileset_abort(struct fileset *s);

#endif
