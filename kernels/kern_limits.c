#include <stdio.h>

#include "kern.h"

/* Whether `done` per core cycle is past `limit` (0: none) by more than KERN_PORTS_MARGIN. */
static int past_port(double done, double limit)
{
	return limit > 0 && done > limit * (1 + KERN_PORTS_MARGIN);
}

int kern_impossibly_fast(const struct kern_work *w, double seconds, double ghz, double threads,
			 const struct kern_ports *ports)
{
	double cycles = seconds * ghz * 1e9 * threads; /* all the threads' core cycles */
	double loaded, stored, loads, stores;

	if (!(seconds > 0 && ghz > 0 && threads > 0))
		return 0;
	loaded = w->bytes_loaded / cycles;
	stored = w->bytes_stored / cycles;
	loads = w->loads / cycles;
	stores = w->stores / cycles;
	if (loaded + stored > KERN_MAX_BYTES_PER_CYCLE || loads > KERN_MAX_LOADS_PER_CYCLE ||
	    stores > KERN_MAX_STORES_PER_CYCLE)
		return 1;
	return ports &&
		(past_port(loaded, ports->load_bytes) || past_port(stored, ports->store_bytes) ||
		 past_port(loads, ports->loads) || past_port(stores, ports->stores));
}

void kern_ports_format(char *buf, size_t len, const struct kern_ports *p)
{
	const double v[] = {p ? p->load_bytes : 0, p ? p->store_bytes : 0, p ? p->loads : 0,
			    p ? p->stores : 0};
	const char *many[] = {"bytes loaded", "bytes stored", "loads", "stores"};
	const char *one[] = {"byte loaded", "byte stored", "load", "store"};
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < 4 && used < len; i++)
		if (v[i] > 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%g %s", used ? ", " : "", v[i],
						 v[i] == 1 ? one[i] : many[i]);
}
