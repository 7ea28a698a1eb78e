#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

struct progress {
	int total, done, enabled, is_tty;
	double start, last_print, deadline;
};

double progress_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct progress *progress_new(int total, int enabled, double deadline)
{
	struct progress *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->total = total;
	p->is_tty = isatty(STDERR_FILENO);
	p->enabled = enabled < 0 ? p->is_tty : enabled;
	p->start = p->last_print = progress_now();
	p->deadline = deadline;
	return p;
}

static void human_bytes(uint64_t b, char *out, size_t len)
{
	if (b >= (1ull << 20))
		snprintf(out, len, "%.1f MiB", (double)b / (1 << 20));
	else
		snprintf(out, len, "%.1f KiB", (double)b / 1024);
}

void progress_step(struct progress *p, const char *what, int threads, uint64_t bytes, const char *level)
{
	double now, left, budget;
	char size[32];

	if (!p)
		return;
	p->done++;
	now = progress_now();
	/* On a terminal the line is rewritten in place; elsewhere (a log) one line every 5 s is enough. */
	if (!p->enabled || (!p->is_tty && now - p->last_print < 5 && p->done < p->total))
		return;
	p->last_print = now;
	left = (now - p->start) / p->done * (p->total - p->done);
	budget = p->deadline > now ? p->deadline - now : 0;
	human_bytes(bytes, size, sizeof size);
	fprintf(stderr,
		"%s[%4d/%d] %-18s %2d thr %10s %-4s  %3.0f%%  about %d:%02d left, budget %d:%02d   %s",
		p->is_tty ? "\r" : "", p->done, p->total, what, threads, size, level,
		100.0 * p->done / p->total, (int)left / 60, (int)left % 60, (int)budget / 60,
		(int)budget % 60, p->is_tty ? "" : "\n");
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (!p)
		return;
	if (p->enabled && p->is_tty)
		fputc('\n', stderr);
	free(p);
}
