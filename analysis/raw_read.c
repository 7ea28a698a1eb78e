/* raw_read.c — streaming RFC 4180 reader for raw.csv. One row in memory at a time; every error
 * names the file and the line. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "noisy_why.h"
#include "plain_file.h"
#include "raw_columns.h"
#include "raw_read.h"
#include "raw_scan.h"
#include "thresholds.h"

const char *const raw_quantity_names[RQ_COUNT] = {
#define RAW_Q_NAME(n, presence) #n,
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
	C_NOISY,
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
#define VOLUME(n, presence) {"v_" #n, C_VOLUME, C_##presence, RQ_##n},
	RAW_COLUMNS(COLUMN, KERN_VOLUME_FIELDS(VOLUME))
#undef COLUMN
#undef VOLUME
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

/* The file is read in large blocks and records are split in place: rows of raw.csv repeat the same
   texts (a point's parameters on every event's row), so a parsed number or name is remembered per
   column and reused while its text does not change. */
#define BLOCK (1u << 20)
#define MEMO_TEXT 40

struct memo {
	char text[MEMO_TEXT];
	unsigned char value[sizeof(double)];
	int valid;
};

struct reader {
	const char *path;
	FILE *f;
	char *buf; /* buf[beg .. end) is read and not yet consumed */
	size_t beg, end, cap;
	int eof;
	long left; /* bytes it may still read (raw_read_upto); -1: to the end */
	char *rec; /* the current record (possibly several physical lines), NUL-terminated in buf */
	size_t len;
	int quoted;             /* the record holds a quote: split must undo RFC 4180 quoting */
	unsigned long lineno;   /* physical lines consumed */
	unsigned long rec_line; /* first line of the current record */
	char **fields;
	unsigned nfields, fields_cap;
	int map[NCOLUMNS]; /* column -> field index */
	unsigned header_fields;
	struct memo memo[NCOLUMNS];
	/* The measurement's part of a record, fields [0, nprefix): the point and repetition, repeated on
	   the row of every event. A record without quotes that starts with the same bytes as the last one
	   parsed takes their values from it and splits and parses only the rest. */
	unsigned nprefix;   /* 0: the header puts a reading's column first */
	char *prefix_raw;   /* the last prefix, commas and the closing one included */
	char *prefix_split; /* the same, split at its commas: prefix_row's texts point into it */
	size_t prefix_len;  /* 0: no prefix kept */
	size_t prefix_cap;
	struct raw_row prefix_row;
};

/* The columns of one reading (one event of a measurement); the columns before the first of them in
   the header are the prefix. Only the speed depends on this list, never a value read. */
static const char *const reading_columns[] = {
	"event",        "backend", "encoding", "scope",      "count",  "time_enabled",
	"time_running", "status",  "reason",   "experiment", "uncore",
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

/* Reads more of the file behind buf[end], first moving the unconsumed part to the front (and growing
   buf when a record fills it). Returns 0, or an error; sets r->eof at the end of the file. */
static int refill(struct reader *r, struct err *e)
{
	size_t n;

	if (r->beg > 0) {
		memmove(r->buf, r->buf + r->beg, r->end - r->beg);
		r->end -= r->beg;
		r->beg = 0;
	}
	if (r->end == r->cap) {
		size_t cap = 2 * r->cap;
		char *p = realloc(r->buf, cap);
		if (!p)
			return err_set(e, E_RUNTIME, "%s: out of memory", r->path);
		r->buf = p;
		r->cap = cap;
	}
	n = r->cap - r->end;
	if (r->left >= 0 && (long)n > r->left)
		n = (size_t)r->left;
	n = n ? fread(r->buf + r->end, 1, n, r->f) : 0;
	if (r->left >= 0)
		r->left -= (long)n;
	if (n == 0) {
		if (ferror(r->f))
			return err_set(e, E_RUNTIME, "%s: %s", r->path, strerror(errno));
		r->eof = 1;
	}
	r->end += n;
	return 0;
}

/* Reads one record into r->rec without its line end; an odd number of quotes so far means a quoted
   field continues on the next line. Returns 1, 0 at end of file, or an error. */
static int next_record(struct reader *r, struct err *e)
{
	size_t scan = 0; /* bytes of the record already scanned, from r->beg */
	int open = 0, rc;

	r->rec_line = r->lineno + 1;
	r->quoted = 0;
	for (;;) {
		char *s = r->buf + r->beg + scan, *stop = r->buf + r->end;
		char *nl = s < stop ? memchr(s, '\n', (size_t)(stop - s)) : NULL;
		if (nl) {
			for (char *q = memchr(s, '"', (size_t)(nl - s)); q;
			     q = memchr(q + 1, '"', (size_t)(nl - q - 1))) {
				open = !open;
				r->quoted = 1;
			}
			r->lineno++;
			scan = (size_t)(nl + 1 - (r->buf + r->beg));
			if (open)
				continue;
			r->rec = r->buf + r->beg;
			r->len = scan - 1; /* the '\n' */
			r->beg += scan;
			if (r->len && r->rec[r->len - 1] == '\r')
				r->len--;
			r->rec[r->len] = '\0';
			/* the fields end at a NUL: named as what it is, not as a row of too few fields */
			if (memchr(r->rec, '\0', r->len))
				return fail(r, e, "a NUL byte in the row (a damaged file)");
			return 1;
		}
		if (r->eof) {
			if (r->beg + scan < r->end)
				return fail(r, e, "truncated row (the file ends without a line end)");
			if (scan == 0)
				return 0;
			return fail(r, e, "truncated: quoted field never closed");
		}
		if ((rc = refill(r, e)))
			return rc;
	}
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

/* Splits the record without quotes from s, its field `first`, at its commas (fields are short: a
   byte loop beats memchr). */
static int split_plain(struct reader *r, char *s, unsigned first, struct err *e)
{
	int rc;

	r->nfields = first;
	if ((rc = push_field(r, s, e)))
		return rc;
	for (; *s; s++) {
		if (*s != ',')
			continue;
		*s = '\0';
		if (r->nfields < r->fields_cap)
			r->fields[r->nfields++] = s + 1;
		else if ((rc = push_field(r, s + 1, e)))
			return rc;
	}
	return 0;
}

/* Splits r->rec into fields in place, undoing RFC 4180 quoting. */
static int split(struct reader *r, struct err *e)
{
	char *s = r->rec, *w = r->rec;
	int rc;

	if (!r->quoted)
		return split_plain(r, r->rec, 0, e);
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

/* The first control character of s (a line break, a tab, an escape, DEL), or NULL. */
static const char *control_char(const char *s)
{
	for (; *s; s++)
		if (iscntrl((unsigned char)*s))
			return s;
	return NULL;
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
	r->nprefix = r->nfields;
	for (unsigned c = 0; c < NCOLUMNS; c++) {
		r->map[c] = -1;
		for (unsigned i = 0; i < r->nfields; i++)
			if (strcmp(r->fields[i], columns[c].name) == 0) {
				/* which of two the file means is not the reader's to guess (the last won) */
				if (r->map[c] >= 0)
					return fail(r, e, "the column '%s' is in the header twice",
						    columns[c].name);
				r->map[c] = (int)i;
			}
		for (unsigned k = 0; k < sizeof reading_columns / sizeof *reading_columns; k++)
			if (r->map[c] >= 0 && strcmp(columns[c].name, reading_columns[k]) == 0 &&
			    (unsigned)r->map[c] < r->nprefix)
				r->nprefix = (unsigned)r->map[c];
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
	const char *d = s + (*s == '-'), *p = d;
	uint64_t v = 0;
	char *end;

	/* the usual case first: up to 18 plain digits cannot overflow; anything else as strtoll reads it */
	for (; *p >= '0' && *p <= '9' && p - d < 18; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (!*p && p > d) {
		*out = *s == '-' ? -(int64_t)v : (int64_t)v;
		return 0;
	}
	if (!*s || isspace((unsigned char)*s))
		return -1; /* strtoll would skip the space a writer never writes */
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

/* The bytes of a column's parsed value that may be remembered (0: parsed every time, which is as
   fast as comparing for integers and texts). */
static size_t memo_size(enum col_type t)
{
	switch (t) {
	case C_FRACTION:
	case C_SECONDS:
	case C_GHZ:
		return sizeof(double);
	case C_ACCESS:
		return sizeof(enum kern_access);
	case C_PLOTS:
	case C_TRAITS:
	case C_NOISY:
		return sizeof(unsigned);
	default:
		return 0;
	}
}

/* What a run writes and nothing else: a figure out of its range would pass into the analysis as a
   measurement (a clock of 17 GHz gives a latency 5x too many cycles), a word misspelt as a different
   state ("nosy" is not "noisy": the point would count as clean). */
static int in_range(struct reader *r, const struct raw_row *row, struct err *e)
{
	static const char *const flags[] = {"", "noisy"}, *const diffs[] = {"reps", "size"},
				 *const scopes[] = {"", "thread", "socket"};

	if (row->rep < 0 || row->group < 0 || row->width < 0 || row->arg < 0 || row->bytes < 0 ||
	    row->arrays < 0 || row->time_enabled < 0 || row->time_running < 0)
		return fail(r, e,
			    "rep, group, width, arg, bytes, arrays, time_enabled or time_running below 0");
	if (!(row->thp_share >= 0 && row->thp_share <= 1))
		return fail(r, e, "column 'thp_share': %g is not a share (0 to 1)", row->thp_share);
	if (!(row->core_ghz == 0 || (row->core_ghz >= THR_MIN_GHZ && row->core_ghz <= THR_MAX_GHZ)))
		return fail(r, e, "column 'core_ghz': %g GHz is no core's clock (0 for none, or %g to %g)",
			    row->core_ghz, THR_MIN_GHZ, THR_MAX_GHZ);
	if (kern_name_index(row->flag, flags, sizeof flags / sizeof *flags) < 0)
		return fail(r, e, "column 'flag': bad value '%s' (empty or noisy)", row->flag);
	if (kern_name_index(row->diff, diffs, sizeof diffs / sizeof *diffs) < 0)
		return fail(r, e, "column 'diff': bad value '%s' (reps or size)", row->diff);
	if (kern_name_index(row->scope, scopes, sizeof scopes / sizeof *scopes) < 0)
		return fail(r, e, "column 'scope': bad value '%s' (empty, thread or socket)", row->scope);
	if (*row->level && level_parse(row->level) == LEVEL_NONE)
		return fail(r, e, "column 'level': bad value '%s' (empty, L1, L2, L3 or DRAM)", row->level);
	if (row->span < 0 || row->span > row->bytes) /* a pass covers the buffer or a part of it */
		return fail(r, e, "column 'span': %lld is not within the point's %lld bytes",
			    (long long)row->span, (long long)row->bytes);
	return 0;
}

/* Parses the fields into row; from > 0: only fields from that one on, the others' values being those
   of r->prefix_row. */
static int convert(struct reader *r, struct raw_row *row, unsigned from, struct err *e)
{
	const char *count_text = NULL;
	char *base = (char *)row;
	int rc;

	if (from) {
		*row = r->prefix_row;
		row->count = row->has_count = 0; /* set after the columns, from this row's own */
	} else {
		memset(row, 0, sizeof *row);
	}
	row->line = r->rec_line;
	if (r->nfields != r->header_fields)
		return fail(r, e, "%u fields, the header has %u (truncated or malformed row)", r->nfields,
			    r->header_fields);
	for (unsigned c = 0; c < NCOLUMNS; c++) {
		const char *s = r->map[c] < 0 ? "" : r->fields[r->map[c]];
		size_t size = memo_size(columns[c].type);
		struct memo *m = &r->memo[c];
		int bad = 0;

		if (from && r->map[c] < (int)from)
			continue; /* the prefix's value (or a column the file lacks) */
		if (r->map[c] < 0 && columns[c].type == C_VOLUME) {
			row->v[columns[c].off] = NAN; /* a volume the file lacks is unknown, not 0 */
			continue;
		}
		if (r->map[c] < 0 && columns[c].type != C_TEXT)
			continue; /* an optional number the file lacks stays 0 */
		if (size && m->valid && strcmp(m->text, s) == 0) {
			memcpy(base + columns[c].off, m->value, size);
			continue;
		}
		switch (columns[c].type) {
		case C_INT:
			bad = parse_int(s, (int64_t *)(base + columns[c].off));
			break;
		case C_TIME: /* empty: 0, not the previous row's (a row of the same prefix starts from it) */
			if (*s)
				bad = parse_int(s, (int64_t *)(base + columns[c].off));
			else
				*(int64_t *)(base + columns[c].off) = 0;
			break;
		case C_FRACTION:
		case C_SECONDS:
			bad = parse_real(s, (double *)(base + columns[c].off));
			break;
		case C_GHZ: /* empty when no clock sample of the repetition held up; older files wrote 0 */
			bad = *s && parse_real(s, (double *)(base + columns[c].off));
			break;
		case C_TEXT: {
			const char *ctl = control_char(s);
			/* names go into every table, export and the figures' gnuplot scripts, where a line
			   break would end a command and begin another; only the free texts may hold one */
			if (ctl && columns[c].off != offsetof(struct raw_row, reason) &&
			    columns[c].off != offsetof(struct raw_row, clock_note))
				return fail(r, e, "column '%s': a control character (0x%02x) in a name",
					    columns[c].name, (unsigned char)*ctl);
			*(const char **)(base + columns[c].off) = s;
			break;
		}
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
		case C_NOISY:
			bad = kern_bits_parse(s, noisy_why_names, NW_COUNT, &row->noisy_why);
			break;
		}
		if (bad)
			return fail(r, e, "column '%s': bad value '%s'", columns[c].name, s);
		if (size && strlen(s) < MEMO_TEXT) {
			strcpy(m->text, s);
			memcpy(m->value, base + columns[c].off, size);
			m->valid = 1;
		}
	}
	if (row->status == RS_OK && *row->event) {
		if (parse_count(count_text, &row->count))
			return fail(r, e, "column 'count': bad value '%s' for a row with status ok",
				    count_text);
		row->has_count = 1;
	}
	/* A run writes a row not measured without a reading: its count empty (every version of pmucheck), its
	   times 0 (run_record.c). A count there is an edited or foreign file's: whether its status or its
	   number is wrong cannot be told, so neither is taken. Times there are an older pmucheck's: until
	   6001291 such a row had the times of the row written before it, and until 351c038 a box wildcard's
	   sum missing a box those of its counted boxes. They are not the row's, nothing reads them, and the
	   results they come with are good (a resumed run may hold rows of both kinds): dropped. */
	if (row->status == RS_NOT_MEASURED && *count_text)
		return fail(
			r, e,
			"a row with status not_measured has no reading, and this one has count '%.40s' (a "
			"run leaves it empty)",
			count_text);
	if (row->threads < 1 || row->reps < 1 || row->point < 0)
		return fail(r, e, "point, reps or threads out of range");
	rc = in_range(r, row, e); /* first: times below 0 are no pmucheck's, whatever the status */
	if (!rc && row->status == RS_NOT_MEASURED)
		row->time_enabled = row->time_running = 0;
	return rc;
}

/* Whether the record (without quotes) starts with the prefix kept. */
static int prefix_same(const struct reader *r)
{
	return r->prefix_len && !r->quoted && r->len >= r->prefix_len &&
		memcmp(r->rec, r->prefix_raw, r->prefix_len) == 0;
}

/* Before splitting: keeps the raw prefix of a record without quotes (prefix_len 0 when there is none). */
static int prefix_raw(struct reader *r, struct err *e)
{
	unsigned commas = 0;
	size_t len = 0;

	r->prefix_len = 0;
	if (r->quoted || !r->nprefix)
		return 0;
	while (len < r->len && commas < r->nprefix)
		commas += r->rec[len++] == ',';
	if (commas < r->nprefix)
		return 0;
	if (len > r->prefix_cap) {
		char *raw = realloc(r->prefix_raw, len), *split = realloc(r->prefix_split, len);
		if (raw)
			r->prefix_raw = raw;
		if (split)
			r->prefix_split = split;
		if (!raw || !split)
			return err_set(e, E_RUNTIME, "%s: out of memory", r->path);
		r->prefix_cap = len;
	}
	memcpy(r->prefix_raw, r->rec, len);
	r->prefix_len = len;
	return 0;
}

/* After parsing: the prefix's values, its texts moved into prefix_split (the record is overwritten by
   the next one). */
static void prefix_keep(struct reader *r, const struct raw_row *row)
{
	char *base = (char *)&r->prefix_row;

	if (!r->prefix_len)
		return;
	memcpy(r->prefix_split, r->rec, r->prefix_len); /* split: the commas are NULs already */
	r->prefix_row = *row;
	for (unsigned c = 0; c < NCOLUMNS; c++)
		if (columns[c].type == C_TEXT && r->map[c] >= 0 && (unsigned)r->map[c] < r->nprefix) {
			const char **t = (const char **)(base + columns[c].off);
			*t = r->prefix_split + (*t - r->rec);
		}
}

long raw_torn_point(const char *path)
{
	struct raw_scan sc;
	struct err e;
	FILE *f;
	int rc;

	if (plain_fopen(path, 0, &f, &e))
		return -1;
	rc = raw_scan(f, &sc);
	fclose(f);
	/* a row that is none: read to it, where the reader says what is wrong with it */
	if (rc || !sc.torn || sc.bad_line)
		return -1;
	/* a cut record that names a point of its own begins it: the point before is whole; the header
	   alone: nothing to keep but it */
	return sc.torn_new_point || sc.last_point < 0 ? sc.complete_end : sc.last_point_start;
}

int raw_read(const char *path, raw_row_fn fn, void *ctx, unsigned long *rows, struct err *e)
{
	return raw_read_upto(path, -1, fn, ctx, rows, e);
}

int raw_read_upto(const char *path, long limit, raw_row_fn fn, void *ctx, unsigned long *rows, struct err *e)
{
	struct reader r = {.path = path, .left = limit};
	struct raw_row row;
	int rc;

	*rows = 0;
	if ((rc = plain_fopen(path, 0, &r.f, e)))
		return rc;
	if (!(r.buf = malloc(BLOCK))) { /* never NULL: next_record computes positions in it */
		fclose(r.f);
		return err_set(e, E_RUNTIME, "%s: out of memory", path);
	}
	r.cap = BLOCK;
	if ((rc = read_header(&r, e)))
		goto out;
	while ((rc = next_record(&r, e)) == 1) {
		if (prefix_same(&r)) {
			if (!(rc = split_plain(&r, r.rec + r.prefix_len, r.nprefix, e)))
				rc = convert(&r, &row, r.nprefix, e);
		} else if (!(rc = prefix_raw(&r, e)) && !(rc = split(&r, e)) &&
			   !(rc = convert(&r, &row, 0, e))) {
			prefix_keep(&r, &row);
		}
		if (rc || (rc = fn(&row, ctx, e)))
			goto out;
		(*rows)++;
	}
out:
	fclose(r.f);
	free(r.buf);
	free(r.fields);
	free(r.prefix_raw);
	free(r.prefix_split);
	return rc;
}
