#include "kern.h"

int kern_impossibly_fast(double bytes, double loads, double stores, double seconds, double ghz,
			 double threads)
{
	double cycles = seconds * ghz * 1e9 * threads; /* all the threads' core cycles */

	return seconds > 0 && ghz > 0 && threads > 0 &&
		(bytes / cycles > KERN_MAX_BYTES_PER_CYCLE || loads / cycles > KERN_MAX_LOADS_PER_CYCLE ||
		 stores / cycles > KERN_MAX_STORES_PER_CYCLE);
}
