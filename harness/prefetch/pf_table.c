/* pf_table.c — which MSR bits switch which prefetcher, per CPU model.
 *
 * Sources: Intel's "Disclosure of Hardware Prefetcher Control on Some Intel Processors" (MSR 0x1A4
 * bits 0-3; it names Nehalem, Westmere, Sandy Bridge, Ivy Bridge, Haswell and Broadwell only); for
 * Skylake through Granite Rapids, and for Xeon Phi's two bits (DCU bit 0, L2 bit 1), Intel's pepc
 * (intel/pepc pepclibs/msr/MiscFeatureControl.py: _ALL_PREFETCHERS_CPUS, PHIS); AMD's Processor
 * Programming References for families 19h and 1Ah (MSR C000_0108 PrefetchControl: L1Stream 0,
 * L1Stride 1, L1Region 2, L2Stream 3, UpDown 5, bit 4 reserved), the bits RRZE-HPC/likwid's AMD
 * sysFeatures switch on Zen 3 and Zen 4 (amd_k19_cpu_prefetch_features, MSR_AMD19_PREFETCH_CONTROL;
 * its Zen 2 list leaves them out). Newer Intel parts define
 * further bits whose public descriptions disagree; hybrid parts (Alder Lake and later) have E-cores
 * with another layout. Neither is listed. A model missing here is refused unless the config that
 * describes it names one of these layouts ([arch] prefetch: its author vouches for the bits, with their
 * source, as for its events); it is never guessed. tests/unit/test_pf_configs.c checks that the configs
 * and these lists agree on every model both name.
 */
#include <stdio.h>
#include <string.h>

#include "pf.h"

/* The four bits of Intel's disclosure, the same from Nehalem to Granite Rapids. */
#define INTEL_1A4_BITS \
	{ \
		{"l2-stream", 0, "L2 hardware (streamer) prefetcher"}, \
			{"l2-adjacent", 1, "L2 adjacent cache line prefetcher"}, \
			{"l1-next", 2, "L1 DCU next-line prefetcher"}, \
			{"l1-ip", 3, "L1 DCU IP (stride) prefetcher"}, \
	}

static const struct pf_table intel_core = {
	"Intel Core/Xeon", 0x1a4, 4, INTEL_1A4_BITS, "", "intel-1a4", "GenuineIntel",
};

/* Sapphire Rapids and later Xeons: the same four bits (pepc, pepclibs/msr/MiscFeatureControl.py, lists
   SPR, EMR and GNR among the CPUs with all four), and an L2 AMP prefetcher that neither Intel's
   disclosure nor pepc describes, whose bit pmucheck therefore does not touch (LIKWID's sysfeatures
   switch one; configs/spr.ini's note names another). */
static const struct pf_table intel_xeon_amp = {
	"Intel Xeon (Sapphire Rapids and later)",
	0x1a4,
	4,
	INTEL_1A4_BITS,
	"the L2 AMP prefetcher (no public description of its MSR bit: left as the BIOS set it)",
	"intel-1a4",
	"GenuineIntel"};

static const struct pf_table intel_phi = {"Intel Xeon Phi",
					  0x1a4,
					  2,
					  {
						  {"l1-dcu", 0, "L1 DCU hardware prefetcher"},
						  {"l2-hw", 1, "L2 hardware prefetcher"},
					  },
					  "",
					  "intel-knl",
					  "GenuineIntel"};

/* The L2 prefetch events of Zen 3 to 5 count five L2 prefetchers (libpfm4 amd64_fam19h_zen4
   L2_PREFETCH_MISS_L3 umasks L2_STREAM 0x01, L2_NEXT_LINE 0x02, L2_UP_DOWN 0x04, L2_BURST 0x08, L2_STRIDE
   0x10; zen3's L2_HW_PREFETCHER is the same 0x1f; the kernel's amdzen5 l2-cache.json l2_pf_miss_l2_l3
   l2_hwpf 0x1f), and PrefetchControl has bits for two of them: the other three stay as they ran, and the
   run says so (machine.json prefetch.left_running). */
static const struct pf_table amd_zen = {
	"AMD Zen 3/4/5",
	0xc0000108,
	5,
	{
		{"l1-stream", 0, "L1 stream prefetcher"},
		{"l1-stride", 1, "L1 stride prefetcher"},
		{"l1-region", 2, "L1 region prefetcher"},
		{"l2-stream", 3, "L2 stream prefetcher"},
		{"l2-updown", 5, "L2 up/down prefetcher"},
	},
	"the L2 next-line, burst and stride prefetchers (the L2 prefetch events count "
	"them; MSR C000_0108 has no bit for them: left as they ran)",
	"amd-c0000108",
	"AuthenticAMD"};

/* Intel family 6 models, by the names of the kernel's intel-family.h. */
static const struct {
	unsigned model;
	const char *name;
	const struct pf_table *table;
} intel_models[] = {
	{0x1a, "Nehalem-EP", &intel_core},
	{0x1e, "Nehalem", &intel_core},
	{0x1f, "Nehalem-G", &intel_core},
	{0x2e, "Nehalem-EX", &intel_core},
	{0x25, "Westmere", &intel_core},
	{0x2c, "Westmere-EP", &intel_core},
	{0x2f, "Westmere-EX", &intel_core},
	{0x2a, "Sandy Bridge", &intel_core},
	{0x2d, "Sandy Bridge-E", &intel_core},
	{0x3a, "Ivy Bridge", &intel_core},
	{0x3e, "Ivy Bridge-E", &intel_core},
	{0x3c, "Haswell", &intel_core},
	{0x3f, "Haswell-E", &intel_core},
	{0x45, "Haswell-L", &intel_core},
	{0x46, "Haswell-G", &intel_core},
	{0x3d, "Broadwell", &intel_core},
	{0x47, "Broadwell-G", &intel_core},
	{0x4f, "Broadwell-E", &intel_core},
	{0x56, "Broadwell-D", &intel_core},
	{0x4e, "Skylake-L", &intel_core},
	{0x5e, "Skylake", &intel_core},
	{0x55, "Skylake-SP/Cascade Lake", &intel_core},
	{0x8e, "Kaby Lake-L", &intel_core},
	{0x9e, "Kaby/Coffee Lake", &intel_core},
	{0xa5, "Comet Lake", &intel_core},
	{0xa6, "Comet Lake-L", &intel_core},
	{0x66, "Cannon Lake-L", &intel_core},
	{0x7d, "Ice Lake", &intel_core},
	{0x7e, "Ice Lake-L", &intel_core},
	{0x6a, "Ice Lake-SP", &intel_core},
	{0x6c, "Ice Lake-D", &intel_core},
	{0x8c, "Tiger Lake-L", &intel_core},
	{0x8d, "Tiger Lake", &intel_core},
	{0xa7, "Rocket Lake", &intel_core},
	{0x8f, "Sapphire Rapids", &intel_xeon_amp},
	{0xcf, "Emerald Rapids", &intel_xeon_amp},
	{0xad, "Granite Rapids-X", &intel_xeon_amp},
	{0xae, "Granite Rapids-D", &intel_xeon_amp},
	{0x57, "Knights Landing", &intel_phi},
	{0x85, "Knights Mill", &intel_phi},
};

/* AMD model ranges as Linux (arch/x86/kernel/cpu/amd.c, bsp_init_amd: X86_FEATURE_ZEN3..ZEN5)
   assigns them to Zen generations; family 1Ah models 50h-5Fh, 80h-AFh and C0h-CFh are Zen 6 there,
   30h-3Fh unassigned: neither is listed. tests/unit/test_pf_table.c pins every edge. */
static const struct {
	unsigned family, first, last;
	const char *name;
} amd_models[] = {
	{0x19, 0x00, 0x0f, "Zen 3"}, {0x19, 0x20, 0x5f, "Zen 3"}, {0x19, 0x10, 0x1f, "Zen 4"},
	{0x19, 0x60, 0xaf, "Zen 4"}, {0x1a, 0x00, 0x2f, "Zen 5"}, {0x1a, 0x40, 0x4f, "Zen 5"},
	{0x1a, 0x60, 0x7f, "Zen 5"},
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The layouts a config may name, each once: intel_xeon_amp is intel_core's layout with a note. */
static const struct pf_table *const layouts[] = {&intel_core, &intel_phi, &amd_zen};

static pf_layout_source layout_source;

void pf_set_layout_source(pf_layout_source source)
{
	layout_source = source;
}

const struct pf_table *pf_layout_named(const char *layout)
{
	for (size_t i = 0; layout && i < ARRAY_SIZE(layouts); i++)
		if (!strcmp(layouts[i]->layout, layout))
			return layouts[i];
	return NULL;
}

void pf_layout_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(layouts) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s, ", layouts[i]->layout);
}

/* The layout the config describing this CPU names, for a model the lists do not know; NULL where none
   does, or where it names another vendor's MSR (a config's match is checked against the vendor, but a
   layout of the other vendor would write an MSR this CPU does not define). */
static const struct pf_table *config_layout(const struct cpuid_info *id, const char **model,
					    const char **said)
{
	static char by[512];
	char layout[64];
	const struct pf_table *t;

	by[0] = 0;
	*said = by; /* the config that matches, also where it names no layout */
	if (!layout_source || layout_source(id, layout, sizeof layout, by, sizeof by))
		return NULL;
	t = pf_layout_named(layout);
	if (!t || strcmp(t->vendor, id->vendor))
		return NULL;
	*model = by;
	return t;
}

int pf_table_for(const struct cpuid_info *id, const struct pf_table **t, const char **model, struct err *e)
{
	const char *said;
	char which[640];

	if (!strcmp(id->vendor, "GenuineIntel") && id->family == 6) {
		for (size_t i = 0; i < ARRAY_SIZE(intel_models); i++) {
			if (intel_models[i].model != id->model)
				continue;
			*t = intel_models[i].table;
			*model = intel_models[i].name;
			return 0;
		}
	}
	if (!strcmp(id->vendor, "AuthenticAMD")) {
		for (size_t i = 0; i < ARRAY_SIZE(amd_models); i++) {
			if (amd_models[i].family != id->family || id->model < amd_models[i].first ||
			    id->model > amd_models[i].last)
				continue;
			*t = &amd_zen;
			*model = amd_models[i].name;
			return 0;
		}
	}
	if ((*t = config_layout(id, model, &said)))
		return 0;
	if (said[0])
		snprintf(which, sizeof which,
			 "the config that matches this CPU, %s, names no layout of its vendor's MSR", said);
	else
		snprintf(which, sizeof which,
			 "no config that matches this CPU names a layout of its vendor's MSR");
	return err_set(e, E_USAGE,
		       "no verified prefetcher MSR table for %s family 0x%x model 0x%x (%s); "
		       "pmucheck knows Intel Nehalem..Granite Rapids, Xeon Phi KNL/KNM and AMD "
		       "Zen 3/4/5, and %s ([arch] prefetch); it does not guess bits for other models",
		       id->vendor, id->family, id->model, id->brand[0] ? id->brand : "no brand", which);
}

uint64_t pf_table_mask(const struct pf_table *t)
{
	uint64_t mask = 0;

	for (unsigned i = 0; i < t->nbits; i++)
		mask |= 1ull << t->bits[i].bit;
	return mask;
}

static int unknown_name(const struct pf_table *t, const char *name, size_t len, struct err *e)
{
	char valid[256] = "";

	for (unsigned i = 0; i < t->nbits; i++) {
		strcat(valid, t->bits[i].name);
		strcat(valid, ", ");
	}
	strcat(valid, "all");
	return err_set(e, E_USAGE, "unknown prefetcher '%.*s' for %s (valid: %s)", (int)len, name, t->name,
		       valid);
}

int pf_parse_names_in(const struct pf_table *t, const char *list, uint64_t *bits, struct err *e)
{
	*bits = 0;
	if (!list || !*list)
		return 0;
	if (!strcmp(list, "all")) {
		*bits = pf_table_mask(t);
		return 0;
	}
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		unsigned i;

		for (i = 0; i < t->nbits; i++)
			if (strlen(t->bits[i].name) == len && !strncmp(p, t->bits[i].name, len))
				break;
		if (len == 3 && !strncmp(p, "all", 3))
			return err_set(e, E_USAGE, "prefetcher 'all' stands alone, not in a list ('%s')",
				       list);
		if (i == t->nbits)
			return unknown_name(t, p, len, e);
		if (*bits & (1ull << t->bits[i].bit)) /* as run refuses an item listed twice */
			return err_set(e, E_USAGE, "prefetcher '%s' is listed twice ('%s')", t->bits[i].name,
				       list);
		*bits |= 1ull << t->bits[i].bit;
		p += len + (p[len] == ',');
		/* a list that ends in its separator names an empty prefetcher, as one that begins with it does
		   (unknown_name above): refused before any MSR is changed */
		if (p[-1] == ',' && !*p)
			return unknown_name(t, p, 0, e);
	}
	return 0;
}

int pf_parse_names(const char *list, uint64_t *bits, struct err *e)
{
	struct cpuid_info id;
	const struct pf_table *t;
	const char *model;
	int rc;

	*bits = 0;
	if (!list || !*list)
		return 0; /* all on: valid on any CPU, even one without a table */
	if (cpuid_read(&id))
		return err_set(e, E_USAGE, "PMUCHECK_FAKE_CPUID is not Vendor:family:model");
	rc = pf_table_for(&id, &t, &model, e);
	return rc ? rc : pf_parse_names_in(t, list, bits, e);
}
