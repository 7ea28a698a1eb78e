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
	static const struct {
		const char *suffix;
		unsigned shift;
	} units[] = {{"", 0},   {"k", 10},   {"K", 10}, {"KiB", 10}, {"m", 20},
		     {"M", 20}, {"MiB", 20}, {"g", 30}, {"G", 30},   {"GiB", 30}};
	const char *end;
	uint64_t v;
	int rc = parse_number(option, text, &v, &end, e);

	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return err_set(e, E_USAGE, "%s: '%s' is too large", option, text);
		*out = v << units[i].shift;
		return 0;
	}
	return err_set(e, E_USAGE, "%s: '%s' has an unknown unit (use k, M or G, binary)", option, text);
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
