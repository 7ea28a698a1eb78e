/* levels_from.c — see levels_from.h. */
#include <stdio.h>
#include <string.h>

#include "latency_curve.h"
#include "levels_from.h"
#include "machine_json.h"

int levels_curve_read(const json_t *levels, uint64_t *size, double *ns, double *cycles, int max)
{
	const json_t *curve = json_object_get(levels, "latency_curve"), *pt;
	size_t i;
	int n = 0;

	json_array_foreach(curve, i, pt)
	{
		struct level_probe_time t;
		double b;
		if (n < max && latency_curve_point(pt, &b, &t)) {
			size[n] = (uint64_t)b;
			cycles[n] = t.cycles;
			ns[n++] = t.ns;
		}
	}
	return n;
}

/* Whether the run's reported caches (levels.reported) are this machine's, level by level; why not, in why. */
static int same_caches(const json_t *levels, const struct topo *t, char *why, size_t len)
{
	const json_t *reported = json_object_get(levels, "reported");

	if (!json_is_object(reported)) {
		snprintf(why, len, "it records no reported cache sizes (levels.reported)");
		return 0;
	}
	if (json_object_size(reported) != (size_t)t->ncaches) {
		snprintf(why, len, "it saw %zu cache levels, this machine reports %d",
			 json_object_size(reported), t->ncaches);
		return 0;
	}
	for (int l = 1; l <= t->ncaches; l++) {
		char key[8];
		const json_t *v;
		uint64_t there, here = topo_reported_share(t, l, 1);

		snprintf(key, sizeof key, "L%d", l);
		v = json_object_get(reported, key);
		/* the size rule the analysis reads it by (machine_json_size_ok), which takes 49152.0 too */
		if (!v || !json_is_number(v) || !machine_json_size_ok(json_number_value(v))) {
			snprintf(why, len, "its L%d is %s", l, v ? "no size in bytes" : "missing");
			return 0;
		}
		there = (uint64_t)json_number_value(v);
		if (there != here) {
			snprintf(why, len, "its L%d was %llu KiB a thread, this machine's is %llu KiB", l,
				 (unsigned long long)there >> 10, (unsigned long long)here >> 10);
			return 0;
		}
	}
	return 1;
}

int levels_from_run(const char *dir, const struct topo *t, uint64_t out[TOPO_MAX_LEVELS], struct err *e)
{
	char path[4096], why[160];
	json_t *m, *levels;
	int ok, rc;

	if (strlen(dir) + sizeof "/machine.json" > sizeof path)
		return err_set(e, E_USAGE, "--levels-from %.64s...: the path is too long", dir);
	snprintf(path, sizeof path, "%s/machine.json", dir);
	/* a file the option names that cannot be read (not there, not a directory above it, no permission)
	   is the option's fault, as --resume and --config say */
	if (machine_json_load(path, &m, e))
		return err_wrap(e, E_USAGE, "--levels-from");
	levels = json_object_get(m, "levels");
	if ((rc = machine_json_levels_measured(path, levels, out, TOPO_MAX_LEVELS, e))) {
		json_decref(m);
		return err_wrap(e, rc, "--levels-from");
	}
	ok = json_is_object(levels);
	if (!ok)
		snprintf(why, sizeof why, "it has no \"levels\"");
	else
		ok = same_caches(levels, t, why, sizeof why);
	/* a probe only ever measures a level shorter than reported (levels_apply) */
	for (int l = 1; ok && l <= t->ncaches; l++)
		if (out[l - 1] > topo_reported_share(t, l, 1)) {
			snprintf(why, sizeof why,
				 "its L%d measured %llu KiB, more than the %llu KiB reported", l,
				 (unsigned long long)out[l - 1] >> 10,
				 (unsigned long long)topo_reported_share(t, l, 1) >> 10);
			ok = 0;
		}
	json_decref(m);
	if (!ok)
		return err_set(e, E_USAGE, "--levels-from: %s: %s; its level sizes are not this machine's",
			       path, why);
	return 0;
}
