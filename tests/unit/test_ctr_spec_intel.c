/* test_ctr_spec_intel.c — the core PMU's own spellings of the events Intel's fixed counters hold, as an
 * Intel CPU with three fixed counters plans them, on any CPU: ctr_on_fixed_counter is wrapped
 * (mk/unit_wrap.mk) to answer for such a CPU (ctr_fixed_holds with 3), and the specs are parsed against a
 * fake sysfs tree. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <linux/perf_event.h>

#include "ctr_int.h"
#include "fake_file.h"

unsigned __wrap_ctr_on_fixed_counter(uint32_t type, uint64_t config);

unsigned __wrap_ctr_on_fixed_counter(uint32_t type, uint64_t config)
{
	return ctr_fixed_holds(3, type, config);
}

static char root[128];

static void put(const char *rel, const char *text)
{
	assert_int_equal(fake_put_at(root, rel, text), 0);
}

/* Intel's core PMU as sysfs describes it, with its alias of reference cycles (event=0x00,umask=0x03). */
static int make_tree(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/pmucheck-sysfs.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("cpu/type", "4\n");
	put("cpu/format/event", "config:0-7,32-35\n");
	put("cpu/format/umask", "config:8-15\n");
	put("cpu/format/cmask", "config:24-31\n");
	put("cpu/events/ref-cycles", "event=0x00,umask=0x03\n");
	put("cpu/events/instructions", "event=0xc0\n");
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[160];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

static void parse(const char *spec, struct ctr_event *ev)
{
	struct err e = {""};

	memset(ev, 0, sizeof *ev);
	snprintf(ev->spec, sizeof ev->spec, "%s", spec);
	if (ctr_perf_parse(root, spec, ev, &e))
		fail_msg("%s: %s", spec, e.msg);
}

/* cpu/ref-cycles/ and its encoding by hand go on fixed counter 2 only, as the generic ref-cycles does: a
   group holding one gets no second (ctr_plan_groups; the kernel extends no pseudo-encoding to a general
   counter, and the two would not schedule together). Instructions by their event code go on fixed
   counter 0 or a general one; a umask, a cmask or another code is a general counter's. */
static void test_the_core_pmus_spellings_of_fixed_events_are_on_them(void **state)
{
	static const struct {
		const char *spec;
		unsigned fixed_counter;
	} cases[] = {{"cpu/ref-cycles/", 3},         {"cpu/event=0x0,umask=0x3/", 3},
		     {"cpu/instructions/", 1},       {"cpu/event=0xc0/", 1},
		     {"cpu/event=0x3c/", 2},         {"cpu/event=0xc0,umask=0x1/", 0},
		     {"cpu/event=0x3c,cmask=1/", 0}, {"cpu/event=0x2e,umask=0x41/", 0}};
	struct ctr_event ev;

	(void)state;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		parse(cases[i].spec, &ev);
		if (ev.fixed_counter != cases[i].fixed_counter)
			fail_msg("%s: fixed counter %u, not %u", cases[i].spec, ev.fixed_counter,
				 cases[i].fixed_counter);
		assert_int_equal(ev.uses_counter, !ev.fixed_counter && ev.counters > 0);
	}
}

/* The user's cpu/ref-cycles/ and the pool's ref-cycles never share a group: the group holding the user's has
   it in place of the pool's. The pool of 4 general counters stands in for this machine's (which may have
   none free: a guest without a PMU). */
static void test_the_users_ref_cycles_takes_the_pools_place(void **state)
{
	struct ctr_event evs[2], fixed[1];
	struct ctr_plan plan;
	struct err e = {""};

	(void)state;
	parse("cpu/ref-cycles/", &evs[0]);
	parse("cpu/event=0x2e,umask=0x41/", &evs[1]);
	parse("ref-cycles", &fixed[0]);
	assert_int_equal(fixed[0].fixed_counter, 3);
	fixed[0].fixed = true;
	for (unsigned i = 0; i < 3; i++) {
		struct ctr_event *ev = i < 2 ? &evs[i] : &fixed[0];

		snprintf(ev->pool, sizeof ev->pool, "cpu");
		ev->counters = 4;
		ev->uses_counter = !ev->fixed_counter;
	}
	if (ctr_plan_groups(evs, 2, fixed, 1, &plan, &e))
		fail_msg("%s", e.msg);
	for (unsigned g = 0; g < plan.ngroups; g++) {
		bool users = false, pools = false;

		for (unsigned i = 0; i < plan.groups[g].n; i++) {
			users |= plan.groups[g].ev[i] == &evs[0];
			pools |= plan.groups[g].ev[i] == &fixed[0];
		}
		if (users && pools)
			fail_msg("group %u holds cpu/ref-cycles/ and the pool's ref-cycles", g);
	}
	ctr_plan_free(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_core_pmus_spellings_of_fixed_events_are_on_them),
		cmocka_unit_test(test_the_users_ref_cycles_takes_the_pools_place),
	};
	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
