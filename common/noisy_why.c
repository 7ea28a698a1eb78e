/* noisy_why.c — the words of raw.csv's noisy_why column, and the sentence that counts them (noisy_why.h). */
#include <stdio.h>

#include "noisy_why.h"

const char *const noisy_why_names[NW_COUNT] = {
	[NW_AT_REPS] = "unconfirmed-at-reps", [NW_AT_BUDGET] = "unconfirmed-at-budget",
	[NW_TOO_FAST] = "too-fast",           [NW_APART] = "threads-apart",
	[NW_SHARED_CORE] = "shared-core",     [NW_LEVEL] = "level-not-held",
	[NW_SLOW] = "slow-machine",           [NW_QUOTA] = "cpu-quota",
};

/* after a count of points */
static const char *const phrase[NW_COUNT] = {
	[NW_AT_REPS] = "not confirmed within --reps repetitions",
	[NW_AT_BUDGET] = "not confirmed within their share of the time budget",
	[NW_TOO_FAST] = "faster than any core",
	[NW_APART] = "whose threads never ran together",
	[NW_SHARED_CORE] = "whose threads shared a core",
	[NW_LEVEL] = "that the last cache level did not hold",
	[NW_SLOW] = "begun while the machine itself ran slow",
	[NW_QUOTA] = "whose threads the cgroup's CPU quota stopped while they ran",
};

void noisy_why_count(unsigned counts[NW_COUNT], unsigned bits)
{
	for (int w = 0; w < NW_COUNT; w++)
		counts[w] += (bits >> w) & 1u;
}

void noisy_why_format(char *buf, size_t len, const unsigned counts[NW_COUNT], unsigned unexplained)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int w = 0; w < NW_COUNT && used < len; w++)
		if (counts[w])
			used += (size_t)snprintf(buf + used, len - used, "%s%u %s", used ? ", " : "",
						 counts[w], phrase[w]);
	if (unexplained && used < len)
		snprintf(buf + used, len - used,
			 "%s%u without a reason (a raw.csv from before its noisy_why column)",
			 used ? ", " : "", unexplained);
}

int noisy_why_slow(double gbps, double best)
{
	return gbps > 0 && best > 0 && gbps < NOISY_SLOW_SHARE * best;
}
