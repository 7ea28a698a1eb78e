/* boxes.h — a config's box wildcard: a '*' in place of the box number of a PMU name (perf uncore_imc_N,
 * amd_umc_N; PAPI skx_unc_imcN::UNC_M_CAS_COUNT:RD) stands for the same event on every box of that
 * kind (memory channels, CHAs, links). Expanded to one event per box this machine has; each box is
 * then judged on its own (a channel of eight sees an eighth of the lines). */
#ifndef PMUCHECK_BOXES_H
#define PMUCHECK_BOXES_H

#include "ctr.h"

#define BOXES_MAX 64

/* Whether spec holds a box wildcard. */
int boxes_wildcard(const char *spec);
/* The specs of the boxes found here, into out[0..]; 0 when none (the spec then stays as written and is
   recorded as not measured). pmus is the sysfs PMU directory for perf specs. */
unsigned boxes_expand(const char *spec, const char *pmus, char (*out)[CTR_SPEC_MAX], unsigned max);

#endif
