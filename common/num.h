/* num.h — numbers and sizes as a user types them (command-line options, config values). */
#ifndef PMUCHECK_NUM_H
#define PMUCHECK_NUM_H

#include <stdint.h>

#include "err.h"

/* A non-negative decimal integer. Returns 0, or E_USAGE with a message naming option. */
int num_parse_u64(const char *option, const char *text, uint64_t *out, struct err *e);
/* The same with an optional binary suffix (k, K, KiB, m, M, MiB, g, G, GiB). */
int num_parse_size(const char *option, const char *text, uint64_t *out, struct err *e);

#endif
