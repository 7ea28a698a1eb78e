/* out_report_csv.c — RFC 4180 records (quoted fields, doubled quotes; no line ends in fields),
 * enough for the tables analyze writes and the papers' reference files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_report_csv.h"

/* Splits one CSV record in place (RFC 4180 quotes, no line ends inside fields). */
static unsigned split(char *line, char **out, unsigned max)
{
	unsigned n = 0;
	char *w = line, *r = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		int quoted = *r == '"';
		out[n++] = w;
		r += quoted;
		while (*r && (quoted || *r != ',')) {
			if (quoted && *r == '"') {
				if (r[1] != '"') {
					quoted = 0;
					r++;
					continue;
				}
				r++;
			}
			*w++ = *r++;
		}
		if (!*r) {
			*w = '\0';
			break;
		}
		*w++ = '\0';
		r++;
	}
	return n;
}

void out_csv_free(struct out_csv *t)
{
	for (unsigned i = 0; i < t->nrows; i++) {
		free(t->rows[i][0]);
		free(t->rows[i]);
	}
	free(t->rows);
	free(t->cols[0]);
	free(t->comments);
	memset(t, 0, sizeof *t);
}

int out_csv_read(const char *path, struct out_csv *t)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, clen = 0;

	memset(t, 0, sizeof *t);
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#') {
			size_t l = strlen(line);
			char *c = realloc(t->comments, clen + l + 1);
			if (!c)
				break;
			t->comments = c;
			memcpy(c + clen, line + 1 + (line[1] == ' '), l - 1 - (line[1] == ' ') + 1);
			clen += strlen(c + clen);
		} else if (!t->ncols) {
			char *dup = strdup(line);
			if (dup)
				t->ncols = split(dup, t->cols, OUT_CSV_COLS);
		} else {
			char **row = calloc(OUT_CSV_COLS, sizeof *row), ***rows;
			char *dup = strdup(line);
			if (!row || !dup || !(rows = realloc(t->rows, (t->nrows + 1) * sizeof *rows))) {
				free(row);
				free(dup);
				break;
			}
			split(dup, row, t->ncols);
			for (unsigned c = 0; c < t->ncols; c++)
				row[c] = row[c] ? row[c] : "";
			t->rows = rows;
			t->rows[t->nrows++] = row;
		}
	}
	free(line);
	fclose(f);
	return t->ncols ? 0 : -1;
}

int out_csv_col(const struct out_csv *t, const char *name)
{
	for (unsigned c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c], name) == 0)
			return (int)c;
	return -1;
}
