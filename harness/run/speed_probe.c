/* speed_probe.c — see speed_probe.h. */
#include <stdlib.h>
#include <string.h>

#include "speed_probe.h"
#include "stats.h"
#include "timed_call.h"

int speed_probe_init(struct speed_probe *sp, uint64_t bytes, double tsc_hz, struct err *e)
{
	memset(sp, 0, sizeof *sp);
	sp->v = kern_variant_for_plot(KP_SPEED_PROBE, &sp->f);
	if (!sp->v)
		return err_set(e, E_RUNTIME, "no kernel is registered as the run's speed probe");
	sp->bytes = bytes - bytes % sp->f->granule;
	sp->tsc_hz = tsc_hz;
	return 0;
}

/* The buffer, first touched (a probe only times reads of memory it owns) and prepared; -1 out of memory. */
static int get_buffer(struct speed_probe *sp)
{
	sp->buf = aligned_alloc(4096, (sp->bytes + 4095) / 4096 * 4096);
	if (!sp->buf)
		return -1;
	memset(sp->buf, 0, sp->bytes);
	if (sp->f->prepare) {
		struct kern_params p = {sp->bytes, 1, 0};
		sp->f->prepare(sp->v, &p, sp->buf, 1);
	}
	return 0;
}

static uint64_t call_ticks(const struct speed_probe *sp, uint64_t reps)
{
	return timed_call(sp->v, sp->buf, sp->bytes, reps, 0, NULL);
}

void speed_probe_sample(struct speed_probe *sp)
{
	uint64_t a, b;

	if (!sp->v || (!sp->buf && get_buffer(sp)))
		return;
	/* The first call of each sample warms the buffer the point before may have evicted, and doubles the
	   passes while a call is shorter than SPEED_PROBE_SECONDS (the first sample calibrates them). */
	while (!sp->reps ||
	       ((double)call_ticks(sp, sp->reps) < SPEED_PROBE_SECONDS * sp->tsc_hz && sp->reps < (1u << 24)))
		sp->reps = sp->reps ? 2 * sp->reps : 1;
	a = call_ticks(sp, sp->reps);
	b = call_ticks(sp, sp->reps);
	if (sp->n == sp->cap) {
		int cap = sp->cap ? 2 * sp->cap : 256;
		double *g = realloc(sp->gbps, (size_t)cap * sizeof *g);
		if (!g)
			return;
		sp->gbps = g;
		sp->cap = cap;
	}
	/* every call is an upper bound of its work (speed_probe.h): the shorter one */
	sp->gbps[sp->n++] = (double)sp->bytes * (double)sp->reps / ((double)(a < b ? a : b) / sp->tsc_hz) *
		1e-9;
}

struct speed_probe_figures speed_probe_figures(const struct speed_probe *sp)
{
	struct speed_probe_figures f = {0};
	double *v;

	if (!sp->n || !(v = malloc((size_t)sp->n * sizeof *v)))
		return f;
	memcpy(v, sp->gbps, (size_t)sp->n * sizeof *v);
	stats_sort(v, (size_t)sp->n);
	f.n = sp->n;
	f.best = v[sp->n - 1];
	f.p10 = stats_decile(v, (size_t)sp->n, 1);
	f.median = stats_median(v, (size_t)sp->n);
	free(v);
	return f;
}

json_t *speed_probe_json(const struct speed_probe *sp)
{
	struct speed_probe_figures f = speed_probe_figures(sp);

	if (!f.n)
		return NULL;
	return json_pack("{s:s, s:I, s:i, s:f, s:f, s:f}", "kernel", sp->v->name, "bytes",
			 (json_int_t)sp->bytes, "points", f.n, "gbps_best", f.best, "gbps_median", f.median,
			 "gbps_p10", f.p10);
}

void speed_probe_free(struct speed_probe *sp)
{
	free(sp->buf);
	free(sp->gbps);
	memset(sp, 0, sizeof *sp);
}
