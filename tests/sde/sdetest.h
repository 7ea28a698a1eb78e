/* sdetest.h — a test library that registers software-defined events (SDE) with PAPI's libsde.
 *
 * Library name "pmucheck_sdetest"; PAPI names its counters sde:::pmucheck_sdetest::<NAME>. One call of
 * sdetest_loop(n) adds to them:
 *   EXACT   n       counts every iteration: the correct counter
 *   HALF    n / 2   counts every second iteration: deliberately undercounts
 *   DOUBLE  2 n     counts every iteration twice: deliberately overcounts
 *   BYTES   8 n     the bytes the loop stores (one uint64_t per iteration)
 *   CALLS   1       calls of sdetest_loop
 *   SKEW    7 n / 8 misses every eighth iteration: deliberately undercounts by 12.5 %, no simple scale
 */
#ifndef PMUCHECK_SDETEST_H
#define PMUCHECK_SDETEST_H

#include <stdint.h>

#define SDETEST_LIB "pmucheck_sdetest"

/* Registers the counters with libsde; call once before resolving sde:::pmucheck_sdetest:: names. */
void sdetest_register(void);

/* Runs n iterations that each store one uint64_t; returns the sum stored (so the loop is kept). */
uint64_t sdetest_loop(uint64_t n);

#endif
