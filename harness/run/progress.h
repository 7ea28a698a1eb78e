/* progress.h — one self-overwriting progress line on stderr (only when stderr is a terminal, or when
 * forced): what runs now, how far, and the time left estimated from the time per point so far. */
#ifndef PMUCHECK_PROGRESS_H
#define PMUCHECK_PROGRESS_H

#include <stdint.h>

struct progress;

/* enabled: 1 always, 0 never, -1 when stderr is a terminal. */
struct progress *progress_new(int total, int enabled);
void progress_step(struct progress *p, const char *what, int threads, uint64_t bytes, const char *level);
void progress_done(struct progress *p);

#endif
