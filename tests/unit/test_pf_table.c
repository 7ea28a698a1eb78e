/* Which prefetcher table a CPUID selects, and how prefetcher names map to bits. The expected bits
 * are written out here from the vendor documents, not taken from pf_table.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpuid.h"
#include "pf.h"

#define FAKE_MSR_DIR "/nonexistent/pmucheck-fake-msr"

static const struct pf_table *table_of(const char *fake, const char **model)
{
	const struct pf_table *t = NULL;
	struct cpuid_info id;
	struct err e;

	setenv("PMUCHECK_FAKE_CPUID", fake, 1);
	assert_int_equal(cpuid_read(&id), 0);
	assert_int_equal(pf_table_for(&id, &t, model, &e), 0);
	return t;
}

static uint64_t bits_of(const char *fake, const char *names)
{
	uint64_t bits = ~0ull;
	struct err e;

	setenv("PMUCHECK_FAKE_CPUID", fake, 1);
	assert_int_equal(pf_parse_names(names, &bits, &e), 0);
	return bits;
}

static void test_cpuid_override_parses_vendor_family_model(void **state)
{
	struct cpuid_info id;

	(void)state;
	setenv("PMUCHECK_FAKE_CPUID", "AuthenticAMD:0x1a:0x11", 1);
	assert_int_equal(cpuid_read(&id), 0);
	assert_string_equal(id.vendor, "AuthenticAMD");
	assert_int_equal(id.family, 0x1a);
	assert_int_equal(id.model, 0x11);
	setenv("PMUCHECK_FAKE_CPUID", "GenuineIntel:6:85", 1);
	assert_int_equal(cpuid_read(&id), 0);
	assert_int_equal(id.model, 0x55);
}

static void test_cpuid_override_rejects_malformed_text(void **state)
{
	static const char *bad[] = {
		"GenuineIntel",        "GenuineIntel:6",       "GenuineIntel:6:",      ":6:0x55",
		"GenuineIntel:x:0x55", "GenuineIntel:6:0x55z", "TooLongVendorName:6:1"};
	struct cpuid_info id;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		setenv("PMUCHECK_FAKE_CPUID", bad[i], 1);
		assert_int_equal(cpuid_read(&id), E_USAGE);
	}
}

/* The vendor_id /proc/cpuinfo gives, into v (room for 13); 0 when it has none. The whole rest of the line
   after "vendor_id\t: " (arch/x86/kernel/cpu/proc.c): a Zhaoxin's is "  Shanghai  ". */
static int cpuinfo_vendor(char *v)
{
	static const char key[] = "vendor_id\t: ";
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof line, f))
		if (!strncmp(line, key, sizeof key - 1)) {
			snprintf(v, 13, "%.*s", (int)strcspn(line + sizeof key - 1, "\n"),
				 line + sizeof key - 1);
			found = 1;
		}
	if (f)
		fclose(f);
	return found;
}

/* Without the override, the real CPU: the vendor is the one /proc/cpuinfo names (GenuineIntel,
   AuthenticAMD, HygonGenuine, ...; where it can be read) and the family at least 6, as for anything that
   runs x86-64. */
static void test_cpuid_reads_this_machine(void **state)
{
	struct cpuid_info id;
	char vendor[13];

	(void)state;
	unsetenv("PMUCHECK_FAKE_CPUID");
	assert_int_equal(cpuid_read(&id), 0);
	assert_int_equal(strlen(id.vendor), 12);
	if (cpuinfo_vendor(vendor))
		assert_string_equal(id.vendor, vendor);
	assert_true(id.family >= 6);
	assert_true(strlen(id.brand) > 0);
}

/* The override is a test hook of the fake MSR files: without PMUCHECK_MSR_DIR (a stray variable in a
   user's shell) the real CPU is read, not the one it names. */
static void test_cpuid_override_needs_fake_msr_files(void **state)
{
	struct cpuid_info id;

	(void)state;
	setenv("PMUCHECK_FAKE_CPUID", "GenuineIntel:6:0x55", 1);
	unsetenv("PMUCHECK_MSR_DIR");
	assert_int_equal(cpuid_read(&id), 0);
	assert_string_not_equal(id.brand, "fake");
	setenv("PMUCHECK_MSR_DIR", "", 1);
	assert_int_equal(cpuid_read(&id), 0);
	assert_string_not_equal(id.brand, "fake");
	setenv("PMUCHECK_MSR_DIR", FAKE_MSR_DIR, 1);
	assert_int_equal(cpuid_read(&id), 0);
	assert_string_equal(id.brand, "fake");
	assert_int_equal(id.model, 0x55);
	unsetenv("PMUCHECK_FAKE_CPUID");
}

static void test_intel_core_and_xeon_models_use_msr_1a4_bits_0_to_3(void **state)
{
	static const char *models[] = {"0x1a", "0x2e", "0x2c", "0x2a", "0x2d", "0x3e", "0x3c", "0x3f",
				       "0x4f", "0x5e", "0x55", "0x9e", "0x6a", "0x8c", "0xa7", "0x8f"};
	char fake[64];
	const char *model;

	(void)state;
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
		snprintf(fake, sizeof fake, "GenuineIntel:6:%s", models[i]);
		assert_int_equal(table_of(fake, &model)->msr, 0x1a4);
		assert_int_equal(pf_table_mask(table_of(fake, &model)), 0xf);
		assert_int_equal(bits_of(fake, "l2-stream"), 1u << 0);
		assert_int_equal(bits_of(fake, "l2-adjacent"), 1u << 1);
		assert_int_equal(bits_of(fake, "l1-next"), 1u << 2);
		assert_int_equal(bits_of(fake, "l1-ip"), 1u << 3);
	}
	table_of("GenuineIntel:6:0x55", &model);
	assert_non_null(strstr(model, "Skylake"));
	table_of("GenuineIntel:6:0x8f", &model);
	assert_string_equal(model, "Sapphire Rapids");
}

static void test_xeon_phi_uses_two_bits_of_msr_1a4(void **state)
{
	const char *model;

	(void)state;
	assert_int_equal(table_of("GenuineIntel:6:0x57", &model)->msr, 0x1a4);
	assert_string_equal(model, "Knights Landing");
	assert_int_equal(pf_table_mask(table_of("GenuineIntel:6:0x85", &model)), 0x3);
	assert_string_equal(model, "Knights Mill");
	assert_int_equal(bits_of("GenuineIntel:6:0x57", "l1-dcu"), 1u << 0);
	assert_int_equal(bits_of("GenuineIntel:6:0x57", "l2-hw"), 1u << 1);
}

static void test_amd_zen_3_4_5_use_msr_c0000108_bits_0_1_2_3_5(void **state)
{
	static const struct {
		const char *fake, *gen;
	} cpus[] = {{"AuthenticAMD:0x19:0x01", "Zen 3"}, {"AuthenticAMD:0x19:0x21", "Zen 3"},
		    {"AuthenticAMD:0x19:0x50", "Zen 3"}, {"AuthenticAMD:0x19:0x11", "Zen 4"},
		    {"AuthenticAMD:0x19:0x61", "Zen 4"}, {"AuthenticAMD:0x19:0xa0", "Zen 4"},
		    {"AuthenticAMD:0x1a:0x02", "Zen 5"}, {"AuthenticAMD:0x1a:0x11", "Zen 5"},
		    {"AuthenticAMD:0x1a:0x44", "Zen 5"}, {"AuthenticAMD:0x1a:0x70", "Zen 5"}};
	const char *model;

	(void)state;
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
		assert_int_equal(table_of(cpus[i].fake, &model)->msr, 0xc0000108);
		assert_string_equal(model, cpus[i].gen);
		assert_int_equal(pf_table_mask(table_of(cpus[i].fake, &model)), 0x2f);
		assert_int_equal(bits_of(cpus[i].fake, "l1-stream"), 1u << 0);
		assert_int_equal(bits_of(cpus[i].fake, "l1-stride"), 1u << 1);
		assert_int_equal(bits_of(cpus[i].fake, "l1-region"), 1u << 2);
		assert_int_equal(bits_of(cpus[i].fake, "l2-stream"), 1u << 3);
		assert_int_equal(bits_of(cpus[i].fake, "l2-updown"), 1u << 5);
	}
}

/* Every edge of the Zen 3..5 model ranges of Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd):
   19h Zen 3 0x00-0x0f, 0x20-0x5f; Zen 4 0x10-0x1f, 0x60-0xaf; 1Ah Zen 5 0x00-0x2f, 0x40-0x4f,
   0x60-0x7f (Zen 6: 0x50-0x5f, 0x80-0xaf, 0xc0-0xcf). NULL: no table, refused: Zen 1 (17h 0x01, and
   the Zen+ 0x08) and Zen 2 among them, whose configs say prefetch = none. */
static void test_amd_model_range_edges_follow_the_kernel(void **state)
{
	static const struct {
		unsigned family, model;
		const char *gen;
	} cases[] = {
		{0x17, 0x01, NULL},    {0x17, 0x08, NULL},    {0x17, 0x31, NULL},    {0x17, 0x71, NULL},
		{0x19, 0x00, "Zen 3"}, {0x19, 0x0f, "Zen 3"}, {0x19, 0x10, "Zen 4"}, {0x19, 0x1f, "Zen 4"},
		{0x19, 0x20, "Zen 3"}, {0x19, 0x5f, "Zen 3"}, {0x19, 0x60, "Zen 4"}, {0x19, 0x90, "Zen 4"},
		{0x19, 0xaf, "Zen 4"}, {0x19, 0xb0, NULL},    {0x1a, 0x00, "Zen 5"}, {0x1a, 0x10, "Zen 5"},
		{0x1a, 0x2f, "Zen 5"}, {0x1a, 0x30, NULL},    {0x1a, 0x3f, NULL},    {0x1a, 0x40, "Zen 5"},
		{0x1a, 0x4f, "Zen 5"}, {0x1a, 0x50, NULL},    {0x1a, 0x5f, NULL},    {0x1a, 0x60, "Zen 5"},
		{0x1a, 0x7f, "Zen 5"}, {0x1a, 0x80, NULL},    {0x1a, 0xaf, NULL},    {0x1a, 0xc0, NULL},
		{0x1b, 0x00, NULL},
	};
	const struct pf_table *t;
	struct cpuid_info id;
	const char *model;
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char fake[64];
		int rc;

		snprintf(fake, sizeof fake, "AuthenticAMD:%#x:%#x", cases[i].family, cases[i].model);
		setenv("PMUCHECK_FAKE_CPUID", fake, 1);
		assert_int_equal(cpuid_read(&id), 0);
		rc = pf_table_for(&id, &t, &model, &e);
		if (!cases[i].gen) {
			if (rc != E_USAGE)
				fail_msg("%s: a table (%s), expected none", fake, model);
			continue;
		}
		if (rc)
			fail_msg("%s: %s, expected %s", fake, e.msg, cases[i].gen);
		if (strcmp(model, cases[i].gen))
			fail_msg("%s: %s, expected %s", fake, model, cases[i].gen);
	}
}

/* Hybrid Intel (Alder/Raptor Lake, Alder Lake-N), Atom, Zen 2, Zen 6 and other vendors have no
   verified table and must be refused, not served the nearest one. */
/* Sapphire Rapids, Emerald Rapids and Granite Rapids (intel-family.h 0x8f, 0xcf, 0xad, 0xae) switch the
   four listed bits (pepc) and say that an "off" state leaves the L2 AMP prefetcher running. */
static void test_recent_xeons_say_what_off_leaves_running(void **state)
{
	static const char *cpus[] = {"GenuineIntel:6:0x8f", "GenuineIntel:6:0xcf", "GenuineIntel:6:0xad",
				     "GenuineIntel:6:0xae"};
	const struct pf_table *t;
	struct cpuid_info id;
	const char *model;
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
		setenv("PMUCHECK_FAKE_CPUID", cpus[i], 1);
		assert_int_equal(cpuid_read(&id), 0);
		assert_int_equal(pf_table_for(&id, &t, &model, &e), 0);
		assert_int_equal(t->msr, 0x1a4);
		assert_int_equal(pf_table_mask(t), 0xf);
		assert_non_null(strstr(t->left_running, "L2 AMP"));
	}
	setenv("PMUCHECK_FAKE_CPUID", "GenuineIntel:6:0x55", 1);
	assert_int_equal(cpuid_read(&id), 0);
	assert_int_equal(pf_table_for(&id, &t, &model, &e), 0);
	assert_string_equal(t->left_running, "");
	/* Zen 3 to 5: five L2 prefetchers by their events, two by PrefetchControl's bits */
	for (size_t i = 0; i < 3; i++) {
		static const char *const zen[] = {"AuthenticAMD:0x19:0x21", "AuthenticAMD:0x19:0x61",
						  "AuthenticAMD:0x1a:0x44"};
		setenv("PMUCHECK_FAKE_CPUID", zen[i], 1);
		assert_int_equal(cpuid_read(&id), 0);
		assert_int_equal(pf_table_for(&id, &t, &model, &e), 0);
		assert_int_equal(t->msr, 0xc0000108);
		assert_non_null(strstr(t->left_running, "L2 next-line, burst and stride prefetchers"));
	}
	unsetenv("PMUCHECK_FAKE_CPUID");
}

static void test_unknown_models_are_refused_with_their_ids(void **state)
{
	static const char *cpus[] = {"GenuineIntel:6:0x97",    "GenuineIntel:6:0xbe",
				     "GenuineIntel:6:0x5c",    "GenuineIntel:0xf:0x6",
				     "AuthenticAMD:0x17:0x31", "AuthenticAMD:0x1a:0x50",
				     "AuthenticAMD:0x19:0xb0", "HygonGenuine:0x18:0x0"};
	const struct pf_table *t;
	struct cpuid_info id;
	const char *model;
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
		setenv("PMUCHECK_FAKE_CPUID", cpus[i], 1);
		assert_int_equal(cpuid_read(&id), 0);
		assert_int_equal(pf_table_for(&id, &t, &model, &e), E_USAGE);
		assert_non_null(strstr(e.msg, "no verified prefetcher MSR table"));
		assert_non_null(strstr(e.msg, id.vendor));
	}
	setenv("PMUCHECK_FAKE_CPUID", "GenuineIntel:6:0x97", 1);
	assert_int_equal(pf_parse_names("l1-ip", &(uint64_t){0}, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "model 0x97"));
}

/* A layout source (pf.h) that names `fake_layout` for family 1Ah model 50h (a Zen 6 in Linux's amd.c, in
   no list here) and for nothing else, as a config matching only that model would. */
static const char *fake_layout;
static int fake_source_calls;

static int fake_source(const struct cpuid_info *id, char *layout, size_t len, char *by, size_t by_len)
{
	fake_source_calls++;
	by[0] = 0;
	if (!fake_layout || id->family != 0x1a || id->model != 0x50)
		return -1;
	snprintf(by, by_len, "Test Zen 6 (zen6.ini: prefetch = %s)", fake_layout);
	if (!strcmp(fake_layout, "none"))
		return -1;
	snprintf(layout, len, "%s", fake_layout);
	return 0;
}

/* A model the lists do not know takes the layout its config names, with the config in its name; a
   layout of the other vendor's MSR, an unknown name, or no config leave it refused; a listed model never
   asks the source (the lists are the verified tables; test_pf_configs.c checks the configs agree). */
static void test_a_config_names_the_layout_of_a_model_the_lists_do_not_know(void **state)
{
	const struct pf_table *t = NULL;
	struct cpuid_info id;
	const char *model;
	struct err e;

	(void)state;
	pf_set_layout_source(fake_source);
	setenv("PMUCHECK_FAKE_CPUID", "AuthenticAMD:0x1a:0x50", 1);
	assert_int_equal(cpuid_read(&id), 0);
	fake_layout = "amd-c0000108";
	assert_int_equal(pf_table_for(&id, &t, &model, &e), 0);
	assert_int_equal(t->msr, 0xc0000108);
	assert_int_equal(pf_table_mask(t), 0x2f);
	assert_string_equal(model, "Test Zen 6 (zen6.ini: prefetch = amd-c0000108)");
	assert_int_equal(bits_of("AuthenticAMD:0x1a:0x50", "l2-updown"), 0x20);
	fake_layout = "intel-1a4"; /* an Intel MSR on an AMD CPU */
	assert_int_equal(pf_table_for(&id, &t, &model, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "model 0x50"));
	assert_non_null(strstr(e.msg,
			       "the config that matches this CPU, Test Zen 6 (zen6.ini: prefetch = "
			       "intel-1a4), names no layout of its vendor's MSR"));
	fake_layout = "amd-c0000109";
	assert_int_equal(pf_table_for(&id, &t, &model, &e), E_USAGE);
	/* a config that says none is named, as zen2.ini, whose note says why, not "no config" */
	fake_layout = "none";
	assert_int_equal(pf_table_for(&id, &t, &model, &e), E_USAGE);
	assert_non_null(
		strstr(e.msg, "the config that matches this CPU, Test Zen 6 (zen6.ini: prefetch = none)"));
	fake_layout = NULL;
	assert_int_equal(pf_table_for(&id, &t, &model, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "no config that matches this CPU names a layout of its vendor's MSR"));
	fake_layout = "amd-c0000108";
	fake_source_calls = 0;
	setenv("PMUCHECK_FAKE_CPUID", "AuthenticAMD:0x1a:0x02", 1);
	assert_int_equal(cpuid_read(&id), 0);
	assert_int_equal(pf_table_for(&id, &t, &model, &e), 0);
	assert_string_equal(model, "Zen 5");
	assert_int_equal(fake_source_calls, 0);
	/* the names a config may give, each the layout of its MSR */
	assert_int_equal(pf_layout_named("intel-1a4")->msr, 0x1a4);
	assert_int_equal(pf_table_mask(pf_layout_named("intel-1a4")), 0xf);
	assert_int_equal(pf_table_mask(pf_layout_named("intel-knl")), 0x3);
	assert_int_equal(pf_layout_named("amd-c0000108")->msr, 0xc0000108);
	assert_null(pf_layout_named("none"));
	assert_null(pf_layout_named(NULL));
	pf_set_layout_source(NULL);
	unsetenv("PMUCHECK_FAKE_CPUID");
}

static void test_name_lists_combine_and_all_means_the_whole_table(void **state)
{
	(void)state;
	assert_int_equal(bits_of("GenuineIntel:6:0x55", "l2-stream,l1-ip"), 0x9);
	assert_int_equal(bits_of("GenuineIntel:6:0x55", "all"), 0xf);
	assert_int_equal(bits_of("AuthenticAMD:0x1a:0x02", "l2-updown,l1-stream"), 0x21);
	assert_int_equal(bits_of("AuthenticAMD:0x1a:0x02", "all"), 0x2f);
	assert_int_equal(bits_of("AuthenticAMD:0x1a:0x02", ""), 0);
	assert_int_equal(bits_of("AuthenticAMD:0x1a:0x02", NULL), 0);
	/* all on needs no table: valid even where the model is unknown */
	assert_int_equal(bits_of("GenuineIntel:6:0x97", NULL), 0);
}

static void test_unknown_name_is_named_with_the_valid_ones(void **state)
{
	uint64_t bits;
	struct err e;

	(void)state;
	setenv("PMUCHECK_FAKE_CPUID", "AuthenticAMD:0x19:0x11", 1);
	assert_int_equal(pf_parse_names("l1-stream,l2-adjacent", &bits, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "'l2-adjacent'"));
	assert_non_null(strstr(e.msg, "l1-stride"));
	assert_non_null(strstr(e.msg, "l2-updown"));
	setenv("PMUCHECK_FAKE_CPUID", "GenuineIntel:6:0x57", 1);
	assert_int_equal(pf_parse_names("l1-ip", &bits, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "l1-dcu, l2-hw"));
	assert_int_equal(pf_parse_names("l1-dcu,,l2-hw", &bits, &e), E_USAGE);
}

int main(void)
{
	/* the override's models are honoured beside fake MSR files only; these tests open none */
	setenv("PMUCHECK_MSR_DIR", FAKE_MSR_DIR, 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuid_override_parses_vendor_family_model),
		cmocka_unit_test(test_cpuid_override_rejects_malformed_text),
		cmocka_unit_test(test_cpuid_reads_this_machine),
		cmocka_unit_test(test_cpuid_override_needs_fake_msr_files),
		cmocka_unit_test(test_intel_core_and_xeon_models_use_msr_1a4_bits_0_to_3),
		cmocka_unit_test(test_xeon_phi_uses_two_bits_of_msr_1a4),
		cmocka_unit_test(test_amd_zen_3_4_5_use_msr_c0000108_bits_0_1_2_3_5),
		cmocka_unit_test(test_amd_model_range_edges_follow_the_kernel),
		cmocka_unit_test(test_recent_xeons_say_what_off_leaves_running),
		cmocka_unit_test(test_unknown_models_are_refused_with_their_ids),
		cmocka_unit_test(test_a_config_names_the_layout_of_a_model_the_lists_do_not_know),
		cmocka_unit_test(test_name_lists_combine_and_all_means_the_whole_table),
		cmocka_unit_test(test_unknown_name_is_named_with_the_valid_ones),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
