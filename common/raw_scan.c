/* raw_scan.c — records and points of raw.csv, for the readers that cut it (raw_scan.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "raw_scan.h"

/* Whether a line leaves a quoted field open, given whether it began inside one: every " toggles, a doubled
   "" (a quote in the field) twice. Adds the line's field separators (commas outside quotes) to *commas, and
   sets *bad where the line is none a run writes (csv.c): a quote that opens inside a field (the reader's
   "stray quote", which the scan would take for a field left open, the rest of the file a torn end), or a
   NUL byte. */
static int quote_open_after(const char *line, size_t n, int open, long *commas, int *bad)
{
	for (size_t i = 0; i < n; i++)
		if (line[i] == '"') {
			if (!open && i > 0 && line[i - 1] != ',' && line[i - 1] != '"')
				*bad = 1;
			open = !open;
		} else if (line[i] == ',' && !open) {
			++*commas;
		} else if (!line[i]) {
			*bad = 1;
		}
	return open;
}

/* A row's point: the digits before its first comma; -1 where the record does not begin so (a line of
   garbage, which atoi read as point 0, and a resume measured points 0 and 1 again after it). */
static int point_of(const char *line)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*line))
		return -1;
	v = strtol(line, &end, 10);
	return *end == ',' && v <= 0x7fffffff ? (int)v : -1;
}

int raw_scan(FILE *f, struct raw_scan *out)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long off = 0, rec_start = 0, lineno = 0, rec_line = 0, commas = 0, header_commas = -1;
	int open = 0, rec_point = -1, rec_named = 0, bad = 0, rc;

	memset(out, 0, sizeof *out);
	out->last_point = -1;
	rewind(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (!open) { /* a record's first line: the header's, or a row's, which names its point */
			rec_start = off;
			rec_line = lineno;
			rec_point = point_of(line);
			commas = 0;
			bad = 0;
			rec_named = out->header_end && memchr(line, ',', (size_t)n);
		}
		off += n;
		if (line[n - 1] != '\n')
			break; /* the file ends within this line */
		open = quote_open_after(line, (size_t)n, open, &commas, &bad);
		if (bad && out->header_end) {
			out->bad_line = rec_line;
			break;
		}
		if (open)
			continue;
		if (header_commas < 0)
			header_commas = commas;
		else if (rec_point < 0 || rec_point < out->last_point || commas != header_commas) {
			out->bad_line = rec_line;
			break;
		}
		if (!out->header_end)
			out->header_end = off;
		else if (rec_point != out->last_point) {
			out->last_point = rec_point;
			out->last_point_start = rec_start;
		}
		out->complete_end = off;
	}
	rc = ferror(f) ? -1 : 0;
	free(line);
	out->torn = off > out->complete_end;
	out->torn_new_point = out->torn && rec_named && rec_point != out->last_point;
	return rc;
}
