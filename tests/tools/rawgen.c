/* rawgen — writes a synthetic results directory for the analysis tests.
 * usage: rawgen DIR [SIZES_PER_LEVEL [REPS [EVENTS]]]   (defaults 4, 3, all; EVENTS takes the first
 * ones of events.h, so a million-point worst case is `rawgen DIR 8929 1 1`) */
#include <stdlib.h>

#include "events.h"

int main(int argc, char **argv)
{
	unsigned per_level = argc > 2 ? (unsigned)atoi(argv[2]) : 4,
		 reps = argc > 3 ? (unsigned)atoi(argv[3]) : 3;
	unsigned nev = argc > 4 ? (unsigned)atoi(argv[4]) : TEST_NEVENTS;
	long rows;

	if (argc < 2 || per_level < 2 || reps < 1 || nev < 1 || nev > TEST_NEVENTS) {
		fprintf(stderr, "usage: rawgen DIR [SIZES_PER_LEVEL>=2 [REPS>=1 [EVENTS 1..%zu]]]\n",
			TEST_NEVENTS);
		return 2;
	}
	rows = gen_dir(argv[1], test_events, nev, per_level, reps, 1);
	if (rows < 0) {
		perror(argv[1]);
		return 1;
	}
	printf("%ld\n", rows);
	return 0;
}
