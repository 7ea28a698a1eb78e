/* speed_probe.c — see speed_probe.h. */
#include <stdlib.h>
#include <string.h>

#include "run_record.h"
#include "speed_probe.h"
#include "stats.h"
#include "timed_call.h"

int speed_probe_init(struct speed_probe *sp, unsigned plot, uint64_t bytes, double tsc_hz, struct err *e)
{
	char name[32];

	memset(sp, 0, sizeof *sp);
	sp->v = kern_variant_for_plot(plot, &sp->f);
	kern_bits_format(name, sizeof name, plot, kern_plot_names, KP_COUNT);
	if (!sp->v)
		return err_set(e, E_RUNTIME, "no kernel is registered as the run's %s", name);
	sp->bytes = bytes - bytes % sp->f->granule;
	sp->tsc_hz = tsc_hz;
	return 0;
}

/* A buffer of `bytes`, first touched by the calling thread (a probe only times reads of memory it owns, and
   its pages lie where that thread runs) and prepared; NULL out of memory. */
static void *touched(const struct speed_probe *sp, uint64_t bytes)
{
	void *p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);

	if (!p)
		return NULL;
	memset(p, 0, bytes);
	if (sp->f->prepare) {
		struct kern_params kp = {bytes, 1, 0};
		sp->f->prepare(sp->v, &kp, p, 1);
	}
	return p;
}

static uint64_t call_ticks(const struct speed_probe *sp, uint64_t reps)
{
	return timed_call(sp->v, sp->buf, sp->bytes, reps, 0, NULL, NULL);
}

/* Whether a call of `ticks` calls for more passes: the first sample calibrates them, doubling while a call
   is shorter than SPEED_PROBE_SECONDS; doubles them if so. */
static int more_passes(struct speed_probe *sp, uint64_t ticks)
{
	int more = !sp->reps || ((double)ticks < SPEED_PROBE_SECONDS * sp->tsc_hz && sp->reps < (1u << 24));

	if (more)
		sp->reps = sp->reps ? 2 * sp->reps : 1;
	return more;
}

/* Keeps a sample: every call is an upper bound of its work (speed_probe.h), so the shorter of two. */
static void keep(struct speed_probe *sp, uint64_t a, uint64_t b)
{
	stats_push(&sp->gbps, &sp->n, &sp->cap,
		   (double)sp->bytes * (double)sp->reps / ((double)(a < b ? a : b) / sp->tsc_hz) * 1e-9);
}

void speed_probe_sample(struct speed_probe *sp)
{
	uint64_t a, b;

	if (!sp->v || (!sp->buf && !(sp->buf = touched(sp, sp->bytes))))
		return;
	/* The first call of each sample warms the buffer the point before may have evicted (and calibrates). */
	while (more_passes(sp, sp->reps ? call_ticks(sp, sp->reps) : 0))
		;
	a = call_ticks(sp, sp->reps);
	b = call_ticks(sp, sp->reps);
	keep(sp, a, b);
}

int speed_probe_init_threads(struct speed_probe *sp, unsigned plot, uint64_t bytes, double tsc_hz,
			     int threads, struct err *e)
{
	int rc = speed_probe_init(sp, plot, bytes, tsc_hz, e);

	if (rc)
		return rc;
	sp->bytes = bytes / (uint64_t)threads;
	sp->bytes = (sp->bytes - sp->bytes % sp->f->granule) * (uint64_t)threads;
	sp->threads = threads;
	sp->slice = calloc((size_t)threads, sizeof *sp->slice);
	sp->start = calloc(3 * (size_t)threads, sizeof *sp->start);
	sp->ticks = calloc(3 * (size_t)threads, sizeof *sp->ticks);
	if (!sp->slice || !sp->start || !sp->ticks) {
		speed_probe_free(sp);
		return err_set(e, E_RUNTIME, "out of memory");
	}
	return 0;
}

/* Call k of a sample (0: the warm-up, 1 and 2: timed): every thread reads its slice, its start and ticks
   go to row k, then the barrier after which the master may read them. Rows keep the next call from
   overwriting what the master still reads, so one barrier per call suffices. */
static void call_all(struct speed_probe *sp, int tid, uint64_t part, int k)
{
	int at = k * sp->threads + tid;

	sp->ticks[at] = timed_call(sp->v, sp->slice[tid], part, sp->reps, 0, &sp->start[at], NULL);
#pragma omp barrier
}

static uint64_t span_of(const struct speed_probe *sp, int k)
{
	return record_span(sp->start + k * sp->threads, sp->ticks + k * sp->threads, sp->threads);
}

void speed_probe_sample_threads(struct speed_probe *sp, int tid)
{
	uint64_t part = sp->bytes / (uint64_t)sp->threads;
	/* Only the master writes sp->reps and sp->again, and only where every other thread waits at a
	   barrier or has read them: so reps is read here, before the first barrier. */
	int first = !sp->reps;

	if (!sp->slice[tid] && !(sp->slice[tid] = touched(sp, part))) {
#pragma omp atomic write
		sp->failed = 1;
	}
#pragma omp barrier
	if (sp->failed)
		return;
	if (first) { /* the passes per call, as speed_probe_sample calibrates them */
#pragma omp master
		sp->reps = 1;
#pragma omp barrier
		do {
			call_all(sp, tid, part, 0);
#pragma omp master
			sp->again = more_passes(sp, span_of(sp, 0));
#pragma omp barrier
		} while (sp->again);
	}
	for (int k = 0; k < 3; k++)
		call_all(sp, tid, part, k);
#pragma omp master
	keep(sp, span_of(sp, 1), span_of(sp, 2));
}

int speed_probe_shared(const struct speed_probe *all, const struct speed_probe *one)
{
	return all->n && one->n &&
		all->gbps[all->n - 1] < SPEED_PROBE_SHARED * all->threads * one->gbps[one->n - 1];
}

void speed_probe_count_shared(struct speed_probe *all, const struct speed_probe *one, int shared)
{
	if (all->n && one->n) {
		all->shared += shared;
		all->judged = 1;
	}
}

int speed_probe_slow(const struct speed_probe *sp)
{
	double best = sp->prior_best;

	for (int i = 0; i + 1 < sp->n; i++)
		if (sp->gbps[i] > best)
			best = sp->gbps[i];
	return sp->n > 0 && sp->gbps[sp->n - 1] < SPEED_PROBE_SLOW * best;
}

void speed_probe_drop_last(struct speed_probe *sp)
{
	if (sp->n)
		sp->n--;
}

void speed_probe_waited(struct speed_probe *sp, double seconds, int recovered)
{
	sp->waited++;
	sp->recovered += recovered != 0;
	sp->waited_s += seconds;
}

struct speed_probe_figures speed_probe_figures(const struct speed_probe *sp)
{
	struct stats_spread s = stats_spread(sp->gbps, (size_t)sp->n);

	return (struct speed_probe_figures){(int)s.n, s.best, s.median, s.p10};
}

json_t *speed_probe_json(const struct speed_probe *sp)
{
	struct speed_probe_figures f = speed_probe_figures(sp);
	json_t *o;

	if (!f.n)
		return NULL;
	o = json_pack("{s:s, s:I, s:i, s:i, s:f, s:f, s:f}", "kernel", sp->v->name, "bytes",
		      (json_int_t)sp->bytes, "threads", sp->threads > 1 ? sp->threads : 1, "points", f.n,
		      "gbps_best", f.best, "gbps_median", f.median, "gbps_p10", f.p10);
	if (o && sp->judged) {
		json_object_set_new(o, "points_shared", json_integer(sp->shared));
		json_object_set_new(o, "shared_below", json_real(SPEED_PROBE_SHARED));
	}
	if (o && sp->watched) {
		json_object_set_new(o, "slow_below", json_real(SPEED_PROBE_SLOW));
		json_object_set_new(o, "points_waited", json_integer(sp->waited));
		json_object_set_new(o, "points_recovered", json_integer(sp->recovered));
		json_object_set_new(o, "waited_seconds", json_real(sp->waited_s));
	}
	return o;
}

void speed_probe_free(struct speed_probe *sp)
{
	for (int i = 0; sp->slice && i < sp->threads; i++)
		free(sp->slice[i]);
	free(sp->slice);
	free(sp->start);
	free(sp->ticks);
	free(sp->buf);
	free(sp->gbps);
	memset(sp, 0, sizeof *sp);
}
