/* timed_call.h — one kernel call timed with the TSC (tsc.h fences it): the one way the measurement loop,
 * the level probe and the speed probe time a call. */
#ifndef PMUCHECK_TIMED_CALL_H
#define PMUCHECK_TIMED_CALL_H

#include <stdint.h>

#include "kern.h"
#include "tsc.h"

/* The call's TSC ticks; *start the TSC when it began, *ret what the kernel returned (a resumable one:
   where its next call goes on, kern.h KF_RESUMABLE); NULL: not wanted. */
static inline uint64_t timed_call(const struct kern_variant *v, void *buf, uint64_t bytes, uint64_t reps,
				  uint64_t arg, uint64_t *start, uint64_t *ret)
{
	uint64_t t0 = tsc_begin(), r = v->fn(buf, bytes, reps, arg), t1 = tsc_end();

	if (start)
		*start = t0;
	if (ret)
		*ret = r;
	return t1 - t0;
}

#endif
