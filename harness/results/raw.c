#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "noisy_why.h"
#include "raw.h"
#include "raw_columns.h"

/* The header, each name after a comma: written from header + 1. */
static const char header[] =
#define NAME(name, type, presence) "," #name
#define VOLUME(name, presence) ",v_" #name
	RAW_COLUMNS(NAME, KERN_VOLUME_FIELDS(VOLUME)) "\n";
#undef NAME
#undef VOLUME

const char *raw_header(void)
{
	return header + 1;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int open_point(struct raw_writer *w, struct err *e)
{
	w->point = open_memstream(&w->buf, &w->len);
	if (!w->point)
		return err_set(e, E_RUNTIME, "out of memory for %s", w->path);
	return 0;
}

static int open_raw(struct raw_writer *w, const char *dir, int flags, struct err *e)
{
	memset(w, 0, sizeof *w);
	snprintf(w->path, sizeof w->path, "%s/raw.csv", dir);
	w->fd = open(w->path, O_WRONLY | O_APPEND | O_CLOEXEC | flags, 0644);
	if (w->fd < 0)
		return err_set(e, flags ? E_RUNTIME : E_USAGE, "cannot %s %s: %s", flags ? "create" : "open",
			       w->path, strerror(errno));
	return open_point(w, e);
}

/* raw.csv appears with its header or not at all: the header is written to raw.csv.new and linked into
   place. Created empty and then written, a run killed between the two (once in 20 random kills of
   run_resume.sh) left an empty raw.csv that neither the analysis nor --resume could read. link() refuses
   an existing raw.csv, as O_EXCL did. */
int raw_create(struct raw_writer *w, const char *dir, struct err *e)
{
	char tmp[sizeof w->path], path[sizeof w->path];
	int fd, bad, why;

	snprintf(tmp, sizeof tmp, "%s/raw.csv.new", dir);
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, E_RUNTIME, "cannot create %s: %s", tmp, strerror(errno));
	bad = write_all(fd, header + 1, sizeof header - 2) != 0 || fsync(fd) != 0;
	why = errno;
	close(fd);
	if (!bad && link(tmp, path) != 0) {
		bad = 1;
		why = errno;
	}
	unlink(tmp);
	if (bad)
		return err_set(e, E_RUNTIME, "cannot create %s: %s", path, strerror(why));
	return open_raw(w, dir, 0, e);
}

int raw_append(struct raw_writer *w, const char *dir, struct err *e)
{
	return open_raw(w, dir, 0, e);
}

static void put_bits(FILE *f, unsigned bits, const char *const *names, unsigned n)
{
	char text[128];

	kern_bits_format(text, sizeof text, bits, names, n);
	csv_field(f, text);
}

/* How each type of raw_columns.h is written; the integers all fit int64_t. */
#define PUT_INT(f, r, n) fprintf(f, "%" PRId64, (int64_t)r->n)
#define PUT_TEXT(f, r, n) csv_field(f, r->n)
#define PUT_STATUS(f, r, n) csv_field(f, r->n)
#define PUT_FRACTION(f, r, n) fprintf(f, "%.4f", r->n)
#define PUT_SECONDS(f, r, n) fprintf(f, "%.9e", r->n)
/* a missing clock stays empty: a reader must not take it for 0 GHz */
#define PUT_GHZ(f, r, n) (r->n > 0 ? fprintf(f, "%.4f", r->n) : 0)
#define PUT_ACCESS(f, r, n) csv_field(f, kern_access_names[r->n])
#define PUT_PLOTS(f, r, n) put_bits(f, r->n, kern_plot_names, KP_COUNT)
#define PUT_TRAITS(f, r, n) put_bits(f, r->n, kern_flag_names, KV_COUNT)
#define PUT_NOISY(f, r, n) put_bits(f, r->n, noisy_why_names, NW_COUNT)
#define PUT_COUNT(f, r, n) (r->has_count ? fprintf(f, "%" PRId64, r->n) : 0)
#define PUT_TIME(f, r, n) (r->event && *r->event ? fprintf(f, "%" PRIu64, r->n) : 0)

void raw_write(struct raw_writer *w, const struct raw_out_row *r)
{
	FILE *f = w->point;
	int first = 1;

#define COLUMN(name, type, presence) \
	if (!first) \
		fputc(',', f); \
	first = 0; \
	PUT_##type(f, r, name);
#define VOLUME(name, presence) fprintf(f, ",%" PRIu64, r->v.name);
	RAW_COLUMNS(COLUMN, KERN_VOLUME_FIELDS(VOLUME))
#undef COLUMN
#undef VOLUME
	fputc('\n', f);
}

int raw_flush(struct raw_writer *w, struct err *e)
{
	int rc = 0;

	if (fflush(w->point) != 0 || write_all(w->fd, w->buf, w->len) != 0 || fsync(w->fd) != 0)
		rc = err_set(e, E_RUNTIME, "cannot write %s: %s", w->path, strerror(errno));
	fclose(w->point);
	free(w->buf);
	w->point = NULL;
	w->buf = NULL;
	if (!rc)
		rc = open_point(w, e);
	return rc;
}

int raw_close(struct raw_writer *w, struct err *e)
{
	int rc = 0;

	if (!w->path[0])
		return 0; /* never opened */
	if (w->point)
		rc = raw_flush(w, e);
	if (w->point)
		fclose(w->point);
	free(w->buf);
	close(w->fd);
	memset(w, 0, sizeof *w);
	return rc;
}
