/* latency_curve.h — one point of the level probe's latency curve as machine.json holds it
 * (levels.latency_curve, [[bytes, ns], ...], written by harness levels.c): the one reading of it for the
 * run that resumes (harness levels_from.c) and for the analysis (analysis machine_read.c), so that a resumed
 * run's summary and its analysis take the same points. */
#ifndef PMUCHECK_LATENCY_CURVE_H
#define PMUCHECK_LATENCY_CURVE_H

#include <jansson.h>

/* The size in bytes and time per access in ns of one point; 1 where both are positive (a point to use),
   0 otherwise (a malformed one, skipped by both readers). */
int latency_curve_point(const json_t *pt, double *bytes, double *ns);

#endif
