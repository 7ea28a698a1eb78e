/* cpu_id.h — who made this CPU and which model it is, from the CPUID instruction.
 *
 * Family and model are the displayed values (extended family added for family 0xF, extended model
 * for families 6 and 0xF), as /proc/cpuinfo and vendor manuals print them. Tests inject another CPU
 * with PMUCHECK_FAKE_CPUID="Vendor:family:model" (numbers in C syntax, e.g. "GenuineIntel:6:0x55",
 * "AuthenticAMD:0x1a:0x11"), honoured only beside fake MSR files (PMUCHECK_MSR_DIR set); the brand string
 * then reads "fake".
 */
#ifndef PMUCHECK_CPUID_H
#define PMUCHECK_CPUID_H

#include <stdbool.h>

struct cpuid_info {
	char vendor[13]; /* "GenuineIntel", "AuthenticAMD" */
	unsigned family, model, stepping;
	char brand[49];   /* processor brand string, leading blanks removed */
	unsigned max_mhz; /* Intel's CPUID leaf 0x16 "maximum frequency"; 0 when absent (AMD) or faked */
};

/* Fills out from CPUID, or from PMUCHECK_FAKE_CPUID when it and PMUCHECK_MSR_DIR are set. Returns 0, or
   E_USAGE when the override is not "Vendor:family:model" (out is then left zeroed). */
int cpuid_read(struct cpuid_info *out);

/* Whether this process may use every ISA extension in isa (KISA_* bits of kern.h): the CPU has them,
   the OS saves their registers, and PMUCHECK_ISA_DISABLE does not name them. */
bool cpuid_isa_ok(unsigned isa);

#endif
