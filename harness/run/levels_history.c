/* levels_history.c — see levels_history.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_file.h"
#include "levels_history.h"

/* A probe's list of sizes, "sizes" or "taken" (name; each an item, so named in why): 1 to TOPO_MAX_LEVELS
   positive numbers of bytes. Returns their count, or -1 with why set. */
static int read_sizes(const json_t *a, const char *name, const char *item, uint64_t sizes[TOPO_MAX_LEVELS],
		      char *why, size_t len)
{
	const json_t *v;
	size_t i;

	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > TOPO_MAX_LEVELS) {
		snprintf(why, len, "\"%s\" is not a list of 1 to %d sizes", name, TOPO_MAX_LEVELS);
		return -1;
	}
	json_array_foreach(a, i, v)
	{
		json_int_t b = json_integer_value(v);
		if (!json_is_integer(v) || b <= 0) {
			snprintf(why, len, "%s %zu is not a positive number of bytes", item, i + 1);
			return -1;
		}
		sizes[i] = (uint64_t)b;
	}
	return (int)json_array_size(a);
}

/* Whether this machine's sizes fit t: one for each level, none above the reported one (levels_apply only ever
   measures a level shorter). Returns 0, or -1 with why set. */
static int fits(const uint64_t sizes[TOPO_MAX_LEVELS], int n, const char *name, const struct topo *t,
		char *why, size_t len)
{
	if (n != t->ncaches) {
		snprintf(why, len, "%d %s for this machine's %d levels", n, name, t->ncaches);
		return -1;
	}
	for (int l = 0; l < t->ncaches; l++)
		if (sizes[l] > t->caches[l].size) {
			snprintf(why, len, "%s: L%d %llu bytes, more than the %llu reported", name, l + 1,
				 (unsigned long long)sizes[l], (unsigned long long)t->caches[l].size);
			return -1;
		}
	return 0;
}

/* One probe of the file: {"machine": string, "time": seconds, "sizes": [bytes per level], "taken": [bytes
   per level]}, "taken" (the sizes its run took) absent from probes written before 2026-12-01 and from those
   of no run (taken all 0 then). Returns 0, or -1 with why set; a probe of this machine must fit it (fits). */
static int read_probe(const json_t *o, const struct levels_history *h, const struct topo *t, int64_t *time,
		      uint64_t sizes[TOPO_MAX_LEVELS], uint64_t taken[TOPO_MAX_LEVELS], char *why, size_t len)
{
	const json_t *m = json_object_get(o, "machine"), *tm = json_object_get(o, "time"),
		     *tk = json_object_get(o, "taken");
	int n, ntaken = 0;

	if (!json_is_string(m) || !json_is_integer(tm)) {
		snprintf(why, len, "not {\"machine\": text, \"time\": seconds, \"sizes\": [1 to %d sizes]}",
			 TOPO_MAX_LEVELS);
		return -1;
	}
	*time = json_integer_value(tm);
	memset(taken, 0, sizeof(uint64_t) * TOPO_MAX_LEVELS);
	n = read_sizes(json_object_get(o, "sizes"), "sizes", "size", sizes, why, len);
	if (n < 0 || (tk && (ntaken = read_sizes(tk, "taken", "taken size", taken, why, len)) < 0))
		return -1;
	if (strcmp(json_string_value(m), h->machine))
		return 0;
	if (fits(sizes, n, "sizes", t, why, len) || (tk && fits(taken, ntaken, "taken", t, why, len)))
		return -1;
	return 0;
}

/* Reads the file into `keep` (other machines' probes in the window, as they were) and h->seen (this machine's
   newest LEVELS_HISTORY_KEEP - 1 in the window, oldest first, so that the new one fits). A missing file is an
   empty history. */
static int load(struct levels_history *h, const struct topo *t, int64_t now, json_t *keep)
{
	json_t *root, *probes, *o;
	size_t i;

	root = history_read(h->path, h->why, sizeof h->why);
	if (!root)
		return h->why[0] ? -1 : 0;
	probes = json_object_get(root, "probes");
	if (!json_is_array(probes)) {
		snprintf(h->why, sizeof h->why, "%s: no \"probes\" list", h->path);
		json_decref(root);
		return -1;
	}
	json_array_foreach(probes, i, o)
	{
		uint64_t sizes[TOPO_MAX_LEVELS], taken[TOPO_MAX_LEVELS];
		int64_t time;
		char why[160];
		if (read_probe(o, h, t, &time, sizes, taken, why, sizeof why) < 0) {
			snprintf(h->why, sizeof h->why, "%s: probe %zu: %s", h->path, i + 1, why);
			json_decref(root);
			return -1;
		}
		if (!history_ours(o, time, now, LEVELS_HISTORY_SECONDS, h->machine, keep))
			continue;
		/* the file lists a machine's probes oldest first (save): past the last place, the oldest goes */
		if (h->n == LEVELS_HISTORY_KEEP - 1) {
			memmove(&h->seen[0], &h->seen[1], sizeof h->seen[0] * (size_t)(h->n - 1));
			h->n--;
		}
		h->seen[h->n].time = time;
		memcpy(h->seen[h->n].size, sizes, sizeof sizes);
		memcpy(h->seen[h->n].taken, taken, sizeof taken);
		h->n++;
	}
	/* the newest of them is the last run's that added its probe */
	if (h->n)
		memcpy(h->last, h->seen[h->n - 1].taken, sizeof h->last);
	json_decref(root);
	return 0;
}

/* A list of one size per level. */
static json_t *sizes_json(const struct levels_history *h, const uint64_t size[TOPO_MAX_LEVELS])
{
	json_t *a = json_array();

	for (int l = 0; l < h->nlevels; l++)
		json_array_append_new(a, json_integer((json_int_t)size[l]));
	return a;
}

/* Probe k of this machine: {"time", "sizes", "taken"}, "taken" where its run recorded it. */
static json_t *probe_json(const struct levels_history *h, int k)
{
	json_t *o = json_pack("{s:I, s:o}", "time", (json_int_t)h->seen[k].time, "sizes",
			      sizes_json(h, h->seen[k].size));

	if (h->seen[k].taken[0])
		json_object_set_new(o, "taken", sizes_json(h, h->seen[k].taken));
	return o;
}

/* Writes the kept probes and this machine's back (history_write). */
static int save(struct levels_history *h, json_t *keep)
{
	json_t *probes = json_copy(keep), *root;
	int r;

	for (int k = 0; k < h->n; k++) {
		/* the machine first, as the file has always listed it */
		json_t *o = json_pack("{s:s}", "machine", h->machine), *one = probe_json(h, k);
		json_object_update(o, one);
		json_decref(one);
		json_array_append_new(probes, o);
	}
	root = json_pack("{s:o}", "probes", probes);
	r = history_write(h->path, root, h->unsaved, sizeof h->unsaved);
	json_decref(root);
	return r;
}

/* This probe's end of level l, as the history line names it: "5792 KiB", or "no end" where it kept the reported
   size. */
static const char *own_end(const struct levels_history *h, const struct topo *t, int l)
{
	static char buf[32];

	if (h->own[l] == t->caches[l].size)
		return "no end";
	snprintf(buf, sizeof buf, "%llu KiB", (unsigned long long)(h->own[l] >> 10));
	return buf;
}

/* Whether the machine was busy while the probe ran (BUSY_PERCENT), why said in why. */
static int busy(const struct levels_probe *p, char *why, size_t len)
{
	double steal = p->sampled ? disturb_steal_percent(&p->before, &p->after) : -1,
	       pressure = p->sampled ? disturb_pressure_percent(&p->before, &p->after) : -1;
	char st[16] = "unknown", pr[16] = "unknown";

	if (steal < BUSY_PERCENT && pressure < BUSY_PERCENT)
		return 0;
	if (steal >= 0)
		snprintf(st, sizeof st, "%.1f %%", steal);
	if (pressure >= 0)
		snprintf(pr, sizeof pr, "%.1f %%", pressure);
	snprintf(why, len,
		 "the machine was busy while it ran: CPU time stolen %s, some task waiting for a CPU %s of "
		 "the time; from %.0f %% of either, other work may have held part of the caches",
		 st, pr, BUSY_PERCENT);
	return 1;
}

/* h for this machine's history file, nothing read yet. */
static void start(struct levels_history *h, const struct topo *t, int cpu)
{
	memset(h, 0, sizeof *h);
	snprintf(h->path, sizeof h->path, "%s/%s", history_dir(), LEVELS_HISTORY_FILE);
	history_machine(t, cpu, HISTORY_BOOT_ID, h->machine, sizeof h->machine);
	h->nlevels = t->ncaches;
}

/* Level l's size over h's probes (levels_history.h), in h->taken: the size at its rank, or, where larger, the
   one the last run took while it stays (h->held); h->ranked the size at the rank. */
static void take(struct levels_history *h, int l)
{
	uint64_t size[LEVELS_HISTORY_KEEP];
	int shorter = 0;

	for (int k = 0; k < h->n; k++) {
		size[k] = h->seen[k].size[l];
		shorter += size[k] < h->last[l];
	}
	h->ranked[l] = levels_kth_smallest(size, h->n, 1 + h->n / LEVELS_HISTORY_PASSED_OVER);
	h->held[l] = h->last[l] > h->ranked[l] && shorter <= h->n / LEVELS_HISTORY_HELD_WHILE;
	h->taken[l] = h->held[l] ? h->last[l] : h->ranked[l];
}

void levels_history_apply(struct levels_history *h, struct levels_probe *p, struct topo *t, int cpu,
			  int64_t now)
{
	json_t *keep = json_array();
	int lock;

	start(h, t, cpu);
	/* no level to take a size for: the probe already says every point is DRAM (levels.c) */
	if (!t->ncaches) {
		snprintf(h->why, sizeof h->why, "hwloc reports no cache level");
		json_decref(keep);
		return;
	}
	for (int l = 0; l < t->ncaches; l++)
		h->own[l] = h->taken[l] = t->caches[l].measured ? t->caches[l].measured : t->caches[l].size;
	/* two runs that read the file before either wrote it back would keep one of their probes */
	lock = history_lock(h->why, sizeof h->why);
	if (!h->why[0] && load(h, t, now, keep) == 0) {
		h->seen[h->n].time = now;
		memcpy(h->seen[h->n].size, h->own, sizeof h->own);
		h->n++;
		for (int l = 0; l < t->ncaches; l++)
			take(h, l);
		/* what this run takes, for the next to hold */
		memcpy(h->seen[h->n - 1].taken, h->taken, sizeof h->taken);
		/* a history this user may read but not write (root's, in /var/lib/pmucheck) still counts */
		if (busy(p, h->unsaved, sizeof h->unsaved) || save(h, keep))
			levels_disagree(p, "this level probe is not added to the history (%s)", h->unsaved);
	}
	if (lock >= 0)
		close(lock);
	json_decref(keep);
	if (h->why[0]) {
		h->n = 0;
		levels_disagree(
			p, "no history of the level probe kept (%s), so the run takes this probe's sizes",
			h->why);
		return;
	}
	for (int l = 0; l < t->ncaches; l++) {
		uint64_t size[LEVELS_HISTORY_KEEP], each[LEVELS_HISTORY_KEEP];
		char list[LEVELS_HISTORY_KEEP * 24], takes[224];
		int shorter = 0;
		size_t len;
		for (int k = 0; k < h->n; k++)
			size[k] = h->seen[k].size[l];
		/* a probe that kept the reported size found no end: listed as "none", as a sweep is */
		for (int k = 0; k < h->n; k++)
			each[k] = size[k] == t->caches[l].size ? 0 : size[k];
		if (h->taken[l] == h->own[l])
			continue;
		/* the reported size taken is no level measured short */
		t->caches[l].measured = h->taken[l] == t->caches[l].size ? 0 : h->taken[l];
		for (int k = 0; k < h->n; k++)
			shorter += size[k] < h->taken[l];
		levels_list_sizes(each, h->n, list, sizeof list);
		/* the reported size is "none" in the list: said as such here too */
		len = (size_t)snprintf(takes, sizeof takes, "%s%s%llu KiB", shorter ? "" : "the smallest, ",
				       h->taken[l] == t->caches[l].size ? "no end, the reported " : "",
				       (unsigned long long)(h->taken[l] >> 10));
		if (!shorter)
			snprintf(takes + len, sizeof takes - len, ", which each of them kept");
		else if (h->held[l])
			snprintf(takes + len, sizeof takes - len,
				 ", the last run's, which all but %d kept: it stays while no more than "
				 "one in %d is shorter (at the rank, one in %d passed over: %llu KiB)",
				 shorter, LEVELS_HISTORY_HELD_WHILE, LEVELS_HISTORY_PASSED_OVER,
				 (unsigned long long)(h->ranked[l] >> 10));
		else
			snprintf(takes + len, sizeof takes - len,
				 ", which all but %d of them kept: one probe in %d is passed over as one a "
				 "disturbed machine may have ended short",
				 shorter, LEVELS_HISTORY_PASSED_OVER);
		levels_disagree(
			p,
			"the last %d level probes on this machine ended L%d at %s; the run takes %s (this "
			"probe alone: %s; history %s)",
			h->n, l + 1, list, takes, own_end(h, t, l), h->path);
	}
}

void levels_history_preview(struct levels_history *h, struct topo *t, int cpu, int64_t now)
{
	json_t *keep = json_array();

	start(h, t, cpu);
	if (t->ncaches && load(h, t, now, keep) == 0)
		for (int l = 0; l < t->ncaches && h->n; l++) {
			take(h, l);
			t->caches[l].measured = h->taken[l] < t->caches[l].size ? h->taken[l] : 0;
		}
	else
		h->n = 0;
	json_decref(keep);
}

json_t *levels_history_json(const struct levels_history *h)
{
	json_t *probes, *o;

	if (h->why[0])
		return json_pack("{s:s, s:s}", "file", h->path, "not_kept", h->why);
	probes = json_array();
	for (int k = 0; k < h->n; k++)
		json_array_append_new(probes, probe_json(h, k));
	o = json_pack("{s:s, s:s, s:o}", "file", h->path, "machine", h->machine, "probes", probes);
	if (h->unsaved[0])
		json_object_set_new(o, "not_added", json_string(h->unsaved));
	return o;
}
