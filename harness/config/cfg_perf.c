/* cfg_perf.c — perf event specs in configs, checked with the counter layer's one grammar
 * (harness/counters/ctr_syntax.h), with a "*" box number allowed after the PMU name: every box of that
 * PMU, the counts summed (uncore_imc_*). The loader checks the structure; which names a PMU knows is
 * only known on a machine that has it, so terms are checked against the x86 sysfs format names by the
 * event checker (tests/tools). */
#include <string.h>

#include "cfg.h"
#include "ctr_syntax.h"

/* Format terms of the x86 core and uncore PMUs as in /sys/bus/event_source/devices/x/format/
   (arch/x86/events/{intel,amd}/ *.c format attributes). */
static const char *const terms[] = {
	"event",
	"umask",
	"cmask",
	"inv",
	"edge",
	"any",
	"pc",
	"in_tx",
	"in_tx_cp",
	"ldlat",
	"offcore_rsp",
	"frontend",
	"config",
	"config1",
	"config2",
	"period",
	/* Intel uncore */
	"thresh",
	"ch_mask",
	"fc_mask",
	"umask_ext",
	"umask_ext2",
	"umask_ext3",
	"umask_ext4",
	"filter_tid",
	"filter_link",
	"filter_state",
	"filter_nid",
	"filter_opc",
	"filter_opc0",
	"filter_opc1",
	"filter_nc",
	"filter_c6",
	"filter_isoc",
	"filter_rem",
	"filter_loc",
	"filter_nm",
	"filter_not_nm",
	"filter_all_op",
	/* AMD L3, DF and UMC */
	"slicemask",
	"threadmask",
	"enallslices",
	"enallcores",
	"sliceid",
	"coreid",
	"rdwrmask",
};

int cfg_perf_symbolic(const char *spec)
{
	return ctr_syntax_named(spec) != NULL;
}

int cfg_perf_term_known(const char *term, size_t len)
{
	for (unsigned i = 0; i < sizeof terms / sizeof terms[0]; i++)
		if (strlen(terms[i]) == len && !strncmp(terms[i], term, len))
			return 1;
	return 0;
}

int cfg_perf_check(const char *spec, struct err *e)
{
	struct ctr_syntax syn;

	if (cfg_perf_symbolic(spec))
		return 0;
	return ctr_syntax_parse(spec, true, &syn, e);
}
