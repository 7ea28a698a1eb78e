#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "raw.h"

static const char header[] =
	"point,rep,group,kernel,variant,width,arg_name,arg,bytes,arrays,reps,diff,threads,cpus,placement,"
	"mem_nodes,prefetch,msr,level,thp_share,seconds,tsc,core_ghz,flag"
#define X(name) ",v_" #name
	KERN_VOLUME_FIELDS(X)
#undef X
	",event,backend,encoding,scope,count,time_enabled,time_running,status,reason\n";

void raw_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int raw_create(struct raw_writer *w, const char *dir, struct err *e)
{
	int fd;

	snprintf(w->path, sizeof w->path, "%s/raw.csv", dir);
	fd = open(w->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, E_RUNTIME, "cannot create %s: %s", w->path, strerror(errno));
	w->f = fdopen(fd, "w");
	if (!w->f) {
		close(fd);
		return err_set(e, E_RUNTIME, "cannot open %s: %s", w->path, strerror(errno));
	}
	fputs(header, w->f);
	return raw_flush(w, e);
}

static void field(FILE *f, const char *s)
{
	fputc(',', f);
	raw_csv_field(f, s);
}

void raw_write(struct raw_writer *w, const struct raw_row *r)
{
	FILE *f = w->f;

	fprintf(f, "%d,%d,%d", r->point, r->rep, r->group);
	field(f, r->kernel);
	field(f, r->variant);
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
	fprintf(f, ",%.4f,%.9e,%" PRId64 ",%.4f", r->thp_share, r->seconds, r->tsc, r->core_ghz);
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
	fputc('\n', f);
}

int raw_flush(struct raw_writer *w, struct err *e)
{
	if (fflush(w->f) != 0 || fsync(fileno(w->f)) != 0)
		return err_set(e, E_RUNTIME, "cannot write %s: %s", w->path, strerror(errno));
	return 0;
}

int raw_close(struct raw_writer *w, struct err *e)
{
	int rc = 0;

	if (!w->f)
		return 0;
	rc = raw_flush(w, e);
	fclose(w->f);
	w->f = NULL;
	return rc;
}
