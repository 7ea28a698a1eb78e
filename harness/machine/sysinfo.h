/* sysinfo.h — the facts about this machine and its software that a reader needs to trust a run:
 * CPU identity and microcode, ISA extensions used, kernel, governor, frequency, THP mode, SMT. */
#ifndef PMUCHECK_SYSINFO_H
#define PMUCHECK_SYSINFO_H

#include <stdio.h>

#include <jansson.h>

#include "cpu_id.h"

struct sysinfo {
	struct cpuid_info cpu;
	char model_name[128];
	char microcode[32];
	char isa[64]; /* extensions the kernels may use: "sse2 avx avx2 avx512f" */
	char kernel[128];
	char governor[32]; /* "" when there is no cpufreq driver (VMs) */
	double mhz;        /* as /proc/cpuinfo reports it at start */
	char thp[32];      /* "always", "madvise", "never" */
	char smt[16];      /* "on", "off", "unknown" */
	char host[64];
	long long
		mem_total_kib; /* /proc/meminfo MemTotal: the memory configuration nodes are grouped by; 0 unknown */
};

#define SYSINFO_PROC "/proc"

void sysinfo_read(struct sysinfo *s);
/* A figure of proc's meminfo in KiB ("MemTotal", "MemAvailable"; proc: SYSINFO_PROC, tests pass a fake
   tree), -1 when the file cannot be read or has no such line. */
long long sysinfo_meminfo_kib(const char *proc, const char *key);
/* The settings of `cpu`'s clock that someone on the machine chose within one boot, as one line
   ("scaling_governor performance, cpufreq/boost 1"): cpupower frequency-set -g, tuned, power-profiles-daemon
   or a turbo switch in sysfs change them, and a core's speed with them. Not a frequency cap (cpupower
   frequency-set -u or -f and likwid-setFrequencies -f write scaling_max_freq, which firmware and thermal
   limits move too), nor, on recent kernels, a turbo switched through MSRs (likwid-setFrequencies --turbo
   writes IA32_MISC_ENABLE bit 38 on Intel: LIKWID's frequency_cpu.c, setIntelTurbo; older intel_pstate
   re-read that bit into no_turbo). "" where the machine has none (a VM without a cpufreq driver).
   sys_root: CLOCK_SYSFS_ROOT; tests pass a fake tree. */
void sysinfo_clock_policy(const char *sys_root, int cpu, char *buf, size_t len);
void sysinfo_print(const struct sysinfo *s, FILE *f);
json_t *sysinfo_cpu_json(const struct sysinfo *s);
json_t *sysinfo_os_json(const struct sysinfo *s);

#endif
