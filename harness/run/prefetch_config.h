/* prefetch_config.h — the prefetcher MSR layout that the architecture config describing a CPU names
 * ([arch] prefetch), for a model the built-in lists of harness/prefetch/pf_table.c do not know: with
 * it, adding an architecture of a known layout is one config and no C (configs/README.md). */
#ifndef PMUCHECK_PREFETCH_CONFIG_H
#define PMUCHECK_PREFETCH_CONFIG_H

#include <stddef.h>

#include "cpu_id.h"

/* A pf_layout_source (pf.h): the layout named by the config of the config directory that matches this
   CPU's vendor, family and model (the one `run` selects, never the generic fallback, which matches any
   CPU and names none) into layout, and "TITLE (PATH: prefetch = LAYOUT)" into by; 0 where there is
   one, -1 where no config matches, a config cannot be read, or it names "none". */
int prefetch_config_layout(const struct cpuid_info *id, char *layout, size_t len, char *by, size_t by_len);

#endif
