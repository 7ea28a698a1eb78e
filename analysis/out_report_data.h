/* out_report_data.h — a results directory as the report and the exports read it: the raw data
 * aggregated by the analysis' own reader, machine.json, and the verdicts of events.json. */
#ifndef PMUCHECK_OUT_REPORT_DATA_H
#define PMUCHECK_OUT_REPORT_DATA_H

#include <jansson.h>
#include <stddef.h>

#include "agg.h"

struct out_rdata {
	const char *dir;
	struct agg a;   /* raw.csv: points, events, counts per repetition; machine.json in a.m */
	json_t *events; /* events.json */
};

/* DIR/events.json, checked for the members the exports use (out_events_check) and for being the analysis
   of DIR's raw.csv as it is now (out_events_current). A missing file is E_USAGE telling the user to run
   'pmucheck analyze DIR' first. */
int out_events_load(const char *dir, json_t **events, struct err *e);

/* Whether events.json (root, of dir) was analysed from dir/raw.csv as it is now: its raw_csv_bytes (absent
   from analyses before it: taken as current) is raw.csv's size, now (stat; -1) or as a reader read it. A
   run resumed after its analysis, or still running, or a raw.csv edited, is E_USAGE asking for 'pmucheck
   analyze DIR' again: the verdicts and peaks are not of its points. No raw.csv is no refusal (export and
   merge read none). */
int out_events_current(const json_t *root, const char *dir, long long now, struct err *e);

/* Whether root (events.json at path) has an "events" list whose every entry has an event name and a class
   this pmucheck knows: another version's verdict is not this one's to report, export or merge. */
int out_events_check(const json_t *root, const char *path, struct err *e);

/* raw.csv, machine.json and events.json of DIR. */
int out_rdata_load(struct out_rdata *d, const char *dir, struct err *e);
void out_rdata_free(struct out_rdata *d);

/* The events.json entry of an event, or NULL. */
json_t *out_event_verdict(const struct out_rdata *d, const char *event);
/* Exact and approximate are the verdicts a metric may be built on. */
int out_class_validated(const char *cls);

#endif
