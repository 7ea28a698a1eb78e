/* history_file.h — the files in which the runs on a machine keep what later runs compare themselves with:
 * the level probe's ends (levels_history.h, levels.json) and the speed probe's best (speed_history.h,
 * speed.json). One home for what both need: where they are, which machine an entry is of, reading one
 * without following a link or waiting on a FIFO, the lock that orders two runs, and a write that no reader
 * sees half done. */
#ifndef PMUCHECK_HISTORY_FILE_H
#define PMUCHECK_HISTORY_FILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "topo.h"

/* How long a run waits for another to release the histories before it goes on without the lock: a lost
   entry only makes a history one shorter, and a run held behind a stopped one would miss its time budget. */
#define HISTORY_LOCK_MS 2000
#define HISTORY_BOOT_ID "/proc/sys/kernel/random/boot_id"

/* $PMUCHECK_HISTORY_DIR (or its former name, $PMUCHECK_LEVELS_HISTORY_DIR), else the state directory
   (state_dir.h): tests keep their histories apart without
   moving the prefetcher's lock and state files, which every session of the node must share. */
const char *history_dir(void);

/* "boot <boot id>, CPU <cpu>, L1 <bytes>, L2 <bytes>, ...": what two entries must share to be compared. A
   guest booted again may run on another host; the caches are the ones hwloc reports (t's size, not its
   measured one). */
void history_machine(const struct topo *t, int cpu, const char *boot_id_file, char *buf, size_t len);

/* Creates history_dir() where it is missing and takes its lock (a directory's, not a file's: nothing to
   create where others may write), waiting up to HISTORY_LOCK_MS. Returns the descriptor to close when
   done, -1 where it could not be opened (why set: the directory cannot be created) or was not locked in
   time (why ""; go on without). */
int history_lock(char *why, size_t len);

/* The file's JSON, read only from a plain file (JSON_FILE_PLAIN): in a state directory others may write, a
   link placed there would have root read a file of its owner's choosing (jansson's message quotes what it
   met, into machine.json and report.md), and a FIFO would hold the run for ever. NULL with why set, or
   with why "" where there is no file. */
json_t *history_read(const char *path, char *why, size_t len);

/* Whether entry o of a history file, of `time`, counts as this machine's (1), or not (0): one older than
   `window` seconds before now, or later than now (a clock since set back), is dropped; another machine's
   in the window is appended to keep as it was, for the file to hold it again. */
int history_ours(json_t *o, int64_t time, int64_t now, int64_t window, const char *machine, json_t *keep);

/* Writes root over path through a file beside it renamed over it, so that a reader never sees half a
   history: 0, else -1 with why ("cannot write <path>: ..."), nothing left behind. */
int history_write(const char *path, const json_t *root, char *why, size_t len);

#endif
