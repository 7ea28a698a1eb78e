/* The configs and the prefetcher tables' model lists agree: where a config's [arch] match names a
 * model that harness/prefetch/pf_table.c lists, the layout its `prefetch` names is the one the list
 * gives (or none: a config may keep its MSRs untouched; or listed: the lists decide). A config is the only source of a layout for a
 * model no list has (pf.h pf_set_layout_source), so a disagreement would give one CPU two layouts
 * depending on which source is asked. */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cfg.h"
#include "pf.h"

/* How many of the models a's match names the lists give another layout than a's prefetch; the first
   such into first. */
static int disagreements(const struct cfg_arch *a, char *first, size_t len)
{
	int n = 0;

	if (!a->prefetch || !strcmp(a->prefetch, "none") || !strcmp(a->prefetch, "listed"))
		return 0;
	for (unsigned i = 0; i < a->nmatch; i++)
		for (unsigned m = a->match[i].model_lo; m <= a->match[i].model_hi; m++) {
			struct cpuid_info id = {.family = a->match[i].family, .model = m};
			const struct pf_table *t;
			const char *model;
			struct err e;

			snprintf(id.vendor, sizeof id.vendor, "%s", a->vendor);
			if (pf_table_for(&id, &t, &model, &e) || !strcmp(t->layout, a->prefetch))
				continue;
			if (!n++)
				snprintf(first, len,
					 "%s family 0x%x model 0x%x: %s lists %s (%s), the config %s",
					 a->vendor, id.family, m, model, t->layout, t->name, a->prefetch);
		}
	return n;
}

static int ini(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".ini");
}

static void test_every_shipped_config_agrees_with_the_lists(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], first[512] = "";
	struct dirent **list;
	struct err e;
	int n, checked = 0;

	(void)state;
	pf_set_layout_source(NULL);
	assert_int_equal(cfg_dir(dir, sizeof dir, &e), 0);
	n = scandir(dir, &list, ini, alphasort);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		struct cfg c;

		snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
		free(list[i]);
		assert_int_equal(cfg_load(path, &c, &e), 0);
		if (c.has_arch && !c.arch.match_any) {
			if (disagreements(&c.arch, first, sizeof first))
				fail_msg("%s: %s", path, first);
			checked++;
		}
		cfg_free(&c);
	}
	free(list);
	assert_true(checked >= 10); /* skx .. zen5: the check ran over the architectures */
}

/* A config given as text, loaded as a file would be. */
static void load_text(const char *text, struct cfg *c)
{
	struct err e;
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	assert_int_equal(cfg_load_stream(f, "test.ini", c, &e), 0);
	fclose(f);
}

/* The check can fail: Skylake-SP's model said to have Xeon Phi's two-bit layout, and a range over
   Zen 4's and Zen 5's models said to have Intel's. */
static void test_a_config_that_contradicts_a_list_is_found(void **state)
{
	static const char knl[] = "[arch]\nname = t\ntitle = T\nvendor = GenuineIntel\n"
				  "match = 6:0x4f, 6:0x55\nprefetch = intel-knl\n";
	static const char amd[] = "[arch]\nname = t\ntitle = T\nvendor = AuthenticAMD\n"
				  "match = 0x19:0x60-0x61, 0x1a:0x50\nprefetch = intel-1a4\n";
	char first[512];
	struct cfg c;

	(void)state;
	pf_set_layout_source(NULL);
	load_text(knl, &c);
	assert_int_equal(disagreements(&c.arch, first, sizeof first), 2);
	assert_non_null(strstr(first, "model 0x4f"));
	cfg_free(&c);
	load_text(amd, &c);
	/* 0x50 is in no list: the config is its only source, nothing to disagree with */
	assert_int_equal(disagreements(&c.arch, first, sizeof first), 2);
	assert_non_null(strstr(first, "lists amd-c0000108"));
	cfg_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_shipped_config_agrees_with_the_lists),
		cmocka_unit_test(test_a_config_that_contradicts_a_list_is_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
