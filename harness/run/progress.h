/* progress.h — one self-overwriting progress line on stderr (only when stderr is a terminal, or when
 * forced): what runs now, how far, the time left estimated from the time per point so far, and what is
 * left of the time budget. */
#ifndef PMUCHECK_PROGRESS_H
#define PMUCHECK_PROGRESS_H

#include <stdint.h>

struct progress;

/* Seconds on CLOCK_MONOTONIC: the clock of the progress line and of the time budget. */
double progress_now(void);

/* enabled: 1 always, 0 never, -1 when stderr is a terminal; deadline: when the time budget ends
   (progress_now() seconds). */
struct progress *progress_new(int total, int enabled, double deadline);
void progress_step(struct progress *p, const char *what, int threads, uint64_t bytes, const char *level);
void progress_done(struct progress *p);

#endif
