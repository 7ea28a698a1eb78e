/* out_report_data.c — loads a results directory for the report: raw.csv through the analysis'
 * aggregation (one reader of the format), machine.json and events.json with jansson. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_file.h"
#include "out_report_data.h"
#include "verdict.h"

int out_events_load(const char *dir, json_t **events, struct err *e)
{
	char path[PATH_MAX];
	struct stat st;

	*events = NULL;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, E_USAGE, "%s: no such results directory", dir);
	snprintf(path, sizeof path, "%s/events.json", dir);
	/* another version's verdicts (or none of pmucheck's) are not this one's to report or export */
	if (json_file_load(path, JSON_FILE_OPTIONAL | JSON_FILE_FORMAT | JSON_FILE_RESULTS, events, e))
		return E_USAGE;
	if (!*events)
		return err_set(e, E_USAGE, "%s: no events.json; run 'pmucheck analyze %s' first", dir, dir);
	if (out_events_check(*events, path, e) || out_events_current(*events, dir, -1, e)) {
		json_decref(*events);
		*events = NULL;
		return E_USAGE;
	}
	return 0;
}

int out_events_current(const json_t *root, const char *dir, long long now, struct err *e)
{
	const json_t *was = json_object_get(root, "raw_csv_bytes");
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof path, "%s/raw.csv", dir);
	if (now < 0)
		now = stat(path, &st) ? -1 : (long long)st.st_size;
	/* no raw.csv: export and merge read none (a collected directory may leave it out), and report, which
	   reads it, says so itself */
	if (!json_is_integer(was) || now < 0 || now == (long long)json_integer_value(was))
		return 0;
	return err_set(
		e, E_USAGE,
		"%s: changed since it was analysed (%lld bytes then, %lld now: a run resumed, or still "
		"running, since); run 'pmucheck analyze %s' again once it has ended",
		path, (long long)json_integer_value(was), now, dir);
}

int out_events_check(const json_t *root, const char *path, struct err *e)
{
	const json_t *arr = json_object_get(root, "events"), *ev;
	size_t i;

	if (!json_is_array(arr))
		return err_set(e, E_USAGE, "%s: malformed: no \"events\" list", path);
	json_array_foreach(arr, i, ev)
	{
		const json_t *cls = json_object_get(ev, "class");
		int k = 0;
		while (json_is_string(cls) && k < VC_COUNT &&
		       strcmp(json_string_value(cls), verdict_class_names[k]))
			k++;
		if (!json_is_string(json_object_get(ev, "event")) || !json_is_string(cls) || k == VC_COUNT)
			return err_set(e, E_USAGE,
				       "%s: malformed: event %zu has no event name or no known class", path,
				       i + 1);
	}
	return 0;
}

int out_rdata_load(struct out_rdata *d, const char *dir, struct err *e)
{
	char path[PATH_MAX];
	int rc;

	memset(d, 0, sizeof *d);
	d->dir = dir;
	if ((rc = out_events_load(dir, &d->events, e)))
		return rc;
	snprintf(path, sizeof path, "%s/machine.json", dir);
	if ((rc = machine_read(path, &d->a.m, e)))
		goto fail;
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	/* and again as read: rows a live run appended after the check above would be drawn beside older
	   verdicts */
	if ((rc = agg_read(&d->a, path, e)) || (rc = out_events_current(d->events, dir, d->a.raw_bytes, e)))
		goto fail;
	return 0;
fail:
	out_rdata_free(d);
	return rc;
}

void out_rdata_free(struct out_rdata *d)
{
	agg_free(&d->a);
	json_decref(d->events);
	d->events = NULL;
}

json_t *out_event_verdict(const struct out_rdata *d, const char *event)
{
	size_t i;
	json_t *ev;

	json_array_foreach(json_object_get(d->events, "events"), i,
			   ev) if (strcmp(json_string_value(json_object_get(ev, "event")), event) ==
				   0) return ev;
	return NULL;
}

int out_class_validated(const char *cls)
{
	return cls && (strcmp(cls, "exact") == 0 || strcmp(cls, "approximate") == 0);
}
