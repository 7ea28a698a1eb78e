/* ctr_syntax.h — the one grammar of perf event specs, for the counter layer (ctr_spec.c, which then
 * resolves a spec against sysfs) and the config loader (cfg_perf.c, which checks configs on machines
 * that lack the PMU) alike:
 *
 *     spec      = named | pmu "/" term { "," term } "/" [ modifiers ]
 *     named     = a software or generic hardware event perf names (page-faults, cycles, ...)
 *     pmu       = [a-z] [a-z0-9_]* [ "*" ]     "*": every box of an uncore PMU, where the caller allows it
 *     term      = name [ "=" number ]          a name alone: a sysfs alias of that PMU, or a flag (inv)
 *     name      = [a-z] [a-z0-9_.-]*            event, umask, cas_count_read, umc_cas_cmd.rd, mem-loads
 *     number    = [0-9] ... as strtoull base 0  decimal, 0x hex, 0 octal (as perf)
 *     modifiers = "u" | "k" | "uk" | "ku"      count user space / the kernel only, as perf's :u and :k
 *
 * perf's other modifiers are refused by name: h, G and H split hypervisor, guest and host, and p/P ask
 * for precise sampling; pmucheck counts one process on bare metal or in one guest.
 */
#ifndef PMUCHECK_CTR_SYNTAX_H
#define PMUCHECK_CTR_SYNTAX_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"

#define CTR_SYNTAX_NAME_MAX 64
#define CTR_SYNTAX_TERMS_MAX 256

struct ctr_syntax {
	char pmu[CTR_SYNTAX_NAME_MAX];    /* with its trailing '*' when it had one */
	char terms[CTR_SYNTAX_TERMS_MAX]; /* between the two '/', as written */
	bool user, kernel;                /* modifiers given: count user space / the kernel */
};

/* Splits and checks a pmu/.../ spec (not a named one). wildcard allows a '*' after the PMU name.
   E_USAGE naming the spec and the fault. */
int ctr_syntax_parse(const char *spec, bool wildcard, struct ctr_syntax *s, struct err *e);

/* A number as perf accepts it in a term: 0 with *v, or E_USAGE naming the spec and the term. */
int ctr_syntax_number(const char *spec, const char *term, const char *text, unsigned long long *v,
		      struct err *e);

/* perf's software and generic hardware events by name (perf list): their perf_event_attr type and
   config. ctr_syntax_named returns NULL for any other spec; ctr_perf_named_event gives the i-th name,
   NULL past the end. */
struct ctr_named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};
const struct ctr_named_event *ctr_syntax_named(const char *spec);
const char *ctr_perf_named_event(unsigned i);

#endif
