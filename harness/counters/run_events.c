#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "run_events.h"

static int resolve_one(struct ctr_event *ev, const char *spec, enum run_events_mode mode, struct err *e)
{
	struct err one;
	int rc = ctr_resolve(spec, ev, &one);

	if (rc) {
		if (mode == RUN_EVENTS_STRICT)
			return err_set(e, rc, "--events: %s (--keep-going records it as failed and goes on)",
				       one.msg);
		snprintf(ev->spec, sizeof ev->spec, "%s", spec);
		/* A config names events for machines of its architecture; one this machine lacks the PMU
		   for is not measured here rather than a failure. */
		ev->status = mode == RUN_EVENTS_LENIENT ? CTR_NOT_MEASURED : CTR_FAILED;
		snprintf(ev->reason, sizeof ev->reason, "%s", one.msg);
		return 0;
	}
	if (ev->status != CTR_OK && mode == RUN_EVENTS_STRICT)
		return err_set(e, E_USAGE,
			       "--events: '%s' cannot be counted on this machine: %s (--keep-going "
			       "records it as not measured and goes on)",
			       spec, ev->reason);
	return 0;
}

int run_events_setup_specs(struct run_events *re, const char *const *specs, const char *const *conflicts,
			   const char *const *sums, unsigned n, enum run_events_mode mode, struct err *e)
{
	int rc = 0;

	memset(re, 0, sizeof *re);
	if (n == 0)
		return 0;
	re->nev = n;
	re->evs = calloc(n, sizeof *re->evs);
	if (!re->evs)
		return err_set(e, E_RUNTIME, "out of memory");
	for (unsigned i = 0; i < n && !rc; i++) {
		for (unsigned j = 0; j < i && mode != RUN_EVENTS_LENIENT; j++)
			if (!strcmp(specs[i], specs[j]))
				rc = err_set(e, E_USAGE, "--events: '%s' is listed twice", specs[i]);
		if (!rc)
			rc = resolve_one(&re->evs[i], specs[i], mode, e);
		if (!rc && conflicts && conflicts[i])
			boxes_conflict_tag(conflicts[i], specs[i], re->evs[i].conflict,
					   sizeof re->evs[i].conflict);
		if (!rc && sums && sums[i])
			snprintf(re->evs[i].sum_of, sizeof re->evs[i].sum_of, "%s", sums[i]);
	}
	if (!rc) {
		re->nfixed = ctr_fixed_events(re->fixed);
		rc = ctr_plan_groups(re->evs, re->nev, re->fixed, re->nfixed, &re->plan, e);
	}
	if (rc)
		run_events_free(re);
	return rc;
}

int run_events_setup_in(struct run_events *re, const char *list, enum run_events_mode mode, const char *pmus,
			struct err *e)
{
	char **specs = NULL, (*boxes)[CTR_SPEC_MAX] = NULL;
	const char **all = NULL, **sums = NULL;
	unsigned n = 0, nall = 0, cap = 1;
	int rc;

	memset(re, 0, sizeof *re);
	if (!list)
		return 0;
	rc = ctr_split_list(list, &specs, &n, e);
	if (rc)
		return err_wrap(e, rc, "--events");
	/* A box wildcard (a '*' for the box number: uncore_imc_* with cas_count_read) is every box this
	   machine has, summed, as in a config (experiment.c): discover gives its candidates here, and an
	   uncore one, which only a wildcard names, was refused as a malformed PMU name wherever the boxes
	   exist. */
	for (unsigned i = 0; i < n; i++)
		cap += boxes_room(specs[i]);
	all = calloc(cap, sizeof *all);
	sums = calloc(cap, sizeof *sums);
	boxes = calloc(cap, sizeof *boxes);
	if (!all || !sums || !boxes)
		rc = err_set(e, E_RUNTIME, "out of memory");
	for (unsigned i = 0; !rc && i < n; i++)
		nall = boxes_append(specs[i], pmus, boxes, all, sums, nall);
	if (!rc)
		rc = run_events_setup_specs(re, all, NULL, sums, nall, mode, e);
	free(all);
	free(sums);
	free(boxes);
	free(specs);
	return rc;
}

int run_events_setup(struct run_events *re, const char *list, enum run_events_mode mode, struct err *e)
{
	return run_events_setup_in(re, list, mode, CTR_SYSFS_PMUS, e);
}

void run_events_free(struct run_events *re)
{
	ctr_plan_free(&re->plan);
	free(re->evs);
	memset(re, 0, sizeof *re);
}

static json_t *event_json(const struct ctr_event *ev)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:s}", "spec", ev->spec, "backend",
			 ctr_backend_name(ev->backend), "scope", ctr_scope_name(ev->scope), "encoding",
			 ev->encoding, "status", ctr_status_name(ev->status), "scale", ev->scale, "reason",
			 ev->reason);
}

/* The rows named as a box wildcard (the sum over its boxes, run_record.c): one entry each. */
static void box_sums_json(const struct run_events *re, json_t *evs)
{
	for (unsigned i = 0; i < re->nev; i++) {
		const struct ctr_event *ev = &re->evs[i];
		unsigned boxes = 0, seen = 0;
		char enc[128];
		json_t *o;

		for (unsigned j = 0; *ev->sum_of && j < re->nev; j++) {
			seen |= j < i && !strcmp(re->evs[j].sum_of, ev->sum_of);
			boxes += !strcmp(re->evs[j].sum_of, ev->sum_of);
		}
		if (!*ev->sum_of || seen)
			continue;
		boxes_sum_encoding(ev, boxes, enc, sizeof enc);
		o = json_pack("{s:s, s:s, s:s, s:s, s:I}", "spec", ev->sum_of, "backend",
			      ctr_backend_name(ev->backend), "scope", ctr_scope_name(ev->scope), "encoding",
			      enc, "boxes", (json_int_t)boxes);
		json_array_append_new(evs, o);
	}
}

json_t *run_events_json(const struct run_events *re)
{
	json_t *evs = json_array(), *groups = json_array();

	for (unsigned i = 0; i < re->nev; i++)
		json_array_append_new(evs, event_json(&re->evs[i]));
	box_sums_json(re, evs);
	for (unsigned i = 0; i < re->nfixed; i++)
		json_array_append_new(evs, event_json(&re->fixed[i]));
	for (unsigned g = 0; g < re->plan.ngroups; g++) {
		json_t *members = json_array();
		for (unsigned k = 0; k < re->plan.groups[g].n; k++)
			json_array_append_new(members, json_string(re->plan.groups[g].ev[k]->spec));
		json_array_append_new(groups, members);
	}
	return json_pack("{s:o, s:o}", "events", evs, "groups", groups);
}
