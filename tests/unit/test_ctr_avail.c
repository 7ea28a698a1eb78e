/* test_ctr_avail.c — the counter availability report says what the machine really has, and its PMU list
 * (and `list events`') holds every PMU of a fake sysfs tree of a big machine's size. */
#include <dirent.h>
#include <papi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ctr_int.h"
#include "fake_file.h"

#define FAKE_PMUS 150 /* a two-socket Sapphire Rapids has over 100 */

static char fake[] = "/tmp/pmucheck-avail.XXXXXX";

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

/* FAKE_PMUS uncore_cha_<i> boxes, type 100 + i, a cpumask on the even ones and a clockticks alias each:
   over 2 KiB of names, where the lists held 1 KiB (77 of 88 PMUs, the last cut short). */
static int make_tree(void **state)
{
	char rel[128], text[32];

	(void)state;
	if (!mkdtemp(fake))
		return -1;
	for (int i = 0; i < FAKE_PMUS; i++) {
		snprintf(rel, sizeof rel, "uncore_cha_%d/type", i);
		snprintf(text, sizeof text, "%d\n", 100 + i);
		if (fake_put_at(fake, rel, text))
			return -1;
		snprintf(rel, sizeof rel, "uncore_cha_%d/events/clockticks", i);
		if (fake_put_at(fake, rel, "event=0x0\n"))
			return -1;
		snprintf(rel, sizeof rel, "uncore_cha_%d/cpumask", i);
		if (i % 2 == 0 && fake_put_at(fake, rel, "0\n"))
			return -1;
	}
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[320];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake);
	return system(cmd) ? -1 : 0;
}

/* The box of an entry of either list, -1 when it names none; each seen once. */
static int box_of(const json_t *pmu, bool seen[FAKE_PMUS])
{
	int i, n = -1;

	if (sscanf(json_string_value(json_object_get(pmu, "name")), "uncore_cha_%d%n", &i, &n) != 1 ||
	    n != (int)strlen(json_string_value(json_object_get(pmu, "name"))) || i < 0 || i >= FAKE_PMUS ||
	    seen[i])
		return -1;
	seen[i] = true;
	return i;
}

static void test_every_pmu_of_a_big_machine_is_listed_with_its_type_and_scope(void **state)
{
	json_t *pmus = ctr_sysfs_pmus_json(fake), *p;
	bool seen[FAKE_PMUS] = {false};
	size_t k;

	(void)state;
	assert_int_equal(json_array_size(pmus), FAKE_PMUS);
	json_array_foreach(pmus, k, p)
	{
		int i = box_of(p, seen);
		assert_true(i >= 0);
		assert_int_equal(json_integer_value(json_object_get(p, "type")), 100 + i);
		assert_string_equal(json_string_value(json_object_get(p, "scope")),
				    i % 2 ? "thread" : "socket");
	}
	json_decref(pmus);
}

static void test_list_events_gives_every_pmu_of_a_big_machine_with_its_aliases(void **state)
{
	json_t *pmus = ctr_list_pmus_json(fake), *p;
	bool seen[FAKE_PMUS] = {false};
	size_t k;

	(void)state;
	assert_int_equal(json_array_size(pmus), FAKE_PMUS);
	json_array_foreach(pmus, k, p)
	{
		json_t *aliases = json_object_get(p, "aliases");
		assert_true(box_of(p, seen) >= 0);
		assert_int_equal(json_array_size(aliases), 1);
		assert_string_equal(json_string_value(json_array_get(aliases, 0)), "clockticks");
	}
	json_decref(pmus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_lists_every_sysfs_pmu),
		cmocka_unit_test(test_json_paranoid_matches_procfs),
		cmocka_unit_test(test_json_gives_papi_disabled_reasons_verbatim),
		cmocka_unit_test(test_no_hardware_is_explained_with_what_to_do),
		cmocka_unit_test(test_every_pmu_of_a_big_machine_is_listed_with_its_type_and_scope),
		cmocka_unit_test(test_list_events_gives_every_pmu_of_a_big_machine_with_its_aliases),
	};
	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
