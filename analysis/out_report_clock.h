/* out_report_clock.h — report.md's lines on the core clock: how far it moved over the points, and what
 * became of the run's clock samples. */
#ifndef PMUCHECK_OUT_REPORT_CLOCK_H
#define PMUCHECK_OUT_REPORT_CLOCK_H

#include <stdio.h>

#include "agg.h"

/* Writes the Run quality's **Core clock** line (where some point has a clock) and its **Clock samples**
   line (where the run counted them: machine.json disturbance.points.clock_samples). */
void out_report_clock(FILE *f, const struct agg *a);

#endif
