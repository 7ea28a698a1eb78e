/* kern_names.c — the names raw.csv gives the kernels' access types, plot kinds and variant flags:
 * one table each, used by the writer (harness) and the readers (analysis) alike. */
#include <stdio.h>
#include <string.h>

#include "kern.h"

const char *const kern_access_names[KA_COUNT] = {
	"", "read", "write", "nt-write", "copy", "nt-copy", "triad", "nt-triad", "latency", "fault",
};

const char *const kern_plot_names[KP_COUNT] = {
	"bw-size", "ev-size",     "bw-delay",    "time-offset",
	"latency", "level-probe", "speed-probe", "path-probe",
};

const char *const kern_flag_names[KV_COUNT] = {"nt", "mul-indep", "mul-dep"};

void kern_bits_format(char *buf, size_t len, unsigned bits, const char *const *names, unsigned n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && used < len; i++)
		if (bits & (1u << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ";" : "", names[i]);
}

int kern_name_index(const char *s, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

int kern_bits_parse(const char *s, const char *const *names, unsigned n, unsigned *bits)
{
	*bits = 0;
	while (*s) {
		const char *end = strchr(s, ';');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		unsigned i;

		for (i = 0; i < n; i++)
			if (strlen(names[i]) == len && strncmp(s, names[i], len) == 0)
				break;
		if (i == n)
			return -1;
		*bits |= 1u << i;
		s += len + (end != NULL);
		if (end && !*s)
			return -1; /* "nt;": a name is missing after the last ';' */
	}
	return 0;
}

enum kern_overlap kern_names_overlap(const char *a, size_t alen, const char *b, size_t blen)
{
	const char *fam = alen < blen ? a : b, *var = alen < blen ? b : a;
	size_t n = alen < blen ? alen : blen;

	if (alen == blen)
		return strncmp(a, b, alen) ? KERN_DISTINCT : KERN_SAME;
	return var[n] == '.' && !strncmp(fam, var, n) && !memchr(fam, '.', n) ? KERN_FAMILY_OF
									      : KERN_DISTINCT;
}
