/* partial.h — the marker of a run that has not finished, DIR/PARTIAL: `run` writes it before its first
 * point and removes it when the run ends (harness results.c: results_mark_partial); resume, analyze and
 * merge ask for it here, the one place that spells its name. */
#ifndef PMUCHECK_PARTIAL_H
#define PMUCHECK_PARTIAL_H

#include <stddef.h>

#define PARTIAL_NAME "PARTIAL"

/* DIR/PARTIAL into buf (len bytes). */
void partial_path(const char *dir, char *buf, size_t len);
/* Whether DIR holds the marker. */
int partial_marked(const char *dir);

#endif
