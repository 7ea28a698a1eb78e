/* machine_read.c — loads machine.json with jansson; only levels.reported and format are required,
 * every other member is optional and only enriches the tables. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "machine_read.h"

static void copy_str(json_t *obj, const char *key, char *dst, size_t len)
{
	const char *s = json_string_value(json_object_get(obj, key));

	snprintf(dst, len, "%s", s ? s : "");
}

static double number(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

/* Cores sharing each cache: the share of one thread alone over the share of each of threads_max
   threads (a private cache: 1; a socket's L3 with 12 threads: 12). */
static void read_sharers(json_t *levels, struct machine *m)
{
	json_t *one = json_object_get(levels, "reported"),
	       *all = json_object_get(levels, "reported_all_threads");
	double tmax = number(levels, "threads_max");

	for (int i = 0; i < MACHINE_NCACHE && tmax >= 1; i++) {
		double r1 = number(one, level_name((enum level)i)),
		       rn = number(all, level_name((enum level)i));
		if (r1 > 0 && rn > 0)
			m->sharers[i] = (int)fmin(tmax, fmax(1, round(r1 / rn)));
	}
}

/* Fills limits from levels.reported, then overrides them by levels.measured where present. */
static int read_levels(const char *path, json_t *root, struct machine *m, struct err *e)
{
	json_t *levels = json_object_get(root, "levels");
	json_t *reported = json_object_get(levels, "reported");
	json_t *measured = json_object_get(levels, "measured");

	if (!json_is_object(reported))
		return err_set(e, E_USAGE, "%s: member 'levels.reported' is missing or not an object", path);
	for (int i = 0; i < MACHINE_NCACHE; i++) {
		const char *name = level_name((enum level)i);
		json_t *r = json_object_get(reported, name);
		json_t *me = json_object_get(measured, name);

		if (r && (!json_is_number(r) || json_number_value(r) < 0))
			return err_set(e, E_USAGE, "%s: 'levels.reported.%s' is not a size in bytes", path,
				       name);
		if (me && (!json_is_number(me) || json_number_value(me) <= 0))
			return err_set(e, E_USAGE, "%s: 'levels.measured.%s' is not a size in bytes", path,
				       name);
		m->limit[i] = r ? json_number_value(r) : 0;
		if (me) {
			m->limit[i] = json_number_value(me);
			m->limit_measured[i] = 1;
		}
	}
	if (m->limit[0] <= 0)
		return err_set(e, E_USAGE, "%s: 'levels.reported.L1' is missing", path);
	read_sharers(levels, m);
	return 0;
}

/* The quantity and scale of every config hypothesis (counters.experiments[].hypotheses, keyed by the
   row name: docs/results-format.md); what does not parse is left out (the hypothesis only breaks ties, it
   never decides a verdict against the data). */
static void read_expect(json_t *counters, struct machine *m)
{
	json_t *xs = json_object_get(counters, "experiments"), *x, *h;
	const char *spec;
	size_t i;

	json_array_foreach(xs, i, x) json_object_foreach(json_object_get(x, "hypotheses"), spec, h)
	{
		const char *q = json_string_value(json_object_get(h, "quantity"));
		double scale = json_number_value(json_object_get(h, "scale"));
		struct machine_expect *me = &m->expect[m->nexpect];
		if (!q || !(scale > 0) || m->nexpect == MACHINE_NEXPECT)
			continue;
		snprintf(me->spec, sizeof me->spec, "%s", spec);
		snprintf(me->quantity, sizeof me->quantity, "%s", q);
		me->scale = scale;
		m->nexpect++;
	}
}

int machine_read(const char *path, struct machine *m, struct err *e)
{
	json_error_t je;
	json_t *root, *v, *cpu, *topo, *clock, *ctr, *pf;
	int rc = 0;

	memset(m, 0, sizeof *m);
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		FILE *f = fopen(path, "r");
		if (!f)
			return err_set(e, errno == ENOENT ? E_USAGE : E_RUNTIME, "%s: %s", path,
				       strerror(errno));
		fclose(f);
		return err_set(e, E_USAGE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	}
	if (!json_is_object(root)) {
		rc = err_set(e, E_USAGE, "%s:1: expected a JSON object", path);
		goto out;
	}
	v = json_object_get(root, "format");
	if (!json_is_integer(v) || json_integer_value(v) != 1) {
		rc = err_set(e, E_USAGE, "%s: member 'format' must be 1 (this reader knows format 1)", path);
		goto out;
	}
	if ((rc = read_levels(path, root, m, e)))
		goto out;
	copy_str(root, "host", m->host, sizeof m->host);
	copy_str(root, "started_utc", m->started, sizeof m->started);
	cpu = json_object_get(root, "cpu");
	copy_str(cpu, "model_name", m->cpu, sizeof m->cpu);
	topo = json_object_get(root, "topology");
	m->sockets = (int)number(topo, "sockets");
	m->cores = (int)number(topo, "cores");
	m->pus = (int)number(topo, "pus");
	clock = json_object_get(root, "clock");
	m->core_ghz = number(clock, "core_ghz");
	/* `pmucheck run` writes counters.availability.{hardware,reason} (docs/results-format.md);
	   older results had them in counters itself. */
	ctr = json_object_get(root, "counters");
	read_expect(ctr, m);
	if (json_is_object(json_object_get(ctr, "availability")))
		ctr = json_object_get(ctr, "availability");
	v = json_object_get(ctr, "hardware");
	m->hardware = json_is_boolean(v) ? json_is_true(v) : -1;
	copy_str(ctr, "reason", m->counters_reason, sizeof m->counters_reason);
	pf = json_object_get(root, "prefetch");
	m->prefetch_control = json_is_true(json_object_get(pf, "control"));
	copy_str(pf, "reason", m->prefetch_reason, sizeof m->prefetch_reason);
out:
	json_decref(root);
	return rc;
}
