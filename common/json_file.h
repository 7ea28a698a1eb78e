/* json_file.h — opening a JSON file pmucheck reads: the one loader behind every reader of one (machine.json
 * through machine_json.c, events.json for report, export and merge, candidates.json for analyze, a vendor's
 * event list for discover --vendor, the level and speed probes' histories levels.json and speed.json), so
 * that a missing, empty or damaged file, or a directory in its place, is named the same way by every
 * command. */
#ifndef PMUCHECK_JSON_FILE_H
#define PMUCHECK_JSON_FILE_H

#include <jansson.h>

#include "err.h"

/* No file at the path is no fault: 0 with *root NULL, for a reader to whom it means "absent". */
#define JSON_FILE_OPTIONAL 1
/* A plain file only, never read through a link or from a FIFO: for a file in a directory others may write
   (the histories: harness history_file.c). */
#define JSON_FILE_PLAIN 2
/* A plain file only, read through a link if it is one: a results directory's files (machine.json,
   events.json, candidates.json), which a FIFO in their place would hold the reader on. */
#define JSON_FILE_RESULTS 8
/* Of the format pmucheck writes its files in (1): an object whose "format" is 1, else E_USAGE naming path
   and the fault (not an object, no "format", another one) and *root released (machine.json, events.json). */
#define JSON_FILE_FORMAT 4

/* The JSON text of path into *root (the caller's reference); flags: the JSON_FILE_ bits above. A key given
   twice is refused (which of the two jansson would take is not the file's to say). E_USAGE naming path and
   the fault: no such file, a directory, an empty file, a syntax error at path:line:column, and with
   JSON_FILE_PLAIN a link or anything but a plain file, with JSON_FILE_RESULTS anything but a plain file,
   with JSON_FILE_FORMAT another format; E_RUNTIME when it cannot be opened otherwise (plain_file.h). */
int json_file_load(const char *path, int flags, json_t **root, struct err *e);

#endif
