#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "boxes.h"
#include "num.h"

int boxes_wildcard(const char *spec)
{
	const char *star = strchr(spec, '*'), *slash = strchr(spec, '/'), *colons = strstr(spec, "::");

	/* only in the PMU part: before the first '/' (perf) or '::' (PAPI) */
	return star && ((slash && star < slash) || (colons && star < colons));
}

int boxes_kind(const char *pmu, char *out, size_t len)
{
	size_t n = strlen(pmu), d = n;

	while (d > 0 && isdigit((unsigned char)pmu[d - 1]))
		d--;
	if (d == n || d < 2 || pmu[d - 1] != '_') {
		snprintf(out, len, "%s", pmu);
		return 0;
	}
	snprintf(out, len, "%.*s*", (int)d, pmu);
	return 1;
}

void boxes_conflict_tag(const char *tag, const char *spec, char *out, size_t len)
{
	const char *slash = strchr(spec, '/'), *colons = strstr(spec, "::");
	const char *end = colons && (!slash || colons < slash) ? colons : slash;

	if (end && end > spec)
		snprintf(out, len, "%s@%.*s", tag, (int)(end - spec), spec);
	else
		snprintf(out, len, "%s", tag);
}

static int cmp_spec(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* perf: the PMUs in sysfs named prefix<digits>; where there are none, the unit of one box the kernel names
   without the number (num_wild_unnumbered: "uncore_arb_*" takes "uncore_arb"). That one is taken only
   where it has a cpumask, as every uncore PMU has (arch/x86/events/intel/uncore.c uncore_pmu_attrs,
   arch/x86/events/amd/uncore.c amd_uncore_attrs) and the core PMU has not (arch/x86/events/core.c): a
   "cpu_*" is no box of "cpu". */
static unsigned perf_boxes(const char *spec, const char *pmus, char (*out)[CTR_SPEC_MAX], unsigned max)
{
	const char *rest = strchr(spec, '/');
	char wild[CTR_SPEC_MAX], one[CTR_SPEC_MAX], path[2 * CTR_SPEC_MAX];
	struct dirent *d;
	struct stat st;
	unsigned n = 0;
	DIR *dir = opendir(pmus);

	if (!dir)
		return 0;
	snprintf(wild, sizeof wild, "%.*s", (int)(rest - spec), spec); /* the PMU part: "uncore_imc_*" */
	while ((d = readdir(dir)) && n < max) {
		if (!num_wild_match(wild, d->d_name))
			continue;
		snprintf(out[n++], CTR_SPEC_MAX, "%s%s", d->d_name, rest);
	}
	closedir(dir);
	qsort(out, n, CTR_SPEC_MAX, cmp_spec);
	if (n || !max || !num_wild_unnumbered(wild, one, sizeof one))
		return n;
	snprintf(path, sizeof path, "%s/%s/cpumask", pmus, one);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	snprintf(out[0], CTR_SPEC_MAX, "%s%s", one, rest);
	return 1;
}

/* PAPI: the boxes whose names PAPI resolves as countable, numbered from 0. */
static unsigned papi_boxes(const char *spec, char (*out)[CTR_SPEC_MAX], unsigned max)
{
	const char *star = strchr(spec, '*');
	unsigned n = 0;

	for (unsigned box = 0; box < BOXES_MAX && n < max; box++) {
		struct ctr_event ev;
		struct err e;

		snprintf(out[n], CTR_SPEC_MAX, "%.*s%u%s", (int)(star - spec), spec, box, star + 1);
		if (ctr_resolve(out[n], &ev, &e) == 0 && ev.status == CTR_OK)
			n++;
	}
	return n;
}

unsigned boxes_expand(const char *spec, const char *pmus, char (*out)[CTR_SPEC_MAX], unsigned max)
{
	if (!boxes_wildcard(spec))
		return 0;
	return strstr(spec, "::") ? papi_boxes(spec, out, max) : perf_boxes(spec, pmus, out, max);
}

unsigned boxes_room(const char *spec)
{
	return boxes_wildcard(spec) ? BOXES_MAX : 1;
}

unsigned boxes_append(const char *spec, const char *pmus, char (*boxes)[CTR_SPEC_MAX], const char **specs,
		      const char **sums, unsigned n)
{
	unsigned nb = boxes_expand(spec, pmus, &boxes[n], BOXES_MAX);

	for (unsigned b = 0; b < nb; b++, n++) {
		specs[n] = boxes[n];
		sums[n] = spec;
	}
	if (nb == 0) {
		specs[n] = spec;
		sums[n++] = NULL;
	}
	return n;
}

void boxes_sum_encoding(const struct ctr_event *box, unsigned boxes, char *out, size_t len)
{
	int n = snprintf(out, len, "sum of %u boxes,domain=all", boxes);

	if (box->scale != 1.0 && box->scale > 0 && n > 0 && (size_t)n < len)
		snprintf(out + n, len - (size_t)n, ",scale=%.17g%s%s", box->scale, *box->unit ? ",unit=" : "",
			 box->unit);
}
