/* machine_json.h — opening a results directory's machine.json: the one loader behind analyze (analysis
 * machine_read.c), run --resume and run --levels-from (harness resume.c, levels_from.c), so that a
 * missing, empty, damaged or foreign file is named the same way, and refused for the same faults, by
 * every command that reads it (docs/results-format.md, "What the tools read"): json_file.h's loader, of
 * pmucheck's format (JSON_FILE_FORMAT). */
#ifndef PMUCHECK_MACHINE_JSON_H
#define PMUCHECK_MACHINE_JSON_H

#include <stdint.h>

#include <jansson.h>

#include "err.h"

/* The JSON object in path, of the format this pmucheck writes (1), into *root (the caller's reference).
   E_USAGE naming path and the fault: no such file, a directory, an empty file, a syntax error at
   path:line:column, not an object, no "format" or another one; E_RUNTIME when it cannot be read. */
int machine_json_load(const char *path, json_t **root, struct err *e);

/* Whether bytes is a cache size a run records: whole bytes, from a line (64; the level probe starts at 4
   KiB) to 2^50 (no cache holds a PiB). An edited measured L1 of 1 byte dropped every L1 row, a reported one
   of 1e300 put every point in L1. */
int machine_json_size_ok(double bytes);

/* Its levels.measured (levels, the file's "levels" object): out[l] the size of level L(l + 1), for n levels,
   where the probe found it smaller than reported, 0 where it did not. E_USAGE naming path and the member
   where levels.measured is no object or one of its sizes is no size (machine_json_size_ok): run writes
   whole bytes (topo_measured_json), and a size that is none is refused, not read as "not measured". */
int machine_json_levels_measured(const char *path, const json_t *levels, uint64_t *out, int n, struct err *e);

#endif
