/* levels_from.h — the level sizes another run measured, for a run that takes them instead of probing again
 * (pmucheck run --levels-from DIR, and --resume, whose points were planned from them). */
#ifndef PMUCHECK_LEVELS_FROM_H
#define PMUCHECK_LEVELS_FROM_H

#include <stdint.h>

#include <jansson.h>

#include "err.h"
#include "topo.h"

/* machine.json's levels.latency_curve, [[bytes, ns, cycles], ...] as levels_json writes it: at most max
   points into size, ns and cycles (0 where a point has none), those latency_curve_point takes (as the
   analysis does, analysis machine_read.c); their number. A resumed run's summary takes its latency points'
   probe times from it, as its analysis does. */
int levels_curve_read(const json_t *levels, uint64_t *size, double *ns, double *cycles, int max);

/* Reads DIR/machine.json's measured levels into out, after checking that the run there saw the caches
   this machine reports (levels.reported, one thread's share of each): another machine's sizes would
   plan another machine's points. E_USAGE, naming the file, when DIR holds no such run. */
int levels_from_run(const char *dir, const struct topo *t, uint64_t out[TOPO_MAX_LEVELS], struct err *e);

#endif
