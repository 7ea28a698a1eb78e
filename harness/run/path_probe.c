/* path_probe.c — see path_probe.h. */
#include <stdlib.h>
#include <string.h>

#include "path_probe.h"
#include "stats.h"

int path_probe_point(const struct plan_point *pt)
{
	return pt->level == LEVEL_DRAM || (pt->var->flags & KV_NT);
}

int path_probe_init(struct path_probe *pp, int threads, double tsc_hz, struct err *e)
{
	memset(pp, 0, sizeof *pp);
	if (speed_probe_init(&pp->one, KP_PATH_PROBE, PATH_PROBE_BYTES, tsc_hz, e) ||
	    speed_probe_init_threads(&pp->all, KP_PATH_PROBE, PATH_PROBE_BYTES * (uint64_t)threads, tsc_hz,
				     threads, e)) {
		path_probe_free(pp);
		return E_RUNTIME;
	}
	return 0;
}

double path_probe_keep(struct path_probe *pp, double one_gbps, double all_gbps)
{
	double ratio = all_gbps / one_gbps;

	return stats_push(&pp->ratio, &pp->n, &pp->cap, ratio) ? 0 : ratio;
}

double path_probe_sample(struct path_probe *pp, int tid)
{
	int one = 0, all = 0; /* the master's */
	double kept = 0;

	/* The first time, the threads first-touch their slices and calibrate the passes in a sample of their
	   own, taken back: so no thread faults its pages in while the master times one thread's stores. The
	   master writes reps only between the barriers of a sample, so every thread reads the same here. */
	if (!pp->all.reps) {
		speed_probe_sample_threads(&pp->all, tid);
#pragma omp master
		speed_probe_drop_last(&pp->all);
#pragma omp barrier
	}
#pragma omp master
	{
		one = pp->one.n;
		all = pp->all.n;
		speed_probe_sample(&pp->one);
	}
	/* speed_probe_sample_threads has a barrier before its calls, behind which the master's sample ends */
	speed_probe_sample_threads(&pp->all, tid);
#pragma omp master
	if (pp->one.n > one && pp->all.n > all)
		kept = path_probe_keep(pp, pp->one.gbps[pp->one.n - 1], pp->all.gbps[pp->all.n - 1]);
#pragma omp barrier
	return kept;
}

struct path_probe_figures path_probe_figures(const struct path_probe *pp)
{
	struct stats_spread s = stats_spread(pp->ratio, (size_t)pp->n);
	struct path_probe_figures f = {(int)s.n, 0, s.best, s.median, s.p10};

	for (int i = 0; i < f.n; i++)
		f.shared += pp->ratio[i] < PATH_PROBE_SHARED * pp->all.threads;
	return f;
}

json_t *path_probe_json(const struct path_probe *pp)
{
	struct path_probe_figures f = path_probe_figures(pp);
	struct speed_probe_figures one = speed_probe_figures(&pp->one), all = speed_probe_figures(&pp->all);

	if (!f.n)
		return NULL;
	return json_pack("{s:s, s:I, s:i, s:i, s:f, s:f, s:f, s:i, s:f, s:f, s:f}", "kernel", pp->one.v->name,
			 "bytes", (json_int_t)pp->one.bytes, "threads", pp->all.threads, "points", f.n,
			 "ratio_best", f.best, "ratio_median", f.median, "ratio_p10", f.p10, "points_shared",
			 f.shared, "shared_below", PATH_PROBE_SHARED, "gbps_one_best", one.best, "gbps_best",
			 all.best);
}

void path_probe_free(struct path_probe *pp)
{
	speed_probe_free(&pp->one);
	speed_probe_free(&pp->all);
	free(pp->ratio);
	memset(pp, 0, sizeof *pp);
}
