/* test_level.c — the one level name table (common/level.c): raw.csv's, the configs' and peaks.csv's
 * spelling, and nothing else parses as a level. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "level.h"

static void test_every_level_parses_back_from_its_name(void **state)
{
	(void)state;
	for (int l = 0; l < LEVEL_COUNT; l++)
		assert_int_equal(level_parse(level_name((enum level)l)), l);
	assert_string_equal(level_name(LEVEL_L1), "L1");
	assert_string_equal(level_name(LEVEL_DRAM), "DRAM");
}

static void test_other_names_are_no_level(void **state)
{
	(void)state;
	assert_int_equal(level_parse("L4"), LEVEL_NONE);
	assert_int_equal(level_parse("l1"), LEVEL_NONE);
	assert_int_equal(level_parse(""), LEVEL_NONE);
	assert_int_equal(level_parse(NULL), LEVEL_NONE);
	assert_string_equal(level_name(LEVEL_NONE), "");
	assert_string_equal(level_name(LEVEL_COUNT), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_level_parses_back_from_its_name),
		cmocka_unit_test(test_other_names_are_no_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
