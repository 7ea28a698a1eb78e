/* ctr_cpuid.c — how many core counters a group may use, from CPUID rather than from libpfm4 (which
 * does not know the newest CPUs). Intel: leaf 0xA (architectural perfmon). AMD: leaf 0x80000022
 * (PerfMonV2) when present, else 6 with PerfCtrExtCore (0x80000001 ECX bit 23), else the legacy 4. */
#include <cpuid.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "ctr_int.h"
#include "num.h"

static void vendor(char out[13])
{
	unsigned a, b, c, d;

	__cpuid(0, a, b, c, d);
	memcpy(out, &b, 4);
	memcpy(out + 4, &d, 4);
	memcpy(out + 8, &c, 4);
	out[12] = '\0';
}

static void intel_counters(unsigned *general, unsigned *fixed)
{
	unsigned a, b, c, d;

	if (!__get_cpuid_count(0xA, 0, &a, &b, &c, &d))
		return;
	*general = (a >> 8) & 0xff;
	/* EDX lists fixed counters from perfmon version 2 on. */
	*fixed = (a & 0xff) >= 2 ? d & 0x1f : 0;
}

static void amd_counters(unsigned *general)
{
	unsigned a, b, c, d;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000022 &&
	    __get_cpuid(0x80000022, &a, &b, &c, &d) && (a & 1)) {
		*general = b & 0xf;
		return;
	}
	__cpuid(0x80000001, a, b, c, d);
	*general = (c >> 23) & 1 ? 6 : 4;
}

void ctr_cpu_counters(unsigned *general, unsigned *fixed)
{
	char v[13];

	*general = 0;
	*fixed = 0; /* AMD has no fixed counters: cycles and instructions take general ones */
	vendor(v);
	if (!strcmp(v, "GenuineIntel"))
		intel_counters(general, fixed);
	else if (!strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine"))
		amd_counters(general);
}

unsigned ctr_fixed_holds(unsigned fixed, uint32_t type, uint64_t config)
{
	/* by fixed counter: the generic event, and the raw event select and umask */
	static const uint64_t generic[] = {PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
					   PERF_COUNT_HW_REF_CPU_CYCLES};
	static const uint64_t raw[] = {0x00c0, 0x003c, 0x0300};

	for (unsigned i = 0; i < fixed && i < 3; i++)
		if ((type == PERF_TYPE_HARDWARE && config == generic[i]) ||
		    (type == PERF_TYPE_RAW && config == raw[i]))
			return i + 1;
	return 0;
}

bool ctr_fixed_only(unsigned fixed_counter)
{
	/* the kernel lets instructions and cycles onto any general counter when their fixed one is taken, but
	   not the pseudo-encoding 0x0300 of reference cycles, which only fixed counter 2 counts (Linux
	   arch/x86/events/intel/core.c, intel_pmu_check_event_constraints) */
	return fixed_counter == 3;
}

unsigned ctr_on_fixed_counter(uint32_t type, uint64_t config)
{
	unsigned general, fixed;

	ctr_cpu_counters(&general, &fixed);
	return ctr_fixed_holds(fixed, type, config);
}

int ctr_nmi_watchdog(void)
{
	return (int)num_read_file("/proc/sys/kernel/nmi_watchdog", -1);
}

unsigned ctr_core_counters_free(void)
{
	unsigned general, fixed;

	ctr_cpu_counters(&general, &fixed);
	/* The hard-lockup detector keeps a pinned cycles event on every CPU. Intel can put it on the
	   fixed cycles counter, but a pinned user cycles event then takes a general one: count it once. */
	if (ctr_nmi_watchdog() == 1 && general > 0)
		general--;
	return general;
}
