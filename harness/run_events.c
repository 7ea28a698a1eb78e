#include <stdlib.h>
#include <string.h>

#include "run_events.h"

static int resolve_one(struct ctr_event *ev, const char *spec, int keep_going, struct err *e)
{
	struct err one;
	int rc = ctr_resolve(spec, ev, &one);

	if (rc) {
		if (!keep_going)
			return err_set(e, rc, "--events: %s (--keep-going records it as failed and goes on)",
				       one.msg);
		snprintf(ev->spec, sizeof ev->spec, "%s", spec);
		ev->status = CTR_FAILED;
		snprintf(ev->reason, sizeof ev->reason, "%s", one.msg);
		return 0;
	}
	if (ev->status != CTR_OK && !keep_going)
		return err_set(e, E_USAGE, "--events: '%s' cannot be counted on this machine: %s (--keep-going "
			       "records it as not measured and goes on)", spec, ev->reason);
	return 0;
}

int run_events_setup(struct run_events *re, const char *list, int keep_going, struct err *e)
{
	char **specs = NULL;
	int rc;

	memset(re, 0, sizeof *re);
	if (!list)
		return 0;
	rc = ctr_split_list(list, &specs, &re->nev, e);
	if (rc)
		return err_wrap(e, rc, "--events");
	re->evs = calloc(re->nev, sizeof *re->evs);
	for (unsigned i = 0; i < re->nev && !rc; i++) {
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(specs[i], specs[j]))
				rc = err_set(e, E_USAGE, "--events: '%s' is listed twice", specs[i]);
		if (!rc)
			rc = resolve_one(&re->evs[i], specs[i], keep_going, e);
	}
	free(specs);
	if (!rc) {
		re->nfixed = ctr_fixed_events(re->fixed);
		rc = ctr_plan_groups(re->evs, re->nev, re->fixed, re->nfixed, &re->plan, e);
	}
	if (rc)
		run_events_free(re);
	return rc;
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
			 ctr_backend_name(ev->backend), "scope", ctr_scope_name(ev->scope), "encoding", ev->encoding,
			 "status", ctr_status_name(ev->status), "scale", ev->scale, "reason", ev->reason);
}

json_t *run_events_json(const struct run_events *re)
{
	json_t *evs = json_array(), *groups = json_array();

	for (unsigned i = 0; i < re->nev; i++)
		json_array_append_new(evs, event_json(&re->evs[i]));
	for (unsigned i = 0; i < re->nfixed; i++)
		json_array_append_new(evs, event_json(&re->fixed[i]));
	for (unsigned g = 0; g < re->plan.ngroups; g++) {
		json_t *members = json_array();
		for (unsigned k = 0; k < re->plan.groups[g].n; k++)
			json_array_append_new(members, json_string(re->plan.groups[g].ev[k]->spec));
		json_array_append_new(groups, members);
	}
	return json_pack("{s:o, s:o, s:o}", "events", evs, "groups", groups, "availability",
			 ctr_availability_json());
}
