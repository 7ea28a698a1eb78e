/* rawgen — writes a synthetic results directory for the analysis tests.
 * usage: rawgen DIR [SIZES_PER_LEVEL [REPS]]   (defaults 4 and 3) */
#include <stdlib.h>

#include "events.h"

int main(int argc, char **argv)
{
	unsigned per_level = argc > 2 ? (unsigned)atoi(argv[2]) : 4, reps = argc > 3 ? (unsigned)atoi(argv[3]) : 3;
	long rows;

	if (argc < 2 || per_level < 2 || reps < 1) {
		fprintf(stderr, "usage: rawgen DIR [SIZES_PER_LEVEL>=2 [REPS>=1]]\n");
		return 2;
	}
	rows = gen_dir(argv[1], test_events, TEST_NEVENTS, per_level, reps, 1);
	if (rows < 0) {
		perror(argv[1]);
		return 1;
	}
	printf("%ld\n", rows);
	return 0;
}
