#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "kern.h"
#include "levels.h"
#include "stats.h"
#include "tsc.h"

/* A point joins the current plateau while its latency rises by less than PLATEAU_RISE over the point
   before it (latency creeps inside a level, and jumps between levels) and by less than
   PLATEAU_TOTAL_RISE over the plateau's first point (a gradual transition, seen here from L2 to L3 in
   steps of 20 %, must not chain two levels into one). A plateau needs this many points and this span
   of sizes, else it is a transition. */
#define PLATEAU_RISE 1.30
#define PLATEAU_TOTAL_RISE 1.60
#define PLATEAU_MIN_POINTS 2
#define PLATEAU_MIN_SPAN 2.0
/* A level whose plateau ends before this fraction of its reported size is said to be smaller. */
#define LEVEL_SHORT 0.75

static uint64_t ticks(const struct kern_variant *v, void *buf, uint64_t bytes, uint64_t reps)
{
	uint64_t t0 = tsc_begin();
	v->fn(buf, bytes, reps, 0);
	return tsc_end() - t0;
}

/* Latency per access at one size: R passes calibrated to min_s, then the best of two (R, 2R)
   differences. */
static int latency_ns(const struct kern_family *f, const struct kern_variant *v, void *buf, uint64_t bytes,
		      double tsc_hz, double min_s, double *ns, struct err *e)
{
	struct kern_params p = {bytes, 1, 0};
	uint64_t reps = 1, best = UINT64_MAX;

	f->prepare(v, &p, buf, 1);
	while ((double)ticks(v, buf, bytes, reps) < min_s * tsc_hz && reps < (1u << 30))
		reps *= 2;
	for (int i = 0; i < 2; i++) {
		uint64_t lo = ticks(v, buf, bytes, reps), hi = ticks(v, buf, bytes, 2 * reps);
		if (hi > lo && hi - lo < best)
			best = hi - lo;
	}
	if (best == UINT64_MAX) /* the 2R call never took longer: no latency can be read off it */
		return err_set(
			e, E_RUNTIME,
			"level probe: %s over %llu bytes: a call with twice the passes was never slower",
			v->name, (unsigned long long)bytes);
	*ns = (double)best / tsc_hz * 1e9 / (double)(reps * (bytes / KERN_LINE));
	return 0;
}

int levels_measure(struct levels_probe *p, const struct topo *t, int cpu, double tsc_hz, int quick,
		   struct err *e)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_for_plot(KP_LEVEL_PROBE, &f);
	uint64_t llc = t->ncaches ? t->caches[t->ncaches - 1].size : (32u << 20);
	uint64_t top = (quick ? 2 : 4) * llc;
	struct buf_place local = {BUF_LOCAL, -1};
	struct buf b;
	cpu_set_t old;
	int steps = quick ? 2 : 4, rc;

	memset(p, 0, sizeof *p);
	if (!v || !f->prepare)
		return err_set(e, E_RUNTIME, "no kernel is registered as the level probe's chain");
	/* the probe pins the calling thread; its old mask is put back, so the run's own threads start free */
	if (sched_getaffinity(0, sizeof old, &old))
		return err_set(e, E_RUNTIME, "cannot read the thread's CPU mask: %s", strerror(errno));
	rc = topo_pin_self(cpu, e);
	if (rc == 0)
		rc = buf_alloc(&b, top, &local, t, cpu, 1, e);
	if (rc)
		goto out;
	buf_first_touch(&b);
	for (int i = 0; p->npoints < LEVELS_MAX_POINTS; i++) {
		uint64_t size = (uint64_t)(4096.0 * pow(2.0, (double)i / steps));
		size -= size % f->granule;
		if (size > top)
			break;
		if (p->npoints && size == p->size[p->npoints - 1])
			continue;
		p->size[p->npoints] = size;
		rc = latency_ns(f, v, b.base, size, tsc_hz, quick ? 0.0005 : 0.001, &p->ns[p->npoints], e);
		if (rc)
			break;
		p->npoints++;
	}
	buf_free(&b);
	if (rc == 0)
		levels_classify(p, t);
out:
	if (sched_setaffinity(0, sizeof old, &old) && rc == 0)
		rc = err_set(e, E_RUNTIME, "cannot restore the thread's CPU mask after the level probe: %s",
			     strerror(errno));
	return rc;
}

static void add_plateau(struct levels_probe *p, int first, int last)
{
	double v[LEVELS_MAX_POINTS];
	int n = last - first + 1;

	if (n < PLATEAU_MIN_POINTS || (double)p->size[last] < PLATEAU_MIN_SPAN * (double)p->size[first])
		return; /* a transition between levels */
	if (p->nplateaus == TOPO_MAX_LEVELS + 2)
		return;
	memcpy(v, &p->ns[first], sizeof *v * (size_t)n);
	p->plateau[p->nplateaus].first = p->size[first];
	p->plateau[p->nplateaus].last = p->size[last];
	p->plateau[p->nplateaus].next = last + 1 < p->npoints ? p->size[last + 1] : 0;
	p->plateau[p->nplateaus].ns = stats_median(v, (size_t)n);
	p->nplateaus++;
}

static void __attribute__((format(printf, 2, 3))) disagree(struct levels_probe *p, const char *fmt, ...)
{
	va_list ap;

	if (p->ndisagreements > TOPO_MAX_LEVELS)
		return;
	va_start(ap, fmt);
	vsnprintf(p->disagreements[p->ndisagreements++], sizeof p->disagreements[0], fmt, ap);
	va_end(ap);
}

void levels_classify(struct levels_probe *p, const struct topo *t)
{
	int first = 0;

	p->nplateaus = 0;
	p->ndisagreements = 0;
	for (int i = 1; i <= p->npoints; i++) {
		if (i < p->npoints && p->ns[i] <= PLATEAU_RISE * p->ns[i - 1] &&
		    p->ns[i] <= PLATEAU_TOTAL_RISE * p->ns[first])
			continue;
		add_plateau(p, first, i - 1);
		first = i;
	}
	if (p->nplateaus != t->ncaches + 1) {
		disagree(p,
			 "the latency sweep shows %d plateaus for %d cache levels and DRAM; keeping the "
			 "reported sizes",
			 p->nplateaus, t->ncaches);
		return;
	}
	for (int l = 0; l < t->ncaches; l++) {
		uint64_t reported = t->caches[l].size, last = p->plateau[l].last;
		/* The level ends somewhere between its last plateau point and the next point. */
		if ((double)p->plateau[l].next < LEVEL_SHORT * (double)reported)
			disagree(p,
				 "L%d: hwloc reports %llu KiB, but latency is L%d-like only up to %llu KiB "
				 "(%.1f ns) and %s from %llu KiB",
				 l + 1, (unsigned long long)(reported >> 10), l + 1,
				 (unsigned long long)(last >> 10), p->plateau[l].ns,
				 l + 1 == t->ncaches ? "DRAM-like" : "next-level-like",
				 (unsigned long long)(p->plateau[l + 1].first >> 10));
	}
}

void levels_apply(const struct levels_probe *p, struct topo *t)
{
	if (p->nplateaus != t->ncaches + 1)
		return;
	for (int l = 0; l < t->ncaches; l++)
		if ((double)p->plateau[l].next < LEVEL_SHORT * (double)t->caches[l].size)
			t->caches[l].measured = p->plateau[l].last;
}

json_t *levels_json(const struct levels_probe *p)
{
	json_t *curve = json_array(), *plateaus = json_array(), *dis = json_array();

	for (int i = 0; i < p->npoints; i++)
		json_array_append_new(curve, json_pack("[I, f]", (json_int_t)p->size[i], p->ns[i]));
	for (int i = 0; i < p->nplateaus; i++)
		json_array_append_new(plateaus,
				      json_pack("{s:I, s:I, s:f}", "first", (json_int_t)p->plateau[i].first,
						"last", (json_int_t)p->plateau[i].last, "ns",
						p->plateau[i].ns));
	for (int i = 0; i < p->ndisagreements; i++)
		json_array_append_new(dis, json_string(p->disagreements[i]));
	return json_pack("{s:o, s:o, s:o}", "latency_curve", curve, "plateaus", plateaus, "disagreements",
			 dis);
}
