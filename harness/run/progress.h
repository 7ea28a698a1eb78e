/* progress.h — how far a run is: what runs now, how many points are done, the time left estimated from
 * the time per point so far, and what is left of the time budget. The harness only counts; the command
 * that started the run decides whether and how to show it (commands/progress_line.c), so nothing below
 * the command layer prints. */
#ifndef PMUCHECK_PROGRESS_H
#define PMUCHECK_PROGRESS_H

#include <stdint.h>

/* One step, as handed to the command's callback. */
struct progress_report {
	int done, total;   /* points measured so far, of this run's points */
	const char *what;  /* variant of the point just measured */
	int threads;       /* its thread count */
	uint64_t bytes;    /* its buffer bytes per thread */
	const char *level; /* its memory level */
	double left_s;     /* estimated seconds until the last point */
	double budget_s;   /* seconds left of the time budget (0 when spent) */
	int last;          /* 1 on the final call (progress_done), which carries no point */
};

typedef void (*progress_fn)(void *ctx, const struct progress_report *r);

struct progress;

/* Seconds on CLOCK_MONOTONIC: the clock of the progress estimate and of the time budget. */
double progress_now(void);

/* show: called once per point and once from progress_done; NULL shows nothing. deadline: when the time
   budget ends (progress_now() seconds). */
struct progress *progress_new(int total, double deadline, progress_fn show, void *ctx);
void progress_step(struct progress *p, const char *what, int threads, uint64_t bytes, const char *level);
void progress_done(struct progress *p);

#endif
