/* disc_pfm.c — libpfm4's event tables as candidates. For each event of a chosen PMU: the event with
 * libpfm4's default umasks ("skx::L2_RQSTS", encoded as libpfm4 fills it in), and each umask alone
 * ("skx::L2_RQSTS:ALL_DEMAND_DATA_RD"); a default that encodes like one of its umasks is listed once,
 * under the umask's name. Combinations of several umasks beyond libpfm4's default are not tried: their
 * number grows as 2^umasks, and the single ones already tell which part of an event counts what.
 *
 * The encodings come from pfm_get_os_event_encoding(PFM_OS_PERF_EVENT), the perf_event_attr libpfm4
 * (and so PAPI) would program; a name it refuses (an offcore-response umask without its partner, an
 * event needing a modifier) is skipped and counted. Another CPU's tables are read with
 * LIBPFM_FORCE_PMU=<pmu> (libpfm(3)); PMUs named by pattern are read even when inactive, which
 * encodes only with LIBPFM_ENCODE_INACTIVE=1.
 */
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"

#define UMASKS_MAX 256

struct pfm_ctx {
	const pfm_pmu_info_t *pi;
	char source[DISC_SOURCE_MAX];
	struct disc_list *l;
};

/* The perf_event_attr config and config1 libpfm4 gives a name; false when it refuses it. */
static bool encode(const char *name, uint64_t *config, uint64_t *config1)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	memset(&attr, 0, sizeof attr);
	memset(&arg, 0, sizeof arg);
	arg.attr = &attr;
	arg.size = sizeof arg;
	if (pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS)
		return false;
	*config = attr.config;
	*config1 = attr.config1;
	return true;
}

static int add(struct pfm_ctx *x, const char *event, const char *umask, const char *desc, uint64_t config,
	       uint64_t config1, struct err *e)
{
	struct disc_cand c = {.origin = DISC_LIBPFM, .scale = 1, .has_config = true};

	snprintf(c.spec, sizeof c.spec, "%s::%s%s%s", x->pi->name, event, umask ? ":" : "",
		 umask ? umask : "");
	snprintf(c.name, sizeof c.name, "%s%s%s", event, umask ? "." : "", umask ? umask : "");
	snprintf(c.pmu, sizeof c.pmu, "%s", x->pi->name);
	snprintf(c.source, sizeof c.source, "%s%s", x->source, umask ? "" : " (default umasks)");
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
		if (!encode(name, &um[n].config, &um[n].config1) || same_as_earlier(um, n)) {
			x->l->skipped++; /* refused, or an alias of an earlier umask (RFO_MISS, DEMAND_RFO_MISS) */
			continue;
		}
		um[n].name = ai.name;
		um[n++].desc = ai.desc;
	}
	snprintf(name, sizeof name, "%s::%s", x->pi->name, ei.name);
	dfl = encode(name, &dc, &dc1);
	for (unsigned i = 0; dfl && i < n; i++)
		dfl = um[i].config != dc || um[i].config1 != dc1;
	if (dfl)
		rc = add(x, ei.name, NULL, ei.desc, dc, dc1, e);
	else if (!n)
		x->l->skipped++;
	for (unsigned i = 0; i < n && !rc; i++)
		rc = add(x, ei.name, um[i].name, um[i].desc, um[i].config, um[i].config1, e);
	return rc;
}

int disc_pfm(const char *pmu_patterns, struct disc_list *l, unsigned *npmus, char *version, size_t len,
	     struct err *e)
{
	int v, rc = pfm_initialize();

	*npmus = 0;
	if (rc != PFM_SUCCESS)
		return err_set(e, E_RUNTIME, "libpfm4: %s", pfm_strerror(rc));
	v = pfm_get_version();
	snprintf(version, len, "%d.%d", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;
		struct pfm_ctx x = {.pi = &pi, .l = l};
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.name)
			continue;
		if (pmu_patterns ? !disc_patterns_match(pmu_patterns, pi.name)
				 : !pi.is_present || pi.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		snprintf(x.source, sizeof x.source, "libpfm4 %s table %s (%s)", version, pi.name, pi.desc);
		(*npmus)++;
		for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i))
			if ((rc = one_event(&x, i, e)))
				return rc;
	}
	return 0;
}
