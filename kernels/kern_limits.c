#include <stdio.h>

#include "kern.h"

int kern_impossibly_fast(const struct kern_work *w, double seconds, double ghz, double threads)
{
	double cycles = seconds * ghz * 1e9 * threads; /* all the threads' core cycles */

	return seconds > 0 && ghz > 0 && threads > 0 &&
		((w->bytes_loaded + w->bytes_stored) / cycles > KERN_MAX_BYTES_PER_CYCLE ||
		 w->loads / cycles > KERN_MAX_LOADS_PER_CYCLE ||
		 w->stores / cycles > KERN_MAX_STORES_PER_CYCLE);
}

/* Whether `done` per core cycle is past `limit` (0: none) by more than KERN_PORTS_MARGIN. */
static int past(double done, double limit)
{
	return limit > 0 && done > limit * (1 + KERN_PORTS_MARGIN);
}

int kern_past_ports(const struct kern_work *w, double seconds, double ghz, double threads,
		    const struct kern_ports *ports)
{
	double cycles = seconds * ghz * 1e9 * threads;

	return ports && seconds > 0 && ghz > 0 && threads > 0 &&
		(past(w->bytes_loaded / cycles, ports->load_bytes) ||
		 past(w->bytes_stored / cycles, ports->store_bytes) ||
		 past(w->loads / cycles, ports->loads) || past(w->stores / cycles, ports->stores));
}

void kern_ports_format(char *buf, size_t len, const struct kern_ports *p)
{
#define PORT_WORDS(field, key, most, one, many) {p ? p->field : 0, one, many},
	const struct {
		double v;
		const char *one, *many;
	} f[] = {KERN_PORTS_FIELDS(PORT_WORDS)};
#undef PORT_WORDS
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof f / sizeof f[0] && used < len; i++)
		if (f[i].v > 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%g %s", used ? ", " : "", f[i].v,
						 f[i].v == 1 ? f[i].one : f[i].many);
}
