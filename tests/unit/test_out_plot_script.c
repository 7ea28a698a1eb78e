/* test_out_plot_script.c — the gnuplot script of a figure (analysis/out_plot.c) keeps every text from a
 * results file inside its command: a line break in a title would end it, and a next line `!...` is a shell
 * command to gnuplot, which `pmucheck report` runs on results from other machines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "out_plot.h"

static void test_line_breaks_in_texts_stay_inside_their_command(void **state)
{
	char dir[] = "/tmp/pmucheck-plot.XXXXXX", path[128], line[512], cmd[160];
	struct out_plot p = {0};
	struct out_series *s;
	struct err e;
	int missing = 0, lines_begun = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p.name, sizeof p.name, "fig");
	snprintf(p.title, sizeof p.title, "title\n!touch %s/pwned-title\n#", dir);
	snprintf(p.xlabel, sizeof p.xlabel, "x\r\n!touch x");
	snprintf(p.ylabel, sizeof p.ylabel, "y");
	s = out_plot_series(&p, "series\n!touch series\n'");
	assert_non_null(s);
	assert_int_equal(out_series_add(s, 1024, 1, 0), 0);
	assert_int_equal(out_series_add(s, 2048, 2, 0), 0);
	out_plot_mark(&p, 1536, "mark\n!touch mark", 0);
	/* gnuplot may be missing or fail here: the script is written first either way */
	(void)out_plot_draw(&p, dir, &missing, &e);
	snprintf(path, sizeof path, "%s/fig.gp", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f)) {
		assert_true(line[0] != '!');
		assert_null(strstr(line, "\r"));
		lines_begun += strncmp(line, "# pmucheck figure: title !touch", 31) == 0;
	}
	fclose(f);
	assert_int_equal(lines_begun, 1);
	snprintf(path, sizeof path, "%s/pwned-title", dir);
	assert_int_not_equal(access(path, F_OK), 0);
	out_plot_free(&p);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_breaks_in_texts_stay_inside_their_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
