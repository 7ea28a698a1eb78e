/* out_export.c — `pmucheck export`: which validated events a format can name, then its files,
 * written to temporary names and renamed together, so a failure leaves no partial export. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileset.h"
#include "out_export.h"
#include "out_report.h"
#include "out_report_data.h"

const char *const out_export_format_names[OX_COUNT] = {"perf", "likwid", "papi"};

/* Closes one file early to learn whether its writer failed; fileset_commit then only renames it. */
static int close_one(struct fileset *o, FILE *f, int bad, const char *name, struct err *e)
{
	struct fileset_file *last = &o->file[o->n - 1];

	bad |= ferror(f);
	last->f = NULL;
	if (fclose(f) || bad)
		return err_set(e, E_RUNTIME, "%s/%s: write failed", o->dir, name);
	return 0;
}

/* Opens NAME in the set and notes its final path in the summary. */
static int open_one(struct fileset *o, const char *name, FILE **f, struct out_export_summary *s,
		    struct err *e)
{
	size_t l = strlen(s->written);
	int rc = fileset_open(o, name, f, e);

	if (!rc)
		snprintf(s->written + l, sizeof s->written - l, "%s%s/%s", l ? " " : "", o->dir, name);
	return rc;
}

static int usable(enum out_export_format fmt, const struct out_metric *m, const char **why)
{
	char buf[512];
	const char *cls;
	unsigned units;

	switch (fmt) {
	case OX_PERF:
		return out_perf_event(m, buf, sizeof buf, why) != NULL;
	case OX_LIKWID:
		return out_likwid_name(m, buf, sizeof buf, &cls, &units, why) != NULL;
	default:
		if (!out_papi_name(m, buf, sizeof buf, why))
			return 0;
		if (!out_papi_postfix(m->scale, buf, sizeof buf)) {
			*why = "its scale is no integer ratio (PAPI's postfix arithmetic is integer only)";
			return 0;
		}
		return 1;
	}
}

/* The PMU PAPI's perf_event component named as the core PMU in machine.json, for the CPU line. */
static void papi_pmu(const struct machine *mach, char *pmu, size_t len, const char **note)
{
	snprintf(pmu, len, "perf");
	*note = "machine.json names no core PMU (PAPI's perf_event component was disabled); replace "
		"'perf' with the core PMU that papi_component_avail lists";
	for (unsigned i = 0; i < mach->npapi_pmus; i++) {
		const char *s = mach->papi_pmus[i];
		if (strcmp(s, "perf") && strcmp(s, "perf_raw") && strcmp(s, "ix86arch") &&
		    strcmp(s, "amd64")) {
			snprintf(pmu, len, "%s", s);
			*note = "the core PMU of PAPI's perf_event component in machine.json";
			return;
		}
	}
}

/* LIKWID reads groups from ~/.likwid/groups/<its architecture>/, so the files go into such a folder
   (o->dir). */
static int write_likwid(struct fileset *o, const struct out_metric *m, const unsigned *use, unsigned n,
			struct out_export_summary *s, struct err *e)
{
	char name[200];
	FILE *f;
	int rc = 0;

	for (unsigned i = 0; i < n && !rc; i++) {
		out_likwid_group_file(m[use[i]].name, name, sizeof name);
		rc = open_one(o, name, &f, s, e);
		if (!rc)
			rc = close_one(o, f, out_export_likwid_group(f, &m[use[i]]), name, e);
	}
	return rc;
}

/* real: the results directory's real path, which names the earlier exports' files of it. */
static int write_files(enum out_export_format fmt, const struct machine *mach, const char *outdir,
		       const char *real, const struct out_metric *m, const unsigned *use, unsigned n,
		       struct out_export_summary *s, struct err *e)
{
	struct fileset o = {.dir = outdir};
	char pmu[64], sub[PATH_MAX];
	const char *note = NULL;
	FILE *f;
	int rc = 0;

	if (fmt == OX_LIKWID) {
		/* usable() took only metrics LIKWID can name, which needs the directory */
		snprintf(sub, sizeof sub, "%s/%s", outdir, m[use[0]].names->likwid_dir);
		if (mkdir(sub, 0777) && errno != EEXIST)
			return err_set(e, E_RUNTIME, "%s: %s", sub, strerror(errno));
		o.dir = sub;
		rc = write_likwid(&o, m, use, n, s, e);
	} else if (fmt == OX_PERF) {
		if (!(rc = open_one(&o, OUT_PERF_METRICS, &f, s, e)))
			rc = close_one(&o, f, out_export_perf(f, m, use, n), OUT_PERF_METRICS, e);
		if (!rc && !(rc = open_one(&o, OUT_PERF_STAT, &f, s, e)))
			rc = close_one(&o, f, out_export_perf_stat(f, m, use, n), OUT_PERF_STAT, e);
	} else if (!(rc = open_one(&o, OUT_PAPI_FILE, &f, s, e))) {
		papi_pmu(mach, pmu, sizeof pmu, &note);
		rc = close_one(&o, f, out_export_papi(f, m, use, n, pmu, note, s->skipped_why), OUT_PAPI_FILE,
			       e);
	}
	if (!rc)
		rc = fileset_commit(&o, e);
	if (rc) {
		fileset_abort(&o);
		s->written[0] = 0;
		return rc;
	}
	if (fmt == OX_LIKWID)
		out_export_remove_groups(sub, real, m, use, n, s->removed, sizeof s->removed);
	return 0;
}

static void note_skip(struct out_export_summary *s, const struct out_metric *m, const char *why)
{
	size_t l = strlen(s->skipped_why);

	s->skipped++;
	snprintf(s->skipped_why + l, sizeof s->skipped_why - l, "%s%s: %s", l ? "; " : "", m->event, why);
}

int out_export(const char *dir, const char *outdir, enum out_export_format fmt, out_names_fn names_fn,
	       struct out_export_summary *s, struct err *e)
{
	char def[PATH_MAX], path[PATH_MAX], real[PATH_MAX], arch[32];
	struct stat st;
	struct out_metric *m = NULL;
	struct machine mach = {0};
	struct export_names names = {0};
	unsigned n, nuse = 0, *use = NULL;
	json_t *events;
	int rc, made;

	memset(s, 0, sizeof *s);
	if ((rc = out_events_load(dir, &events, e)))
		return rc;
	if (!realpath(dir, real)) { /* it was read just now */
		json_decref(events);
		return err_set(e, E_RUNTIME, "%s: %s", dir, strerror(errno));
	}
	snprintf(path, sizeof path, "%s/machine.json", dir);
	if ((rc = machine_read(path, &mach, e)) ||
	    (rc = out_metrics_build(events, dir, real, &mach, &m, &n, &s->validated, e)))
		goto out;
	/* LIKWID's names give its groups' folder, which an export with nothing to write clears too; where they
	   cannot be had then (no config directory), there is no folder to clear, and still nothing to export */
	out_config_arch(&mach, arch, sizeof arch);
	if (n && (rc = names_fn(arch, &names, e)))
		goto out;
	if (!n && fmt == OX_LIKWID && names_fn(arch, &names, &(struct err){0}))
		export_names_free(&names);
	for (unsigned i = 0; i < n; i++)
		m[i].names = &names;
	if (!(use = calloc(n + 1, sizeof *use))) {
		rc = err_set(e, E_RUNTIME, "export: out of memory");
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		const char *why = "";
		if (!usable(fmt, &m[i], &why))
			note_skip(s, &m[i], why);
		else if (fmt == OX_PAPI && nuse == OUT_PAPI_MAX_EVENTS)
			note_skip(s, &m[i], "past the 50 user events PAPI keeps (PAPI_MAX_USER_EVENTS)");
		else
			use[nuse++] = i;
	}
	s->metrics = nuse;
	if (!outdir) {
		snprintf(def, sizeof def, "%s/metrics", dir);
		outdir = def;
	}
	if (!nuse) {
		/* nothing to say: no empty files, and none an earlier export of DIR wrote standing there as
		   validated */
		out_export_remove_files(fmt, outdir, names.likwid_dir, real, s->removed, sizeof s->removed);
		goto out;
	}
	/* a directory the user named that cannot be made, or a file of that name, is the option's fault */
	made = mkdir(outdir, 0777) == 0 || errno == EEXIST;
	if (made && stat(outdir, &st)) /* a dangling link exists to mkdir, and is nothing to write into */
		made = 0;
	else if (made && !S_ISDIR(st.st_mode)) {
		made = 0;
		errno = ENOTDIR;
	}
	if (!made) {
		rc = outdir == def ? err_set(e, E_RUNTIME, "%s: %s", outdir, strerror(errno))
				   : err_set(e, E_USAGE, "--out %s: %s", outdir, strerror(errno));
		goto out;
	}
	rc = write_files(fmt, &mach, outdir, real, m, use, nuse, s, e);
out:
	free(use);
	free(m);
	export_names_free(&names);
	machine_free(&mach);
	json_decref(events);
	return rc;
}
