/* test_report_html.c — report.html from report.md's Markdown: the report's own emphasis becomes <em>,
 * and text it quotes (event names, raw.csv's reasons) keeps every character, stars of box wildcards
 * and patterns included, with <>&" escaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "out_report_html.h"

/* The HTML of one Markdown text, in a buffer the caller frees. */
static char *html_of(const char *md)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *in = fmemopen((void *)md, strlen(md), "r"), *out = open_memstream(&buf, &len);
	struct err e = {0};

	assert_non_null(in);
	assert_non_null(out);
	assert_int_equal(out_report_html(out, in, ".", "t", &e), 0);
	fclose(in);
	fclose(out);
	return buf;
}

static void test_reports_own_emphasis_is_em(void **state)
{
	char *h = html_of(
		"only *exact* and *approximate* events; Hardware events are *not measured*: none\n");

	(void)state;
	assert_non_null(strstr(h, "only <em>exact</em> and <em>approximate</em> events"));
	assert_non_null(strstr(h, "are <em>not measured</em>: none"));
	free(h);
}

/* raw.csv's reason for an event of a box wildcard, as report.md lists it: the stars are text. Once the
   first star opened an <em> that ran to the second, and both stars were gone from the page. */
static void test_stars_of_event_names_and_patterns_stay_text(void **state)
{
	char *h = html_of(
		"- **Not measured**: `amd_umc_*/event=0x0a,rdwrmask=0x1/`. Reason: event "
		"'amd_umc_*/event=0x0a,rdwrmask=0x1/': PMU name 'amd_umc_*' is not "
		"[a-z][a-z0-9_]*.\n"
		"| a | b |\n|---|---|\n| amd_umc_*/event=0x0a/ | x_*; 'y_*' |\n"
		"triad = a = b + s*c, and UNC_C_* = sum over the C-Boxes (hswep_unc_cbo*); UNC_H_*\n");

	(void)state;
	assert_null(strstr(h, "<em>"));
	assert_non_null(strstr(h,
			       "Reason: event 'amd_umc_*/event=0x0a,rdwrmask=0x1/': PMU name 'amd_umc_*' "
			       "is not [a-z][a-z0-9_]*."));
	assert_non_null(strstr(h, "<code>amd_umc_*/event=0x0a,rdwrmask=0x1/</code>"));
	assert_non_null(strstr(h, "x_*; 'y_*'</td>"));
	assert_non_null(strstr(h, "b + s*c"));
	assert_non_null(strstr(h, "(hswep_unc_cbo*); UNC_H_*"));
	free(h);
}

static void test_html_characters_of_event_names_are_escaped(void **state)
{
	char *h = html_of("| `cpu/event=0x44,umask=0xff/` | a<b & \"c\" > d |\n|---|---|\n");

	(void)state;
	assert_non_null(strstr(h, "a&lt;b &amp; &quot;c&quot; &gt; d"));
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reports_own_emphasis_is_em),
		cmocka_unit_test(test_stars_of_event_names_and_patterns_stay_text),
		cmocka_unit_test(test_html_characters_of_event_names_are_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
