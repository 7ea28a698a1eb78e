/* cfg_perf.c — the grammar of perf event specs in configs:
 *
 *     spec     = symbolic | pmu "/" term { "," term } "/" [ modifiers ]
 *     pmu      = [a-z] [a-z0-9_]* [ "*" ]              e.g. cpu, uncore_imc_0, amd_umc_*, amd_l3
 *     term     = name [ "=" number ]                    name alone: a sysfs alias of that PMU
 *     name     = [a-z] [a-z0-9_.]*                      e.g. event, umask, cas_count_read, umc_cas_cmd.rd
 *     number   = decimal | "0x" hex
 *     modifiers= [ukhGHpP]+                             as perf's ":u" suffix, written after the "/"
 *
 * A "*" box number in the PMU name means every box of that PMU, the counts summed (uncore_imc_*).
 * The loader checks the structure; which names a PMU knows is only known on a machine that has it,
 * so terms are checked against the x86 sysfs format names by the event checker (tests/tools). */
#include <ctype.h>
#include <string.h>

#include "cfg.h"

/* perf's generic and software event names (perf list, tools/perf/util/parse-events.c tables). */
static const char *const symbolic[] = {
	"cycles", "cpu-cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branches", "branch-misses", "bus-cycles", "ref-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend",
	"cpu-clock", "task-clock", "page-faults", "faults", "minor-faults", "major-faults",
	"context-switches", "cs", "cpu-migrations", "migrations", "alignment-faults", "emulation-faults",
	"L1-dcache-loads", "L1-dcache-load-misses", "L1-dcache-stores", "L1-dcache-store-misses",
	"L1-dcache-prefetches", "L1-dcache-prefetch-misses", "LLC-loads", "LLC-load-misses",
	"LLC-stores", "LLC-store-misses", "LLC-prefetches", "LLC-prefetch-misses",
	"dTLB-loads", "dTLB-load-misses", "dTLB-stores", "dTLB-store-misses",
};

/* Format terms of the x86 core and uncore PMUs as in /sys/bus/event_source/devices/x/format/
   (arch/x86/events/{intel,amd}/ *.c format attributes). */
static const char *const terms[] = {
	"event", "umask", "cmask", "inv", "edge", "any", "pc", "in_tx", "in_tx_cp", "ldlat",
	"offcore_rsp", "frontend", "config", "config1", "config2", "period",
	/* Intel uncore */
	"thresh", "ch_mask", "fc_mask", "umask_ext", "umask_ext2", "umask_ext3", "umask_ext4",
	"filter_tid", "filter_link", "filter_state", "filter_nid", "filter_opc", "filter_opc0",
	"filter_opc1", "filter_nc", "filter_c6", "filter_isoc", "filter_rem", "filter_loc",
	"filter_nm", "filter_not_nm", "filter_all_op",
	/* AMD L3, DF and UMC */
	"slicemask", "threadmask", "enallslices", "enallcores", "sliceid", "coreid", "rdwrmask",
};

int cfg_perf_symbolic(const char *spec)
{
	for (unsigned i = 0; i < sizeof symbolic / sizeof symbolic[0]; i++)
		if (!strcmp(spec, symbolic[i]))
			return 1;
	return 0;
}

int cfg_perf_term_known(const char *term, size_t len)
{
	for (unsigned i = 0; i < sizeof terms / sizeof terms[0]; i++)
		if (strlen(terms[i]) == len && !strncmp(terms[i], term, len))
			return 1;
	return 0;
}

static size_t span_name(const char *s, const char *more)
{
	size_t n = 0;

	if (!islower((unsigned char)s[0]))
		return 0;
	while (islower((unsigned char)s[n]) || isdigit((unsigned char)s[n]) || (s[n] && strchr(more, s[n])))
		n++;
	return n;
}

static size_t span_number(const char *s)
{
	if (s[0] == '0' && s[1] == 'x') {
		size_t n = strspn(s + 2, "0123456789abcdefABCDEF");

		return n ? n + 2 : 0;
	}
	return strspn(s, "0123456789");
}

int cfg_perf_check(const char *spec, struct err *e)
{
	const char *p = spec;
	size_t n;

	if (cfg_perf_symbolic(spec))
		return 0;
	n = span_name(p, "_");
	if (n && p[n] == '*')
		n++;
	if (!n || p[n] != '/')
		return err_set(e, E_USAGE, "'%s': expected a PMU name then '/' (pmu/term=value,.../)", spec);
	p += n + 1;
	for (;;) {
		n = span_name(p, "_.");
		if (!n)
			return err_set(e, E_USAGE, "'%s': expected a term name at '%s'", spec, p);
		p += n;
		if (*p == '=') {
			n = span_number(++p);
			if (!n)
				return err_set(e, E_USAGE, "'%s': expected a number at '%s'", spec, p);
			p += n;
		}
		if (*p == '/')
			break;
		if (*p != ',')
			return err_set(e, E_USAGE, "'%s': expected ',' or '/' at '%s'", spec, p);
		p++;
	}
	p++;
	if (strspn(p, "ukhGHpP") != strlen(p))
		return err_set(e, E_USAGE, "'%s': unknown modifiers '%s' (u k h G H p P)", spec, p);
	return 0;
}
