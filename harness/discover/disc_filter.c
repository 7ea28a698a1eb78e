/* disc_filter.c — which candidates a discovery measures. A CPU names thousands of events (libpfm4's
 * Sapphire Rapids table alone gives 70 events with 496 umasks, Intel's perfmon files several thousand
 * with the uncore); pmucheck's kernels move data through the memory hierarchy, so by default it judges
 * the events about that: caches, memory, loads and stores, fills and evictions, prefetches, misses,
 * stalls, TLBs, and the uncore boxes between the cores and DRAM. --only replaces that choice with
 * patterns, --pmu restricts the PMUs and --max cuts the list. Events given by name always stay. */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"
#include "num.h"

/* Words in an event's name (case ignored) that put it in the memory hierarchy or its stalls. Intel's
   names (L1D, L2_RQSTS, OFFCORE_RESPONSE, OCR, MEM_LOAD_RETIRED, CYCLE_ACTIVITY, RESOURCE_STALLS),
   AMD's (ls_*, l2_*, dc_*, ls_dmnd_fills_from_sys, l3_*) and the kernel's aliases (cas_count_read). */
static const char *const memory_words[] = {"l1d",  "l1-d",  "l2",    "l3",      "llc",   "cache", "mem",
					   "load", "store", "stall", "offcore", "ocr.",  "dram",  "pref",
					   "miss", "fill",  "evict", "wb",      "split", "tlb",   "ls_",
					   "dc_",  "cas_",  "lines", "rqsts",   "snoop", "hitm",  "rfo"};
/* Uncore PMUs between the cores and memory: Intel's memory controllers, caching/home agents (CBo,
   CHA, HA: libpfm4's hswep_unc_ha), mesh to memory, links; AMD's L3, data fabric and memory
   controllers. The ring/mesh stops in front of the links (R3QPI, M3UPI: credits and ring slots, 620
   events on Skylake-SP) are left out, though their names hold "qpi"/"upi". */
static const char *const memory_units[] = {"imc", "cha",    "cbo",    "unc_ha", "m2m", "upi", "qpi",
					   "edc", "amd_l3", "amd_df", "umc",    "_l3", "hha"};
static const char *const link_stops[] = {"r3qpi", "m3upi"};
/* Words of uncore event names about the traffic, beside memory_words: the memory controllers' read and
   write queues (RPQ, WPQ), the caching agents' table of requests (TOR) and directory, requests, victims,
   link flits, reads and writes. What they leave out are the boxes' own ring slots, credits and power
   states (Skylake-SP's CHA alone names about 700 events with libpfm4's umasks). */
static const char *const uncore_words[] = {"rpq", "wpq",   "tor_", "request", "victim",
					   "dir", "flits", "read", "writ",    "data"};
/* But not the memory controllers' breakdowns per DIMM rank and bank (UNC_M_RD_CAS_RANK0..7 with
   a umask per bank: about 350 events on Haswell-EP), which split what UNC_M_CAS_COUNT counts whole. */
static const char *const uncore_detail[] = {"rank"};

static bool contains_word(const char *name, const char *const *words, size_t n)
{
	char low[DISC_NAME_MAX + CTR_SPEC_MAX];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof low; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	for (i = 0; i < n; i++)
		if (strstr(low, words[i]))
			return true;
	return false;
}

#define HAS(s, words) contains_word(s, words, sizeof words / sizeof words[0])

/* Whether a name is one the default keeps. */
static bool disc_default_keeps(const struct disc_cand *c)
{
	if (c->origin == DISC_GIVEN)
		return true;
	if (c->uncore)
		return HAS(c->pmu, memory_units) && !HAS(c->pmu, link_stops) &&
			(HAS(c->name, memory_words) || HAS(c->name, uncore_words)) &&
			!HAS(c->name, uncore_detail);
	return HAS(c->name, memory_words);
}

/* Each comma-separated pattern must be a usable fnmatch pattern of printable characters. */
static int check_patterns(const char *option, const char *patterns, struct err *e)
{
	if (!*patterns)
		return err_set(e, E_USAGE, "%s: empty pattern list", option);
	for (const char *p = patterns; *p; p++)
		if (!isprint((unsigned char)*p) || isspace((unsigned char)*p))
			return err_set(e, E_USAGE, "%s: '%s' holds a blank or unprintable character", option,
				       patterns);
	if (strstr(patterns, ",,") || patterns[0] == ',' || patterns[strlen(patterns) - 1] == ',')
		return err_set(e, E_USAGE, "%s: '%s' has an empty pattern", option, patterns);
	if (strlen(patterns) >= 1024)
		return err_set(e, E_USAGE, "%s: longer than 1023 characters", option);
	return 0;
}

/* Whether one of the comma-separated patterns takes s by `takes`. */
static bool any_pattern(const char *patterns, const char *s,
			bool (*takes)(const char *pattern, const char *s))
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof buf, "%s", patterns);
	for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (takes(p, s))
			return true;
	return false;
}

static bool fnmatches(const char *pattern, const char *s)
{
	return !fnmatch(pattern, s, FNM_CASEFOLD);
}

bool disc_patterns_match(const char *patterns, const char *s)
{
	return any_pattern(patterns, s, fnmatches);
}

static bool any_match(const char *patterns, const char *a, const char *b)
{
	return disc_patterns_match(patterns, a) || (b && disc_patterns_match(patterns, b));
}

/* A --pmu pattern takes a PMU by fnmatch, or, where it is a box wildcard ("uncore_imc_*"), the one box the
   kernel names without a number ("uncore_imc" of a client CPU), as a config's box wildcard takes it. */
static bool pmu_takes(const char *pattern, const char *pmu)
{
	return fnmatches(pattern, pmu) || num_wild_is_unnumbered(pattern, pmu);
}

static bool keep(const struct disc_cand *c, const struct disc_filter *f)
{
	if (f->pmus && c->origin != DISC_GIVEN && !any_pattern(f->pmus, c->pmu, pmu_takes))
		return false;
	if (f->only)
		return c->origin == DISC_GIVEN || any_match(f->only, c->name, c->spec);
	return f->all || disc_default_keeps(c);
}

int disc_filter_apply(struct disc_list *l, const struct disc_filter *f, struct err *e)
{
	unsigned n = 0;
	int rc;

	if ((f->pmus && (rc = check_patterns("--pmu", f->pmus, e))) ||
	    (f->only && (rc = check_patterns("--only", f->only, e))))
		return rc;
	/* --max cuts the found events, never those given with --add-events (docs/discover.md), which come
	   last in the list */
	for (unsigned i = 0, found = 0; i < l->n; i++)
		if (keep(&l->c[i], f) && (l->c[i].origin == DISC_GIVEN || !f->max || found++ < f->max))
			l->c[n++] = l->c[i];
	l->n = n;
	/* the spec index points at the old places: disc_add rebuilds it */
	free(l->index);
	l->index = NULL;
	l->index_size = 0;
	return 0;
}
