/* agg.c — folds raw rows into per-point and per-(point, event) aggregates while streaming. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"

static int grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, (size_t)c * size);
	if (!q)
		return -1;
	memset((char *)q + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
	*p = q;
	*cap = c;
	return 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* Open addressing with linear probing; tables stay at most half full. */
static int rehash(uint32_t **table, uint32_t *size, uint32_t n, uint64_t (*key)(struct agg *, uint32_t),
		  struct agg *a)
{
	uint32_t nsize = *size ? *size * 2 : 1024;
	uint32_t *t = calloc(nsize, sizeof *t);

	if (!t)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t h = (uint32_t)key(a, i) & (nsize - 1);
		while (t[h])
			h = (h + 1) & (nsize - 1);
		t[h] = i + 1;
	}
	free(*table);
	*table = t;
	*size = nsize;
	return 0;
}

static uint64_t event_key(struct agg *a, uint32_t i)
{
	return hash_str(a->events[i].name);
}

static uint64_t cell_key(struct agg *a, uint32_t i)
{
	return hash_u64((uint64_t)a->cells[i].point << 32 | a->cells[i].event);
}

static char *dup(const char *s)
{
	return strdup(s ? s : "");
}

static int find_event(struct agg *a, const struct raw_row *row, uint32_t *out)
{
	uint32_t h, mask;
	struct agg_event *ev;

	if (a->event_hash_size) {
		mask = a->event_hash_size - 1;
		for (h = (uint32_t)hash_str(row->event) & mask; a->event_hash[h]; h = (h + 1) & mask)
			if (strcmp(a->events[a->event_hash[h] - 1].name, row->event) == 0) {
				*out = a->event_hash[h] - 1;
				return 0;
			}
	}
	if (grow((void **)&a->events, &a->events_cap, a->nevents + 1, sizeof *a->events))
		return -1;
	ev = &a->events[a->nevents];
	ev->name = dup(row->event);
	ev->backend = dup(row->backend);
	ev->encoding = dup(row->encoding);
	ev->scope = dup(row->scope);
	if (!ev->name || !ev->backend || !ev->encoding || !ev->scope)
		return -1;
	*out = a->nevents++;
	if (2 * a->nevents > a->event_hash_size)
		return rehash(&a->event_hash, &a->event_hash_size, a->nevents, event_key, a);
	mask = a->event_hash_size - 1;
	for (h = (uint32_t)hash_str(ev->name) & mask; a->event_hash[h]; h = (h + 1) & mask)
		;
	a->event_hash[h] = *out + 1;
	return 0;
}

static int find_cell(struct agg *a, uint32_t point, uint32_t event, struct agg_cell **out)
{
	uint64_t k = (uint64_t)point << 32 | event;
	uint32_t h, mask, idx;
	struct agg_event *ev = &a->events[event];

	if (a->cell_hash_size) {
		mask = a->cell_hash_size - 1;
		for (h = (uint32_t)hash_u64(k) & mask; a->cell_hash[h]; h = (h + 1) & mask) {
			struct agg_cell *c = &a->cells[a->cell_hash[h] - 1];
			if (c->point == point && c->event == event) {
				*out = c;
				return 0;
			}
		}
	}
	if (grow((void **)&a->cells, &a->cells_cap, a->ncells + 1, sizeof *a->cells) ||
	    grow((void **)&ev->cells, &ev->cap, ev->ncells + 1, sizeof *ev->cells))
		return -1;
	idx = a->ncells++;
	a->cells[idx].point = point;
	a->cells[idx].event = event;
	ev->cells[ev->ncells++] = idx;
	*out = &a->cells[idx];
	if (2 * a->ncells > a->cell_hash_size)
		return rehash(&a->cell_hash, &a->cell_hash_size, a->ncells, cell_key, a);
	mask = a->cell_hash_size - 1;
	for (h = (uint32_t)hash_u64(k) & mask; a->cell_hash[h]; h = (h + 1) & mask)
		;
	a->cell_hash[h] = idx + 1;
	return 0;
}

static int cell_add(struct agg_cell *c, double count, double seconds)
{
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 4;
		double *p = realloc(c->counts, cap * sizeof *p);
		if (!p)
			return -1;
		c->counts = p;
		c->cap = cap;
	}
	c->counts[c->n++] = count;
	if (seconds > 0 && count / seconds > c->max_rate)
		c->max_rate = count / seconds;
	return 0;
}

static void point_init(struct agg *a, struct agg_point *p, const struct raw_row *row)
{
	p->used = 1;
	snprintf(p->kernel, sizeof p->kernel, "%s", row->kernel);
	snprintf(p->variant, sizeof p->variant, "%s", row->variant);
	snprintf(p->placement, sizeof p->placement, "%s", row->placement);
	snprintf(p->prefetch, sizeof p->prefetch, "%s", row->prefetch);
	p->width = row->width;
	p->arg = row->arg;
	p->bytes = row->bytes;
	p->arrays = row->arrays;
	p->reps = row->reps;
	p->threads = row->threads;
	p->level = level_assign(&a->m, row);
	p->pf = level_prefetch(row->prefetch);
	memcpy(p->v, row->v, sizeof p->v);
	p->seconds = row->seconds;
	p->tsc = (double)row->tsc;
	p->core_ghz = row->core_ghz;
	p->first_line = row->line;
}

/* All rows of a point describe the same experiment; a row that disagrees means a corrupt file. */
static int point_same(const struct agg_point *p, const struct raw_row *row)
{
	return strcmp(p->variant, row->variant) == 0 && p->bytes == row->bytes &&
	       p->threads == row->threads && p->reps == row->reps && p->arg == row->arg &&
	       strcmp(p->prefetch, row->prefetch) == 0 && strcmp(p->placement, row->placement) == 0 &&
	       memcmp(p->v, row->v, sizeof p->v) == 0;
}

/* Largest point index accepted: the plan numbers points densely from 0. */
#define AGG_MAX_POINT 50000000

static int add_row(const struct raw_row *row, void *ctx, struct err *e)
{
	struct agg *a = ctx;
	struct agg_point *p;
	struct agg_cell *c;
	uint32_t ev;

	if (row->point > AGG_MAX_POINT)
		return err_set(e, E_USAGE, "%s:%lu: point %lld is out of range", a->path,
			       row->line, (long long)row->point);
	if (grow((void **)&a->points, &a->points_cap, (uint32_t)row->point + 1, sizeof *a->points))
		goto oom;
	if ((uint32_t)row->point >= a->npoints)
		a->npoints = (uint32_t)row->point + 1;
	p = &a->points[row->point];
	if (!p->used) {
		point_init(a, p, row);
	} else if (!point_same(p, row)) {
		return err_set(e, E_USAGE, "%s:%lu: point %lld has other parameters than on line %lu",
			       a->path, row->line, (long long)row->point, p->first_line);
	} else if (row->seconds < p->seconds) {
		p->seconds = row->seconds;
		p->tsc = (double)row->tsc;
	}
	if (strcmp(row->flag, "noisy") == 0)
		p->noisy = 1;
	if (!*row->event)
		return 0;
	if (find_event(a, row, &ev))
		goto oom;
	a->events[ev].rows[row->status]++;
	if (row->status != RS_OK) {
		char **r = &a->events[ev].reason[row->status];
		if (!*r && !(*r = dup(row->reason)))
			goto oom;
		return 0;
	}
	if (find_cell(a, (uint32_t)row->point, ev, &c) || cell_add(c, row->count, row->seconds))
		goto oom;
	return 0;
oom:
	return err_set(e, E_RUNTIME, "%s:%lu: out of memory", a->path, row->line);
}

int agg_read(struct agg *a, const char *raw_path, struct err *e)
{
	int rc;

	a->path = raw_path;
	rc = raw_read(raw_path, add_row, a, &a->rows, e);
	a->path = NULL;
	return rc;
}

void agg_free(struct agg *a)
{
	for (uint32_t i = 0; i < a->ncells; i++)
		free(a->cells[i].counts);
	for (uint32_t i = 0; i < a->nevents; i++) {
		struct agg_event *ev = &a->events[i];
		free(ev->name);
		free(ev->backend);
		free(ev->encoding);
		free(ev->scope);
		free(ev->cells);
		for (int s = 0; s < RS_COUNT; s++)
			free(ev->reason[s]);
	}
	free(a->points);
	free(a->events);
	free(a->cells);
	free(a->event_hash);
	free(a->cell_hash);
	memset(a, 0, sizeof *a);
}
