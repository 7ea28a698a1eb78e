/* test_cfg_select — finding the config directory, choosing the config for a CPU, and the perf spec
 * grammar. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfg.h"

static void expect_choice(const char *vendor, unsigned family, unsigned model, const char *file)
{
	char path[4096];
	struct err e;
	const char *slash;

	if (cfg_select_for_cpu(NULL, vendor, family, model, path, sizeof path, &e))
		fail_msg("%s %#x:%#x: %s", vendor, family, model, e.msg);
	slash = strrchr(path, '/');
	if (!slash || strcmp(slash + 1, file))
		fail_msg("%s %#x:%#x chose %s, expected %s", vendor, family, model, path, file);
}

/* The config of a libpfm4 core PMU ([arch] pmu): discover's way to the uncore PMUs of a forced CPU. */
static void test_config_of_a_core_pmu(void **state)
{
	static const char *const pmu_file[][2] = {{"skx", "skx.ini"},
						  {"hsw_ep", "hsw_ep.ini"},
						  {"amd64_fam19h_zen3", "zen3.ini"},
						  {"amd64_fam17h_zen1", "zen1.ini"}};
	char path[4096];
	struct err e;
	int found;

	(void)state;
	unsetenv("PMUCHECK_CONFIG_DIR");
	for (size_t i = 0; i < sizeof pmu_file / sizeof pmu_file[0]; i++) {
		const char *slash;
		if (cfg_select_for_pmu(NULL, pmu_file[i][0], path, sizeof path, &found, &e))
			fail_msg("%s: %s", pmu_file[i][0], e.msg);
		slash = strrchr(path, '/');
		if (!found || !slash || strcmp(slash + 1, pmu_file[i][1]))
			fail_msg("%s chose %s (found %d), expected %s", pmu_file[i][0], path, found,
				 pmu_file[i][1]);
	}
	assert_int_equal(cfg_select_for_pmu(NULL, "netburst", path, sizeof path, &found, &e), 0);
	assert_int_equal(found, 0);
}

static void test_real_configs_are_chosen_by_cpuid(void **state)
{
	(void)state;
	unsetenv("PMUCHECK_CONFIG_DIR");
	expect_choice("GenuineIntel", 6, 0x3f, "hsw_ep.ini");
	expect_choice("GenuineIntel", 6, 0x4f, "bdw_ep.ini");
	expect_choice("GenuineIntel", 6, 0x55, "skx.ini");
	expect_choice("GenuineIntel", 6, 0x6a, "icx.ini");
	expect_choice("GenuineIntel", 6, 0xcf, "spr.ini");
	expect_choice("GenuineIntel", 6, 0xad, "gnr.ini");
	expect_choice("GenuineIntel", 6, 0x9e, "generic.ini"); /* a client part: no config of its own */
	expect_choice("AuthenticAMD", 0x17, 0x31, "zen2.ini");
	expect_choice("AuthenticAMD", 0x17, 0x01, "zen1.ini"); /* Zen 1, and a KVM guest's "AMD EPYC" */
	expect_choice("AuthenticAMD", 0x17, 0x08, "zen1.ini"); /* Zen+ (Threadripper 2950X) */
	expect_choice("AuthenticAMD", 0x19, 0x01, "zen3.ini");
	expect_choice("AuthenticAMD", 0x19, 0x11, "zen4.ini");
	expect_choice("AuthenticAMD", 0x19, 0x61, "zen4.ini");
	expect_choice("AuthenticAMD", 0x1a, 0x11, "zen5.ini");    /* a Zen 5 development machine */
	expect_choice("HygonGenuine", 0x18, 0x00, "generic.ini"); /* a Zen 1 derivative, another vendor */
}

/* Every edge of the AMD model ranges of Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd, the
   X86_FEATURE_ZEN1..ZEN6 switch): 17h Zen 1 0x00-0x2f, 0x50-0x5f; Zen 2 0x30-0x4f, 0x60-0x7f,
   0x90-0x91, 0xa0-0xaf. 19h Zen 3 0x00-0x0f, 0x20-0x5f; Zen 4 0x10-0x1f, 0x60-0xaf. 1Ah Zen 5
   0x00-0x2f, 0x40-0x4f, 0x60-0x7f; Zen 6 0x50-0x5f, 0x80-0xaf, 0xc0-0xcf. A model the kernel does not
   place (or a Zen 6 one) has no config of its own: generic.ini. */
static void test_amd_model_range_edges_follow_the_kernel(void **state)
{
	static const struct {
		unsigned family, model;
		const char *file;
	} cases[] = {
		{0x17, 0x00, "zen1.ini"},    {0x17, 0x2f, "zen1.ini"},    {0x17, 0x30, "zen2.ini"},
		{0x17, 0x4f, "zen2.ini"},    {0x17, 0x50, "zen1.ini"},    {0x17, 0x5f, "zen1.ini"},
		{0x17, 0x60, "zen2.ini"},    {0x17, 0x7f, "zen2.ini"},    {0x17, 0x80, "generic.ini"},
		{0x17, 0x8f, "generic.ini"}, {0x17, 0x90, "zen2.ini"},    {0x17, 0x91, "zen2.ini"},
		{0x17, 0x92, "generic.ini"}, {0x17, 0x9f, "generic.ini"}, {0x17, 0xa0, "zen2.ini"},
		{0x17, 0xaf, "zen2.ini"},    {0x17, 0xb0, "generic.ini"}, {0x17, 0xff, "generic.ini"},
		{0x19, 0x00, "zen3.ini"},    {0x19, 0x0f, "zen3.ini"},    {0x19, 0x10, "zen4.ini"},
		{0x19, 0x1f, "zen4.ini"},    {0x19, 0x20, "zen3.ini"},    {0x19, 0x5f, "zen3.ini"},
		{0x19, 0x60, "zen4.ini"},    {0x19, 0x7f, "zen4.ini"},    {0x19, 0x80, "zen4.ini"},
		{0x19, 0x90, "zen4.ini"},    {0x19, 0x9f, "zen4.ini"},    {0x19, 0xaf, "zen4.ini"},
		{0x19, 0xb0, "generic.ini"}, {0x19, 0xff, "generic.ini"}, {0x1a, 0x00, "zen5.ini"},
		{0x1a, 0x10, "zen5.ini"},    {0x1a, 0x2f, "zen5.ini"},    {0x1a, 0x30, "generic.ini"},
		{0x1a, 0x3f, "generic.ini"}, {0x1a, 0x40, "zen5.ini"},    {0x1a, 0x4f, "zen5.ini"},
		{0x1a, 0x50, "generic.ini"}, {0x1a, 0x5f, "generic.ini"}, {0x1a, 0x60, "zen5.ini"},
		{0x1a, 0x7f, "zen5.ini"},    {0x1a, 0x80, "generic.ini"}, {0x1a, 0xaf, "generic.ini"},
		{0x1a, 0xc0, "generic.ini"}, {0x1a, 0xff, "generic.ini"},
	};

	(void)state;
	unsetenv("PMUCHECK_CONFIG_DIR");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		expect_choice("AuthenticAMD", cases[i].family, cases[i].model, cases[i].file);
}

static int is_ini(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".ini");
}

/* No two files may claim the same CPU with the same precision: the choice would depend on file names. */
static void test_no_two_configs_claim_one_cpu(void **state)
{
	enum { MAXF = 64 };
	struct cfg c[MAXF];
	char dir[4096], path[8192];
	struct dirent **list;
	struct err e;
	int n, nc = 0;

	(void)state;
	assert_int_equal(cfg_dir(dir, sizeof dir, &e), 0);
	n = scandir(dir, &list, is_ini, alphasort);
	assert_true(n > 10 && n < MAXF);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
		if (cfg_load(path, &c[nc], &e))
			fail_msg("%s", e.msg);
		if (c[nc].has_arch)
			nc++;
		else
			cfg_free(&c[nc]);
		free(list[i]);
	}
	free(list);
	for (int a = 0; a < nc; a++)
		for (int b = a + 1; b < nc; b++) {
			if (strcmp(c[a].arch.vendor, c[b].arch.vendor))
				continue;
			for (unsigned i = 0; i < c[a].arch.nmatch; i++)
				for (unsigned j = 0; j < c[b].arch.nmatch; j++) {
					const struct cfg_match *x = &c[a].arch.match[i],
							       *y = &c[b].arch.match[j];

					if (x->family == y->family && x->model_lo <= y->model_hi &&
					    y->model_lo <= x->model_hi)
						fail_msg("%s and %s both match family %#x models %#x-%#x",
							 c[a].path, c[b].path, x->family, x->model_lo,
							 x->model_hi);
				}
		}
	for (int i = 0; i < nc; i++)
		cfg_free(&c[i]);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define ARCH(name, vendor, match) \
	"[arch]\nname = " name "\ntitle = T\nvendor = " vendor "\nmatch = " match "\nprefetch = none\n"

/* exact model > model range > family:* > match = any, whatever the file names' order */
static void test_more_precise_match_wins(void **state)
{
	char dir[] = "/tmp/pmucheck-cfgsel.XXXXXX", path[4096];
	struct err e;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "a_any.ini", ARCH("a_any", "any", "any"));
	write_file(dir, "b_star.ini", ARCH("b_star", "AuthenticAMD", "0x19:*"));
	write_file(dir, "c_range.ini", ARCH("c_range", "AuthenticAMD", "0x19:0x10-0x1f"));
	write_file(dir, "d_exact.ini", ARCH("d_exact", "AuthenticAMD", "0x19:0x11"));
	assert_int_equal(cfg_select_for_cpu(dir, "AuthenticAMD", 0x19, 0x11, path, sizeof path, &e), 0);
	assert_non_null(strstr(path, "d_exact.ini"));
	assert_int_equal(cfg_select_for_cpu(dir, "AuthenticAMD", 0x19, 0x12, path, sizeof path, &e), 0);
	assert_non_null(strstr(path, "c_range.ini"));
	assert_int_equal(cfg_select_for_cpu(dir, "AuthenticAMD", 0x19, 0x21, path, sizeof path, &e), 0);
	assert_non_null(strstr(path, "b_star.ini"));
	assert_int_equal(cfg_select_for_cpu(dir, "GenuineIntel", 0x19, 0x11, path, sizeof path, &e), 0);
	assert_non_null(strstr(path, "a_any.ini"));
	/* a broken file in the directory is reported, not skipped */
	write_file(dir, "e_bad.ini", "[arch]\nname = x\nbogus = 1\n");
	assert_int_equal(cfg_select_for_cpu(dir, "AuthenticAMD", 0x19, 0x11, path, sizeof path, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "e_bad.ini:3: "));
	for (const char *const *f = (const char *const[]){"a_any.ini", "b_star.ini", "c_range.ini",
							  "d_exact.ini", "e_bad.ini", NULL};
	     *f; f++) {
		snprintf(path, sizeof path, "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
}

static void test_config_dir_from_environment(void **state)
{
	char dir[4096], real[4096];
	struct err e;

	(void)state;
	unsetenv("PMUCHECK_CONFIG_DIR");
	assert_int_equal(cfg_dir(real, sizeof real, &e), 0);
	assert_non_null(strstr(real, "configs"));
	setenv("PMUCHECK_CONFIG_DIR", real, 1);
	assert_int_equal(cfg_dir(dir, sizeof dir, &e), 0);
	assert_string_equal(dir, real);
	setenv("PMUCHECK_CONFIG_DIR", "/nonexistent", 1);
	assert_int_equal(cfg_dir(dir, sizeof dir, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "PMUCHECK_CONFIG_DIR=/nonexistent"));
	unsetenv("PMUCHECK_CONFIG_DIR");
}

static void test_perf_grammar(void **state)
{
	static const char *const good[] = {
		"cpu/event=0x44,umask=0xff/",
		"cpu/event=0x1a0,umask=0x1e,cmask=8/uk",
		"uncore_imc_*/event=0x05,umask=0xcf/",
		"amd_umc_0/event=0x0a,rdwrmask=0x1/",
		"uncore_imc_0/cas_count_read/",
		"amd_umc_1/umc_cas_cmd.rd/",
		"page-faults",
		"task-clock",
		"cpu/mem-loads/u",
	};
	static const char *const bad[] = {
		"cpu//",
		"cpu/event=/",
		"cpu/event=0x/",
		"cpu/event=0x10",
		"/event=1/",
		"Cpu/event=1/",
		"cpu/event=1,/",
		"cpu/event=1/x",
		"cpu/=1/",
		"cpu*x/event=1/",
		"page_faults",
		/* names ctr_resolve would not know as perf's: they would fail at run time */
		"LLC-load-misses",
		"cpu/event=1/p",
		"cpu/event=1/G",
	};
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		if (cfg_perf_check(good[i], &e))
			fail_msg("'%s' refused: %s", good[i], e.msg);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (cfg_perf_check(bad[i], &e) != E_USAGE)
			fail_msg("'%s' accepted", bad[i]);
	assert_true(cfg_perf_term_known("umask", 5));
	assert_true(cfg_perf_term_known("offcore_rsp", 11));
	assert_false(cfg_perf_term_known("cas_count_read", 14));
	assert_false(cfg_perf_term_known("umas", 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_configs_are_chosen_by_cpuid),
		cmocka_unit_test(test_config_of_a_core_pmu),
		cmocka_unit_test(test_amd_model_range_edges_follow_the_kernel),
		cmocka_unit_test(test_no_two_configs_claim_one_cpu),
		cmocka_unit_test(test_more_precise_match_wins),
		cmocka_unit_test(test_config_dir_from_environment),
		cmocka_unit_test(test_perf_grammar),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
