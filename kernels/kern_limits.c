#include "kern.h"

int kern_impossibly_fast(double bytes, double seconds, double ghz, double threads)
{
	return seconds > 0 && ghz > 0 && threads > 0 &&
		bytes / seconds / (ghz * 1e9) / threads > KERN_MAX_BYTES_PER_CYCLE;
}
