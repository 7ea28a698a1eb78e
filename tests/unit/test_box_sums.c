/* test_box_sums.c — the boxes of a config's wildcard (uncore_imc_*) are written per box and summed per
 * repetition into a row named as the wildcard; a box that was not counted makes the sum not measured or
 * failed, naming the box. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_events.h"
#include "run_record.h"

#define WILD "uncore_imc_*/cas_count_read/"

static char dir[] = "/tmp/pmucheck-boxsum.XXXXXX";
/* The wildcard rows' time_enabled and time_running per repetition, from the last run(). */
static char enabled[2][32], running[2][32];

/* Field `col` of a CSV line (RFC 4180 quotes) into out. */
static void field(const char *line, int col, char *out, size_t len)
{
	size_t n = 0;
	int quoted = 0;

	for (int c = 0; *line && *line != '\n'; line++) {
		if (*line == '"') {
			if (quoted && line[1] == '"' && c == col && n + 1 < len)
				out[n++] = *++line;
			else
				quoted = !quoted;
		} else if (*line == ',' && !quoted) {
			if (c++ == col)
				break;
		} else if (c == col && n + 1 < len) {
			out[n++] = *line;
		}
	}
	out[n] = '\0';
}

static int column(const char *header, const char *name)
{
	char f[64];

	for (int c = 0; c < 200; c++) {
		field(header, c, f, sizeof f);
		if (!strcmp(f, name))
			return c;
	}
	return -1;
}

/* Two boxes, each its own group (a perf group cannot span PMUs), so each counted in a pass of its own that
   lasts its own time (box 1's 10 ns longer); two repetitions. Box 1's count in
   repetition `failed_rep` failed (-1: none); the last `absent` boxes (0, 1 or 2) cannot be counted here,
   so no group is planned for them. Writes raw.csv and returns the wildcard rows' count and status per
   repetition. */
static void run(int failed_rep, int absent, char count[2][32], char status[2][32], char reason[2][320])
{
	static struct ctr_event evs[2];
	const struct kern_family *f = kern_family_find("load");
	struct plan_point pt = {.fam = f, .var = &f->variants[0], .bytes = 4096, .threads = 1};
	struct plan plan = {.points = &pt, .npoints = 1};
	struct run_config cfg = {0};
	struct run_events re = {0};
	struct raw_writer w;
	struct run_state s = {0};
	struct record_labels l = {"0", "0", "local", "", 2e9, 0, "0:threads+memory"};
	struct point_record r;
	struct err e;
	char line[4096], header[4096], path[300], f_ev[300];
	FILE *in;
	int npass;

	snprintf(cfg.plan.pf_states[0], sizeof cfg.plan.pf_states[0], "uncontrolled");
	for (int b = 0; b < 2; b++) {
		memset(&evs[b], 0, sizeof evs[b]);
		snprintf(evs[b].spec, sizeof evs[b].spec, "uncore_imc_%d/cas_count_read/", b);
		snprintf(evs[b].pool, sizeof evs[b].pool, "uncore_imc_%d", b);
		snprintf(evs[b].sum_of, sizeof evs[b].sum_of, WILD);
		evs[b].backend = CTR_PERF;
		evs[b].scope = CTR_SCOPE_SOCKET;
		evs[b].counters = 4;
		evs[b].uses_counter = true;
		if (b >= 2 - absent) {
			evs[b].status = CTR_NOT_MEASURED;
			snprintf(evs[b].reason, sizeof evs[b].reason, "no PMU 'uncore_imc_%d'", b);
		}
	}
	re.evs = evs;
	re.nev = 2;
	assert_int_equal(ctr_plan_groups(evs, 2, NULL, 0, &re.plan, &e), 0);
	assert_int_equal(re.plan.ngroups, 2 - absent);
	npass = absent == 2 ? 1 : 2 - absent; /* a point without groups still has one pass: its time */
	assert_int_equal(raw_create(&w, dir, &e), 0);
	s.cfg = &cfg;
	s.plan = &plan;
	s.raw = &w;
	s.events = &re;
	s.tsc_hz = 2e9;
	assert_int_equal(record_init(&r, 2, npass), 0);
	for (int rep = 0; rep < 2; rep++)
		for (int g = 0; g < npass; g++) {
			struct rec_pass *p = record_pass(&r, rep, g);
			p->ticks = 1000;
			p->lo = 1000;
			p->hi = 2000;
			p->ev[0] = (struct rec_event){.has_count = 1,
						      .count = 100 * (g + 1) + rep,
						      .time_enabled = 50 + 10 * (uint64_t)g,
						      .time_running = 50 + 10 * (uint64_t)g,
						      .status = CTR_OK};
			if (rep == failed_rep && g == 1) {
				p->ev[0].has_count = 0;
				p->ev[0].status = CTR_FAILED;
				snprintf(p->ev[0].reason, sizeof p->ev[0].reason, "read failed");
			}
		}
	record_write(&s, 0, &r, &l, 0);
	assert_int_equal(raw_flush(&w, &e), 0);
	assert_int_equal(raw_close(&w, &e), 0);
	record_free(&r);
	ctr_plan_free(&re.plan);

	snprintf(path, sizeof path, "%s/raw.csv", dir);
	assert_non_null(in = fopen(path, "r"));
	assert_non_null(fgets(header, sizeof header, in));
	while (fgets(line, sizeof line, in)) {
		char rep[8];
		field(line, column(header, "event"), f_ev, sizeof f_ev);
		if (strcmp(f_ev, WILD))
			continue;
		field(line, column(header, "rep"), rep, sizeof rep);
		field(line, column(header, "count"), count[atoi(rep)], 32);
		field(line, column(header, "status"), status[atoi(rep)], 32);
		field(line, column(header, "reason"), reason[atoi(rep)], 320);
		field(line, column(header, "time_enabled"), enabled[atoi(rep)], 32);
		field(line, column(header, "time_running"), running[atoi(rep)], 32);
		field(line, column(header, "uncore"), f_ev, sizeof f_ev);
		assert_string_equal(f_ev, "0:threads+memory");
	}
	fclose(in);
	remove(path);
}

static void test_boxes_sum_per_repetition(void **state)
{
	char count[2][32] = {"", ""}, status[2][32] = {"", ""}, reason[2][320];

	(void)state;
	run(-1, 0, count, status, reason);
	assert_string_equal(count[0], "300"); /* 100 + 200 */
	assert_string_equal(count[1], "302"); /* 101 + 201 */
	assert_string_equal(status[0], "ok");
	assert_string_equal(status[1], "ok");
}

/* Each box ran all the time it was enabled, but in its own pass: the sum ran all its time too. A sum
   that took the longest enabled time beside the shortest running one read as multiplexed, and analyze
   dropped every reading of a sum of boxes counted on real uncore PMUs. */
static void test_boxes_timed_in_their_own_passes_sum_unmultiplexed(void **state)
{
	char count[2][32] = {"", ""}, status[2][32] = {"", ""}, reason[2][320];

	(void)state;
	run(-1, 0, count, status, reason);
	for (int rep = 0; rep < 2; rep++) {
		assert_string_equal(status[rep], "ok");
		assert_string_equal(enabled[rep], "60");
		assert_string_equal(running[rep], enabled[rep]);
	}
}

static void test_a_failed_box_fails_the_sum_and_is_named(void **state)
{
	char count[2][32] = {"", ""}, status[2][32] = {"", ""}, reason[2][320];

	(void)state;
	run(1, 0, count, status, reason);
	assert_string_equal(status[0], "ok");
	assert_string_equal(status[1], "failed");
	assert_string_equal(count[1], "");
	assert_non_null(strstr(reason[1], "uncore_imc_1"));
	assert_non_null(strstr(reason[1], "read failed"));
}

/* Where no box can be counted (a VM, a machine of another make), and so nothing at all, the wildcard still
   gets its rows, not measured with the box's reason: the analysis judges the config's hypothesis by them. */
static void test_a_sum_of_boxes_never_counted_is_not_measured(void **state)
{
	char count[2][32] = {"", ""}, status[2][32] = {"", ""}, reason[2][320] = {"", ""};

	(void)state;
	run(-1, 2, count, status, reason);
	for (int rep = 0; rep < 2; rep++) {
		assert_string_equal(status[rep], "not_measured");
		assert_string_equal(count[rep], "");
		assert_non_null(strstr(reason[rep], "no PMU 'uncore_imc_0'"));
	}
}

/* A sum one of whose boxes cannot be counted here is not measured, and so has no reading: the times of the
   boxes that were counted are not its own. raw.csv gave it box 0's time_enabled and time_running (50), a
   not measured row with times that no not measured event has (event_fields). */
static void test_a_sum_missing_a_box_has_no_times(void **state)
{
	char count[2][32] = {"", ""}, status[2][32] = {"", ""}, reason[2][320] = {"", ""};

	(void)state;
	run(-1, 1, count, status, reason);
	for (int rep = 0; rep < 2; rep++) {
		assert_string_equal(status[rep], "not_measured");
		assert_string_equal(count[rep], "");
		assert_non_null(strstr(reason[rep], "no PMU 'uncore_imc_1'"));
		assert_string_equal(enabled[rep], "0");
		assert_string_equal(running[rep], "0");
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boxes_sum_per_repetition),
		cmocka_unit_test(test_boxes_timed_in_their_own_passes_sum_unmultiplexed),
		cmocka_unit_test(test_a_failed_box_fails_the_sum_and_is_named),
		cmocka_unit_test(test_a_sum_of_boxes_never_counted_is_not_measured),
		cmocka_unit_test(test_a_sum_missing_a_box_has_no_times),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
