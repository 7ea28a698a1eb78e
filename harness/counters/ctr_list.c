/* ctr_list.c — `pmucheck list events`: what each backend can count on this machine. The facts are
 * gathered once, as JSON (`--json` prints that); the text listing is printed from the same object. */
#include <dirent.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctr_int.h"

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *named_json(void)
{
	json_t *arr = json_array();
	const char *name;

	for (unsigned i = 0; (name = ctr_perf_named_event(i)); i++) {
		struct ctr_event ev;
		ctr_resolve(name, &ev, NULL);
		json_array_append_new(arr,
				      json_pack("{s:s, s:s, s:o}", "name", name, "status",
						ctr_status_name(ev.status), "reason",
						str_or_null(ev.status == CTR_OK ? NULL : ev.reason)));
	}
	return arr;
}

static json_t *aliases_json(const char *pmus, const char *pmu)
{
	json_t *arr = json_array();
	char path[512];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof path, "%s/%s/events", pmus, pmu);
	d = opendir(path);
	if (!d)
		return arr;
	while ((de = readdir(d)))
		/* .scale, .unit and friends describe an alias, they are none */
		if (de->d_name[0] != '.' && !strchr(de->d_name, '.'))
			json_array_append_new(arr, json_string(de->d_name));
	closedir(d);
	return arr;
}

json_t *ctr_list_pmus_json(const char *pmus)
{
	char *names = ctr_dir_names(pmus), *save, *t;
	json_t *arr = json_array();

	for (t = names ? strtok_r(names, " ", &save) : NULL; t; t = strtok_r(NULL, " ", &save))
		json_array_append_new(arr,
				      json_pack("{s:s, s:o}", "name", t, "aliases", aliases_json(pmus, t)));
	free(names);
	return arr;
}

static json_t *component_events(int cidx)
{
	char name[PAPI_HUGE_STR_LEN];
	int code = PAPI_NATIVE_MASK;
	json_t *arr = json_array();

	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
		return arr;
	do {
		if (PAPI_event_code_to_name(code, name) == PAPI_OK)
			json_array_append_new(arr, json_string(name));
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	return arr;
}

static json_t *papi_json(void)
{
	char reason[CTR_REASON_MAX];
	json_t *comps;

	if (ctr_papi_init(reason, sizeof reason))
		return json_pack("{s:b, s:s, s:[]}", "available", 0, "reason", reason, "components");
	comps = json_array();
	for (int i = 0; i < PAPI_num_components(); i++) {
		const PAPI_component_info_t *c = PAPI_get_component_info(i);
		json_array_append_new(comps,
				      json_pack("{s:s, s:b, s:o, s:o}", "name", c->name, "disabled",
						c->disabled != 0, "reason",
						str_or_null(c->disabled ? c->disabled_reason : NULL),
						"events", c->disabled ? json_array() : component_events(i)));
	}
	return json_pack("{s:b, s:n, s:o}", "available", 1, "reason", "components", comps);
}

json_t *ctr_list_events_json(void)
{
	return json_pack("{s:{s:o, s:o}, s:o}", "perf", "named", named_json(), "pmus",
			 ctr_list_pmus_json(CTR_SYSFS_PMUS), "papi", papi_json());
}

static void print_named(FILE *f, const json_t *named)
{
	const char *last = "";
	size_t i;
	json_t *ev;

	fprintf(f, "perf: software and generic events\n");
	json_array_foreach(named, i, ev)
	{
		const char *reason = json_string_value(json_object_get(ev, "reason"));
		fprintf(f, "  %-18s %s", json_string_value(json_object_get(ev, "name")),
			json_string_value(json_object_get(ev, "status")));
		/* The generic hardware events all fail for one reason: say it once. */
		if (reason)
			fprintf(f, ": %s", strcmp(reason, last) ? reason : "as above");
		fputc('\n', f);
		last = reason ? reason : "";
	}
}

static void print_pmus(FILE *f, const json_t *pmus)
{
	size_t i, k;
	json_t *pmu, *alias;

	fprintf(f, "perf: PMUs in " CTR_SYSFS_PMUS " (use pmu/term=value,.../ or pmu/alias/)\n");
	json_array_foreach(pmus, i, pmu)
	{
		const char *name = json_string_value(json_object_get(pmu, "name"));
		fprintf(f, "  %s", name);
		json_array_foreach(json_object_get(pmu, "aliases"), k, alias)
			fprintf(f, "%s%s/%s/", k % 4 ? "  " : "\n    ", name, json_string_value(alias));
		fputc('\n', f);
	}
}

static void print_papi(FILE *f, const json_t *papi)
{
	size_t i, k;
	json_t *c, *ev;

	if (!json_is_true(json_object_get(papi, "available"))) {
		fprintf(f, "papi: unavailable: %s\n", json_string_value(json_object_get(papi, "reason")));
		return;
	}
	fprintf(f, "papi: components (names as papi_native_avail gives them)\n");
	json_array_foreach(json_object_get(papi, "components"), i, c)
	{
		const json_t *evs = json_object_get(c, "events");
		const char *name = json_string_value(json_object_get(c, "name"));
		if (json_is_true(json_object_get(c, "disabled"))) {
			fprintf(f, "  %s: disabled: %s\n", name,
				json_string_value(json_object_get(c, "reason")));
			continue;
		}
		fprintf(f, "  %s:", name);
		json_array_foreach(evs, k, ev) fprintf(f, "\n    %s", json_string_value(ev));
		fprintf(f, "%s\n", json_array_size(evs) ? "" : " no native events");
	}
}

void ctr_list_events_print(const json_t *list, FILE *f)
{
	print_named(f, json_object_get(json_object_get(list, "perf"), "named"));
	print_pmus(f, json_object_get(json_object_get(list, "perf"), "pmus"));
	print_papi(f, json_object_get(list, "papi"));
}
