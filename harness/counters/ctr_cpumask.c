/* ctr_cpumask.c — the CPU a socket-scope perf PMU is opened on.
 *
 * An uncore PMU accepts only the CPUs of its `cpumask` file (the kernel's
 * Documentation/ABI/testing/sysfs-bus-event_source-devices: "the CPUs the PMU's events may be opened
 * on"): Intel's uncore_imc_N lists one CPU per socket ("0,24") and counts the socket of the CPU it is
 * opened on; AMD's amd_umc_N is numbered across sockets and lists the one CPU of its own socket
 * (arch/x86/events/amd/uncore.c), so on a two-socket machine half of the boxes refuse any CPU of the
 * other socket. AMD's amd_l3 is per CCX: its mask holds one CPU per L3, and the kernel remaps an event to
 * the owner of the opening CPU's L3 (amd_uncore_event_init: "event->cpu = uncore->cpu"), so the mask CPU
 * that counts the run's L3 is the one sharing it, not the socket's first. The run's CPU is kept when the
 * mask holds it; else the mask's CPU sharing the run CPU's L3; else the mask's CPU on the run CPU's
 * socket; else the mask's first CPU (the box belongs to another socket and counts only there). */
#include <stdio.h>
#include <stdlib.h>

#include "ctr_int.h"
#include "num.h"

#define CPUMASK_MAX_CPU 65536 /* a bound on a corrupt file's ranges, far above any machine's CPUs */

/* The package of a CPU from <cpus>/cpuN/topology/physical_package_id; -1 when unknown. */
static long package_of(const char *cpus, int cpu)
{
	char path[512];

	snprintf(path, sizeof path, "%s/cpu%d/topology/physical_package_id", cpus, cpu);
	return (long)num_read_file(path, -1);
}

/* The L3 a CPU shares, from <cpus>/cpuN/cache/index3/id (Documentation/ABI/testing/sysfs-devices-system-cpu:
   the cache's id, unique per level); -1 when unknown or index3 is not level 3. */
static long l3_of(const char *cpus, int cpu)
{
	char path[512];

	snprintf(path, sizeof path, "%s/cpu%d/cache/index3/level", cpus, cpu);
	if (num_read_file(path, -1) != 3)
		return -1;
	snprintf(path, sizeof path, "%s/cpu%d/cache/index3/id", cpus, cpu);
	return (long)num_read_file(path, -1);
}

int ctr_cpumask_cpu(const char *pmus, const char *cpus, const char *pmu, int run_cpu)
{
	char path[512], text[4096], *p, *end;
	int first = -1, same_socket = -1, same_l3 = -1;
	long want, want_l3;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s/cpumask", pmus, pmu);
	if (run_cpu < 0)
		run_cpu = 0; /* a probe: CPU 0 when the mask does not say otherwise */
	if (!(f = fopen(path, "r")))
		return run_cpu; /* no cpumask: the PMU takes any CPU */
	want = package_of(cpus, run_cpu);
	want_l3 = l3_of(cpus, run_cpu);
	p = fgets(text, sizeof text, f);
	fclose(f);
	while (p && *p >= '0' && *p <= '9') {
		long lo = strtol(p, &end, 10), hi = lo;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && c < CPUMASK_MAX_CPU; c++) {
			if (c == run_cpu)
				return run_cpu;
			if (first < 0)
				first = (int)c;
			if (same_socket < 0 && want >= 0 && package_of(cpus, (int)c) == want)
				same_socket = (int)c;
			if (same_l3 < 0 && want_l3 >= 0 && package_of(cpus, (int)c) == want &&
			    l3_of(cpus, (int)c) == want_l3)
				same_l3 = (int)c;
		}
		p = *end == ',' ? end + 1 : NULL;
	}
	return same_l3 >= 0 ? same_l3 : same_socket >= 0 ? same_socket : first >= 0 ? first : run_cpu;
}
