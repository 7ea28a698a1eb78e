#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_id.h"
#include "err.h"
#include "kern.h"

/* Inline asm rather than gcc's <cpuid.h>, so this module needs no compiler-specific header. */
static void cpuid(unsigned leaf, unsigned r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}

/* Parses "Vendor:family:model"; numbers in C syntax (0x55 or 85). */
static int parse_fake(const char *text, struct cpuid_info *out)
{
	const char *colon = strchr(text, ':');
	char *end;
	size_t len;

	if (!colon || colon == text || (len = (size_t)(colon - text)) >= sizeof out->vendor)
		return E_USAGE;
	memcpy(out->vendor, text, len);
	out->family = (unsigned)strtoul(colon + 1, &end, 0);
	if (end == colon + 1 || *end != ':')
		return E_USAGE;
	colon = end;
	out->model = (unsigned)strtoul(colon + 1, &end, 0);
	if (end == colon + 1 || *end)
		return E_USAGE;
	strcpy(out->brand, "fake");
	return 0;
}

static void read_brand(char *brand, size_t len)
{
	unsigned r[13] = {0};
	const char *p = (const char *)r;

	cpuid(0x80000000, r);
	if (r[0] < 0x80000004)
		return;
	for (unsigned i = 0; i < 3; i++)
		cpuid(0x80000002 + i, r + 4 * i);
	r[12] = 0;
	while (*p == ' ')
		p++;
	snprintf(brand, len, "%s", p);
}

/* Intel SDM vol. 2A, CPUID leaf 16H: EBX bits 15-0 are the processor's maximum frequency in MHz (0 when
   not enumerated). AMD CPUs do not implement the leaf. */
static unsigned read_max_mhz(const char *vendor)
{
	unsigned r[4];

	cpuid(0, r);
	if (strcmp(vendor, "GenuineIntel") != 0 || r[0] < 0x16)
		return 0;
	cpuid(0x16, r);
	return r[1] & 0xffff;
}

int cpuid_read(struct cpuid_info *out)
{
	const char *fake = getenv("PMUCHECK_FAKE_CPUID"), *msr_dir = getenv("PMUCHECK_MSR_DIR");
	unsigned r[4], base_family;

	memset(out, 0, sizeof *out);
	/* A test hook of the prefetcher tests, which set both: a stray one alone must not make a real run
	   record, and choose a config for, a CPU it is not (README). */
	if (fake && msr_dir && *msr_dir) {
		int rc = parse_fake(fake, out);
		if (rc)
			memset(out, 0, sizeof *out);
		return rc;
	}
	cpuid(0, r);
	memcpy(out->vendor, &r[1], 4); /* "Genu" "ineI" "ntel": ebx, edx, ecx */
	memcpy(out->vendor + 4, &r[3], 4);
	memcpy(out->vendor + 8, &r[2], 4);
	cpuid(1, r);
	base_family = (r[0] >> 8) & 0xf;
	out->family = base_family == 0xf ? base_family + ((r[0] >> 20) & 0xff) : base_family;
	out->model = (r[0] >> 4) & 0xf;
	if (base_family == 6 || base_family == 0xf)
		out->model |= ((r[0] >> 16) & 0xf) << 4;
	out->stepping = r[0] & 0xf;
	read_brand(out->brand, sizeof out->brand);
	out->max_mhz = read_max_mhz(out->vendor);
	return 0;
}

/* gcc's runtime CPU model checks XGETBV too, so these are true only when the OS enabled the state. */
/* PMUCHECK_ISA_DISABLE="avx512f,avx2" pretends the CPU lacks those extensions: to test the refusal
   paths on a machine that has everything, or to keep a run to narrower kernels. */
static int isa_disabled(const char *name)
{
	const char *list = getenv("PMUCHECK_ISA_DISABLE");
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == 0))
			return 1;
	}
	return 0;
}

/* __builtin_cpu_supports takes only literals, hence the macro. */
#define HAS(name) (__builtin_cpu_supports(name) && !isa_disabled(name))

bool cpuid_isa_ok(unsigned isa)
{
	__builtin_cpu_init();
	return (!(isa & KISA_SSE2) || HAS("sse2")) && (!(isa & KISA_AVX) || HAS("avx")) &&
		(!(isa & KISA_AVX2) || HAS("avx2")) && (!(isa & KISA_AVX512F) || HAS("avx512f"));
}
