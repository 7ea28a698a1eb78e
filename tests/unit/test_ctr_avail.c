/* test_ctr_avail.c — the counter availability report says what the machine really has. */
#include <dirent.h>
#include <papi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ctr.h"

static json_t *find_by_name(const json_t *array, const char *name)
{
	json_t *v;
	size_t i;

	json_array_foreach(array, i,
			   v) if (!strcmp(json_string_value(json_object_get(v, "name")), name)) return v;
	return NULL;
}

static void test_json_lists_every_sysfs_pmu(void **state)
{
	json_t *o = ctr_availability_json();
	json_t *pmus = json_object_get(json_object_get(o, "perf_event"), "pmus");
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	size_t n = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		assert_non_null(find_by_name(pmus, de->d_name));
		n++;
	}
	closedir(d);
	assert_int_equal(json_array_size(pmus), n);
	json_decref(o);
}

static void test_json_paranoid_matches_procfs(void **state)
{
	json_t *o = ctr_availability_json();
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int want;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &want), 1);
	fclose(f);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "perf_event"), "paranoid")),
			 want);
	json_decref(o);
}

static void test_json_gives_papi_disabled_reasons_verbatim(void **state)
{
	json_t *o = ctr_availability_json();
	json_t *comps = json_object_get(json_object_get(o, "papi"), "components");

	(void)state;
	assert_int_equal(json_array_size(comps), PAPI_num_components());
	for (int i = 0; i < PAPI_num_components(); i++) {
		const PAPI_component_info_t *c = PAPI_get_component_info(i);
		json_t *j = find_by_name(comps, c->name);
		assert_non_null(j);
		assert_int_equal(json_is_true(json_object_get(j, "enabled")), !c->disabled);
		if (c->disabled)
			assert_string_equal(json_string_value(json_object_get(j, "disabled_reason")),
					    c->disabled_reason);
	}
	json_decref(o);
}

/* Without a PMU the report says why, and the problem list says what to do. */
static void test_no_hardware_is_explained_with_what_to_do(void **state)
{
	char reason[CTR_REASON_MAX] = "";
	json_t *o = ctr_availability_json();
	int hw = ctr_hardware_available(reason, sizeof reason);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(json_is_true(json_object_get(o, "hardware")), hw);
	ctr_availability_print(f);
	fclose(f);
	assert_non_null(strstr(text, "perf_event_paranoid"));
	assert_non_null(strstr(text, "NMI watchdog"));
	assert_non_null(strstr(text, "rdpmc"));
	if (!hw) {
		assert_true(strlen(reason) > 20);
		assert_string_equal(json_string_value(json_object_get(o, "reason")), reason);
		assert_non_null(strstr(text, reason));
		assert_non_null(strstr(text, "what to do: hardware events will be recorded as not_measured"));
	}
	free(text);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_lists_every_sysfs_pmu),
		cmocka_unit_test(test_json_paranoid_matches_procfs),
		cmocka_unit_test(test_json_gives_papi_disabled_reasons_verbatim),
		cmocka_unit_test(test_no_hardware_is_explained_with_what_to_do),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
