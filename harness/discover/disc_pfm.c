/* disc_pfm.c — libpfm4's event tables as candidates. For each event of a chosen PMU: the event with
 * libpfm4's default umasks ("skx::L2_RQSTS", encoded as libpfm4 fills it in), and each umask alone
 * ("skx::L2_RQSTS:ALL_DEMAND_DATA_RD"), and the unions of umasks libpfm4 ORs into one encoding
 * ("amd64_fam19h_zen3::LS_DMND_FILLS_FROM_SYS:LCL_L2:INT_CACHE:..."; unions()); a default that encodes
 * like one of its umasks is listed once, under the umask's name. Other combinations are not tried:
 * their number grows as 2^umasks, and the single ones and the union tell which part counts what.
 *
 * The encodings come from pfm_get_os_event_encoding(PFM_OS_PERF_EVENT), the perf_event_attr libpfm4
 * (and so PAPI) would program; a name it refuses (an offcore-response umask without its partner, an
 * event needing a modifier) is skipped and counted. Another CPU's tables are read with
 * LIBPFM_FORCE_PMU=<pmu> (libpfm(3)); PMUs named by pattern are read even when inactive, which
 * encodes only with LIBPFM_ENCODE_INACTIVE=1.
 *
 * libpfm4 lists an uncore PMU only when it detects it (never under LIBPFM_FORCE_PMU), and its API does
 * not say which uncore PMUs go with which core PMU. The architecture config does ([arch] pmu_uncore,
 * configs/README.md): those PMUs are read too, and a kind of numbered boxes (skx_unc_imc0..5) once, from
 * its first box, as the box wildcard ("skx_unc_imc*::UNC_M_CAS_COUNT:RD"): the run counts every box and
 * judges their sum, as it does for sysfs and vendor uncore candidates.
 */
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"
#include "machine.h"
#include "num.h"

#define UMASKS_MAX 256

struct pfm_ctx {
	const pfm_pmu_info_t *pi;
	char as[CTR_NAME_MAX]; /* the PMU in specs: pi->name, or a box wildcard ("skx_unc_imc*") */
	char source[DISC_SOURCE_MAX];
	struct disc_list *l;
	bool raw; /* an encoding is libpfm4's raw one (encode) */
};

/* libpfm4's raw register values (PFM_OS_NONE) for a name: codes[0] the event select, codes[1] a filter
   register, as pfm_intel_snbep_unc_get_perf_encoding (lib/pfmlib_intel_snbep_unc_perf_event.c) hands
   them to perf as config and config1. */
static bool encode_raw(const char *name, uint64_t *config, uint64_t *config1)
{
	uint64_t codes[4] = {0};
	pfm_pmu_encode_arg_t arg;

	memset(&arg, 0, sizeof arg);
	arg.size = sizeof arg;
	arg.codes = codes;
	arg.count = 4;
	if (pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_NONE, &arg) != PFM_SUCCESS)
		return false;
	*config = codes[0];
	*config1 = arg.count > 1 ? codes[1] : 0;
	return true;
}

/* The perf_event_attr config and config1 libpfm4 gives a name; false when it refuses it. libpfm4's perf
   encoding of an uncore event needs the PMU's type from this machine's sysfs: for an uncore PMU this
   machine lacks (another CPU's table, or libpfm4 forced to one), the raw register values stand in, and x->raw says so. */
static bool encode(struct pfm_ctx *x, const char *name, uint64_t *config, uint64_t *config1)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	memset(&attr, 0, sizeof attr);
	memset(&arg, 0, sizeof arg);
	arg.attr = &attr;
	arg.size = sizeof arg;
	if (pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS)
		return x->pi->type == PFM_PMU_TYPE_UNCORE && (x->raw = encode_raw(name, config, config1));
	*config = attr.config;
	*config1 = attr.config1;
	return true;
}

static int add(struct pfm_ctx *x, const char *event, const char *umask, const char *desc, uint64_t config,
	       uint64_t config1, struct err *e)
{
	struct disc_cand c = {.origin = DISC_LIBPFM, .scale = 1, .has_config = true};

	snprintf(c.spec, sizeof c.spec, "%s::%s%s%s", x->as, event, umask ? ":" : "", umask ? umask : "");
	snprintf(c.name, sizeof c.name, "%s%s%s", event, umask ? "." : "", umask ? umask : "");
	snprintf(c.pmu, sizeof c.pmu, "%s", x->as);
	snprintf(c.source, sizeof c.source, "%s%s%s", x->source,
		 !umask                       ? " (default umasks)"
			 : strchr(umask, ':') ? " (umasks OR-ed, libpfm4 accepts them)"
					      : "",
		 x->raw ? "; config: libpfm4's raw encoding (PFM_OS_NONE), no sysfs type here" : "");
	snprintf(c.desc, sizeof c.desc, "%s", desc ? desc : "");
	c.uncore = x->pi->type == PFM_PMU_TYPE_UNCORE;
	c.counters = x->pi->num_cntrs > 0 ? (unsigned)x->pi->num_cntrs : 0;
	c.config = config;
	c.config1 = config1;
	return disc_add(x->l, &c, e);
}

struct umask {
	const char *name, *desc;
	uint64_t config, config1;
};

static bool same_as_earlier(const struct umask *um, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (um[i].config == um[n].config && um[i].config1 == um[n].config1)
			return true;
	return false;
}

/* Whether config/config1 is already a candidate of this event: the default or one umask alone. */
static bool listed_encoding(const struct umask *um, unsigned n, uint64_t dc, uint64_t dc1, uint64_t c,
			    uint64_t c1)
{
	for (unsigned i = 0; i < n; i++)
		if (um[i].config == c && um[i].config1 == c1)
			return true;
	return c == dc && c1 == dc1;
}

/* The unions of umasks libpfm4 ORs into one encoding (umasks of one group on an event that allows
   several; libpfm4 refuses an exclusive group, Intel's NCOMBO). From each umask not yet in a union, the
   later ones join, in libpfm4's order, while libpfm4 accepts the name "EVENT:U1:U2:..." and encodes it
   as the bitwise OR of the parts, which differ only in the umask field and in config1 (the request and
   response groups of the offcore events). A union of two or more whose encoding is neither the
   default's nor a single umask's is one candidate. Each umask joins at most one union, so an event adds
   at most n/2 candidates; only its first UNION_UMASKS umasks are tried (about UNION_UMASKS^2/2
   encodings), and a union stops growing where its spec would not fit CTR_SPEC_MAX. */
#define UNION_UMASKS 64
/* The umask field of the x86 event select, bits 8-15 (Intel SDM vol. 3B 20.2.1.1, IA32_PERFEVTSELx;
   AMD APM vol. 2 13.2.1, PerfEvtSeln; the uncore boxes' control registers alike): umasks that differ
   outside it carry other modifiers (cmask, inv, edge, any: UOPS_RETIRED:ALL and :STALL_CYCLES), which
   OR into no meaningful union. */
#define UMASK_FIELD 0xff00ull
static int unions(struct pfm_ctx *x, const pfm_event_info_t *ei, const struct umask *um, unsigned n,
		  uint64_t dc, uint64_t dc1, struct err *e)
{
	bool used[UMASKS_MAX] = {false};
	int rc = 0;

	n = n < UNION_UMASKS ? n : UNION_UMASKS;
	for (unsigned i = 0; i < n && !rc; i++) {
		char names[CTR_SPEC_MAX], name[CTR_SPEC_MAX], desc[DISC_DESC_MAX];
		uint64_t c = um[i].config, c1 = um[i].config1;
		unsigned parts = 1;
		if (used[i])
			continue;
		snprintf(names, sizeof names, "%s", um[i].name);
		for (unsigned j = i + 1; j < n; j++) {
			uint64_t got, got1;
			if (used[j] || ((c | um[j].config) == c && (c1 | um[j].config1) == c1) ||
			    (um[j].config & ~UMASK_FIELD) != (c & ~UMASK_FIELD))
				continue; /* in a union already, nothing it adds, or another modifier */
			/* the spec is as long, with the box wildcard for the box's name */
			if (snprintf(name, sizeof name, "%s::%s:%s:%s", x->pi->name, ei->name, names,
				     um[j].name) >= (int)sizeof name)
				break;
			if (!encode(x, name, &got, &got1) || got != (c | um[j].config) ||
			    got1 != (c1 | um[j].config1))
				continue;
			snprintf(names + strlen(names), sizeof names - strlen(names), ":%s", um[j].name);
			c = got, c1 = got1;
			used[j] = true;
			parts++;
		}
		if (parts < 2 || listed_encoding(um, n, dc, dc1, c, c1))
			continue;
		used[i] = true;
		snprintf(desc, sizeof desc, "%u umasks OR-ed: %s", parts, ei->desc ? ei->desc : "");
		rc = add(x, ei->name, names, desc, c, c1, e);
	}
	return rc;
}

static int one_event(struct pfm_ctx *x, int idx, struct err *e)
{
	pfm_event_info_t ei;
	char name[512];
	struct umask um[UMASKS_MAX];
	unsigned n = 0;
	uint64_t dc = 0, dc1 = 0;
	bool dfl;
	int rc = 0;

	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &ei) != PFM_SUCCESS)
		return 0;
	for (int a = 0; a < ei.nattrs && n < UMASKS_MAX; a++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		snprintf(name, sizeof name, "%s::%s:%s", x->pi->name, ei.name, ai.name);
		if (!encode(x, name, &um[n].config, &um[n].config1) || same_as_earlier(um, n)) {
			x->l->skipped++; /* refused, or an alias of an earlier umask (RFO_MISS, DEMAND_RFO_MISS) */
			continue;
		}
		um[n].name = ai.name;
		um[n++].desc = ai.desc;
	}
	snprintf(name, sizeof name, "%s::%s", x->pi->name, ei.name);
	dfl = encode(x, name, &dc, &dc1);
	for (unsigned i = 0; dfl && i < n; i++)
		dfl = um[i].config != dc || um[i].config1 != dc1;
	if (dfl)
		rc = add(x, ei.name, NULL, ei.desc, dc, dc1, e);
	else if (!n)
		x->l->skipped++;
	for (unsigned i = 0; i < n && !rc; i++)
		rc = add(x, ei.name, um[i].name, um[i].desc, um[i].config, um[i].config1, e);
	return rc ? rc : unions(x, &ei, um, n, dc, dc1, e);
}

/* Whether pmu is one of the architecture's uncore PMUs (the config's [arch] pmu_uncore: names, and
   kinds of numbered boxes "skx_unc_imc*"), with the name its specs get in *as: the wildcard for a box,
   which every box then counts and the run sums (boxes.h), else the name itself. */
static bool uncore_listed(const char *uncore, const char *pmu, char *as, size_t len)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof buf, "%s", uncore ? uncore : "");
	for (char *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		if (strchr(k, '*') ? num_wild_match(k, pmu) : !strcmp(k, pmu)) {
			snprintf(as, len, "%s", k);
			return true;
		}
	}
	snprintf(as, len, "%s", pmu);
	return false;
}

/* Whether a PMU (or box wildcard) was read already; those read are kept in seen, ",a,b,". */
static bool seen_before(char *seen, size_t len, const char *as)
{
	char key[CTR_NAME_MAX + 2];

	snprintf(key, sizeof key, ",%s,", as);
	if (strstr(seen, key))
		return true;
	snprintf(seen + strlen(seen), len - strlen(seen), "%s,", as);
	return false;
}

struct pfm_walk {
	const char *patterns, *uncore, *version;
	struct disc_list *l;
	unsigned *npmus;
	char seen[2048];
};

/* PMU p's events, when the walk wants it: a PMU the patterns name, else one libpfm4 detects here or one
   of the config's uncore PMUs (only = its name: that one only). */
static int read_pmu(struct pfm_walk *w, int p, const char *only, struct err *e)
{
	pfm_pmu_info_t pi;
	struct pfm_ctx x = {.pi = &pi, .l = w->l};
	bool listed;
	int rc;

	memset(&pi, 0, sizeof pi);
	pi.size = sizeof pi;
	if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.name || (only && strcmp(only, pi.name)))
		return 0;
	listed = uncore_listed(w->uncore, pi.name, x.as, sizeof x.as);
	if (w->patterns ? !disc_patterns_match(w->patterns, pi.name)
			: !listed && (!pi.is_present || pi.type == PFM_PMU_TYPE_OS_GENERIC))
		return 0;
	if (seen_before(w->seen, sizeof w->seen, x.as))
		return 0;
	snprintf(x.source, sizeof x.source, "libpfm4 %s table %s (%s)%s%s%s", w->version, pi.name, pi.desc,
		 listed ? ", an uncore PMU of this CPU by the config's [arch] pmu_uncore" : "",
		 strchr(x.as, '*') ? "; every box as " : "", strchr(x.as, '*') ? x.as : "");
	(*w->npmus)++;
	for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i))
		if ((rc = one_event(&x, i, e)))
			return rc;
	return 0;
}

/* Under LIBPFM_FORCE_PMU libpfm4 sets up the PMUs of its table up to the forced one and stops
   (pfmlib_init_pmus in lib/pfmlib_common.c): the uncore PMUs after it are unknown to it. Each listed
   uncore PMU (a kind's box 0) is read by forcing libpfm4 to it in turn, then the caller's forcing is
   restored. */
static int read_forced_uncore(struct pfm_walk *w, const char *forced, struct err *e)
{
	char buf[1024], *save = NULL, *keep = strdup(forced);
	int rc = 0;

	if (!keep)
		return err_set(e, E_RUNTIME, "out of memory");
	snprintf(buf, sizeof buf, "%s", w->uncore);
	for (char *k = strtok_r(buf, ",", &save); k && !rc; k = strtok_r(NULL, ",", &save)) {
		char name[CTR_NAME_MAX];
		size_t n = strlen(k);
		snprintf(name, sizeof name, "%.*s%s", (int)(k[n - 1] == '*' ? n - 1 : n), k,
			 k[n - 1] == '*' ? "0" : "");
		pfm_terminate();
		setenv("LIBPFM_FORCE_PMU", name, 1);
		pfm_initialize(); /* fails where this machine lacks the PMU: its table is still listed */
		for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX && !rc; p++)
			rc = read_pmu(w, p, name, e);
	}
	pfm_terminate();
	setenv("LIBPFM_FORCE_PMU", keep, 1);
	free(keep);
	pfm_initialize();
	return rc;
}

int disc_pfm(const char *pmu_patterns, const char *uncore, struct disc_list *l, unsigned *npmus,
	     char *version, size_t len, struct err *e)
{
	struct pfm_walk w = {
		.patterns = pmu_patterns, .uncore = uncore, .version = version, .l = l, .npmus = npmus};
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	int rc = pfm_initialize();

	*npmus = 0;
	if (rc != PFM_SUCCESS)
		return err_set(e, E_RUNTIME, "libpfm4: %s", pfm_strerror(rc));
	machine_pfm_version(version, len);
	snprintf(w.seen, sizeof w.seen, ",");
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX && !rc; p++)
		rc = read_pmu(&w, p, NULL, e);
	if (!rc && forced && *forced && uncore)
		rc = read_forced_uncore(&w, forced, e);
	return rc;
}
