/* speed_history.c — see speed_history.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "history_file.h"
#include "kern.h"
#include "noisy_why.h"
#include "speed_history.h"
#include "stats.h"
#include "sysinfo.h"

/* One run of the file: {"machine": text, "time": seconds, "gbps": a positive number}. -1 with why set. */
static int read_run(const json_t *o, int64_t *time, double *gbps, char *why, size_t len)
{
	const json_t *m = json_object_get(o, "machine"), *tm = json_object_get(o, "time"),
		     *g = json_object_get(o, "gbps");

	if (!json_is_string(m) || !json_is_integer(tm) || !json_is_number(g) || !(json_number_value(g) > 0) ||
	    !isfinite(json_number_value(g))) {
		snprintf(why, len, "not {\"machine\": text, \"time\": seconds, \"gbps\": a positive number}");
		return -1;
	}
	*time = json_integer_value(tm);
	*gbps = json_number_value(g);
	return 0;
}

static int older(const void *a, const void *b)
{
	int64_t x = ((const struct speed_run *)a)->time, y = ((const struct speed_run *)b)->time;

	return (x > y) - (x < y);
}

/* Keeps a run of this machine in h->seen: while it holds fewer than SPEED_HISTORY_KEEP, beside the others,
   else in place of the slowest where it is faster (of equal ones, the newer stays). */
static void keep_fastest(struct speed_history *h, int64_t time, double gbps)
{
	int slowest = 0;

	if (h->n < SPEED_HISTORY_KEEP) {
		h->seen[h->n].time = time;
		h->seen[h->n++].gbps = gbps;
		return;
	}
	for (int k = 1; k < h->n; k++)
		if (h->seen[k].gbps < h->seen[slowest].gbps)
			slowest = k;
	if (gbps >= h->seen[slowest].gbps) {
		h->seen[slowest].time = time;
		h->seen[slowest].gbps = gbps;
	}
}

/* Whether gbps is more than one core reads at h->ghz (kern_impossibly_fast): no speed of this machine. The
   file gives bytes only, not the loads that read them. */
static int impossible(const struct speed_history *h, double gbps)
{
	const struct kern_work read = {.bytes_loaded = gbps * 1e9};

	return kern_impossibly_fast(&read, 1, h->ghz, 1);
}

/* Reads the file into `keep` (other machines' runs in the window, as they were) and h->seen (this machine's
   fastest SPEED_HISTORY_KEEP in the window). A missing file is an empty history; -1 with h->why set, also
   for a run of this machine faster than a core can read (an edited file: one such run would mark every
   point of the day's runs slow). */
static int load(struct speed_history *h, int64_t now, json_t *keep)
{
	json_t *root = history_read(h->path, h->why, sizeof h->why), *runs, *o;
	size_t i;

	h->n = 0;
	if (!root)
		return h->why[0] ? -1 : 0;
	runs = json_object_get(root, "runs");
	if (!json_is_array(runs)) {
		snprintf(h->why, sizeof h->why, "%s: no \"runs\" list", h->path);
		json_decref(root);
		return -1;
	}
	json_array_foreach(runs, i, o)
	{
		char why[160];
		int64_t time;
		double gbps;
		if (read_run(o, &time, &gbps, why, sizeof why)) {
			snprintf(h->why, sizeof h->why, "%s: run %zu: %s", h->path, i + 1, why);
			json_decref(root);
			return -1;
		}
		if (!history_ours(o, time, now, SPEED_HISTORY_SECONDS, h->machine, keep))
			continue;
		if (impossible(h, gbps)) {
			snprintf(h->why, sizeof h->why,
				 "%s: run %zu: %.3g GB/s, more than one core reads at %.2f GHz", h->path,
				 i + 1, gbps, h->ghz);
			json_decref(root);
			return -1;
		}
		keep_fastest(h, time, gbps);
	}
	json_decref(root);
	return 0;
}

/* The (1 + n / SPEED_HISTORY_PASSED_OVER)-th fastest of h's runs; 0 without any. */
static double machine_best(const struct speed_history *h)
{
	double g[SPEED_HISTORY_KEEP];

	for (int k = 0; k < h->n; k++)
		g[k] = h->seen[k].gbps;
	stats_sort(g, (size_t)h->n);
	return h->n ? g[h->n - 1 - h->n / SPEED_HISTORY_PASSED_OVER] : 0;
}

void speed_history_read(struct speed_history *h, const char *sys_root, const struct topo *t, int cpu,
			const char *probe, uint64_t bytes, double ghz, int64_t now)
{
	char policy[256];
	json_t *keep;
	size_t used;

	memset(h, 0, sizeof *h);
	h->ghz = ghz;
	snprintf(h->path, sizeof h->path, "%s/%s", history_dir(), SPEED_HISTORY_FILE);
	if (!probe) {
		snprintf(h->why, sizeof h->why, "the run has no speed probe");
		return;
	}
	history_machine(t, cpu, HISTORY_BOOT_ID, h->machine, sizeof h->machine);
	used = strlen(h->machine);
	sysinfo_clock_policy(sys_root, cpu, policy, sizeof policy);
	snprintf(h->machine + used, sizeof h->machine - used, ", probe %s %llu bytes%s%s", probe,
		 (unsigned long long)bytes, policy[0] ? ", " : "", policy);
	keep = json_array(); /* other machines' runs: read only to be written back, which add does */
	if (load(h, now, keep))
		h->n = 0;
	qsort(h->seen, (size_t)h->n, sizeof h->seen[0], older);
	h->machine_best = machine_best(h);
	json_decref(keep);
}

double speed_history_against(const struct speed_history *h, double run_best)
{
	return h->machine_best > run_best ? h->machine_best : run_best;
}

int speed_history_slow_run(const struct speed_history *h, double run_best)
{
	return noisy_why_slow(run_best, h->machine_best);
}

/* Writes the kept runs and this machine's back (history_write), this machine's oldest first. */
static int save(struct speed_history *h, json_t *keep)
{
	json_t *runs = json_copy(keep), *root;
	int r;

	qsort(h->seen, (size_t)h->n, sizeof h->seen[0], older);
	for (int k = 0; k < h->n; k++)
		json_array_append_new(runs,
				      json_pack("{s:s, s:I, s:f}", "machine", h->machine, "time",
						(json_int_t)h->seen[k].time, "gbps", h->seen[k].gbps));
	root = json_pack("{s:o}", "runs", runs);
	r = history_write(h->path, root, h->unsaved, sizeof h->unsaved);
	json_decref(root);
	return r;
}

void speed_history_add(struct speed_history *h, double run_best, int64_t now)
{
	struct speed_history now_h = *h;
	json_t *keep;
	int lock;

	/* a history not read is left as it was: what it holds is not this run's to overwrite */
	if (h->why[0] || !(run_best > 0))
		return;
	if (impossible(h, run_best)) {
		snprintf(h->unsaved, sizeof h->unsaved,
			 "its best, %.3g GB/s, is more than one core reads at %.2f GHz", run_best, h->ghz);
		return;
	}
	keep = json_array();
	lock = history_lock(now_h.why, sizeof now_h.why);
	if (!now_h.why[0] && load(&now_h, now, keep) == 0) {
		keep_fastest(&now_h, now, run_best);
		save(&now_h, keep);
		snprintf(h->unsaved, sizeof h->unsaved, "%s", now_h.unsaved);
	} else
		snprintf(h->unsaved, sizeof h->unsaved, "%s", now_h.why);
	if (lock >= 0)
		close(lock);
	json_decref(keep);
}

json_t *speed_history_json(const struct speed_history *h)
{
	json_t *runs, *o;

	if (h->why[0])
		return json_pack("{s:s, s:s}", "file", h->path, "not_kept", h->why);
	runs = json_array();
	for (int k = 0; k < h->n; k++)
		json_array_append_new(runs,
				      json_pack("{s:I, s:f}", "time", (json_int_t)h->seen[k].time, "gbps",
						h->seen[k].gbps));
	o = json_pack("{s:s, s:s, s:o, s:o}", "file", h->path, "machine", h->machine, "runs", runs,
		      "machine_best_gbps", h->machine_best > 0 ? json_real(h->machine_best) : json_null());
	if (h->unsaved[0])
		json_object_set_new(o, "not_added", json_string(h->unsaved));
	return o;
}
