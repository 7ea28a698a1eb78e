/* test_ctr_avail_disabled.c — the availability report of a PAPI component that PAPI disabled after its
 * init had found PMUs. On a Zen 3 VM, as user nobody, PAPI's perf_event_uncore component finds
 * libpfm4's amd64_fam19h_zen3_l3 PMU, is then disabled by perf_event_paranoid, and frees the PMU names
 * it leaves in pmu_names[]: reading them was a heap-use-after-free (`pmucheck run` as nobody, under
 * ASan). The same state is made here on any machine: libpfm4 is forced to that uncore PMU
 * (LIBPFM_FORCE_PMU) and, when run as root, the process drops to nobody before PAPI starts. The
 * sanitizer pass (tests/san.sh) reports the read if it comes back; the assertions say the disabled
 * component lists no PMU names. */
#define _GNU_SOURCE /* setresuid */
#include <papi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctr.h"
#include "skip_why.h"

#define NOBODY 65534

static void test_disabled_component_lists_no_pmu_names(void **state)
{
	int cidx = PAPI_get_component_index("perf_event_uncore");
	json_t *o, *comps, *c;
	size_t i;

	(void)state;
	o = ctr_availability_json();
	if (cidx < 0 || !PAPI_get_component_info(cidx)->disabled) {
		json_decref(o);
		skip_why("perf_event_uncore stayed enabled here (perf_event_paranoid <= 0?)");
	}
	comps = json_object_get(json_object_get(o, "papi"), "components");
	assert_true(json_array_size(comps) > 0);
	json_array_foreach(comps, i, c)
	{
		if (json_is_true(json_object_get(c, "enabled")))
			continue;
		assert_int_equal(json_array_size(json_object_get(c, "pmus")), 0);
	}
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disabled_component_lists_no_pmu_names),
	};

	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3_l3", 1);
	if (geteuid() == 0 && (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY)))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
