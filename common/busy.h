/* busy.h — from what share of the time lost to other work the machine counts as busy: steal (the
 * hypervisor gave the guest's CPU time to other guests) or CPU pressure (some task of the machine's own
 * waited for a CPU), both read from /proc (harness/machine/disturb.h). The report's Run quality calls a run
 * busy from it (analysis/out_report_md.c), and a level probe taken on a busy machine is not added to the
 * history (harness/run/levels_history.h). In common/ because the harness and the analysis both judge by
 * it. */
#ifndef PMUCHECK_BUSY_H
#define PMUCHECK_BUSY_H

#define BUSY_PERCENT 5.0

#endif
