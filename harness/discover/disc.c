/* disc.c — the candidate list: adding without duplicates, events given by name, candidates.json. */
#include <stdlib.h>
#include <string.h>

#include "disc.h"

const char *const disc_origin_names[DISC_ORIGINS] = {"sysfs", "libpfm4", "vendor", "given"};

/* FNV-1a: the list keeps an index of its specs, so thousands of candidates are checked for duplicates
   in linear time. */
static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int grow(struct disc_list *l, struct err *e)
{
	unsigned cap = l->cap ? 2 * l->cap : 256;
	struct disc_cand *c = realloc(l->c, cap * sizeof *c);

	if (!c)
		return err_set(e, E_RUNTIME, "out of memory");
	l->c = c;
	l->cap = cap;
	return 0;
}

/* Rebuilt at four times the candidates whenever they fill half of it. */
static int reindex(struct disc_list *l, struct err *e)
{
	unsigned size = 1024;

	if (l->index && l->index_size >= 2 * (l->n + 1))
		return 0;
	while (size < 4 * (l->n + 1))
		size *= 2;
	free(l->index);
	l->index = calloc(size, sizeof *l->index);
	if (!l->index)
		return err_set(e, E_RUNTIME, "out of memory");
	l->index_size = size;
	for (unsigned i = 0; i < l->n; i++) {
		unsigned h = hash(l->c[i].spec) & (size - 1);
		while (l->index[h])
			h = (h + 1) & (size - 1);
		l->index[h] = i + 1;
	}
	return 0;
}

int disc_add(struct disc_list *l, const struct disc_cand *c, struct err *e)
{
	unsigned h, mask;

	if (reindex(l, e))
		return E_RUNTIME;
	mask = l->index_size - 1;
	for (h = hash(c->spec) & mask; l->index[h]; h = (h + 1) & mask)
		if (!strcmp(l->c[l->index[h] - 1].spec, c->spec)) {
			/* given with --add-events as well as found: it stays, whatever the filters, as given
			   ones do (the sources are read first, and the given one was dropped as a repeat) */
			if (c->origin == DISC_GIVEN)
				l->c[l->index[h] - 1].origin = DISC_GIVEN;
			return 0;
		}
	if (l->n == l->cap && grow(l, e))
		return E_RUNTIME;
	l->c[l->n] = *c;
	l->index[h] = ++l->n;
	return 0;
}

void disc_free(struct disc_list *l)
{
	free(l->index);
	free(l->c);
	memset(l, 0, sizeof *l);
}

int disc_given(const char *list, struct disc_list *l, struct err *e)
{
	char **specs = NULL;
	unsigned n = 0;
	int rc = ctr_split_list(list, &specs, &n, e);

	for (unsigned i = 0; !rc && i < n; i++) {
		struct disc_cand c = {.origin = DISC_GIVEN, .scale = 1};
		const char *colons = strstr(specs[i], "::"), *slash = strchr(specs[i], '/');
		if (strlen(specs[i]) >= sizeof c.spec) {
			rc = err_set(e, E_USAGE, "--add-events: '%.40s...' is too long", specs[i]);
			break;
		}
		snprintf(c.spec, sizeof c.spec, "%s", specs[i]);
		snprintf(c.name, sizeof c.name, "%s", specs[i]);
		/* PMU: perf's before the '/', PAPI's before the "::", else the generic "perf" */
		if (slash)
			snprintf(c.pmu, sizeof c.pmu, "%.*s", (int)(slash - specs[i]), specs[i]);
		else if (colons)
			snprintf(c.pmu, sizeof c.pmu, "%.*s", (int)(colons - specs[i]), specs[i]);
		else
			snprintf(c.pmu, sizeof c.pmu, "perf");
		snprintf(c.source, sizeof c.source, "given with --add-events");
		rc = disc_add(l, &c, e);
	}
	free(specs);
	return rc;
}

json_t *disc_json(const struct disc_list *l, const struct disc_plan *p)
{
	json_t *cands = json_array(), *groups = json_array();

	for (unsigned i = 0; i < l->n; i++) {
		const struct disc_cand *c = &l->c[i];
		json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:f, s:s}", "name", c->name,
				      "spec", c->spec, "pmu", c->pmu, "origin", disc_origin_names[c->origin],
				      "source", c->source, "description", c->desc, "uncore", c->uncore,
				      "scale", c->scale, "unit", c->unit);
		if (c->has_config) {
			char enc[64];
			snprintf(enc, sizeof enc, "0x%llx", (unsigned long long)c->config);
			json_object_set_new(o, "config", json_string(enc));
			snprintf(enc, sizeof enc, "0x%llx", (unsigned long long)c->config1);
			json_object_set_new(o, "config1", json_string(enc));
		}
		json_array_append_new(cands, o);
	}
	for (unsigned g = 0; p && g < p->groups.ngroups; g++) {
		json_t *members = json_array();
		for (unsigned k = 0; k < p->groups.groups[g].n; k++)
			json_array_append_new(members, json_string(p->groups.groups[g].ev[k]->spec));
		json_array_append_new(
			groups, json_pack("{s:s, s:o}", "pmu", p->groups.groups[g].pool, "events", members));
	}
	return json_pack("{s:o, s:o}", "candidates", cands, "target_groups", groups);
}
