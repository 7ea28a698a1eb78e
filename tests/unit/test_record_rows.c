/* test_record_rows.c — the rows record_write gives an event that is not counted: beside the first
 * group's rows, with its status and reason and no reading of its own, not the times of the counted row
 * written before it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "raw_read.h"
#include "run_events.h"
#include "run_record.h"

static char dir[] = "/tmp/pmucheck-recrows.XXXXXX";

/* The rows read back, by event. */
struct seen {
	int pf, hw;
};

static int check_row(const struct raw_row *row, void *ctx, struct err *e)
{
	struct seen *s = ctx;

	(void)e;
	if (!strcmp(row->event, "page-faults")) {
		assert_int_equal(row->status, RS_OK);
		assert_int_equal(row->time_enabled, 7336486);
		assert_int_equal(row->time_running, 7336486);
		s->pf++;
	} else if (!strcmp(row->event, "cpu/event=0x3c/")) {
		assert_int_equal(row->status, RS_NOT_MEASURED);
		assert_string_equal(row->reason, "no PMU 'cpu'");
		assert_false(row->has_count);
		assert_int_equal(row->time_enabled, 0);
		assert_int_equal(row->time_running, 0);
		s->hw++;
	}
	return 0;
}

/* A run with page-faults counted and cpu/event=0x3c/ not measured (no core PMU): the cycles row came
   out as ",7336486,7336486,not_measured", page-faults' times, which it never had. */
static void test_a_not_measured_event_has_no_times(void **state)
{
	static struct ctr_event evs[2] = {
		{.spec = "page-faults", .backend = CTR_PERF, .pool = "software", .status = CTR_OK},
		{.spec = "cpu/event=0x3c/",
		 .backend = CTR_PERF,
		 .pool = "cpu",
		 .status = CTR_NOT_MEASURED,
		 .reason = "no PMU 'cpu'"},
	};
	const struct kern_family *f = kern_family_find("touch");
	struct plan_point pt = {.fam = f, .var = &f->variants[0], .bytes = 4096, .threads = 1};
	struct plan plan = {.points = &pt, .npoints = 1};
	struct run_config cfg = {0};
	struct run_events re = {.evs = evs, .nev = 2};
	struct raw_writer w;
	struct run_state s = {.cfg = &cfg, .plan = &plan, .raw = &w, .events = &re, .tsc_hz = 2e9};
	struct record_labels l = {"0", "0", "local", "", 2e9, 0, ""};
	struct point_record r;
	struct seen seen = {0};
	struct err e;
	char path[300];
	unsigned long rows;

	(void)state;
	snprintf(cfg.plan.pf_states[0], sizeof cfg.plan.pf_states[0], "uncontrolled");
	assert_int_equal(ctr_plan_groups(evs, 2, NULL, 0, &re.plan, &e), 0);
	assert_int_equal(re.plan.ngroups, 1);
	assert_int_equal(raw_create(&w, dir, &e), 0);
	assert_int_equal(record_init(&r, 2, 1), 0);
	r.reps = 1; /* touch's R: its memory is fresh in every call */
	for (int rep = 0; rep < 2; rep++) {
		struct rec_pass *p = record_pass(&r, rep, 0);
		p->ticks = 1000;
		p->lo = 1000;
		p->hi = 2000;
		p->ev[0] = (struct rec_event){.has_count = 1,
					      .count = 1,
					      .time_enabled = 7336486,
					      .time_running = 7336486,
					      .status = CTR_OK};
	}
	record_write(&s, 0, &r, &l, 0);
	assert_int_equal(raw_flush(&w, &e), 0);
	assert_int_equal(raw_close(&w, &e), 0);
	record_free(&r);
	ctr_plan_free(&re.plan);
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	if (raw_read(path, check_row, &seen, &rows, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(seen.pf, 2);
	assert_int_equal(seen.hw, 2);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

/* Also after a failed assertion, which leaves the test before its end. */
static int teardown(void **state)
{
	char path[300];

	(void)state;
	snprintf(path, sizeof path, "%s/raw.csv", dir);
	remove(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_not_measured_event_has_no_times),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
