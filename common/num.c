/* num.c — numbers and sizes as a user types them, for the command line and the config files alike, and
 * the numbers small /proc and /sys files hold. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

static int parse_number(const char *option, const char *text, uint64_t *out, const char **end, struct err *e)
{
	char *p;

	if (!text || !*text || !isdigit((unsigned char)text[0]))
		return err_set(e, E_USAGE, "%s: '%s' is not a non-negative number", option, text ? text : "");
	errno = 0;
	*out = strtoull(text, &p, 10);
	if (errno == ERANGE)
		return err_set(e, E_USAGE, "%s: '%s' is too large", option, text);
	*end = p;
	return 0;
}

int num_parse_u64(const char *option, const char *text, uint64_t *out, struct err *e)
{
	const char *end;
	int rc = parse_number(option, text, out, &end, e);

	if (rc)
		return rc;
	if (*end)
		return err_set(e, E_USAGE, "%s: '%s' is not a whole number", option, text);
	return 0;
}

int num_parse_size(const char *option, const char *text, uint64_t *out, struct err *e)
{
	/* Binary units as pmucheck always took them (k, M, G and the IEC KiB, MiB, GiB), and the decimal kB, MB,
	 * GB as likwid-bench takes them for its -w/-W sizes (Debian's likwid 5.2: `-W N:1kB:1` prints "Size
	 * (Byte): 960" after rounding 1000 bytes to its loop stride, `N:1MB:1` prints 1000000), so that a size
	 * copied from a likwid-bench command means the same here. */
	static const struct {
		const char *suffix;
		uint64_t unit;
	} units[] = {{"", 1},           {"k", 1ull << 10},   {"K", 1ull << 10},   {"KiB", 1ull << 10},
		     {"m", 1ull << 20}, {"M", 1ull << 20},   {"MiB", 1ull << 20}, {"g", 1ull << 30},
		     {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"kB", 1000},        {"KB", 1000},
		     {"MB", 1000000},   {"GB", 1000000000}};
	const char *end;
	uint64_t v;
	int rc = parse_number(option, text, &v, &end, e);

	if (rc)
		return rc;
	/* "1.5k" would read as 1 with the unit ".5k"; the fault is the fraction, whatever follows it */
	if (*end == '.')
		return err_set(e, E_USAGE,
			       "%s: '%s' has a fraction: a size is a whole number of bytes or of its unit",
			       option, text);
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		if (v > UINT64_MAX / units[i].unit)
			return err_set(e, E_USAGE, "%s: '%s' is too large", option, text);
		*out = v * units[i].unit;
		return 0;
	}
	return err_set(e, E_USAGE,
		       "%s: '%s' has an unknown unit (k, M, G or KiB, MiB, GiB: binary; kB, MB, GB: decimal)",
		       option, text);
}

double num_read_file(const char *path, double fallback)
{
	FILE *f = fopen(path, "r");
	double v = fallback;

	if (!f)
		return fallback;
	if (fscanf(f, "%lf", &v) != 1)
		v = fallback;
	fclose(f);
	return v;
}

const char *num_format_size(double bytes, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	unsigned u = 0;

	while (u + 1 < sizeof unit / sizeof unit[0] && bytes >= 1024) {
		bytes /= 1024;
		u++;
	}
	/* three significant digits at most: 1.5 MiB, 48 KiB, 215 KiB, 32 MiB */
	snprintf(buf, len, bytes < 10 && bytes != (double)(long long)bytes ? "%.2g %s" : "%.0f %s", bytes,
		 unit[u]);
	return buf;
}

const char *num_format_rate(double v, char *buf, size_t len)
{
	snprintf(buf, len, v > 0 && v < 0.995 ? "%.2g" : "%.1f", v);
	return buf;
}

int num_wild_match(const char *wild, const char *name)
{
	const char *star = strchr(wild, '*');
	size_t pre = star ? (size_t)(star - wild) : 0;

	if (!star || strncmp(wild, name, pre) || !isdigit((unsigned char)name[pre]))
		return 0;
	for (name += pre; isdigit((unsigned char)*name); name++)
		;
	return !strcmp(name, star + 1);
}

/* Whether star, wild's '*', is a box number the kernel leaves out of a unit of one box: after a '_' and
   ending the PMU name, at its '/' (perf terms) or the end; not a PAPI name's "*::". */
static int unnumbered_star(const char *wild, const char *star)
{
	return star && star - wild >= 2 && star[-1] == '_' && (!star[1] || star[1] == '/');
}

int num_wild_unnumbered(const char *wild, char *out, size_t len)
{
	const char *star = strchr(wild, '*');

	if (len)
		out[0] = '\0';
	if (!len || !unnumbered_star(wild, star))
		return 0;
	snprintf(out, len, "%.*s%s", (int)(star - 1 - wild), wild, star + 1);
	return 1;
}

int num_wild_is_unnumbered(const char *wild, const char *name)
{
	const char *star = strchr(wild, '*');
	size_t pre = star ? (size_t)(star - 1 - wild) : 0;

	return unnumbered_star(wild, star) && !strncmp(wild, name, pre) && !strcmp(name + pre, star + 1);
}
