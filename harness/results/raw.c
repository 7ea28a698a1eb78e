#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "raw.h"

static const char header[] =
	"point,rep,group,kernel,variant,access,plots,traits,width,arg_name,arg,bytes,arrays,reps,diff,threads,"
	"cpus,placement,mem_nodes,prefetch,msr,level,thp_share,seconds,tsc,tsc_lo,tsc_hi,core_ghz,clock_note,flag"
#define X(name) ",v_" #name
	KERN_VOLUME_FIELDS(X)
#undef X
	",event,backend,encoding,scope,count,time_enabled,time_running,status,reason,experiment\n";

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

int raw_create(struct raw_writer *w, const char *dir, struct err *e)
{
	int rc = open_raw(w, dir, O_CREAT | O_EXCL, e);

	if (rc)
		return rc;
	fputs(header, w->point);
	return raw_flush(w, e);
}

int raw_append(struct raw_writer *w, const char *dir, struct err *e)
{
	return open_raw(w, dir, 0, e);
}

static void field(FILE *f, const char *s)
{
	fputc(',', f);
	csv_field(f, s);
}

void raw_write(struct raw_writer *w, const struct raw_out_row *r)
{
	FILE *f = w->point;
	char bits[128];

	fprintf(f, "%d,%d,%d", r->point, r->rep, r->group);
	field(f, r->kernel);
	field(f, r->variant);
	field(f, kern_access_names[r->access]);
	kern_bits_format(bits, sizeof bits, r->plots, kern_plot_names, KP_COUNT);
	field(f, bits);
	kern_bits_format(bits, sizeof bits, r->traits, kern_flag_names, KV_COUNT);
	field(f, bits);
	fprintf(f, ",%u", r->width);
	field(f, r->arg_name);
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64, r->arg, r->bytes, r->arrays, r->reps);
	field(f, r->diff);
	fprintf(f, ",%d", r->threads);
	field(f, r->cpus);
	field(f, r->placement);
	field(f, r->mem_nodes);
	field(f, r->prefetch);
	field(f, r->msr);
	field(f, r->level);
	fprintf(f, ",%.4f,%.9e,%" PRId64 ",%" PRIu64 ",%" PRIu64, r->thp_share, r->seconds, r->tsc, r->tsc_lo,
		r->tsc_hi);
	/* a missing clock stays empty: a reader must not take it for 0 GHz */
	if (r->core_ghz > 0)
		fprintf(f, ",%.4f", r->core_ghz);
	else
		fputc(',', f);
	field(f, r->clock_note);
	field(f, r->flag);
#define X(name) fprintf(f, ",%" PRIu64, r->v.name);
	KERN_VOLUME_FIELDS(X)
#undef X
	field(f, r->event);
	field(f, r->backend);
	field(f, r->encoding);
	field(f, r->scope);
	if (r->has_count)
		fprintf(f, ",%" PRId64, r->count);
	else
		fputc(',', f);
	if (r->event && *r->event)
		fprintf(f, ",%" PRIu64 ",%" PRIu64, r->time_enabled, r->time_running);
	else
		fputs(",,", f);
	field(f, r->status);
	field(f, r->reason);
	field(f, r->experiment);
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
