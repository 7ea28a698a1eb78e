/* disc_sysfs.c — the kernel's event aliases: <pmus>/<pmu>/events/<alias> holds the terms ("event=0x04,
 * umask=0x03"), <alias>.scale and <alias>.unit what one count is worth ("6.103515625e-5", "MiB"). perf
 * lists exactly these as "Kernel PMU event". Each becomes pmu/alias/, resolved as a run would resolve it
 * (ctr_describe_sysfs), so pool, counters, scope and scale are the run's. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "disc.h"

/* Files beside the aliases that are no events (perf's sysfs ABI: .scale, .unit, .per-pkg, .snapshot). */
static bool is_alias(const char *name)
{
	static const char *const suffixes[] = {".scale", ".unit", ".per-pkg", ".snapshot"};
	size_t n = strlen(name);

	if (name[0] == '.')
		return false;
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && !strcmp(name + n - k, suffixes[i]))
			return false;
	}
	return true;
}

static int names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of a directory, sorted (readdir's order differs between file systems, the list must
   not). *names is one allocation per name plus the array; free with free_names. */
static int sorted_names(const char *dir, char ***names, unsigned *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			char **v = realloc(*names, (cap = cap ? 2 * cap : 64) * sizeof *v);
			if (!v)
				break;
			*names = v;
		}
		if (!((*names)[*n] = strdup(de->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof **names, names_cmp);
	return 0;
}

static void free_names(char **names, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* An uncore box's alias (cas_count_read of uncore_imc_3) becomes one candidate for every box of its
   kind (the uncore_imc_* wildcard, described on the first box found): the run counts each box and
   judges their sum, and the boxes after the first add nothing new. */
static int add_alias(const char *pmus, const char *pmu, const char *alias, struct disc_list *l, struct err *e)
{
	struct disc_cand c = {.origin = DISC_SYSFS};
	struct ctr_event ev;
	struct err why;
	char box[CTR_SPEC_MAX], kind[sizeof c.pmu];

	if (snprintf(box, sizeof box, "%s/%s/", pmu, alias) >= (int)sizeof box)
		return 0;
	/* An alias the run could not resolve either (a term this tree's format/ lacks) is no candidate. */
	if (ctr_describe_sysfs(pmus, box, &ev, &why)) {
		l->skipped++;
		return 0;
	}
	if (ev.scope != CTR_SCOPE_SOCKET || !boxes_kind(pmu, kind, sizeof kind))
		snprintf(kind, sizeof kind, "%s", pmu);
	if (snprintf(c.spec, sizeof c.spec, "%s/%s/", kind, alias) >= (int)sizeof c.spec)
		return 0;
	snprintf(c.name, sizeof c.name, "%s", alias);
	snprintf(c.pmu, sizeof c.pmu, "%s", kind);
	snprintf(c.source, sizeof c.source, "sysfs %s/%s/events/%s", pmus, pmu, alias);
	snprintf(c.desc, sizeof c.desc, "%s", ev.encoding);
	snprintf(c.unit, sizeof c.unit, "%s", ev.unit);
	c.scale = ev.scale;
	c.uncore = ev.scope == CTR_SCOPE_SOCKET;
	c.counters = ev.counters;
	c.has_config = true;
	c.config = ev.perf.config;
	c.config1 = ev.perf.config1;
	return disc_add(l, &c, e);
}

int disc_sysfs(const char *pmus, struct disc_list *l, struct err *e)
{
	char **pmu_names, path[4096];
	unsigned npmu;
	int rc = 0;

	if (sorted_names(pmus, &pmu_names, &npmu))
		return 0; /* no sysfs PMUs (a container): no aliases, not an error */
	for (unsigned i = 0; i < npmu && !rc; i++) {
		char **aliases;
		unsigned na;
		snprintf(path, sizeof path, "%s/%s/events", pmus, pmu_names[i]);
		if (sorted_names(path, &aliases, &na))
			continue;
		for (unsigned k = 0; k < na && !rc; k++)
			if (is_alias(aliases[k]))
				rc = add_alias(pmus, pmu_names[i], aliases[k], l, e);
		free_names(aliases, na);
	}
	free_names(pmu_names, npmu);
	return rc;
}
