/* raw_scan.c — records and points of raw.csv, for the readers that cut it (raw_scan.h). */
#include <stdlib.h>
#include <string.h>

#include "raw_scan.h"

/* Whether a line leaves a quoted field open, given whether it began inside one: every " toggles, a doubled
   "" (a quote in the field) twice. */
static int quote_open_after(const char *line, size_t n, int open)
{
	for (const char *q = memchr(line, '"', n); q; q = memchr(q + 1, '"', (size_t)(line + n - q - 1)))
		open = !open;
	return open;
}

int raw_scan(FILE *f, struct raw_scan *out)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long off = 0, rec_start = 0;
	int open = 0, rec_point = -1, rec_named = 0, rc;

	memset(out, 0, sizeof *out);
	out->last_point = -1;
	rewind(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		if (!open) { /* a record's first line: the header's, or a row's, which names its point */
			rec_start = off;
			rec_point = atoi(line);
			rec_named = out->header_end && memchr(line, ',', (size_t)n);
		}
		off += n;
		if (line[n - 1] != '\n')
			break; /* the file ends within this line */
		open = quote_open_after(line, (size_t)n, open);
		if (open)
			continue;
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
