/* out_report.h — what people look at (report.md, report.html, plots/) and what other tools load
 * (metric definitions for perf, LIKWID and PAPI), both made from a results directory that
 * `pmucheck analyze` has already turned into events.json, peaks.md and stalls.md. */
#ifndef PMUCHECK_OUT_REPORT_H
#define PMUCHECK_OUT_REPORT_H

#include "err.h"
#include "export_names.h"

struct out_report_summary {
	unsigned plots;        /* figures drawn (each as PNG and SVG) */
	unsigned not_measured; /* events the report lists as not measured or failed: a reading of either, or
				  judged not measured by the analysis (events.json) */
	int gnuplot_missing;   /* no gnuplot: report without figures, says so */
};

/* Writes DIR/report.md, DIR/report.html (figures inlined) and DIR/plots/. DIR must hold raw.csv,
   machine.json and events.json (else E_USAGE telling the user to run analyze; nothing written). */
int out_report(const char *dir, struct out_report_summary *sum, struct err *e);

enum out_export_format { OX_PERF, OX_LIKWID, OX_PAPI, OX_COUNT };
extern const char *const out_export_format_names[OX_COUNT];

struct out_export_summary {
	unsigned validated; /* exact or approximate events in events.json */
	unsigned metrics;   /* metric definitions written */
	unsigned skipped;   /* validated events this format cannot name */
	char skipped_why[1024];
	char written[4096]; /* the files written, space-separated */
	char removed
		[4096]; /* the files an earlier export of DIR wrote that this one removed, space-separated */
};

/* perf's and LIKWID's names for the events of an architecture (the stem of machine.json's config.path, as
   out_metric.arch): the caller's reading of the config files (commands: harness cfg_export_names), which
   the analysis does not read itself. 0, or an error that stops the export. */
typedef int (*out_names_fn)(const char *arch, struct export_names *out, struct err *e);

/* Writes the metric definitions of format fmt into outdir (NULL: DIR/metrics), its events named as names
   gives them for the run's architecture. Only events whose verdict is exact or approximate are used.
   Returns E_USAGE for a DIR without events.json (nothing written); 0 with s->metrics == 0 when nothing
   could be exported (nothing written either; what an earlier export of DIR wrote to outdir in this format
   is removed, s->removed). */
int out_export(const char *dir, const char *outdir, enum out_export_format fmt, out_names_fn names,
	       struct out_export_summary *s, struct err *e);

#endif
