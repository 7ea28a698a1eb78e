/* skip_why.h — leaves a unit test as skipped with its reason. cmocka's TAP line for a skipped test
   ("not ok N # SKIP name") has no room for one, so the reason is printed before it as "# skip: REASON";
   tests/run.sh shows it beside the SKIP line. Include after <cmocka.h>; FMT is a string literal. */
#ifndef SKIP_WHY_H
#define SKIP_WHY_H

#define skip_why(fmt, ...) \
	do { \
		print_message("# skip: " fmt "\n", ##__VA_ARGS__); \
		skip(); \
	} while (0)

#endif
