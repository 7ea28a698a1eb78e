/* sdetest.c — see sdetest.h. The counters are plain variables that libsde reads through their
 * addresses (PAPI_SDE_RO | PAPI_SDE_DELTA: PAPI reports the change between PAPI_start and PAPI_stop). */
#include <sde_lib.h>

#include "sdetest.h"

static long long exact, half, twice, bytes, calls, skew;

void sdetest_register(void)
{
	const int mode = PAPI_SDE_RO | PAPI_SDE_DELTA;
	papi_handle_t h = papi_sde_init(SDETEST_LIB);

	papi_sde_register_counter(h, "EXACT", mode, PAPI_SDE_long_long, &exact);
	papi_sde_register_counter(h, "HALF", mode, PAPI_SDE_long_long, &half);
	papi_sde_register_counter(h, "DOUBLE", mode, PAPI_SDE_long_long, &twice);
	papi_sde_register_counter(h, "BYTES", mode, PAPI_SDE_long_long, &bytes);
	papi_sde_register_counter(h, "CALLS", mode, PAPI_SDE_long_long, &calls);
	papi_sde_register_counter(h, "SKEW", mode, PAPI_SDE_long_long, &skew);
}

uint64_t sdetest_loop(uint64_t n)
{
	volatile uint64_t sink;
	uint64_t sum = 0;

	calls++;
	for (uint64_t i = 0; i < n; i++) {
		sink = i;
		sum += sink;
		exact++;
		half += i & 1;
		twice += 2;
		bytes += sizeof sink;
		skew += (i & 7) != 7;
	}
	return sum;
}
