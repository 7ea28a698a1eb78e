/* out_report_hypo.h — report.md's line on the config's hypotheses: how many verdicts agree with them and
 * which contradict them (events.json config_agreement, config_check). */
#ifndef PMUCHECK_OUT_REPORT_HYPO_H
#define PMUCHECK_OUT_REPORT_HYPO_H

#include <jansson.h>
#include <stdio.h>

/* evs: events.json "events". Nothing when no event has a hypothesis. */
void out_report_config_checks(FILE *f, json_t *evs);

#endif
