/* out_export.h — metric definitions derived from validated events, and the three writers.
 *
 * One metric per exact or approximate event: its rate in the unit of the quantity it was validated
 * against (lines read -> GB/s of lines x 64 B, pages -> Mpages/s, ...), named after the quantity
 * and the levels where it held, with the evidence in its description. */
#ifndef PMUCHECK_OUT_EXPORT_H
#define PMUCHECK_OUT_EXPORT_H

#include <jansson.h>
#include <limits.h>
#include <stdio.h>

#include "err.h"
#include "export_names.h"
#include "machine_read.h"
#include "out_report.h"

struct out_metric {
	char name[128];       /* read_bw_L2_L3_DRAM */
	char count_name[128]; /* lines_read_L2_L3_DRAM: the counted quantity (PAPI presets count) */
	char group[32];       /* pmucheck_bandwidth, pmucheck_rate */
	char unit[32];        /* GB/s, Mloads/s */
	char quantity[96];    /* the known volume it was validated against: "lines_read" */
	char levels[160];     /* where it held: "L2, L3, DRAM" or "any" */
	char what[256];       /* "bandwidth of cache lines read, where the data came from L2, L3, DRAM" */
	char evidence[768 + PATH_MAX]; /* levels, prefetch state, error, R^2, points, results directory */
	char event[256];               /* the event as counted (raw.csv spelling) */
	char encoding[192];            /* as resolved (raw.csv's encoding: "pmu=cpu,type=4,config=0x5f44") */
	char arch[32];         /* the config it was measured with (machine.json config.path stem): "zen3" */
	char backend[16];      /* papi, perf */
	char scope[16];        /* thread, socket */
	double scale;          /* events per quantity unit, as every export states it: the nearest simple
				 value where analyze found one (PAPI's integer arithmetic needs it), else
				 the measured ratio */
	double measured;       /* the measured ratio */
	double simple;         /* nearest simple scale, 0 when none */
	double bytes;          /* bytes per quantity unit; 0 for a plain rate */
	double divisor;        /* 1e9 (GB/s) or 1e6 (M.../s) */
	double peak_rate;      /* highest events/s measured where it is peaks.csv's indicator, of one core or
				 of all (a count summed over the threads, as perf stat sums it); 0: none */
	char peak_where[64];   /* that row: "L2 read" */
	double peak_rate_core; /* the same of one core alone: what one thread's counter reached, the 100 % of
				  a metric evaluated per hardware thread (LIKWID's); 0: none (also from a
				  peaks.csv of one rate, the higher of the two) */
	char peak_where_core[64];
	/* perf's and LIKWID's names on arch (out_export's names_fn: its config's [export]); NULL: none */
	const struct export_names *names;
};

/* The architecture of the config the run used ("zen3" from machine.json config.path "configs/zen3.ini"): the
   names the tools give an encoding depend on it. "" when machine.json does not say. */
void out_config_arch(const struct machine *mach, char *arch, size_t len);
/* Metrics for every validated event of an events.json (checked by out_events_load), with the peak
   rate from dir/peaks.csv where the event is an indicator. Their evidence names the results directory by
   real, dir's real path: a group copied elsewhere still says where its evidence is, and a later export of
   it knows its earlier files (out_export_stale.c) from another directory's, whatever the working directory
   and however dir was spelled. *validated counts the exact/approximate events. *m is malloc'ed (free it). */
int out_metrics_build(json_t *events, const char *dir, const char *real, const struct machine *mach,
		      struct out_metric **m, unsigned *n, unsigned *validated, struct err *e);

/* The name a tool knows an event by, or NULL (why says why) when this tool cannot count it. perf:
   its spelling for `perf stat -e` (out_perf_expr escapes it for metric expressions); LIKWID: also
   the counter class (*cls: "PMC", "DFC", ...). */
const char *out_perf_event(const struct out_metric *m, char *buf, size_t len, const char **why);
/* The privilege level the event was counted, and so validated, in: "user", "kernel", "user+kernel", "all"
   (an uncore PMU's, which sees none); the run's encoding domain=, or in results from before it
   exclude_kernel (user) or exclude_user (kernel). NULL where the results do not record it: no export
   claims a level then. */
const char *out_metric_domain(const struct out_metric *m);
/* out_metric_domain where it is one level alone ("user", "kernel"), else NULL: the scale holds in that
   level only, so the exports say so and perf's command line keeps it. */
const char *out_metric_one_level(const struct out_metric *m);
/* LIKWID: *units, the boxes of an uncore class LIKWID defines on the architecture where the config gives
   them (0: not given). */
const char *out_likwid_name(const struct out_metric *m, char *buf, size_t len, const char **cls,
			    unsigned *units, const char **why);
const char *out_papi_name(const struct out_metric *m, char *buf, size_t len, const char **why);

/* PAPI's postfix for counts / s ("N0|8|/|", "" for 1), or NULL when s is no integer ratio: PAPI's
   postfix arithmetic knows integers only. */
const char *out_papi_postfix(double s, char *buf, size_t len);
/* x as a decimal without exponent (perf's older expression lexers know only digits and '.'). */
void out_decimal(char *buf, size_t len, double x);

/* The PAPI export's file name: a user-events file, not PAPI's own papi_events.csv. */
#define OUT_PAPI_FILE "papi_user_events.csv"
/* The perf export's files: pmu-events metrics, and perf stat command lines. */
#define OUT_PERF_METRICS "metrics.json"
#define OUT_PERF_STAT "perf-stat.txt"
/* The most user events PAPI keeps (papi.h PAPI_MAX_USER_EVENTS, 50 in PAPI 6 and 7): it refuses a file's
   later ones ("No room left"), so the export leaves them out and says so. */
#define OUT_PAPI_MAX_EVENTS 50

/* Writers: the metrics in usable[] (n of them; the rest were skipped). */
int out_export_perf(FILE *f, const struct out_metric *m, const unsigned *usable, unsigned n);
int out_export_perf_stat(FILE *f, const struct out_metric *m, const unsigned *usable, unsigned n);
/* The end of the SHORT line of every group the LIKWID export writes, by which a later export knows its
   own groups from the user's. */
#define OUT_LIKWID_MARK "(validated by pmucheck)"
/* LIKWID: one group file per metric (groups are counted together; one event each always fits). */
int out_export_likwid_group(FILE *f, const struct out_metric *m);
/* A metric's group file name: the metric's name in capitals, as LIKWID's groups are named, and .txt. */
void out_likwid_group_file(const char *metric, char *name, size_t len);
/* Removes from sub (an architecture's group folder) the groups an earlier export of the results directory
   real (its real path) wrote that this one, of the n metrics use[] points to in m, does not write again;
   other groups stay (out_export_stale.c). No folder is nothing to remove. The paths removed are appended
   to removed (len bytes, space-separated), each that could not be removed with the reason: by then the
   export's own files are written, and what is left standing is said, no failure. */
void out_export_remove_groups(const char *sub, const char *real, const struct out_metric *m,
			      const unsigned *use, unsigned n, char *removed, size_t len);
/* Where an export of real writes nothing (nothing to export): removes what an earlier export of it wrote
   to outdir, perf's or PAPI's files, or LIKWID's groups in outdir/likwid_dir (NULL: no LIKWID names, so
   none were written), appending their paths to removed as above. */
void out_export_remove_files(enum out_export_format fmt, const char *outdir, const char *likwid_dir,
			     const char *real, char *removed, size_t len);
/* PAPI: pmu is the CPU line's PMU name, note why it was chosen, left_out the events PAPI cannot take
   and why ("EVENT: why; EVENT: why"), listed in the file's header. */
int out_export_papi(FILE *f, const struct out_metric *m, const unsigned *usable, unsigned n, const char *pmu,
		    const char *note, const char *left_out);

#endif
