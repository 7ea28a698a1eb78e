/* test_hypothesis.c — the config's hypothesis beside a verdict: each difference (quantity, scale, levels,
 * prefetch, scope) is named, a volume the data cannot tell from the configured one is no contradiction, what
 * the run did not measure is "not compared", and machine.json's hypotheses are read by raw.csv name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hypothesis.h"

#define B(x) (1u << (x))
#define ALL_SEEN (B(LV_L1) | B(LV_L2) | B(LV_L3) | B(LV_DRAM))

/* lines_read * 1 at L2, L3, DRAM for both prefetch states: an L1 fill counter */
static const struct hypo fill = {"l1.fill",
				 "L1D.REPLACEMENT",
				 RQ_lines_read,
				 1.0,
				 B(LV_L2) | B(LV_L3) | B(LV_DRAM),
				 B(PF_ON) | B(PF_OFF),
				 MSCOPE_NONE};

static struct verdict measured(int q, double ratio, unsigned levels, unsigned pf)
{
	struct verdict v = {.cls = VC_EXACT,
			    .quantity = q,
			    .scale = ratio,
			    .measured = ratio,
			    .levels = levels,
			    .prefetch = pf};
	snprintf(v.quantity_text, sizeof v.quantity_text, "%s", raw_quantity_names[q]);
	return v;
}

static enum hypo_agreement compare(const struct hypo *h, const struct verdict *v, unsigned levels,
				   unsigned pf, int same, char *why)
{
	struct hypo_seen seen = {levels, pf, same, MSCOPE_NONE, 0, 0};
	return hypo_compare(h, v, &seen, why, 300);
}

static void test_the_configured_volume_scale_levels_and_states_agree(void **state)
{
	struct verdict v = measured(RQ_lines_read, 1.02, B(LV_L2) | B(LV_L3) | B(LV_DRAM),
				    B(PF_ON) | B(PF_OFF));
	char why[300];

	(void)state;
	assert_int_equal(compare(&fill, &v, ALL_SEEN, B(PF_ON) | B(PF_OFF), 0, why), HYPO_AS_CONFIGURED);
	assert_string_equal(why, "");
}

static void test_a_wrong_scale_is_named_with_both_values(void **state)
{
	struct hypo dram = fill;
	struct verdict v = measured(RQ_lines_read, 1.0, B(LV_L2) | B(LV_L3) | B(LV_DRAM),
				    B(PF_ON) | B(PF_OFF));
	char why[300];

	(void)state;
	dram.scale = 0.125; /* one of 8 channels, judged on the sum of the boxes */
	assert_int_equal(compare(&dram, &v, ALL_SEEN, B(PF_ON) | B(PF_OFF), 0, why), HYPO_CONTRADICTS);
	assert_string_equal(why, "scale: configured 0.125, measured 1");
}

/* `expect = q * ?` (scale 0): an unknown share of q, so any measured ratio agrees; the table says '?' */
static void test_an_unknown_share_is_judged_by_its_quantity_only(void **state)
{
	struct hypo link = fill;
	struct verdict v = measured(RQ_lines_read, 0.3, B(LV_L2) | B(LV_L3) | B(LV_DRAM),
				    B(PF_ON) | B(PF_OFF));
	char why[300], text[200];

	(void)state;
	link.scale = 0;
	assert_int_equal(compare(&link, &v, ALL_SEEN, B(PF_ON) | B(PF_OFF), 0, why), HYPO_AS_CONFIGURED);
	assert_string_equal(why, "");
	hypo_text(&link, text, sizeof text);
	assert_string_equal(text, "lines_read * ? (L2, L3, DRAM; prefetch on or off)");
	v = measured(RQ_lines_written, 0.3, B(LV_L2) | B(LV_L3) | B(LV_DRAM), B(PF_ON) | B(PF_OFF));
	assert_int_equal(compare(&link, &v, ALL_SEEN, B(PF_ON) | B(PF_OFF), 0, why), HYPO_CONTRADICTS);
}

static void test_another_volume_contradicts_unless_the_data_cannot_tell_them_apart(void **state)
{
	struct verdict v = measured(RQ_stores, 1.0, B(LV_L2) | B(LV_L3) | B(LV_DRAM), B(PF_ON) | B(PF_OFF));
	char why[300];

	(void)state;
	assert_int_equal(compare(&fill, &v, ALL_SEEN, B(PF_ON), 0, why), HYPO_CONTRADICTS);
	assert_string_equal(why, "quantity: configured lines_read, measured stores");
	/* every measured point had as many stores as lines read: the verdict's pick is a tie */
	assert_int_equal(compare(&fill, &v, ALL_SEEN, B(PF_ON), 1, why), HYPO_AS_CONFIGURED);
}

static void test_levels_and_prefetch_states_where_it_fails_are_named(void **state)
{
	struct verdict v = measured(RQ_lines_read, 1.0, B(LV_L2), B(PF_OFF));
	char why[300];

	(void)state;
	assert_int_equal(compare(&fill, &v, ALL_SEEN, B(PF_ON) | B(PF_OFF), 0, why), HYPO_CONTRADICTS);
	assert_string_equal(
		why, "levels: does not hold at L3, DRAM; prefetch: does not hold with the prefetchers on");
	/* a level the run never measured is no contradiction, but is said to be untested */
	v.levels = B(LV_L2) | B(LV_L3);
	v.prefetch = B(PF_ON) | B(PF_OFF);
	assert_int_equal(compare(&fill, &v, B(LV_L1) | B(LV_L2) | B(LV_L3), B(PF_ON) | B(PF_OFF), 0, why),
			 HYPO_AS_CONFIGURED);
	assert_string_equal(why, "untested at DRAM");
}

static void test_what_the_run_could_not_test_is_not_compared(void **state)
{
	struct hypo off = fill, cyc = fill;
	struct verdict v = measured(RQ_lines_read, 1.0, B(LV_L2), B(PF_UNCONTROLLED));
	char why[300];

	(void)state;
	off.prefetch = B(PF_OFF);
	assert_int_equal(compare(&off, &v, ALL_SEEN, B(PF_UNCONTROLLED), 0, why), HYPO_NOT_COMPARED);
	assert_int_equal(compare(&fill, &v, B(LV_L1), B(PF_UNCONTROLLED), 0, why), HYPO_NOT_COMPARED);
	cyc.quantity = MACHINE_CYCLES;
	assert_int_equal(compare(&cyc, &v, ALL_SEEN, B(PF_UNCONTROLLED), 0, why), HYPO_NOT_COMPARED);
	v.cls = VC_NOT_MEASURED;
	assert_int_equal(compare(&fill, &v, ALL_SEEN, B(PF_UNCONTROLLED), 0, why), HYPO_NOT_COMPARED);
	assert_int_equal(compare(NULL, &v, ALL_SEEN, B(PF_UNCONTROLLED), 0, why), HYPO_NONE);
	v.cls = VC_UNRELATED;
	v.quantity = -1;
	v.quantity_text[0] = '\0';
	assert_int_equal(compare(&fill, &v, ALL_SEEN, B(PF_ON), 0, why), HYPO_CONTRADICTS);
	assert_string_equal(why, "quantity: configured lines_read, measured none (unrelated)");
}

static void test_a_scope_other_than_the_configured_one_contradicts(void **state)
{
	struct hypo imc = fill;
	struct verdict v = measured(RQ_lines_read, 1.0, B(LV_L2) | B(LV_L3) | B(LV_DRAM),
				    B(PF_ON) | B(PF_OFF));
	struct hypo_seen seen = {ALL_SEEN, B(PF_ON) | B(PF_OFF), 0, MSCOPE_CORE, 0, 0};
	char why[300];

	(void)state;
	imc.scope = MSCOPE_SOCKET;
	/* the volume agrees, the row was counted per thread: a socket event counted on a core */
	assert_int_equal(hypo_compare(&imc, &v, &seen, why, sizeof why), HYPO_CONTRADICTS);
	assert_string_equal(why, "scope: configured socket, measured thread");
	/* named beside what else differs, and a contradiction even where the volume cannot be compared */
	v.measured = 0.5;
	assert_int_equal(hypo_compare(&imc, &v, &seen, why, sizeof why), HYPO_CONTRADICTS);
	assert_string_equal(why,
			    "scope: configured socket, measured thread; scale: configured 1, measured 0.5");
	seen.levels = B(LV_L1);
	assert_int_equal(hypo_compare(&imc, &v, &seen, why, sizeof why), HYPO_CONTRADICTS);
	assert_string_equal(why,
			    "scope: configured socket, measured thread; volume not compared: no point "
			    "was measured at its levels (L2, L3, DRAM)");
	/* the same scope, or one side not saying (an older machine.json), is no contradiction */
	seen.levels = ALL_SEEN;
	v.measured = 1.0;
	seen.scope = MSCOPE_SOCKET;
	assert_int_equal(hypo_compare(&imc, &v, &seen, why, sizeof why), HYPO_AS_CONFIGURED);
	imc.scope = MSCOPE_NONE;
	seen.scope = MSCOPE_CORE;
	assert_int_equal(hypo_compare(&imc, &v, &seen, why, sizeof why), HYPO_AS_CONFIGURED);
}

static char path[] = "/tmp/pmucheck-hypo.XXXXXX";

static void write_machine(const char *hypotheses)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f,
		"{\"format\": 1, \"levels\": {\"reported\": {\"L1\": 32768}}, \"counters\": "
		"{\"experiments\": "
		"[{\"experiment\": \"\", \"hypotheses\": %s}]}}\n",
		hypotheses);
	fclose(f);
}

static void test_machine_json_hypotheses_are_found_by_the_summed_rows_name(void **state)
{
	struct machine m;
	struct hypo_set s;
	struct err e;
	const struct hypo *h;

	(void)state;
	close(mkstemp(path));
	write_machine(
		"{\"uncore_imc_*/cas_count_read/\": {\"name\": \"IMC.RD\", \"quantity\": \"lines_read\", "
		"\"scale\": 1, \"levels\": [\"DRAM\"], \"prefetch\": [\"off\"], \"placement\": [\"remote\"], "
		"\"scope\": \"socket\", \"note\": \"\"}}");
	assert_int_equal(machine_read(path, &m, &e), 0);
	assert_int_equal(hypo_build(&m, &s, &e), 0);
	machine_free(&m);
	assert_null(hypo_find(&s, "uncore_imc_0/cas_count_read/"));
	h = hypo_find(&s, "uncore_imc_*/cas_count_read/");
	assert_non_null(h);
	assert_int_equal(h->quantity, RQ_lines_read);
	assert_int_equal(h->levels, B(LV_DRAM_REMOTE)); /* DRAM only where the placements say */
	assert_int_equal(h->prefetch, B(PF_OFF));
	assert_int_equal(h->scope, MSCOPE_SOCKET);
	hypo_free(&s);

	write_machine("{\"x\": {\"quantity\": \"lines_read\", \"scale\": 1, \"levels\": [\"L1\"], "
		      "\"prefetch\": [], \"placement\": [], \"scope\": \"box\"}}");
	assert_int_equal(machine_read(path, &m, &e), E_USAGE);
	machine_free(&m);
	assert_non_null(strstr(e.msg, "'scope'"));

	write_machine("{\"x\": {\"quantity\": \"lines_read\", \"scale\": 1, \"levels\": [\"L4\"], "
		      "\"prefetch\": [], "
		      "\"placement\": []}}");
	assert_int_equal(machine_read(path, &m, &e), E_USAGE);
	machine_free(&m);
	assert_non_null(strstr(e.msg, "'levels'"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_configured_volume_scale_levels_and_states_agree),
		cmocka_unit_test(test_a_wrong_scale_is_named_with_both_values),
		cmocka_unit_test(test_an_unknown_share_is_judged_by_its_quantity_only),
		cmocka_unit_test(test_another_volume_contradicts_unless_the_data_cannot_tell_them_apart),
		cmocka_unit_test(test_levels_and_prefetch_states_where_it_fails_are_named),
		cmocka_unit_test(test_what_the_run_could_not_test_is_not_compared),
		cmocka_unit_test(test_a_scope_other_than_the_configured_one_contradicts),
		cmocka_unit_test(test_machine_json_hypotheses_are_found_by_the_summed_rows_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
