/* topo_print.c — the topology as `info` shows it and as machine.json records it. */
#include <stdio.h>

#include "topo.h"

static const char *human(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ull << 20) && b % (1ull << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	return buf;
}

/* What `info` says of a cache's inclusion: nothing for an L1, which has no level below it to include. */
static const char *inclusion_words(const struct topo_cache *c)
{
	if (c->level < 2 || c->inclusion == LEVEL_INCLUSION_UNKNOWN)
		return "";
	return c->inclusion == LEVEL_INCLUSIVE ? ", inclusive" : ", not inclusive";
}

void topo_print(const struct topo *t, FILE *f)
{
	char b[32], usable[256];

	fprintf(f,
		"topology        %d socket(s), %d core(s), %d PU(s), %d NUMA node(s), SMT %s (%d PU/core)\n",
		t->sockets, t->cores, t->pus, t->numa_nodes, t->smt > 1 ? "on" : "off", t->smt);
	hwloc_bitmap_list_snprintf(usable, sizeof usable, t->usable);
	fprintf(f, "usable CPUs     %s%s\n", usable,
		t->bound ? " (the CPU affinity pmucheck was started with leaves out the others)" : "");
	for (int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];
		if (!c->level)
			continue;
		fprintf(f, "cache L%d        %s, %u-byte lines, shared by PUs %s (%u)%s\n", c->level,
			human(c->size, b, sizeof b), c->line, c->cpus, c->npus, inclusion_words(c));
	}
}

json_t *topo_json(const struct topo *t)
{
	json_t *caches = json_array();
	char usable[256];

	for (int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];
		json_t *one;
		if (!c->level)
			continue;
		one = json_pack("{s:i, s:s, s:I, s:i, s:s, s:i}", "level", c->level, "type",
				c->level == 1 ? "data" : "unified", "size", (json_int_t)c->size, "line",
				(int)c->line, "cpus", c->cpus, "pus_sharing", (int)c->npus);
		/* the analysis of the run sizes its levels from it as the plan did (common/level.h) */
		if (c->inclusion != LEVEL_INCLUSION_UNKNOWN)
			json_object_set_new(one, "inclusive", json_boolean(c->inclusion == LEVEL_INCLUSIVE));
		json_array_append_new(caches, one);
	}
	hwloc_bitmap_list_snprintf(usable, sizeof usable, t->usable);
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:s, s:b, s:o}", "sockets", t->sockets, "cores", t->cores,
			 "pus", t->pus, "numa_nodes", t->numa_nodes, "smt", t->smt, "usable_cpus", usable,
			 "affinity_bound", t->bound, "caches", caches);
}
