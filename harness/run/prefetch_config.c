#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "pf.h"
#include "prefetch_config.h"

int prefetch_config_layout(const struct cpuid_info *id, char *layout, size_t len, char *by, size_t by_len)
{
	char path[PATH_MAX];
	struct cfg c;
	struct err e;
	int rc = -1;

	if (by_len)
		by[0] = 0;
	if (cfg_select_for_cpu(NULL, id->vendor, id->family, id->model, path, sizeof path, &e))
		return -1;
	/* a layout only: none and listed vouch for no bits (the config is named all the same: its note
	   says why, as zen2.ini's does) */
	if (cfg_load(path, &c, &e) == 0 && c.has_arch && !c.arch.match_any) {
		snprintf(by, by_len, "%s (%s: prefetch = %s)", c.arch.title, path, c.arch.prefetch);
		if (pf_layout_named(c.arch.prefetch)) {
			snprintf(layout, len, "%s", c.arch.prefetch);
			rc = 0;
		}
	}
	cfg_free(&c);
	return rc;
}
