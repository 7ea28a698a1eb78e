/* reading.h — readings no counter could have produced: negative past the noise floor, stuck at all ones,
 * wrapped at 48 bits, or more events than any event can count in the time. They are rejected one by one,
 * with the reason, before they reach a verdict, a rate or a peak. */
#ifndef PMUCHECK_READING_H
#define PMUCHECK_READING_H

#include "machine_read.h"
#include "raw_read.h"

/* Why the count of row (status ok) is impossible, or NULL when it is possible. The text is static. */
const char *reading_impossible(const struct machine *m, const struct raw_row *row);

#endif
