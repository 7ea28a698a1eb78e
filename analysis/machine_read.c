/* machine_read.c — loads machine.json with jansson into struct machine; only levels.reported and
 * format are required, every other member is optional and only enriches the tables. A member of the
 * wrong type is treated as absent, except where a wrong value would change a verdict (the level sizes,
 * the config's hypotheses): those are refused by name. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_curve.h"
#include "machine_json.h"
#include "machine_read.h"
#include "thresholds.h"

/* A member by a dotted path ("cpu.microcode"), or NULL. */
static json_t *at(json_t *o, const char *path)
{
	char key[64];
	const char *dot;

	while (o && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
		o = json_object_get(o, key);
		path = dot + 1;
	}
	return o ? json_object_get(o, path) : NULL;
}

static void text(json_t *o, const char *path, char *dst, size_t len)
{
	const char *s = json_string_value(at(o, path));

	snprintf(dst, len, "%s", s ? s : "");
}

/* "0=0x0;1=0xf;2=0x0" -> "0x0 on 2 CPUs, 0xf on 1 CPU": the distinct values in ascending order (as text,
   which the run writes without leading zeros), each with its count, so that two nodes compare equal
   exactly where their CPUs had the same values as often, however many CPUs; past PREFETCH_VALUES distinct
   values, how many more. */
#define PREFETCH_VALUES 16
struct prefetch_value {
	char v[24];
	unsigned cpus;
};

static int by_value(const void *a, const void *b)
{
	return strcmp(((const struct prefetch_value *)a)->v, ((const struct prefetch_value *)b)->v);
}

static void prefetch_values(const char *before, char *dst, size_t len)
{
	struct prefetch_value val[PREFETCH_VALUES];
	unsigned nv = 0, more = 0;
	size_t n = 0;

	dst[0] = '\0';
	for (const char *p = before; p && *p;) {
		const char *eq = strchr(p, '='), *end = strchr(p, ';');
		size_t vl;
		unsigned k = 0;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end)
			break;
		vl = (size_t)(end - eq - 1);
		while (k < nv && (strlen(val[k].v) != vl || strncmp(val[k].v, eq + 1, vl)))
			k++;
		if (k == nv && nv < PREFETCH_VALUES && vl < sizeof val[0].v) {
			snprintf(val[nv].v, sizeof val[nv].v, "%.*s", (int)vl, eq + 1);
			val[nv++].cpus = 0;
		}
		if (k < nv)
			val[k].cpus++;
		else
			more++;
		p = *end ? end + 1 : end;
	}
	qsort(val, nv, sizeof *val, by_value);
	for (unsigned i = 0; i < nv && n < len; i++)
		n += (size_t)snprintf(dst + n, len - n, "%s%s on %u CPU%s", i ? ", " : "", val[i].v,
				      val[i].cpus, val[i].cpus == 1 ? "" : "s");
	if (more && n < len)
		snprintf(dst + n, len - n, ", %u CPUs with other values", more);
}

static double number(json_t *o, const char *path, double absent)
{
	json_t *v = at(o, path);

	return json_is_number(v) ? json_number_value(v) : absent;
}

/* A count (cores, points, a CPU model) from `lo` up: one out of its type's range, which no run writes
   (an edited 1e300 cores printed as -2147483648, a conversion C leaves undefined), counts as absent. */
static int count(json_t *o, const char *path, int absent, int lo)
{
	double v = number(o, path, absent);

	return v >= lo && v <= INT_MAX ? (int)v : absent;
}

static long long count_ll(json_t *o, const char *path, long long absent, long long lo)
{
	double v = number(o, path, (double)absent);

	return v >= (double)lo && v <= 9e15 ? (long long)v : absent;
}

/* The strings of an array, the first max of them, into rows of len bytes. */
static unsigned texts(json_t *arr, char *rows, size_t len, unsigned max)
{
	unsigned n = 0;
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) if (json_is_string(v) && n < max)
		snprintf(rows + n++ * len, len, "%s", json_string_value(v));
	return n;
}

/* Cores sharing each cache: the share of one thread alone over the share of each of threads_max
   threads (a private cache: 1; a socket's L3 with 12 threads: 12). */
static void read_sharers(json_t *levels, struct machine *m)
{
	double tmax = number(levels, "threads_max", 0);

	for (int i = 0; i < MACHINE_NCACHE && tmax >= 1; i++) {
		char key[64];
		double rn;
		snprintf(key, sizeof key, "reported_all_threads.%s", level_name((enum level)i));
		rn = number(levels, key, 0);
		if (m->reported[i] > 0 && rn > 0)
			m->sharers[i] = (int)fmin(tmax, fmax(1, round(m->reported[i] / rn)));
	}
}

/* levels.reported and levels.measured apart; the limit is the measured one where present. */
static int read_levels(const char *path, json_t *levels, struct machine *m, struct err *e)
{
	json_t *reported = json_object_get(levels, "reported");
	json_t *curve, *pt;
	uint64_t measured[MACHINE_NCACHE];
	size_t i;
	int rc;

	if (!json_is_object(reported))
		return err_set(e, E_USAGE, "%s: member 'levels.reported' is missing or not an object", path);
	/* as run --resume and --levels-from read them */
	if ((rc = machine_json_levels_measured(path, levels, measured, MACHINE_NCACHE, e)))
		return rc;
	for (int l = 0; l < MACHINE_NCACHE; l++) {
		const char *name = level_name((enum level)l);
		json_t *r = json_object_get(reported, name);

		/* 0: no such level; else whole bytes as hwloc reports them, within what any cache holds (an
		   edited 1e300 put every point in L1) */
		if (r &&
		    (!json_is_number(r) ||
		     (json_number_value(r) != 0 && !machine_json_size_ok(json_number_value(r)))))
			return err_set(e, E_USAGE, "%s: 'levels.reported.%s' is not a size in bytes", path,
				       name);
		m->reported[l] = r ? json_number_value(r) : 0;
		m->measured[l] = (double)measured[l];
		m->limit[l] = measured[l] ? m->measured[l] : m->reported[l];
	}
	/* no level at all: hwloc reported no data cache (a VM hiding CPUID's cache leaves), the run planned
	   every point as DRAM and said so, and they are read so; an L1 missing beside others is damage */
	for (int l = 1; l < MACHINE_NCACHE && m->limit[0] <= 0; l++)
		if (m->limit[l] > 0)
			return err_set(e, E_USAGE, "%s: 'levels.reported.L1' is missing", path);
	read_sharers(levels, m);
	m->ndisagreements = texts(json_object_get(levels, "disagreements"), m->disagreements[0],
				  sizeof m->disagreements[0], MACHINE_NDISAGREEMENTS);
	m->nwithout_point = texts(json_object_get(levels, "without_point"), m->without_point[0],
				  sizeof m->without_point[0], MACHINE_NWITHOUT_POINT);
	curve = json_object_get(levels, "latency_curve");
	if (json_array_size(curve) && !(m->latency = calloc(json_array_size(curve), sizeof *m->latency)))
		return err_set(e, E_RUNTIME, "out of memory");
	json_array_foreach(curve, i, pt)
	{
		struct machine_latency l;
		if (latency_curve_point(pt, &l.bytes, &l.t))
			m->latency[m->nlatency++] = l;
	}
	return 0;
}

/* The words a hypothesis' lists hold (harness cfg_json.c writes them). */
static const char *const level_words[] = {"L1", "L2", "L3", "DRAM", NULL};
static const char *const placement_words[] = {"local", "remote", "interleave", NULL};
static const char *const prefetch_words[] = {"on", "off", NULL};

static int words(json_t *arr, const char *key, const char *event, unsigned *bits, const char *const *t,
		 const char *path, struct err *e)
{
	json_t *w;
	size_t i;

	*bits = 0;
	if (!json_is_array(arr))
		return err_set(e, E_USAGE, "%s: hypothesis '%s': member '%s' is not a list of words", path,
			       event, key);
	json_array_foreach(arr, i, w)
	{
		unsigned k = 0;
		while (t[k] && (!json_is_string(w) || strcmp(json_string_value(w), t[k])))
			k++;
		if (!t[k])
			return err_set(e, E_USAGE, "%s: hypothesis '%s': '%s' holds an unknown word", path,
				       event, key);
		*bits |= 1u << k;
	}
	return 0;
}

static int quantity(const char *name)
{
	for (int q = 0; name && q < RQ_COUNT; q++)
		if (!strcmp(name, raw_quantity_names[q]))
			return q;
	return name && !strcmp(name, "cycles") ? MACHINE_CYCLES : -1;
}

/* "scope" is optional (older files lack it); present, it is one of cfg_json.c's words. */
static int read_scope(const char *event, json_t *o, struct machine_hypo *h, const char *path, struct err *e)
{
	static const char *const scope_words[] = {[MSCOPE_CORE] = "core", [MSCOPE_SOCKET] = "socket"};
	json_t *s = json_object_get(o, "scope");

	h->scope = MSCOPE_NONE;
	if (!s)
		return 0;
	for (int k = MSCOPE_CORE; k <= MSCOPE_SOCKET; k++)
		if (json_is_string(s) && !strcmp(json_string_value(s), scope_words[k]))
			h->scope = k;
	if (h->scope == MSCOPE_NONE)
		return err_set(e, E_USAGE, "%s: hypothesis '%s': 'scope' is not core or socket", path, event);
	return 0;
}

static int read_hypo(const char *event, json_t *o, struct machine_hypo *h, const char *path, struct err *e)
{
	json_t *scale = json_object_get(o, "scale");
	int rc;

	memset(h, 0, sizeof *h);
	snprintf(h->event, sizeof h->event, "%s", event);
	text(o, "name", h->name, sizeof h->name);
	h->quantity = quantity(json_string_value(json_object_get(o, "quantity")));
	if (h->quantity < 0)
		return err_set(e, E_USAGE, "%s: hypothesis '%s': 'quantity' is not a volume or cycles", path,
			       event);
	if (!json_is_number(scale) || json_number_value(scale) < 0)
		return err_set(e, E_USAGE, "%s: hypothesis '%s': 'scale' is not a number >= 0", path, event);
	h->scale = json_number_value(scale);
	if ((rc = words(json_object_get(o, "levels"), "levels", event, &h->levels, level_words, path, e)) ||
	    (rc = words(json_object_get(o, "placement"), "placement", event, &h->placement, placement_words,
			path, e)) ||
	    (rc = words(json_object_get(o, "prefetch"), "prefetch", event, &h->prefetch, prefetch_words, path,
			e)))
		return rc;
	return read_scope(event, o, h, path, e);
}

/* counters.experiments[].hypotheses: every experiment of a run takes them from one config, so an event
   keeps its first. */
static int read_hypotheses(const char *path, json_t *experiments, struct machine *m, struct err *e)
{
	json_t *x, *o;
	const char *event;
	size_t i, n = 0;
	int rc;

	json_array_foreach(experiments, i, x) n += json_object_size(json_object_get(x, "hypotheses"));
	if (n && !(m->hypo = calloc(n, sizeof *m->hypo)))
		return err_set(e, E_RUNTIME, "out of memory");
	json_array_foreach(experiments, i, x) json_object_foreach(json_object_get(x, "hypotheses"), event, o)
	{
		if (machine_hypo_find(m, event))
			continue;
		if ((rc = read_hypo(event, o, &m->hypo[m->nhypo], path, e)))
			return rc;
		m->nhypo++;
	}
	return 0;
}

/* A probe's reading before each point, by raw.csv point (the speed probe's point_gbps, the path probe's
   point_ratio: a number, or null where it has none); one that is no positive finite number reads as none.
   Nothing kept when out of memory: no point is judged then. */
static void read_per_point(json_t *arr, double **v, unsigned *nv)
{
	size_t n = json_array_size(arr);

	if (!n || !(*v = calloc(n, sizeof **v)))
		return;
	*nv = (unsigned)n;
	for (size_t i = 0; i < n; i++) {
		double x = json_number_value(json_array_get(arr, i));
		(*v)[i] = isfinite(x) && x > 0 ? x : 0;
	}
}

/* A speed probe's figures (harness speed_probe_json); points 0 when absent, or when it has no positive
   best figure: a probe without gbps figures read "0.0 GB/s at best ... -nan % below the best" in the
   report, a figure never measured. */
static void read_probe(json_t *o, struct machine_probe *p)
{
	text(o, "kernel", p->kernel, sizeof p->kernel);
	p->bytes = count_ll(o, "bytes", 0, 0);
	p->threads = count(o, "threads", 1, 0);
	p->points = count(o, "points", 0, 0);
	p->points_shared = count(o, "points_shared", -1, -1);
	p->shared_below = number(o, "shared_below", 0);
	p->best = number(o, "gbps_best", 0);
	p->median = number(o, "gbps_median", 0);
	p->p10 = number(o, "gbps_p10", 0);
	p->points_waited = count(o, "points_waited", -1, -1);
	p->points_recovered = count(o, "points_recovered", 0, 0);
	p->waited_seconds = number(o, "waited_seconds", 0);
	p->slow_below = number(o, "slow_below", 0);
	if (!(p->best > 0))
		p->points = 0;
	read_per_point(at(o, "point_gbps"), &p->point_gbps, &p->npoint_gbps);
	/* never below the best: an edited file makes no point less noisy than its own run judged it */
	p->judged_against = number(o, "judged_against_gbps", 0);
	if (!(p->judged_against > p->best) || !isfinite(p->judged_against))
		p->judged_against = p->best;
}

/* The speed history's figures (harness speed_history_json); runs 0 when absent, not kept, or without a
   positive finite best. */
static void read_speed_history(json_t *o, struct machine_speed_history *h)
{
	h->machine_best = number(o, "machine_best_gbps", 0);
	h->runs = (int)json_array_size(at(o, "runs"));
	text(o, "file", h->file, sizeof h->file);
	text(o, "not_kept", h->not_kept, sizeof h->not_kept);
	if (!(h->machine_best > 0) || !isfinite(h->machine_best))
		h->runs = 0;
	if (!h->runs)
		h->machine_best = 0;
}

/* The last-level check's figures (harness level_check_json); points 0 when absent. */
static void read_level_check(json_t *o, struct machine_level_check *c)
{
	text(o, "level", c->level, sizeof c->level);
	c->points = count(o, "points", 0, 0);
	c->past = count(o, "points_past", 0, 0);
	c->bursts = count(o, "points_burst", 0, 0);
	c->past_ns = number(o, "past_ns", 0);
	c->by_probe = !strcmp(json_string_value(json_object_get(o, "past_by")) ?: "", "level probe");
	c->worst_ns = number(o, "worst_ns", 0);
	c->worst_bytes = count_ll(o, "worst_bytes", 0, 0);
}

/* The path probe's figures (harness path_probe_json); points 0 when absent, with fewer than two threads or
   without a positive ratio (and then no ratio per point either, nor without shared_below, which judges
   them); an edited points_shared above the points counts as every point. */
static void read_path_probe(json_t *o, struct machine_path_probe *p)
{
	text(o, "kernel", p->kernel, sizeof p->kernel);
	p->bytes = count_ll(o, "bytes", 0, 0);
	p->threads = count(o, "threads", 0, 0);
	p->points = count(o, "points", 0, 0);
	p->points_shared = count(o, "points_shared", 0, 0);
	p->shared_below = number(o, "shared_below", 0);
	p->ratio_best = number(o, "ratio_best", 0);
	p->ratio_median = number(o, "ratio_median", 0);
	p->ratio_p10 = number(o, "ratio_p10", 0);
	p->gbps_one_best = number(o, "gbps_one_best", 0);
	p->gbps_best = number(o, "gbps_best", 0);
	if (!(p->ratio_best > 0) || p->threads < 2)
		p->points = 0;
	if (p->points_shared > p->points)
		p->points_shared = p->points;
	if (p->points && p->shared_below > 0)
		read_per_point(at(o, "point_ratio"), &p->point_ratio, &p->npoint_ratio);
}

/* The revisits' figures (harness run_job.c record_disturbance); asked 0 when absent. */
static void read_revisits(json_t *o, struct machine_revisits *r)
{
	r->asked = count(o, "asked", 0, 0);
	r->rounds = count(o, "rounds", 0, 0);
	r->points = count(o, "points", 0, 0);
	r->seconds = number(o, "seconds", 0);
	r->apart_s = number(o, "apart_s", 0);
	r->rival = number(o, "rival", 0);
	text(o, "rivals_left_out", r->rivals_left_out, sizeof r->rivals_left_out);
	text(o, "why_fewer", r->why_fewer, sizeof r->why_fewer);
}

/* The run's clock samples by why they were rejected (harness run_job.c clock_tally_json); taken -1 when
   absent, or where a count is missing or the rejected exceed the taken. */
static void read_clock_samples(json_t *o, struct machine_points *p)
{
	int whole = 1;

	p->clock_taken = count_ll(o, "taken", -1, 0);
	p->reps_without_clock = count_ll(o, "repetitions_without_clock", -1, 0);
	for (int k = 0; k < CLOCK_REJECTS; k++) {
		p->clock_rejected_by[k] = count_ll(o, clock_reject_name((enum clock_reject)k), -1, 0);
		whole &= p->clock_rejected_by[k] >= 0;
	}
	if (!whole || p->reps_without_clock < 0 || machine_clock_rejected(p) > p->clock_taken)
		p->clock_taken = -1;
}

/* The points' and repetitions' counts (harness run_job.c tally_points); measured 0 when absent, or where a
   part exceeds its whole or a count or the part past is missing, which no run writes. Repetitions 0 are a
   run of fresh-memory points alone, none of which are judged (record_judged). */
static void read_points(json_t *o, struct machine_points *p)
{
	p->measured = count_ll(o, "measured", 0, 0);
	p->reps = count_ll(o, "repetitions", -1, 0);
	p->reps_disturbed = count_ll(o, "repetitions_disturbed", -1, 0);
	p->past = number(o, "disturbed_past", 0);
	p->reps_by_chains = count_ll(o, "repetitions_by_chains", 0, 0);
	read_clock_samples(at(o, "clock_samples"), p);
	if (p->reps < 0 || p->reps_disturbed < 0 || p->reps_disturbed > p->reps ||
	    !(p->past > 0 && p->past < 1))
		*p = (struct machine_points){.clock_taken = -1};
}

/* The cgroup's quota and throttling (harness cpu_limit_json); cgroup "" when absent. */
static void read_cpu_limit(json_t *o, struct machine_cpu_limit *c)
{
	json_t *l;
	size_t i;

	text(o, "cgroup", c->cgroup, sizeof c->cgroup);
	c->cpus = number(o, "cpus", 0);
	c->period_us = count_ll(o, "period_us", 0, 0);
	c->periods = count_ll(o, "periods", -1, -1);
	c->throttled = count_ll(o, "throttled_periods", -1, -1);
	c->throttled_s = number(o, "throttled_seconds", 0);
	json_array_foreach(json_object_get(o, "limits"), i, l)
	{
		long long stops = count_ll(l, "throttled_periods", -1, -1);
		char cgroup[sizeof c->parent.cgroup];

		text(l, "cgroup", cgroup, sizeof cgroup);
		if (!strcmp(cgroup, c->cgroup) || stops <= 0 || stops <= c->parent.throttled)
			continue;
		snprintf(c->parent.cgroup, sizeof c->parent.cgroup, "%s", cgroup);
		c->parent.cpus = number(l, "cpus", 0);
		c->parent.periods = count_ll(l, "periods", -1, -1);
		c->parent.throttled = stops;
		c->parent.throttled_s = number(l, "throttled_seconds", 0);
	}
}

static void read_caches(json_t *caches, struct machine *m)
{
	json_t *c;
	size_t i;

	json_array_foreach(caches, i, c)
	{
		struct machine_cache *mc = &m->caches[m->ncaches];
		json_t *inclusive = json_object_get(c, "inclusive");
		if (m->ncaches == sizeof m->caches / sizeof m->caches[0])
			break;
		mc->level = count(c, "level", 0, 0);
		text(c, "type", mc->type, sizeof mc->type);
		mc->size = number(c, "size", 0);
		if (mc->level >= 1 && mc->level <= MACHINE_NCACHE && json_is_boolean(inclusive))
			m->inclusion[mc->level - 1] = json_is_true(inclusive) ? LEVEL_INCLUSIVE
									      : LEVEL_NOT_INCLUSIVE;
		m->ncaches++;
	}
}

/* counters.availability (older results had its members in counters itself). */
static void read_availability(json_t *ctr, struct machine *m)
{
	json_t *avail = json_is_object(json_object_get(ctr, "availability"))
		? json_object_get(ctr, "availability")
		: ctr;
	json_t *hw = json_object_get(avail, "hardware"), *c;
	size_t i;

	m->hardware = json_is_boolean(hw) ? json_is_true(hw) : -1;
	text(avail, "reason", m->counters_reason, sizeof m->counters_reason);
	json_array_foreach(at(avail, "papi.components"), i, c)
	{
		if (strcmp(json_string_value(json_object_get(c, "name")) ?: "", "perf_event"))
			continue;
		m->npapi_pmus = texts(json_object_get(c, "pmus"), m->papi_pmus[0], sizeof m->papi_pmus[0],
				      MACHINE_NTEXT);
	}
}

/* A port limit per core cycle, 0 (not judged) where absent or past what any core has (most: KERN_MAX_*), as
   the config reader refuses it. */
static double port_read(json_t *ports, const char *key, double most)
{
	double v = number(ports, key, 0);

	return v > 0 && v <= most ? v : 0;
}

/* config.ports (runs before it have none: no point's clock is judged by them). */
static void read_ports(json_t *ports, struct kern_ports *p)
{
#define PORT_READ(field, key, most, one, many) p->field = port_read(ports, key, most);
	KERN_PORTS_FIELDS(PORT_READ)
#undef PORT_READ
}

static void read_run(json_t *root, struct machine *m)
{
	json_t *pf = json_object_get(root, "prefetch");

	text(root, "host", m->host, sizeof m->host);
	text(root, "started_utc", m->started, sizeof m->started);
	text(root, "finished_utc", m->finished, sizeof m->finished);
	text(root, "command", m->command, sizeof m->command);
	text(root, "pmucheck", m->version, sizeof m->version);
	text(root, "config.arch", m->arch, sizeof m->arch);
	text(root, "config.path", m->config_path, sizeof m->config_path);
	text(root, "cpu.model_name", m->cpu, sizeof m->cpu);
	text(root, "cpu.vendor", m->vendor, sizeof m->vendor);
	text(root, "cpu.microcode", m->microcode, sizeof m->microcode);
	m->family = count(root, "cpu.family", -1, -1);
	m->model = count(root, "cpu.model", -1, -1);
	m->stepping = count(root, "cpu.stepping", -1, -1);
	text(root, "os.kernel", m->kernel, sizeof m->kernel);
	text(root, "os.thp", m->thp, sizeof m->thp);
	text(root, "os.governor", m->governor, sizeof m->governor);
	text(root, "os.smt", m->smt, sizeof m->smt);
	m->mem_total_kib = count_ll(root, "os.mem_total_kib", -1, -1);
	m->sockets = count(root, "topology.sockets", 0, 0);
	m->cores = count(root, "topology.cores", 0, 0);
	m->pus = count(root, "topology.pus", 0, 0);
	m->numa_nodes = count(root, "topology.numa_nodes", 0, 0);
	read_caches(at(root, "topology.caches"), m);
	/* a clock no core has (raw.csv's core_ghz is refused past THR_MAX_GHZ) would scale every cycles
	   figure and the too-fast judgement: none */
	m->core_ghz = number(root, "clock.core_ghz", 0);
	read_ports(at(root, "config.ports"), &m->ports);
	m->tsc_hz = number(root, "clock.tsc_hz", 0);
	m->tsc_hz_end = number(root, "clock.tsc_hz_end", 0);
	m->max_ghz = number(root, "clock.bounds.max_ghz", 0);
	text(root, "clock.bounds.max_source", m->max_source, sizeof m->max_source);
	text(root, "clock.bounds.max_from", m->max_from, sizeof m->max_from);
	/* runs before the per-repetition clock say nothing of it */
	m->aperf_known = json_is_string(at(root, "clock.repetition_clock_method"));
	text(root, "clock.aperf_mperf", m->aperf_not_used, sizeof m->aperf_not_used);
	if (!(m->core_ghz >= THR_MIN_GHZ && m->core_ghz <= THR_MAX_GHZ))
		m->core_ghz = 0;
	m->steal_percent = number(root, "disturbance.steal_percent", -1);
	m->steal_cpus = count_ll(root, "disturbance.steal_cpus", 0, 0);
	m->runnable_before = count_ll(root, "disturbance.runnable_before", -1, -1);
	m->runnable_after = count_ll(root, "disturbance.runnable_after", -1, -1);
	m->others_runnable_before = count_ll(root, "disturbance.others_runnable_before", -1, 0);
	m->others_runnable_after = count_ll(root, "disturbance.others_runnable_after", -1, 0);
	m->cpu_pressure_percent = number(root, "disturbance.cpu_pressure_percent", -1);
	read_cpu_limit(at(root, "disturbance.cpu_limit"), &m->cpu_limit);
	read_probe(at(root, "disturbance.speed_probe"), &m->speed);
	read_probe(at(root, "disturbance.memory_probe"), &m->memory);
	read_probe(at(root, "disturbance.memory_probe_threads"), &m->memory_all);
	read_probe(at(root, "disturbance.speed_probe_threads"), &m->speed_all);
	read_speed_history(at(root, "disturbance.speed_history"), &m->speed_history);
	read_level_check(at(root, "disturbance.level_check"), &m->llc);
	read_revisits(at(root, "disturbance.revisits"), &m->revisits);
	read_points(at(root, "disturbance.points"), &m->points);
	read_path_probe(at(root, "disturbance.path_probe"), &m->path);
	m->prefetch_control = json_is_true(json_object_get(pf, "control"));
	text(pf, "reason", m->prefetch_reason, sizeof m->prefetch_reason);
	text(pf, "skipped", m->prefetch_skipped, sizeof m->prefetch_skipped);
	text(pf, "left_running", m->prefetch_left_running, sizeof m->prefetch_left_running);
	prefetch_values(json_string_value(json_object_get(pf, "before")), m->prefetch_before,
			sizeof m->prefetch_before);
	text(root, "preset.name", m->preset, sizeof m->preset);
	m->nreferences = texts(at(root, "preset.reference"), m->references[0], sizeof m->references[0],
			       MACHINE_NTEXT);
	read_availability(json_object_get(root, "counters"), m);
}

int machine_read(const char *path, struct machine *m, struct err *e)
{
	json_t *root;
	int rc;

	memset(m, 0, sizeof *m);
	if ((rc = machine_json_load(path, &root, e)))
		return rc;
	read_run(root, m);
	if (!(rc = read_levels(path, json_object_get(root, "levels"), m, e)))
		rc = read_hypotheses(path, at(root, "counters.experiments"), m, e);
	json_decref(root);
	if (rc)
		machine_free(m); /* what it read before the fault */
	return rc;
}

void machine_free(struct machine *m)
{
	struct machine_probe *probes[] = {&m->speed, &m->speed_all, &m->memory, &m->memory_all};

	for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
		free(probes[i]->point_gbps);
		probes[i]->point_gbps = NULL;
		probes[i]->npoint_gbps = 0;
	}
	free(m->path.point_ratio);
	m->path.point_ratio = NULL;
	m->path.npoint_ratio = 0;
	free(m->latency);
	free(m->hypo);
	m->latency = NULL;
	m->hypo = NULL;
	m->nlatency = m->nhypo = 0;
}

long long machine_clock_rejected(const struct machine_points *p)
{
	long long rejected = 0;

	for (int k = 0; k < CLOCK_REJECTS; k++)
		rejected += p->clock_rejected_by[k];
	return rejected;
}

const struct machine_hypo *machine_hypo_find(const struct machine *m, const char *event)
{
	for (unsigned i = 0; i < m->nhypo; i++)
		if (!strcmp(m->hypo[i].event, event))
			return &m->hypo[i];
	return NULL;
}
