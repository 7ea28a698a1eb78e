/* topo_cpulist.c — CPU lists as options and configs give them ("0-3,8", hwloc's open "4-"), checked
 * against the machine's usable CPUs, and as raw.csv records them ("0;1;2"). */
#include <stdlib.h>
#include <string.h>

#include "topo.h"

static int cpu_usable(const struct topo *t, long cpu)
{
	for (int i = 0; i < t->ncpus; i++)
		if (t->cpus[i] == cpu)
			return 1;
	return 0;
}

/* Whether a run may pin to cpu here; E_USAGE saying why not. */
static int check_usable(const struct topo *t, const char *option, long cpu, struct err *e)
{
	char usable[256];

	if (cpu_usable(t, cpu))
		return 0;
	hwloc_bitmap_list_snprintf(usable, sizeof usable, t->usable);
	if (t->bound && hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(t->h), (unsigned)cpu))
		return err_set(e, E_USAGE,
			       "%s: CPU %ld is outside the CPU affinity pmucheck was started with (usable "
			       "CPUs: %s; taskset, numactl or the batch system set it)",
			       option, cpu, usable);
	return err_set(e, E_USAGE, "%s: CPU %ld is not in this machine (usable CPUs: %s)", option, cpu,
		       usable);
}

static int add_cpu(const struct topo *t, const char *option, long cpu, int *cpus, int max, int *n,
		   struct err *e)
{
	int rc = t ? check_usable(t, option, cpu, e) : 0;

	if (rc)
		return rc;
	for (int i = 0; i < *n; i++)
		if (cpus[i] == cpu)
			return err_set(e, E_USAGE, "%s: CPU %ld is listed twice", option, cpu);
	if (*n >= max)
		return err_set(e, E_USAGE, "%s: more than %d CPUs", option, max);
	cpus[(*n)++] = (int)cpu;
	return 0;
}

/* One comma-separated item ("8", "0-3", or "4-": from 4 to the last usable CPU, as hwloc's list format has it)
 * through hwloc's own list parser, so that a list means here what it means to hwloc-bind and lstopo. hwloc
 * takes trailing junk and wraps numbers over 32 bits silently (hwloc 2.9: "0-3x" is 0-3, "99999999999"
 * is 1215752191), so the item's shape is checked first; the CPUs are added in ascending order. */
static int add_item(const struct topo *t, const char *option, const char *item, int *cpus, int max, int *n,
		    struct err *e)
{
	size_t digits = strspn(item, "0123456789"), upper = 0;
	const char *rest = item + digits;
	hwloc_bitmap_t set;
	int rc = 0, last;

	if (*rest == '-') {
		upper = strspn(++rest, "0123456789");
		rest += upper;
	}
	if (!digits || digits > 9 || upper > 9 || *rest)
		return err_set(e, E_USAGE, "%s: '%s' is not a CPU list (e.g. 0-3,8)", option, item);
	/* hwloc reads its numbers with strtoul base 0, so "010" would be CPU 8 (and "08" a range that runs
	   backwards): a prefetcher change on the wrong CPU. A CPU number has no leading zero. */
	if ((digits > 1 && item[0] == '0') || (upper > 1 && rest[-(long)upper] == '0'))
		return err_set(e, E_USAGE, "%s: '%s': a CPU number has no leading zero", option, item);
	set = hwloc_bitmap_alloc();
	if (!set || hwloc_bitmap_list_sscanf(set, item) < 0) {
		hwloc_bitmap_free(set);
		return err_set(e, E_USAGE, "%s: '%s' is not a CPU list (e.g. 0-3,8)", option, item);
	}
	if (hwloc_bitmap_iszero(set)) {
		hwloc_bitmap_free(set);
		return err_set(e, E_USAGE, "%s: range '%s' runs backwards", option, item);
	}
	/* An open range takes the usable CPUs from its start on (with a CPU offline or outside the cpuset,
	   "0-" over usable 0,2-3 is 0,2,3, not an error about CPU 1), and without a machine (t NULL) stands
	   for its start; an explicit one keeps every CPU, to name a missing one. */
	if (hwloc_bitmap_weight(set) < 0) {
		int first = hwloc_bitmap_first(set), added = 0;
		for (int i = 0; t && i < t->ncpus && !rc; i++)
			if (t->cpus[i] >= first) {
				rc = add_cpu(t, option, t->cpus[i], cpus, max, n, e);
				added++;
			}
		if (!rc && !added)
			rc = add_cpu(t, option, first, cpus, max, n, e);
		hwloc_bitmap_free(set);
		return rc;
	}
	last = hwloc_bitmap_last(set);
	for (int c = hwloc_bitmap_first(set); c >= 0 && c <= last && !rc; c = hwloc_bitmap_next(set, c))
		rc = add_cpu(t, option, c, cpus, max, n, e);
	hwloc_bitmap_free(set);
	return rc;
}

int topo_parse_cpulist(const struct topo *t, const char *option, const char *list, int *cpus, int max, int *n,
		       struct err *e)
{
	char *copy, *item, *save = NULL;
	int rc = 0;

	*n = 0;
	if (!list || !*list)
		return err_set(e, E_USAGE, "%s: empty CPU list", option);
	/* Items in the order given (--threads N takes the first N), so the list is split here, not by hwloc. */
	if (list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
		return err_set(e, E_USAGE, "%s: '%s' is not a CPU list (e.g. 0-3,8)", option, list);
	copy = strdup(list);
	if (!copy)
		return err_set(e, E_RUNTIME, "out of memory");
	for (item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save))
		rc = add_item(t, option, item, cpus, max, n, e);
	free(copy);
	return rc;
}

void topo_format_cpus(const int *cpus, int n, char sep, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? (char[]){sep, 0} : "", cpus[i]);
}
