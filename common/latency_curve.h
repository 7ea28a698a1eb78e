/* latency_curve.h — one point of the level probe's latency curve as machine.json holds it
 * (levels.latency_curve, [[bytes, ns, cycles], ...], written by harness levels.c; cycles null where the
 * probe has none there, absent in files before it kept them): the one reading of it for the run that
 * resumes (harness levels_from.c) and for the analysis (analysis machine_read.c), so that a resumed run's
 * summary and its analysis take the same points. */
#ifndef PMUCHECK_LATENCY_CURVE_H
#define PMUCHECK_LATENCY_CURVE_H

#include <jansson.h>

#include "level.h"

/* The size in bytes and time per access of one point (t->cycles 0 where it has none, or none that is
   positive); 1 where the size and ns are positive (a point to use), 0 otherwise (a malformed one, skipped
   by both readers). */
int latency_curve_point(const json_t *pt, double *bytes, struct level_probe_time *t);

#endif
