/* clock_words.h — machine.json's words for the core clock's samples: why a sample was rejected
 * (disturbance.points.clock_samples) and where the highest clock a sample may give came from
 * (clock.bounds.max_from). In common/ because the writer (harness core_clock.c, run_job.c) and the reader
 * (analysis machine_read.c, out_report_clock.c) share the words. */
#ifndef PMUCHECK_CLOCK_WORDS_H
#define PMUCHECK_CLOCK_WORDS_H

#include <string.h>

/* Why a sample was rejected, and its key in clock_samples: its N and 2N runs disagreed (a disturbed run),
   it lay above the CPU's maximum or below the floor, or its APERF/MPERF reading failed. Counted apart since
   a maximum below what the host runs (a guest told of an older CPU than its host's, whose config gives the
   older CPU's clock) rejects the samples above it one by one, and raw.csv's clock_note keeps only each
   pass's first reason. */
#define CLOCK_REJECT_KINDS(X) \
	X(CLOCK_REJECT_DISTURBED, "disturbed") \
	X(CLOCK_REJECT_ABOVE_MAX, "above_max") \
	X(CLOCK_REJECT_BELOW_FLOOR, "below_floor") \
	X(CLOCK_REJECT_UNREAD, "unread")

#define CLOCK_REJECT_ENUM(id, name) id,
enum clock_reject { CLOCK_REJECT_KINDS(CLOCK_REJECT_ENUM) CLOCK_REJECTS };
#undef CLOCK_REJECT_ENUM

/* The kind's key in machine.json; "?" for none. */
static inline const char *clock_reject_name(enum clock_reject why)
{
#define CLOCK_REJECT_NAME(id, name) [id] = name,
	static const char *const names[CLOCK_REJECTS] = {CLOCK_REJECT_KINDS(CLOCK_REJECT_NAME)};
#undef CLOCK_REJECT_NAME
	return (unsigned)why < CLOCK_REJECTS ? names[why] : "?";
}

/* clock.bounds.max_from: the maximum is the largest cpuinfo_max_freq, CPUID leaf 0x16's, the config's
   max_ghz, or the physical bound (core_clock.h clock_bounds_read). Only a config's describes the CPU a guest
   is told of rather than the one it runs on, so only then do samples above it say that the two differ. */
#define CLOCK_MAX_FROM_CPUFREQ "cpufreq"
#define CLOCK_MAX_FROM_CPUID "cpuid"
#define CLOCK_MAX_FROM_CONFIG "config"
#define CLOCK_MAX_FROM_PHYSICAL "physical"

/* Whether a run's samples say its cores ran faster than the CPU its config describes: the maximum is a
   config's (max_from), and most samples whose runs agreed with each other (those kept, and those rejected
   by a bound: taken less the disturbed and unread) lay above it. Then the config's CPU is not the one the
   guest runs on; a few samples above it among many kept are no such sign. rejected_by: CLOCK_REJECTS
   counts. */
static inline int clock_config_max_too_low(const char *max_from, long long taken,
					   const long long *rejected_by)
{
	long long agreed = taken - rejected_by[CLOCK_REJECT_DISTURBED] - rejected_by[CLOCK_REJECT_UNREAD];

	return max_from && strcmp(max_from, CLOCK_MAX_FROM_CONFIG) == 0 &&
		2 * rejected_by[CLOCK_REJECT_ABOVE_MAX] > agreed;
}

#endif
