/* raw_read.c — streaming RFC 4180 reader for raw.csv. One row in memory at a time; every error
 * names the file and the line. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw_columns.h"
#include "raw_read.h"

const char *const raw_quantity_names[RQ_COUNT] = {
#define RAW_Q_NAME(n) #n,
	KERN_VOLUME_FIELDS(RAW_Q_NAME)
#undef RAW_Q_NAME
};

const char *const raw_status_names[RS_COUNT] = {"ok", "multiplexed", "not_measured", "failed"};

/* The types of raw_columns.h; a column's value goes to the raw_row field of its name (C_VOLUME: to v[]). */
enum col_type {
	C_INT,
	C_TEXT,
	C_FRACTION,
	C_SECONDS,
	C_GHZ,
	C_ACCESS,
	C_PLOTS,
	C_TRAITS,
	C_COUNT,
	C_TIME,
	C_STATUS,
	C_VOLUME
};
enum col_presence { C_REQUIRED, C_OPTIONAL };

struct column {
	const char *name;
	enum col_type type;
	enum col_presence presence;
	size_t off; /* into struct raw_row; for C_VOLUME the quantity index */
};

static const struct column columns[] = {
#define COLUMN(n, type, presence) {#n, C_##type, C_##presence, offsetof(struct raw_row, n)},
#define VOLUME(n) {"v_" #n, C_VOLUME, C_REQUIRED, RQ_##n},
	RAW_COLUMNS(COLUMN, KERN_VOLUME_FIELDS(VOLUME))
#undef COLUMN
#undef VOLUME
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

struct reader {
	const char *path;
	FILE *f;
	char *buf; /* the current record, possibly several physical lines */
	size_t len, cap;
	char *line; /* getline's buffer */
	size_t line_cap;
	unsigned long lineno;   /* physical lines consumed */
	unsigned long rec_line; /* first line of the current record */
	char **fields;
	unsigned nfields, fields_cap;
	int map[NCOLUMNS]; /* column -> field index */
	unsigned header_fields;
};

/* Every message about the file's content starts with "<path>:<line>:". */
static int fail(struct reader *r, struct err *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct reader *r, struct err *e, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return err_set(e, E_USAGE, "%s:%lu: %s", r->path, r->rec_line, what);
}

static int append(struct reader *r, const char *s, size_t n, struct err *e)
{
	if (r->len + n + 1 > r->cap) {
		size_t cap = (r->len + n + 1) * 2;
		char *p = realloc(r->buf, cap);
		if (!p)
			return err_set(e, E_RUNTIME, "%s: out of memory", r->path);
		r->buf = p;
		r->cap = cap;
	}
	memcpy(r->buf + r->len, s, n);
	r->len += n;
	r->buf[r->len] = '\0';
	return 0;
}

/* An odd number of quotes so far means a quoted field continues on the next line. */
static int quotes_open(const char *s, size_t n)
{
	int open = 0;

	for (size_t i = 0; i < n; i++)
		if (s[i] == '"')
			open = !open;
	return open;
}

/* Reads one record into r->buf without its line end. Returns 1, 0 at end of file, or an error. */
static int next_record(struct reader *r, struct err *e)
{
	ssize_t n;
	int rc;

	r->len = 0;
	r->rec_line = r->lineno + 1;
	for (;;) {
		n = getline(&r->line, &r->line_cap, r->f);
		if (n < 0) {
			if (ferror(r->f))
				return err_set(e, E_RUNTIME, "%s: %s", r->path, strerror(errno));
			if (r->len == 0)
				return 0;
			return fail(r, e, "truncated: quoted field never closed");
		}
		r->lineno++;
		if (r->line[n - 1] != '\n')
			return fail(r, e, "truncated row (the file ends without a line end)");
		if ((rc = append(r, r->line, (size_t)n, e)))
			return rc;
		if (!quotes_open(r->buf, r->len))
			break;
	}
	r->len--; /* the '\n' */
	if (r->len && r->buf[r->len - 1] == '\r')
		r->len--;
	r->buf[r->len] = '\0';
	return 1;
}

static int push_field(struct reader *r, char *f, struct err *e)
{
	if (r->nfields == r->fields_cap) {
		unsigned cap = r->fields_cap ? 2 * r->fields_cap : 64;
		char **p = realloc(r->fields, cap * sizeof *p);
		if (!p)
			return err_set(e, E_RUNTIME, "%s: out of memory", r->path);
		r->fields = p;
		r->fields_cap = cap;
	}
	r->fields[r->nfields++] = f;
	return 0;
}

/* Splits r->buf into fields in place, undoing RFC 4180 quoting. */
static int split(struct reader *r, struct err *e)
{
	char *s = r->buf, *w = r->buf;
	int rc;

	r->nfields = 0;
	for (;;) {
		char *start = w;
		if (*s == '"') {
			s++;
			for (;;) {
				if (*s == '\0')
					return fail(r, e, "quoted field never closed");
				if (*s == '"' && s[1] == '"') {
					*w++ = '"';
					s += 2;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					*w++ = *s++;
				}
			}
			if (*s != ',' && *s != '\0')
				return fail(r, e, "text after the closing quote of field %u", r->nfields + 1);
		} else {
			while (*s != ',' && *s != '\0') {
				if (*s == '"')
					return fail(r, e, "stray quote in an unquoted field");
				*w++ = *s++;
			}
		}
		int last = *s == '\0';
		*w++ = '\0';
		s++;
		if ((rc = push_field(r, start, e)))
			return rc;
		if (last)
			return 0;
	}
}

/* The columns that files from before the kernels' access types were recorded lack. */
static int kernel_names(enum col_type t)
{
	return t == C_ACCESS || t == C_PLOTS || t == C_TRAITS;
}

static int read_header(struct reader *r, struct err *e)
{
	int rc = next_record(r, e);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return err_set(e, E_USAGE, "%s:1: empty file, expected the raw.csv header", r->path);
	if ((rc = split(r, e)))
		return rc;
	r->header_fields = r->nfields;
	for (unsigned c = 0; c < NCOLUMNS; c++) {
		r->map[c] = -1;
		for (unsigned i = 0; i < r->nfields; i++)
			if (strcmp(r->fields[i], columns[c].name) == 0)
				r->map[c] = (int)i;
		if (r->map[c] < 0 && columns[c].presence == C_REQUIRED)
			return fail(r, e, "header lacks the column '%s'%s", columns[c].name,
				    kernel_names(columns[c].type)
					    ? " (written by a pmucheck from before the "
					      "kernels' access types were recorded: measure again)"
					    : "");
	}
	return 0;
}

static int parse_int(const char *s, int64_t *out)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return (*end || errno) ? -1 : 0;
}

/* A count is an integer; one beyond int64_t (a counter stuck at 2^64 - 1) is still a reading, which
   the analysis rejects with its reason (analysis/reading.c), not a malformed file. */
static int parse_count(const char *s, double *out)
{
	int64_t v;
	char *end;

	if (!parse_int(s, &v)) {
		*out = (double)v;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = (double)strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

static int parse_real(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	return (*end || errno || !isfinite(*out)) ? -1 : 0;
}

static int parse_status(const char *s, enum raw_status *out)
{
	for (int i = 0; i < RS_COUNT; i++)
		if (strcmp(s, raw_status_names[i]) == 0) {
			*out = (enum raw_status)i;
			return 0;
		}
	return -1;
}

static int convert(struct reader *r, struct raw_row *row, struct err *e)
{
	const char *count_text = NULL;
	char *base = (char *)row;

	memset(row, 0, sizeof *row);
	row->line = r->rec_line;
	if (r->nfields != r->header_fields)
		return fail(r, e, "%u fields, the header has %u (truncated or malformed row)", r->nfields,
			    r->header_fields);
	for (unsigned c = 0; c < NCOLUMNS; c++) {
		const char *s = r->map[c] < 0 ? "" : r->fields[r->map[c]];
		int bad = 0;

		if (r->map[c] < 0 && columns[c].type != C_TEXT)
			continue; /* an optional number the file lacks stays 0 */
		switch (columns[c].type) {
		case C_INT:
			bad = parse_int(s, (int64_t *)(base + columns[c].off));
			break;
		case C_TIME:
			bad = *s && parse_int(s, (int64_t *)(base + columns[c].off));
			break;
		case C_FRACTION:
		case C_SECONDS:
			bad = parse_real(s, (double *)(base + columns[c].off));
			break;
		case C_GHZ: /* empty when no clock sample of the repetition held up; older files wrote 0 */
			bad = *s && parse_real(s, (double *)(base + columns[c].off));
			break;
		case C_TEXT:
			*(const char **)(base + columns[c].off) = s;
			break;
		case C_VOLUME: {
			int64_t v = 0;
			bad = parse_int(s, &v) || v < 0;
			row->v[columns[c].off] = (double)v;
			break;
		}
		case C_COUNT:
			count_text = s;
			break;
		case C_STATUS:
			bad = parse_status(s, &row->status);
			break;
		case C_ACCESS: {
			int a = kern_name_index(s, kern_access_names, KA_COUNT);
			bad = a < 0;
			row->access = bad ? KA_NONE : (enum kern_access)a;
			break;
		}
		case C_PLOTS:
			bad = kern_bits_parse(s, kern_plot_names, KP_COUNT, &row->plots);
			break;
		case C_TRAITS:
			bad = kern_bits_parse(s, kern_flag_names, KV_COUNT, &row->traits);
			break;
		}
		if (bad)
			return fail(r, e, "column '%s': bad value '%s'", columns[c].name, s);
	}
	if (row->status == RS_OK && *row->event) {
		if (parse_count(count_text, &row->count))
			return fail(r, e, "column 'count': bad value '%s' for a row with status ok",
				    count_text);
		row->has_count = 1;
	}
	if (row->threads < 1 || row->reps < 1 || row->point < 0)
		return fail(r, e, "point, reps or threads out of range");
	return 0;
}

int raw_read(const char *path, raw_row_fn fn, void *ctx, unsigned long *rows, struct err *e)
{
	struct reader r = {.path = path};
	struct raw_row row;
	int rc;

	*rows = 0;
	r.f = fopen(path, "r");
	if (!r.f)
		return err_set(e, errno == ENOENT ? E_USAGE : E_RUNTIME, "%s: %s", path, strerror(errno));
	if ((rc = read_header(&r, e)))
		goto out;
	while ((rc = next_record(&r, e)) == 1) {
		if ((rc = split(&r, e)) || (rc = convert(&r, &row, e)) || (rc = fn(&row, ctx, e)))
			goto out;
		(*rows)++;
	}
out:
	fclose(r.f);
	free(r.buf);
	free(r.line);
	free(r.fields);
	return rc;
}
