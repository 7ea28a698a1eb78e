/* out_export_stale.c — the files an earlier export of the same results directory wrote that this export
 * does not write again (LIKWID's groups of events no longer exported; every file of the format where
 * nothing is exported): removed, so that they do not stand beside its files, or alone, presented as
 * validated (as analyze removes the tables that would now contradict the new ones). A file is an export's
 * of DIR where its evidence names DIR's real path ("...; results DIR", out_export_metric.c); a file of
 * another results directory's export, which that directory still validates, and the user's stay. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out_export.h"
#include "plain_file.h"

/* Longer than any file an export writes (a group is a few hundred bytes, metrics.json some per metric). */
#define EXPORT_TEXT_MAX (1 << 22)

/* The text of path where it is a plain file, NULL otherwise (free it): a link may lead anywhere, and a FIFO
   would hold the export up. */
static char *text_of(const char *path)
{
	struct err e;
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	if (plain_fopen(path, FILE_READ_NOFOLLOW, &f, &e))
		return NULL;
	if (!(buf = malloc(EXPORT_TEXT_MAX + 1)) ||
	    (n = fread(buf, 1, EXPORT_TEXT_MAX + 1, f)) > EXPORT_TEXT_MAX || ferror(f)) {
		free(buf);
		buf = NULL;
	} else {
		buf[n] = '\0';
	}
	fclose(f);
	return buf;
}

/* Whether text holds the evidence of an export of the results directory real: "; results REAL" followed by
   end, the text that closes the evidence in the format (which keeps /a/b from matching /a/bc). */
static int names_results(const char *text, const char *real, const char *end)
{
	char want[PATH_MAX + 32];

	snprintf(want, sizeof want, "; results %s%s", real, end);
	return strstr(text, want) != NULL;
}

/* Whether the group file at path, named name, is one an export of real wrote: its SHORT line ends
   OUT_LIKWID_MARK, its LONG's evidence names real, and its file name is its metric's (the first metric
   after LIKWID's runtime line, out_export_likwid_group), which a user's copy under a name of its own is
   not. */
static int group_of_results(const char *path, const char *name, const char *real)
{
	static const char head[] = "\nMETRICS\n";
	char file[200], metric[160];
	const char *metrics;
	char *text;
	size_t l;
	int ours = 0;

	if (!(text = text_of(path)))
		return 0;
	l = strcspn(text, "\n");
	metrics = strstr(text, head);
	if (!strncmp(text, "SHORT ", 6) && l >= strlen(OUT_LIKWID_MARK) &&
	    !strncmp(text + l - strlen(OUT_LIKWID_MARK), OUT_LIKWID_MARK, strlen(OUT_LIKWID_MARK)) &&
	    names_results(text, real, ".\n") && metrics &&
	    (metrics = strchr(metrics + sizeof head - 1, '\n')) &&
	    sscanf(metrics + 1, "%159s [", metric) == 1) {
		out_likwid_group_file(metric, file, sizeof file);
		ours = !strcmp(file, name);
	}
	free(text);
	return ours;
}

/* Removes path where it is real's (ours), appending it to removed, or where it cannot be removed, the
   reason: the export's own files are written by then, and one left standing is said, not a failure. */
static void remove_ours(const char *path, int ours, char *removed, size_t len)
{
	size_t l = strlen(removed);
	int err;

	if (!ours)
		return;
	err = unlink(path) ? errno : 0;
	if (err == ENOENT)
		return;
	snprintf(removed + l, len - l, "%s%s%s%s%s", l ? " " : "", path, err ? " (not removed: " : "",
		 err ? strerror(err) : "", err ? ")" : "");
}

void out_export_remove_groups(const char *sub, const char *real, const struct out_metric *m,
			      const unsigned *use, unsigned n, char *removed, size_t len)
{
	char name[200], path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(sub);
	size_t l = strlen(removed);

	if (!d) { /* no folder: no group an export wrote */
		if (errno != ENOENT && errno != ENOTDIR)
			snprintf(removed + l, len - l, "%s%s (not read: %s)", l ? " " : "", sub,
				 strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		unsigned i = 0;
		const char *dot = strrchr(de->d_name, '.');
		if (de->d_name[0] == '.' || !dot || strcmp(dot, ".txt"))
			continue;
		for (; i < n; i++) {
			out_likwid_group_file(m[use[i]].name, name, sizeof name);
			if (!strcmp(name, de->d_name))
				break;
		}
		snprintf(path, sizeof path, "%s/%s", sub, de->d_name);
		remove_ours(path, i == n && group_of_results(path, de->d_name, real), removed, len);
	}
	closedir(d);
}

void out_export_remove_files(enum out_export_format fmt, const char *outdir, const char *likwid_dir,
			     const char *real, char *removed, size_t len)
{
	/* perf's and PAPI's files, each rewritten whole by an export (so of one results directory), and the
	   text that closes the evidence in each: metrics.json's BriefDescription string, perf-stat.txt's
	   comment line, the PAPI file's quoted LDESC (whose evidence has its commas made ';', out_export_papi.c:
	   a path with a comma is not found there, and its file stays) */
	static const struct {
		enum out_export_format fmt;
		const char *file, *end;
	} files[] = {
		{OX_PERF, OUT_PERF_METRICS, "\""},
		{OX_PERF, OUT_PERF_STAT, "\n"},
		{OX_PAPI, OUT_PAPI_FILE, "\""},
	};
	char path[PATH_MAX];

	if (fmt == OX_LIKWID) {
		if (likwid_dir) {
			snprintf(path, sizeof path, "%s/%s", outdir, likwid_dir);
			out_export_remove_groups(path, real, NULL, NULL, 0, removed, len);
		}
		return;
	}
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *text;
		if (files[i].fmt != fmt)
			continue;
		snprintf(path, sizeof path, "%s/%s", outdir, files[i].file);
		text = text_of(path);
		remove_ours(path, text && names_results(text, real, files[i].end), removed, len);
		free(text);
	}
}
