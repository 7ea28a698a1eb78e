#include <stdio.h>
#include <unistd.h>

#include "progress_line.h"

void progress_line_init(struct progress_line *l, int option)
{
	l->is_tty = isatty(STDERR_FILENO);
	l->enabled = option < 0 ? l->is_tty : option;
	l->last_print = progress_now();
}

static void human_bytes(uint64_t b, char *out, size_t len)
{
	if (b >= (1ull << 20))
		snprintf(out, len, "%.1f MiB", (double)b / (1 << 20));
	else
		snprintf(out, len, "%.1f KiB", (double)b / 1024);
}

void progress_line_show(void *ctx, const struct progress_report *r)
{
	struct progress_line *l = ctx;
	double now = progress_now();
	char size[32];

	if (!l->enabled)
		return;
	if (r->last) {
		if (l->is_tty)
			fputc('\n', stderr);
		return;
	}
	if (!l->is_tty && now - l->last_print < 5 && r->done < r->total)
		return;
	l->last_print = now;
	human_bytes(r->bytes, size, sizeof size);
	fprintf(stderr,
		"%s[%4d/%d] %-18s %2d thr %10s %-4s  %3.0f%%  about %d:%02d left, budget %d:%02d   %s",
		l->is_tty ? "\r" : "", r->done, r->total, r->what, r->threads, size, r->level,
		100.0 * r->done / r->total, (int)r->left_s / 60, (int)r->left_s % 60, (int)r->budget_s / 60,
		(int)r->budget_s % 60, l->is_tty ? "" : "\n");
	fflush(stderr);
}
