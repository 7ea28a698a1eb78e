/* out_export.c — `pmucheck export`: which validated events a format can name, then its files,
 * written to temporary names and renamed together, so a failure leaves no partial export. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out_export.h"
#include "out_report.h"
#include "out_report_data.h"

const char *const out_export_format_names[OX_COUNT] = {"perf", "likwid", "papi"};

struct outfile {
	char tmp[PATH_MAX], final[PATH_MAX];
};

struct outset {
	struct outfile *f;
	unsigned n;
};

static FILE *open_tmp(struct outset *o, const char *dir, const char *name, struct err *e)
{
	struct outfile *nf = realloc(o->f, (o->n + 1) * sizeof *nf);
	FILE *f;

	if (!nf) {
		err_set(e, E_RUNTIME, "export: out of memory");
		return NULL;
	}
	o->f = nf;
	nf = &o->f[o->n];
	snprintf(nf->final, sizeof nf->final, "%s/%s", dir, name);
	snprintf(nf->tmp, sizeof nf->tmp, "%s/.%s.%d.tmp", dir, name, (int)getpid());
	if (!(f = fopen(nf->tmp, "w")))
		err_set(e, E_RUNTIME, "%s: %s", nf->tmp, strerror(errno));
	else
		o->n++;
	return f;
}

static int close_tmp(FILE *f, int bad, const char *path, struct err *e)
{
	bad |= ferror(f);
	if (fclose(f) || bad)
		return err_set(e, E_RUNTIME, "%s: write failed", path);
	return 0;
}

static void discard(struct outset *o)
{
	for (unsigned i = 0; i < o->n; i++)
		unlink(o->f[i].tmp);
	free(o->f);
}

static int commit(struct outset *o, struct out_export_summary *s, struct err *e)
{
	for (unsigned i = 0; i < o->n; i++) {
		size_t l = strlen(s->written);
		if (rename(o->f[i].tmp, o->f[i].final))
			return err_set(e, E_RUNTIME, "%s: %s", o->f[i].final, strerror(errno));
		snprintf(s->written + l, sizeof s->written - l, "%s%s", l ? " " : "", o->f[i].final);
	}
	o->n = 0; /* renamed: nothing left to discard */
	return 0;
}

static int usable(enum out_export_format fmt, const struct out_metric *m, const char **why)
{
	char buf[512];

	switch (fmt) {
	case OX_PERF:
		return out_perf_name(m, buf, sizeof buf, why) != NULL;
	case OX_LIKWID:
		return out_likwid_name(m, buf, sizeof buf, why) != NULL;
	default:
		if (!out_papi_name(m, buf, sizeof buf, why))
			return 0;
		if (!out_papi_postfix(m->simple, buf, sizeof buf)) {
			*why = "its scale is no integer ratio (PAPI's postfix arithmetic is integer only)";
			return 0;
		}
		return 1;
	}
}

/* The PMU PAPI's perf_event component named as the core PMU in machine.json, for the CPU line. */
static void papi_pmu(const char *dir, char *pmu, size_t len, const char **note)
{
	char path[PATH_MAX];
	json_t *m, *comps, *c, *p;
	size_t i, j;

	snprintf(pmu, len, "perf");
	*note = "machine.json names no core PMU (PAPI's perf_event component was disabled); replace "
		"'perf' with the core PMU that papi_component_avail lists";
	snprintf(path, sizeof path, "%s/machine.json", dir);
	if (!(m = json_load_file(path, 0, NULL)))
		return;
	comps = out_json_path(m, "counters.availability.papi.components");
	json_array_foreach(comps, i, c) {
		if (strcmp(json_string_value(json_object_get(c, "name")) ?: "", "perf_event"))
			continue;
		json_array_foreach(json_object_get(c, "pmus"), j, p) {
			const char *s = json_string_value(p);
			if (s && strcmp(s, "perf") && strcmp(s, "perf_raw") && strcmp(s, "ix86arch") &&
			    strcmp(s, "amd64")) {
				snprintf(pmu, len, "%s", s);
				*note = "the core PMU of PAPI's perf_event component in machine.json";
				break;
			}
		}
	}
	json_decref(m);
}

static int write_files(enum out_export_format fmt, const char *dir, const char *outdir,
		       const struct out_metric *m, const unsigned *use, unsigned n,
		       struct out_export_summary *s, struct err *e)
{
	struct outset o = {0};
	char name[160], pmu[64];
	const char *note;
	FILE *f;
	int rc = 0;

	if (fmt == OX_LIKWID) {
		for (unsigned i = 0; i < n && !rc; i++) {
			snprintf(name, sizeof name, "%s.txt", m[use[i]].name);
			for (char *c = name; *c && *c != '.'; c++)
				*c = (char)toupper((unsigned char)*c);
			if (!(f = open_tmp(&o, outdir, name, e)))
				rc = E_RUNTIME;
			else
				rc = close_tmp(f, out_export_likwid_group(f, &m[use[i]]), name, e);
		}
	} else if (!(f = open_tmp(&o, outdir, fmt == OX_PERF ? "metrics.json" : "papi_events.csv", e))) {
		rc = E_RUNTIME;
	} else if (fmt == OX_PERF) {
		rc = close_tmp(f, out_export_perf(f, m, use, n), "metrics.json", e);
	} else {
		papi_pmu(dir, pmu, sizeof pmu, &note);
		rc = close_tmp(f, out_export_papi(f, m, use, n, pmu, note), "papi_events.csv", e);
	}
	if (!rc)
		rc = commit(&o, s, e);
	discard(&o);
	return rc;
}

static void note_skip(struct out_export_summary *s, const struct out_metric *m, const char *why)
{
	size_t l = strlen(s->skipped_why);

	s->skipped++;
	snprintf(s->skipped_why + l, sizeof s->skipped_why - l, "%s%s: %s", l ? "; " : "", m->event, why);
}

int out_export(const char *dir, const char *outdir, enum out_export_format fmt,
	       struct out_export_summary *s, struct err *e)
{
	char def[PATH_MAX];
	struct out_metric *m = NULL;
	unsigned n, nuse = 0, *use = NULL;
	json_t *events;
	int rc;

	memset(s, 0, sizeof *s);
	if ((rc = out_events_load(dir, &events, e)))
		return rc;
	if ((rc = out_metrics_build(events, dir, &m, &n, &s->validated, e)))
		goto out;
	if (!(use = calloc(n + 1, sizeof *use))) {
		rc = err_set(e, E_RUNTIME, "export: out of memory");
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		const char *why = "";
		if (usable(fmt, &m[i], &why))
			use[nuse++] = i;
		else
			note_skip(s, &m[i], why);
	}
	s->metrics = nuse;
	if (!nuse)
		goto out; /* nothing to say: no empty files */
	if (!outdir) {
		snprintf(def, sizeof def, "%s/metrics", dir);
		outdir = def;
	}
	if (mkdir(outdir, 0777) && errno != EEXIST) {
		rc = err_set(e, E_RUNTIME, "%s: %s", outdir, strerror(errno));
		goto out;
	}
	rc = write_files(fmt, dir, outdir, m, use, nuse, s, e);
out:
	free(use);
	free(m);
	json_decref(events);
	return rc;
}
