/* ctr_list.c — `pmucheck list events`: what each backend can count on this machine. */
#include <dirent.h>
#include <papi.h>
#include <stdio.h>
#include <string.h>

#include "ctr_int.h"

static void list_named(FILE *f)
{
	char last[CTR_REASON_MAX] = "";
	const char *name;

	fprintf(f, "perf: software and generic events\n");
	for (unsigned i = 0; (name = ctr_perf_named_event(i)); i++) {
		struct ctr_event ev;
		ctr_resolve(name, &ev, NULL);
		fprintf(f, "  %-18s %s", name, ctr_status_name(ev.status));
		/* The generic hardware events all fail for one reason: say it once. */
		if (ev.status != CTR_OK)
			fprintf(f, ": %s", strcmp(ev.reason, last) ? ev.reason : "as above");
		fputc('\n', f);
		snprintf(last, sizeof last, "%s", ev.reason);
	}
}

static void list_aliases(FILE *f, const char *pmu)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	unsigned n = 0;

	snprintf(path, sizeof path, CTR_SYSFS_PMUS "/%s/events", pmu);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue; /* .scale, .unit and friends describe an alias, they are none */
		fprintf(f, "%s%s/%s/", n++ % 4 ? "  " : "\n    ", pmu, de->d_name);
	}
	closedir(d);
}

static void list_sysfs(FILE *f)
{
	char names[1024], *save, *t;

	ctr_dir_names(CTR_SYSFS_PMUS, names, sizeof names);
	fprintf(f, "perf: PMUs in " CTR_SYSFS_PMUS " (use pmu/term=value,.../ or pmu/alias/)\n");
	for (t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		fprintf(f, "  %s", t);
		list_aliases(f, t);
		fputc('\n', f);
	}
}

static void list_papi(FILE *f)
{
	char reason[CTR_REASON_MAX], name[PAPI_HUGE_STR_LEN];

	if (ctr_papi_init(reason, sizeof reason)) {
		fprintf(f, "papi: unavailable: %s\n", reason);
		return;
	}
	fprintf(f, "papi: components (names as papi_native_avail gives them)\n");
	for (int i = 0; i < PAPI_num_components(); i++) {
		const PAPI_component_info_t *c = PAPI_get_component_info(i);
		int code = PAPI_NATIVE_MASK, n = 0;
		if (c->disabled) {
			fprintf(f, "  %s: disabled: %s\n", c->name, c->disabled_reason);
			continue;
		}
		fprintf(f, "  %s:", c->name);
		if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, i) == PAPI_OK) {
			do {
				if (PAPI_event_code_to_name(code, name) == PAPI_OK)
					fprintf(f, "\n    %s", name), n++;
			} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, i) == PAPI_OK);
		}
		fprintf(f, "%s\n", n ? "" : " no native events");
	}
}

void ctr_list_events(FILE *f)
{
	list_named(f);
	list_sysfs(f);
	list_papi(f);
}
