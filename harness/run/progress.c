#include <stdlib.h>
#include <time.h>

#include "progress.h"

struct progress {
	int total, done;
	double start, deadline;
	progress_fn show;
	void *ctx;
};

double progress_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct progress *progress_new(int total, double deadline, progress_fn show, void *ctx)
{
	struct progress *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->total = total;
	p->start = progress_now();
	p->deadline = deadline;
	p->show = show;
	p->ctx = ctx;
	return p;
}

void progress_step(struct progress *p, const char *what, int threads, uint64_t bytes, const char *level)
{
	struct progress_report r = {0};
	double now;

	if (!p)
		return;
	p->done++;
	if (!p->show)
		return;
	now = progress_now();
	r.done = p->done;
	r.total = p->total;
	r.what = what;
	r.threads = threads;
	r.bytes = bytes;
	r.level = level;
	r.left_s = (now - p->start) / p->done * (p->total - p->done);
	r.budget_s = p->deadline > now ? p->deadline - now : 0;
	p->show(p->ctx, &r);
}

void progress_done(struct progress *p)
{
	struct progress_report r = {0};

	if (!p)
		return;
	if (p->show) {
		r.done = p->done;
		r.total = p->total;
		r.last = 1;
		p->show(p->ctx, &r);
	}
	free(p);
}
