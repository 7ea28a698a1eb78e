/* fileset.c — output files committed together or not at all (fileset.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileset.h"

int fileset_open(struct fileset *s, const char *name, FILE **f, struct err *e)
{
	struct fileset_file *nf;

	if (s->n == s->cap) {
		unsigned cap = s->cap ? 2 * s->cap : 8;
		nf = realloc(s->file, cap * sizeof *nf);
		if (!nf)
			return err_set(e, E_RUNTIME, "%s/%s: out of memory", s->dir, name);
		s->file = nf;
		s->cap = cap;
	}
	nf = &s->file[s->n];
	snprintf(nf->final, sizeof nf->final, "%s/%s", s->dir, name);
	snprintf(nf->tmp, sizeof nf->tmp, "%s/.%s.%d.tmp", s->dir, name, (int)getpid());
	nf->f = fopen(nf->tmp, "w");
	if (!nf->f)
		return err_set(e, E_RUNTIME, "%s: %s", nf->tmp, strerror(errno));
	s->n++;
	*f = nf->f;
	return 0;
}

static void release(struct fileset *s)
{
	free(s->file);
	s->file = NULL;
	s->n = s->cap = 0;
}

int fileset_commit(struct fileset *s, struct err *e)
{
	for (unsigned i = 0; i < s->n; i++) {
		int bad;

		if (!s->file[i].f)
			continue; /* closed early by its writer, who checked it */
		bad = ferror(s->file[i].f);
		if (fclose(s->file[i].f) || bad) {
			s->file[i].f = NULL;
			err_set(e, E_RUNTIME, "%s: write failed", s->file[i].tmp);
			fileset_abort(s);
			return E_RUNTIME;
		}
		s->file[i].f = NULL;
	}
	/* A final name that is a directory is the one fault rename meets within one directory: found before
	   any rename, so none is done (`mkdir D/peaks.md; pmucheck analyze D` left new events.* and
	   peaks.csv beside an old stalls.md) */
	for (unsigned i = 0; i < s->n; i++) {
		struct stat st;

		if (!lstat(s->file[i].final, &st) && S_ISDIR(st.st_mode)) {
			err_set(e, E_RUNTIME, "%s is a directory: no file of the set was written",
				s->file[i].final);
			fileset_abort(s);
			return E_RUNTIME;
		}
	}
	for (unsigned i = 0; i < s->n; i++)
		if (rename(s->file[i].tmp, s->file[i].final)) {
			err_set(e, E_RUNTIME, "%s: %s", s->file[i].final, strerror(errno));
			fileset_abort(s); /* the directory changed meanwhile: the ones renamed stay, whole */
			return E_RUNTIME;
		}
	release(s);
	return 0;
}

void fileset_abort(struct fileset *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		if (s->file[i].f)
			fclose(s->file[i].f);
		unlink(s->file[i].tmp);
	}
	release(s);
}
