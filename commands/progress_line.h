/* progress_line.h — the run's progress on stderr: one line rewritten in place on a terminal, one line
 * every 5 s elsewhere (a log). */
#ifndef PMUCHECK_PROGRESS_LINE_H
#define PMUCHECK_PROGRESS_LINE_H

#include "progress.h"

struct progress_line {
	int enabled; /* 1 always, 0 never, -1 when stderr is a terminal (--progress, --no-progress) */
	int is_tty;
	double last_print;
};

/* Decides enabled from the option and stderr; call once before the run. */
void progress_line_init(struct progress_line *l, int option);
/* A progress_fn: ctx is the struct progress_line. */
void progress_line_show(void *ctx, const struct progress_report *r);

#endif
