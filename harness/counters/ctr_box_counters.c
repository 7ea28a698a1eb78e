/* ctr_box_counters.c — how many events one uncore box counts at once, for groups that fit it: the general
 * counters of libpfm4's table of its PMU (pfm_get_pmu_info's num_cntrs). Boxes differ: libpfm4 4.13 gives
 * 2 for the Intel UBOX (skx_unc_ubo, hswep_unc_ubo) and the client CBOs (snb_unc_cbo0), 3 for the
 * R3QPI (hswep_unc_r3qpi0), 4 for the IMC and CHA. Planned with 4 each, a group of 3 UBOX events was
 * refused only when opened (the kernel's uncore_validate_group takes no more events than the box has
 * counters, Linux arch/x86/events/intel/uncore.c).
 *
 * num_fixed_cntrs is left out: an uncore fixed counter counts its box's clock and nothing else (the
 * kernel's UNCORE_FIXED_EVENT, Linux arch/x86/events/intel/uncore.h), so it makes no room for other
 * events; the clock event itself is planned on a general counter, one more than it needs.
 *
 * Where libpfm4 has no table of the PMU (CPUs newer than it: the Sapphire Rapids IMC, AMD's DF and UMC),
 * UNCORE_COUNTERS stands in. libpfm4's figure is not always the kernel's: it gives 4 for AMD's L3
 * (amd64_fam19h_zen3_l3; the kernel's amd_uncore.c programs 6: fewer groups fit than could, none fails),
 * and 4 for Skylake-SP's IRP and M3UPI, which have 2 and 3 (the kernel's skx_uncore_irp, skx_uncore_m3upi):
 * a group the box cannot hold is refused when opened, and ctr_perf_explain says so.
 */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctr_int.h"

/* libpfm4's uncore PMUs with the perf type their events are encoded with, read once. */
struct box_kind {
	uint32_t type;
	unsigned counters;
	bool present; /* detected here, not only encoded under LIBPFM_ENCODE_INACTIVE=1 */
};

static pthread_once_t kinds_once = PTHREAD_ONCE_INIT;
static struct box_kind *kinds;
static unsigned nkinds;

static unsigned counters_of(const pfm_pmu_info_t *pi)
{
	return pi->num_cntrs > 0 ? (unsigned)pi->num_cntrs : UNCORE_COUNTERS;
}

/* The perf type libpfm4 encodes pi's events with. libpfm4 reads it from /sys/bus/event_source/devices/<its
   perf name for the PMU>/type, a name its API does not give, so the type is what tells which sysfs PMU
   libpfm4's table describes. An event that needs a unit mask does not encode alone: the next one is
   tried. 0 (no uncore PMU's type) when none encodes: this kernel has no such PMU, or libpfm4 does not
   encode it here (inactive). */
static uint32_t perf_type(const pfm_pmu_info_t *pi)
{
	for (int i = pi->first_event; i != -1; i = pfm_get_event_next(i)) {
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		pfm_event_info_t ei;
		char name[CTR_SPEC_MAX];
		int rc;

		memset(&ei, 0, sizeof ei);
		ei.size = sizeof ei;
		if (pfm_get_event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS)
			return 0;
		memset(&attr, 0, sizeof attr);
		memset(&arg, 0, sizeof arg);
		arg.attr = &attr;
		arg.size = sizeof arg;
		snprintf(name, sizeof name, "%s::%s", pi->name, ei.name);
		rc = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
		if (rc == PFM_SUCCESS)
			return attr.type;
		if (rc != PFM_ERR_UMASK)
			return 0;
	}
	return 0;
}

static void read_kinds(void)
{
	pfm_pmu_info_t pi;
	uint32_t type;

	if (pfm_initialize() != PFM_SUCCESS || !(kinds = calloc(PFM_PMU_MAX, sizeof *kinds)))
		return;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || pi.type != PFM_PMU_TYPE_UNCORE ||
		    !(type = perf_type(&pi)))
			continue;
		kinds[nkinds++] = (struct box_kind){type, counters_of(&pi), pi.is_present};
	}
}

unsigned ctr_box_counters(const char *pfm_pmu)
{
	pfm_pmu_info_t pi;

	if (pfm_initialize() != PFM_SUCCESS)
		return UNCORE_COUNTERS;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && pi.name && !strcmp(pi.name, pfm_pmu))
			return counters_of(&pi);
	}
	return UNCORE_COUNTERS;
}

unsigned ctr_box_counters_of_type(uint32_t type)
{
	unsigned fewest = 0;

	pthread_once(&kinds_once, read_kinds);
	for (unsigned i = 0; i < nkinds; i++) {
		if (kinds[i].type != type)
			continue;
		if (kinds[i].present)
			return kinds[i].counters;
		/* encoded only as inactive: the tables of several generations share a perf name
		   (snbep_unc_ubo ... skx_unc_ubo are all uncore_ubox); the fewest counters fit them all */
		if (!fewest || kinds[i].counters < fewest)
			fewest = kinds[i].counters;
	}
	return fewest ? fewest : UNCORE_COUNTERS;
}
