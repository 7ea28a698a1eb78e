/* reading.c — the physical limits a single counter reading must respect (thresholds.h). */
#include <math.h>

#include "reading.h"
#include "thresholds.h"

#define TWO48 281474976710656.0 /* 2^48: Intel and AMD general-purpose counters are 48 bits wide */
#define TWO64 18446744073709551616.0

/* The longest the reading can have counted for: the 2R call (tsc_hi at the rows' TSC rate), the
   time the event was enabled, or the differenced time; 0 when the row gives none. */
static double reading_seconds(const struct raw_row *row)
{
	double t = fabs(row->seconds);

	if (row->tsc_hi > 0 && row->tsc != 0 && row->seconds != 0)
		t = fmax(t, (double)row->tsc_hi * fabs(row->seconds / (double)row->tsc));
	return fmax(t, (double)row->time_enabled * 1e-9);
}

/* Counting units: the threads of a core event; a socket (uncore) event sees every core. */
static double units(const struct machine *m, const struct raw_row *row)
{
	double n = (double)row->threads;

	if (row->scope && row->scope[0] == 's' && m->cores > n)
		n = m->cores;
	return n;
}

const char *reading_impossible(const struct machine *m, const struct raw_row *row)
{
	double c = row->count, t = reading_seconds(row);

	/* The count is the 2R call's less the R call's (harness run_counters.c): an idle event's two calls
	   count a few interrupts each, so its difference is as often a little below 0 as above, and
	   rejecting those left such an event's readings mostly "impossible", not measured instead of never
	   counting, and raised the median of a point whose repetitions straddle 0. A difference further
	   below 0 than the noise floor (thresholds.h) is no idle event's. */
	if (c < -THR_NOISE_COUNTS)
		return "negative count (below the noise floor)";
	if (c == TWO48 - 1 || c >= TWO64 - 4096)
		return "counter stuck at all ones";
	if (t > 0 && c > THR_MAX_EVENTS_PER_CYCLE * THR_MAX_GHZ * 1e9 * units(m, row) * t)
		return c >= TWO48 / 2 && c < TWO48 ? "48-bit counter wrap (count just below 2^48)"
						   : "more events than any counter can count in the time";
	return NULL;
}
