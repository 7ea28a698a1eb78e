/* out_report_csv.c — RFC 4180 records (quoted fields, doubled quotes; no line ends in fields),
 * enough for the tables analyze writes and the papers' reference files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_report_csv.h"

/* Splits one CSV record in place (RFC 4180 quotes, no line ends inside fields); *open is set when a
   quoted field does not close. Returns the fields, max + 1 when there were more. */
static unsigned split(char *line, char **out, unsigned max, int *open)
{
	unsigned n = 0;
	char *w = line, *r = line;

	*open = 0;

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
			*open = quoted;
			*w = '\0';
			return n;
		}
		*w++ = '\0';
		r++;
	}
	return n + 1;
}

void out_csv_free(struct out_csv *t)
{
	for (unsigned i = 0; i < t->nrows; i++) {
		free(t->rows[i][0]);
		free(t->rows[i]);
	}
	free(t->rows);
	free(t->line);
	free(t->nfields);
	free(t->cols[0]);
	free(t->comments);
	memset(t, 0, sizeof *t);
}

int out_csv_read(const char *path, struct out_csv *t)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, clen = 0;
	ssize_t len;
	unsigned lineno = 0;
	int open = 0; /* split sets it; not where the line could not be copied */

	memset(t, 0, sizeof *t);
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		const char *why = strlen(line) < (size_t)len ? "a NUL byte in the line"
			: line[len - 1] != '\n'              ? "no line end (the file was cut)"
							     : NULL;
		lineno++;
		if (why && !t->bad_line)
			t->bad_line = lineno, t->bad_why = why;
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
			if (dup && (t->ncols = split(dup, t->cols, OUT_CSV_COLS, &open)) > OUT_CSV_COLS)
				t->ncols = OUT_CSV_COLS;
			if (open && !t->bad_line)
				t->bad_line = lineno, t->bad_why = "a quoted field never closed";
		} else {
			char **row = calloc(OUT_CSV_COLS, sizeof *row), ***rows;
			char *dup = strdup(line);
			unsigned *ln = realloc(t->line, (t->nrows + 1) * sizeof *ln), *nf;
			if (ln)
				t->line = ln;
			nf = ln ? realloc(t->nfields, (t->nrows + 1) * sizeof *nf) : NULL;
			if (nf)
				t->nfields = nf;
			if (!row || !dup || !nf ||
			    !(rows = realloc(t->rows, (t->nrows + 1) * sizeof *rows))) {
				free(row);
				free(dup);
				break;
			}
			t->nfields[t->nrows] = split(dup, row, t->ncols, &open);
			if (open && !t->bad_line)
				t->bad_line = lineno, t->bad_why = "a quoted field never closed";
			for (unsigned c = 0; c < t->ncols; c++)
				row[c] = row[c] ? row[c] : "";
			t->line[t->nrows] = lineno;
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

int out_csv_peak_rate_col(const struct out_csv *t, const char *suffix)
{
	char name[64];

	snprintf(name, sizeof name, "indicator_max_events_per_s_%s", suffix);
	/* a peaks.csv from before the split: its one rate was the higher of the two already */
	if (out_csv_col(t, "indicator_max_events_per_s_1_core") < 0 &&
	    out_csv_col(t, "indicator_max_events_per_s_all_cores") < 0)
		return out_csv_col(t, "indicator_max_events_per_s");
	return out_csv_col(t, name);
}
