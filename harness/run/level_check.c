#include <math.h>
#include <string.h>

#include "level_check.h"

enum level level_check_level(const struct topo *t)
{
	if (!t->ncaches)
		return LEVEL_NONE;
	return (enum level)((t->ncaches < LEVEL_DRAM ? t->ncaches : LEVEL_DRAM) - 1);
}

double level_check_past_ns(const struct levels_probe *p)
{
	return p && p->step_ns > 0 && p->step_ns < LEVEL_DRAM_NS ? p->step_ns : LEVEL_DRAM_NS;
}

uint64_t level_check_bytes(const struct topo *t, uint64_t per_thread, int threads)
{
	return topo_cache_alone(t, level_check_level(t) + 1, per_thread, threads); /* topo numbers from 1 */
}

uint64_t level_check_point(const struct topo *t, const struct plan_point *pt)
{
	if (pt->level != level_check_level(t) || (pt->fam->flags & KF_FRESH_BUFFER))
		return 0;
	return level_check_bytes(t, pt->bytes * pt->fam->arrays, pt->threads);
}

int level_check_init(struct level_check *c, const struct topo *t, const struct levels_probe *p, uint64_t cap,
		     int cpu, double tsc_hz, struct err *e)
{
	memset(c, 0, sizeof *c);
	c->v = kern_variant_for_plot(KP_LEVEL_PROBE, &c->f);
	if (!c->v || !c->f->prepare)
		return err_set(e, E_RUNTIME, "no kernel is registered as the level probe's chain");
	c->t = t;
	c->level = level_check_level(t);
	c->past_ns = level_check_past_ns(p);
	c->by_probe = p && c->past_ns == p->step_ns;
	c->cap = cap;
	c->cpu = cpu;
	c->tsc_hz = tsc_hz;
	return 0;
}

int level_check_past(const struct level_check *c, double ns)
{
	return ns >= c->past_ns;
}

int level_check_judge(struct level_check *c, uint64_t bytes, double before_ns, double after_ns)
{
	int before = level_check_past(c, before_ns), past = before && level_check_past(c, after_ns);
	double ns = before ? fmin(before_ns, after_ns) : before_ns;

	c->n++;
	c->past += past;
	c->bursts += before && !past;
	if (ns > c->worst_ns) {
		c->worst_ns = ns;
		c->worst_at = bytes;
	}
	return past;
}

double level_check_chase(struct level_check *c, uint64_t bytes)
{
	struct buf_place local = {BUF_LOCAL, -1};
	struct err e;
	double ns;

	bytes -= bytes % c->f->granule;
	if (c->failed || !bytes || bytes > c->cap)
		return -1;
	/* no first touch: the chain prepared for each chase writes every line it chases */
	if ((!c->b.base && buf_alloc(&c->b, c->cap, &local, c->t, c->cpu, 1, &e)) ||
	    levels_latency_ns(c->f, c->v, c->b.base, bytes, c->tsc_hz, LEVEL_CHECK_SECONDS, NULL, &ns, NULL,
			      &e)) {
		c->failed = 1;
		return -1;
	}
	return ns;
}

json_t *level_check_json(const struct level_check *c)
{
	if (!c->n)
		return NULL;
	return json_pack("{s:s, s:s, s:i, s:i, s:i, s:f, s:s, s:f, s:I}", "kernel", c->v->name, "level",
			 level_name(c->level), "points", c->n, "points_past", c->past, "points_burst",
			 c->bursts, "past_ns", c->past_ns, "past_by",
			 c->by_probe ? "level probe" : "DRAM-like", "worst_ns", c->worst_ns, "worst_bytes",
			 (json_int_t)c->worst_at);
}

void level_check_free(struct level_check *c)
{
	if (c->b.base)
		buf_free(&c->b);
	memset(c, 0, sizeof *c);
}
