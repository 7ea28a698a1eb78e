/* test_boxes.c — a config's box wildcard becomes one event per box the machine has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "boxes.h"
#include "run_events.h"

static char root[] = "/tmp/pmucheck-boxes.XXXXXX";

static int setup(void **state)
{
	static const char *const pmus[] = {"uncore_imc_0", "uncore_imc_1", "uncore_imc_10",
					   "uncore_imc_x", "uncore_imc_",  "cpu",
					   "amd_umc_0",    "uncore_arb",   "amd_df"};
	/* the uncore units of one box have a cpumask, as the kernel gives every uncore PMU; "cpu" has none */
	static const char *const masked[] = {"uncore_arb", "amd_df"};
	char path[256];
	FILE *f;

	(void)state;
	if (!mkdtemp(root))
		return -1;
	for (size_t i = 0; i < sizeof pmus / sizeof *pmus; i++) {
		snprintf(path, sizeof path, "%s/%s", root, pmus[i]);
		if (mkdir(path, 0755))
			return -1;
	}
	for (size_t i = 0; i < sizeof masked / sizeof *masked; i++) {
		snprintf(path, sizeof path, "%s/%s/cpumask", root, masked[i]);
		if (!(f = fopen(path, "w")) || fputs("0\n", f) < 0 || fclose(f))
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	return system(cmd);
}

static void test_perf_wildcard_expands_to_numbered_boxes_only(void **state)
{
	char out[BOXES_MAX][CTR_SPEC_MAX];
	unsigned n;

	(void)state;
	n = boxes_expand("uncore_imc_*/event=0x04,umask=0x0f/", root, out, BOXES_MAX);
	assert_int_equal(n, 3);
	assert_string_equal(out[0], "uncore_imc_0/event=0x04,umask=0x0f/");
	assert_string_equal(out[1], "uncore_imc_1/event=0x04,umask=0x0f/");
	assert_string_equal(out[2], "uncore_imc_10/event=0x04,umask=0x0f/");
	assert_int_equal(boxes_expand("amd_umc_*/event=0x0a,rdwrmask=0x1/", root, out, BOXES_MAX), 1);
	assert_int_equal(boxes_expand("amd_l3_*/event=0x04/", root, out, BOXES_MAX), 0);
}

/* The kernel numbers an uncore unit's boxes only where there are several: a client CPU's one ARB box is
   "uncore_arb", and the wildcard takes it where no numbered box exists. */
static void test_perf_wildcard_takes_a_unit_of_one_box(void **state)
{
	char out[BOXES_MAX][CTR_SPEC_MAX];

	(void)state;
	assert_int_equal(boxes_expand("uncore_arb_*/event=0x81,umask=0x01/", root, out, BOXES_MAX), 1);
	assert_string_equal(out[0], "uncore_arb/event=0x81,umask=0x01/");
	/* numbered boxes, where there are, are the boxes: "uncore_imc_" is neither */
	assert_int_equal(boxes_expand("uncore_imc_*/event=0x04/", root, out, BOXES_MAX), 3);
	assert_int_equal(boxes_expand("uncore_cha_*/event=0x04/", root, out, BOXES_MAX), 0);
}

/* Only the number the kernel leaves out is left out: "_<n>" of an uncore unit. A '*' after no '_' is no
   such number (amd_df is never numbered), and the core PMU, without a cpumask, is no box of "cpu_*". */
static void test_perf_wildcard_takes_no_other_pmu(void **state)
{
	char out[BOXES_MAX][CTR_SPEC_MAX];

	(void)state;
	assert_int_equal(boxes_expand("amd_df*/event=0x07/", root, out, BOXES_MAX), 0);
	assert_int_equal(boxes_expand("uncore_ar*/event=0x81/", root, out, BOXES_MAX), 0);
	assert_int_equal(boxes_expand("cpu_*/event=0x3c/", root, out, BOXES_MAX), 0);
	assert_int_equal(boxes_expand("cpu*/event=0x3c/", root, out, BOXES_MAX), 0);
	assert_int_equal(boxes_expand("amd_df_*/event=0x07/", root, out, BOXES_MAX), 1);
	assert_string_equal(out[0], "amd_df/event=0x07/");
}

/* A config's conflict tag is scoped to the box: each box has its own filter register. */
static void test_conflict_tag_is_per_box(void **state)
{
	char a[64], b[64], c[64];

	(void)state;
	boxes_conflict_tag("cha_filter", "skx_unc_cha3::UNC_C_LLC_LOOKUP:DATA_READ", a, sizeof a);
	assert_string_equal(a, "cha_filter@skx_unc_cha3");
	boxes_conflict_tag("cha_filter", "uncore_cha_12/event=0x34,umask=0x3/", b, sizeof b);
	assert_string_equal(b, "cha_filter@uncore_cha_12");
	/* a PAPI name whose '::' comes after a '/'-free PMU, and a bare name: the tag as written */
	boxes_conflict_tag("offcore", "OFFCORE_RESPONSE_0:DMND_DATA_RD", c, sizeof c);
	assert_string_equal(c, "offcore");
	boxes_conflict_tag("offcore", "/event=1/", c, sizeof c);
	assert_string_equal(c, "offcore");
}

static void test_only_a_star_in_the_pmu_name_is_a_wildcard(void **state)
{
	char out[BOXES_MAX][CTR_SPEC_MAX];

	(void)state;
	assert_true(boxes_wildcard("uncore_imc_*/cas_count_read/"));
	assert_true(boxes_wildcard("skx_unc_imc*::UNC_M_CAS_COUNT:RD"));
	assert_false(boxes_wildcard("cpu/event=0x3c/"));
	assert_false(boxes_wildcard("page-faults"));
	assert_false(boxes_wildcard("L1D:REPLACEMENT"));
	assert_int_equal(boxes_expand("cpu/event=0x3c/", root, out, BOXES_MAX), 0);
}

/* discover's candidates name the kind of box, whose wildcard the run expands again here */
static void test_box_kind_of_a_numbered_pmu(void **state)
{
	char k[64], out[BOXES_MAX][CTR_SPEC_MAX], spec[CTR_SPEC_MAX];

	(void)state;
	assert_int_equal(boxes_kind("uncore_imc_3", k, sizeof k), 1);
	assert_string_equal(k, "uncore_imc_*");
	assert_int_equal(boxes_kind("amd_umc_12", k, sizeof k), 1);
	assert_string_equal(k, "amd_umc_*");
	snprintf(spec, sizeof spec, "%s/cas_count_read/", "uncore_imc_*");
	assert_true(boxes_wildcard(spec));
	assert_true(boxes_expand(spec, root, out, BOXES_MAX) > 1);
	for (const char *const *p =
		     (const char *const[]){"amd_l3", "cpu", "msr", "uncore_imc", "x_", "_7", NULL};
	     *p; p++) {
		assert_int_equal(boxes_kind(*p, k, sizeof k), 0);
		assert_string_equal(k, *p);
	}
}

/* An event list (--events, and discover's candidates) takes a box wildcard as a config does: one event per
   box of the tree, each summed into the wildcard; without boxes it stays as written. */
static void test_an_event_list_expands_box_wildcards(void **state)
{
	struct run_events re;
	struct err e;

	(void)state;
	assert_int_equal(run_events_setup_in(&re, "uncore_imc_*/event=0x04,umask=0x0f/,page-faults",
					     RUN_EVENTS_KEEP_GOING, root, &e),
			 0);
	assert_int_equal(re.nev, 4);
	assert_string_equal(re.evs[0].spec, "uncore_imc_0/event=0x04,umask=0x0f/");
	assert_string_equal(re.evs[2].spec, "uncore_imc_10/event=0x04,umask=0x0f/");
	for (int i = 0; i < 3; i++)
		assert_string_equal(re.evs[i].sum_of, "uncore_imc_*/event=0x04,umask=0x0f/");
	assert_string_equal(re.evs[3].spec, "page-faults");
	assert_string_equal(re.evs[3].sum_of, "");
	run_events_free(&re);
	assert_int_equal(
		run_events_setup_in(&re, "uncore_cha_*/event=0x04/", RUN_EVENTS_KEEP_GOING, root, &e), 0);
	assert_int_equal(re.nev, 1);
	assert_string_equal(re.evs[0].spec, "uncore_cha_*/event=0x04/");
	run_events_free(&re);
}

/* The summed row carries a sysfs alias's scale and unit as its boxes do: perf stat prints the sum in that
   unit, which the perf export divides out. */
static void test_a_sum_carries_its_boxes_scale(void **state)
{
	struct ctr_event box = {.scale = 6.103515625e-05, .unit = "MiB"};
	char enc[128];

	(void)state;
	boxes_sum_encoding(&box, 4, enc, sizeof enc);
	assert_string_equal(enc, "sum of 4 boxes,domain=all,scale=6.103515625e-05,unit=MiB");
	box.scale = 1;
	boxes_sum_encoding(&box, 4, enc, sizeof enc);
	assert_string_equal(enc, "sum of 4 boxes,domain=all");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_wildcard_expands_to_numbered_boxes_only),
		cmocka_unit_test(test_an_event_list_expands_box_wildcards),
		cmocka_unit_test(test_a_sum_carries_its_boxes_scale),
		cmocka_unit_test(test_perf_wildcard_takes_a_unit_of_one_box),
		cmocka_unit_test(test_perf_wildcard_takes_no_other_pmu),
		cmocka_unit_test(test_only_a_star_in_the_pmu_name_is_a_wildcard),
		cmocka_unit_test(test_conflict_tag_is_per_box),
		cmocka_unit_test(test_box_kind_of_a_numbered_pmu),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
