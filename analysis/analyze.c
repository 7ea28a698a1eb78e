/* analyze.c — the analysis pipeline: read, aggregate, judge every event, compute peaks and stalls,
 * then write all tables at once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "out.h"
#include "out_discovered.h"

/* Table order: verdict class (exact first), then event name. */
static const struct verdict *sort_base;
static const struct agg *sort_agg;

static int cmp_order(const void *x, const void *y)
{
	const struct verdict *a = &sort_base[*(const uint32_t *)x], *b = &sort_base[*(const uint32_t *)y];

	if (a->cls != b->cls)
		return (int)a->cls - (int)b->cls;
	return strcmp(sort_agg->events[a->event].name, sort_agg->events[b->event].name);
}

static int write_all(const char *dir, const json_t *cands, const struct agg *a, const struct verdict *v,
		     const uint32_t *order, const struct peak_table *peaks, const struct stall_row *st,
		     unsigned nst, unsigned *nbox, struct err *e)
{
	static const char *const optional[] = {"stalls.md", "boxes.csv", "boxes.md"};
	struct fileset o = {.dir = dir};
	char path[PATH_MAX];
	int rc;

	*nbox = 0;
	if ((rc = out_events(&o, a, v, order, e)) || (rc = out_peaks(&o, a, v, peaks, e)) ||
	    (rc = out_stalls(&o, a, st, nst, e)) || (rc = out_boxes(&o, a, nbox, e)) ||
	    (rc = out_discovered(&o, dir, cands, a, v, order, e)) || (rc = fileset_commit(&o, e))) {
		fileset_abort(&o);
		return rc;
	}
	/* a stalls.md or boxes table of an earlier analysis would now contradict the new tables */
	for (unsigned i = 0; i < sizeof optional / sizeof *optional; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, optional[i]);
		if (!(i ? *nbox : nst) && unlink(path) && errno != ENOENT)
			return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	}
	return 0;
}

int analyze_dir(const char *dir, struct analyze_summary *sum, struct err *e)
{
	struct agg a = {0};
	struct verdict *v = NULL;
	uint32_t *order = NULL;
	struct peak_table peaks = {0};
	struct stall_row *st = NULL;
	json_t *cands = NULL;
	unsigned nst = 0, nbox = 0;
	char path[PATH_MAX];
	struct stat sb;
	int rc;

	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
		return err_set(e, E_USAGE, "%s: not a results directory", dir);
	snprintf(path, sizeof path, "%s/machine.json", dir);
	if ((rc = machine_read(path, &a.m, e)))
		return rc;
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	if ((rc = agg_read(&a, path, e)) || (rc = out_discovered_read(dir, &cands, e)))
		goto out;
	/* A finished run's raw.csv of the header alone was cut by hand: tables of nothing would replace the
	   directory's analysis. A stopped run (PARTIAL) may have no whole point yet, and says so in them. */
	if (!a.npoints && !a.partial) {
		rc = err_set(e, E_USAGE, "%s: the header alone, no measurement to analyze", path);
		goto out;
	}
	v = calloc(a.nevents + 1, sizeof *v);
	order = calloc(a.nevents + 1, sizeof *order);
	if (!v || !order) {
		rc = err_set(e, E_RUNTIME, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < a.nevents; i++) {
		if ((rc = verdict_event(&a, i, &v[i], e)))
			goto out;
		order[i] = i;
	}
	sort_base = v;
	sort_agg = &a;
	qsort(order, a.nevents, sizeof *order, cmp_order);
	if (peak_compute(&a, v, &peaks) || stall_compute(&a, &st, &nst)) {
		rc = err_set(e, E_RUNTIME, "out of memory");
		goto out;
	}
	if ((rc = write_all(dir, cands, &a, v, order, &peaks, st, nst, &nbox, e)))
		goto out;
	if (sum) {
		memset(sum, 0, sizeof *sum);
		sum->rows = a.rows;
		sum->points = a.npoints;
		sum->events = a.nevents;
		sum->stall_rows = nst;
		sum->torn = a.torn;
		sum->box_rows = nbox;
		for (uint32_t i = 0; i < a.nevents; i++)
			sum->classes[v[i].cls]++;
	}
out:
	json_decref(cands);
	peak_table_free(&peaks);
	free(st);
	free(order);
	free(v);
	agg_free(&a);
	return rc;
}
