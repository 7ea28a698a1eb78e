#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock_aperf.h"

static const char *const specs[2] = {"msr/aperf/", "msr/mperf/"};

const char *clock_aperf_pmus(void)
{
	const char *fake = getenv("PMUCHECK_CLOCK_PMUS");

	return fake && *fake ? fake : CTR_SYSFS_PMUS;
}

int clock_aperf_find(const char *pmus, struct clock_aperf *c, char *why, size_t len)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < 2; i++) {
		struct err e;
		if (ctr_describe_sysfs(pmus, specs[i], &c->ev[i], &e)) {
			snprintf(why, len, "%s", e.msg);
			return -1;
		}
		if (c->ev[i].status != CTR_OK) {
			snprintf(why, len, "%s", c->ev[i].reason);
			return -1;
		}
		c->group.ev[i] = &c->ev[i];
	}
	c->group.backend = CTR_PERF;
	c->group.scope = CTR_SCOPE_THREAD;
	snprintf(c->group.pool, sizeof c->group.pool, "%s", c->ev[0].pool);
	c->group.n = 2;
	return 0;
}

int clock_aperf_try(const struct clock_aperf *c, char *why, size_t len)
{
	struct ctr_set *set;
	struct ctr_reading rd[2];
	struct err e;
	int rc = ctr_open(&c->group, -1, &set, &e);

	if (!rc) {
		rc = ctr_start(set, &e) || ctr_stop(set, &e) || ctr_read(set, rd, &e);
		ctr_close(set);
	}
	if (!rc && (rd[0].status != CTR_OK || rd[1].status != CTR_OK)) {
		snprintf(e.msg, sizeof e.msg, "%s", rd[rd[0].status == CTR_OK].reason);
		rc = -1;
	}
	if (rc)
		snprintf(why, len, "%s", e.msg);
	return rc ? -1 : 0;
}

int clock_aperf_ghz(uint64_t aperf, uint64_t mperf, double tsc_hz, const struct clock_bounds *b, double *ghz,
		    enum clock_reject *why, struct err *e)
{
	double est;

	*ghz = 0;
	if (why)
		*why = CLOCK_REJECT_UNREAD;
	if (!mperf)
		return err_set(e, E_RUNTIME, "MPERF did not count (the thread did not run?)");
	est = tsc_hz * 1e-9 * (double)aperf / (double)mperf;
	if (clock_bounds_check(est, b, why, e))
		return E_RUNTIME;
	*ghz = est;
	return 0;
}

int clock_aperf_reading(const struct ctr_reading rd[2], double tsc_hz, const struct clock_bounds *b,
			double *ghz, enum clock_reject *why, struct err *e)
{
	*ghz = 0;
	if (why)
		*why = CLOCK_REJECT_UNREAD;
	for (int i = 0; i < 2; i++)
		if (rd[i].status != CTR_OK)
			return err_set(e, E_RUNTIME, "%s: %s", specs[i], rd[i].reason);
	return clock_aperf_ghz(rd[0].count, rd[1].count, tsc_hz, b, ghz, why, e);
}

int clock_machine_measure(void *arg, struct err *e)
{
	struct clock_machine *m = arg;

	(void)e;
	m->no_clock = clock_core_ghz(m->tsc_hz, 20, m->bounds, &m->ghz, &m->why) != 0;
	m->use_aperf = clock_aperf_find(clock_aperf_pmus(), &m->aperf, m->aperf_why, sizeof m->aperf_why) ==
			0 &&
		clock_aperf_try(&m->aperf, m->aperf_why, sizeof m->aperf_why) == 0;
	return 0;
}
