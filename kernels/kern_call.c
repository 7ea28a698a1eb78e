/* kern_call.c — how the harness lengthens a call while it calibrates one (kern.h). */
#include "kern.h"

uint64_t kern_first_span(const struct kern_family *f, uint64_t bytes)
{
	return (f->flags & KF_RESUMABLE) && f->granule < bytes ? f->granule : bytes;
}

/* Doubling a granule stays a whole number of granules, and so does the buffer that caps it. */
void kern_call_longer(const struct kern_family *f, uint64_t bytes, uint64_t *span, uint64_t *reps)
{
	if ((f->flags & KF_RESUMABLE) && *span < bytes)
		*span = 2 * *span < bytes ? 2 * *span : bytes;
	else
		*reps *= 2;
}
