/* ctr.c — the counter layer's one interface: picks the backend for a spec and dispatches a group's
 * open/start/stop/read/close to it. Everything backend-specific lives in ctr_perf.c and ctr_papi.c. */
#include <stdlib.h>
#include <string.h>

#include "ctr_int.h"

int ctr_resolve(const char *spec, struct ctr_event *ev, struct err *e)
{
	int rc;

	memset(ev, 0, sizeof *ev);
	if (!spec || !*spec)
		return err_set(e, E_USAGE, "empty event name");
	if (strlen(spec) >= sizeof ev->spec)
		return err_set(e, E_USAGE, "event '%.40s...': longer than %d characters", spec,
			       CTR_SPEC_MAX - 1);
	strcpy(ev->spec, spec);
	if (ctr_perf_syntax(spec))
		rc = ctr_perf_parse(CTR_SYSFS_PMUS, spec, ev, e);
	else if (!ctr_perf_from_pfm(CTR_SYSFS_PMUS, spec, ev))
		return ctr_papi_resolve(spec, ev, e);
	else
		rc = 0; /* a PAPI uncore name, counted by perf where sysfs has its PMU */
	if (rc == 0)
		ctr_perf_probe(ev);
	return rc;
}

int ctr_describe_sysfs(const char *pmus, const char *spec, struct ctr_event *ev, struct err *e)
{
	memset(ev, 0, sizeof *ev);
	if (strlen(spec) >= sizeof ev->spec)
		return err_set(e, E_USAGE, "event '%.40s...': longer than %d characters", spec,
			       CTR_SPEC_MAX - 1);
	strcpy(ev->spec, spec);
	return ctr_perf_parse(pmus, spec, ev, e);
}

int ctr_resolve_list(const char *const *specs, unsigned n, struct ctr_event *evs, struct err *e)
{
	struct err one;
	size_t used = 0;
	unsigned bad = 0;
	int worst = 0;

	for (unsigned i = 0; i < n; i++) {
		int rc = ctr_resolve(specs[i], &evs[i], &one);
		if (!rc)
			continue;
		if (rc == E_USAGE || !worst)
			worst = rc;
		if (e && used < sizeof e->msg)
			used += snprintf(e->msg + used, sizeof e->msg - used, "%s%s", bad ? "; " : "",
					 one.msg);
		bad++;
		/* Keep the slot a well-formed row: the event, not measured, with its error. */
		snprintf(evs[i].spec, sizeof evs[i].spec, "%s", specs[i]);
		evs[i].status = CTR_NOT_MEASURED;
		snprintf(evs[i].reason, sizeof evs[i].reason, "%s", one.msg);
	}
	return worst;
}

int ctr_split_list(const char *list, char ***specs, unsigned *n, struct err *e)
{
	size_t len = strlen(list);
	unsigned count = 1, k = 0;
	bool in_pmu = false;
	char *copy, **v;

	/* A '/' opens a perf spec and the next one closes it; commas in between are its terms. */
	for (const char *p = list; *p; p++) {
		if (*p == '/')
			in_pmu = !in_pmu;
		else if (*p == ',' && !in_pmu)
			count++;
	}
	v = malloc(count * sizeof *v + len + 1);
	if (!v)
		return err_set(e, E_RUNTIME, "out of memory");
	copy = (char *)(v + count);
	memcpy(copy, list, len + 1);
	in_pmu = false;
	v[k++] = copy;
	for (char *p = copy; *p; p++) {
		if (*p == '/')
			in_pmu = !in_pmu;
		else if (*p == ',' && !in_pmu) {
			*p = '\0';
			v[k++] = p + 1;
		}
	}
	for (unsigned i = 0; i < count; i++) {
		if (!*v[i]) {
			free(v);
			return err_set(e, E_USAGE, "event list '%s': empty name at position %u", list, i + 1);
		}
	}
	*specs = v;
	*n = count;
	return 0;
}

void ctr_classify(struct ctr_reading *r)
{
	r->reason[0] = '\0';
	if (r->time_enabled && !r->time_running) {
		r->status = CTR_FAILED;
		snprintf(r->reason, sizeof r->reason, "never on the counters (enabled %llu ns, running 0)",
			 (unsigned long long)r->time_enabled);
	} else if (r->time_running != r->time_enabled) {
		r->status = CTR_MULTIPLEXED;
		snprintf(r->reason, sizeof r->reason, "multiplexed: running %llu of %llu ns enabled",
			 (unsigned long long)r->time_running, (unsigned long long)r->time_enabled);
	} else {
		r->status = CTR_OK;
	}
}

int ctr_open_cpu(const struct ctr_group *g, int cpu)
{
	return g->backend == CTR_PERF ? ctr_cpumask_cpu(CTR_SYSFS_PMUS, CTR_SYSFS_CPUS, g->pool, cpu) : cpu;
}

int ctr_open(const struct ctr_group *g, int cpu, struct ctr_set **set, struct err *e)
{
	struct ctr_set *s;
	int rc;

	if (!g->n)
		return err_set(e, E_RUNTIME, "empty event group");
	s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, E_RUNTIME, "out of memory");
	s->g = *g;
	s->cpu = g->scope == CTR_SCOPE_SOCKET ? ctr_open_cpu(g, cpu) : -1;
	rc = g->backend == CTR_PERF ? ctr_perf_open(s, e) : ctr_papi_open(s, e);
	if (rc) {
		ctr_close(s);
		return rc;
	}
	*set = s;
	return 0;
}

int ctr_start(struct ctr_set *s, struct err *e)
{
	return s->g.backend == CTR_PERF ? ctr_perf_start(s, e) : ctr_papi_start(s, e);
}

int ctr_stop(struct ctr_set *s, struct err *e)
{
	return s->g.backend == CTR_PERF ? ctr_perf_stop(s, e) : ctr_papi_stop(s, e);
}

int ctr_read(struct ctr_set *s, struct ctr_reading *r, struct err *e)
{
	return s->g.backend == CTR_PERF ? ctr_perf_read(s, r, e) : ctr_papi_read(s, r, e);
}

void ctr_close(struct ctr_set *s)
{
	if (!s)
		return;
	if (s->g.backend == CTR_PERF)
		ctr_perf_close(s);
	else
		ctr_papi_close(s);
	free(s);
}

const char *ctr_status_name(enum ctr_status s)
{
	static const char *const names[] = {"ok", "multiplexed", "not_measured", "failed"};

	return s <= CTR_FAILED ? names[s] : "?";
}

const char *ctr_backend_name(enum ctr_backend b)
{
	return b == CTR_PERF ? "perf" : "papi";
}

const char *ctr_scope_name(enum ctr_scope s)
{
	return s == CTR_SCOPE_THREAD ? "thread" : "socket";
}
