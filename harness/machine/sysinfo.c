#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kern.h"
#include "sysinfo.h"

/* First line of a small file, without the newline; "" when unreadable. */
static void read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");

	out[0] = 0;
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = 0;
	fclose(f);
}

/* The files behind sysinfo_clock_policy, under devices/system/cpu (Linux Documentation/admin-guide/pm/
   cpufreq.rst: a policy's scaling_governor and, where the kernel has it, its own boost, and the global
   cpufreq/boost; intel_pstate.rst and amd-pstate.rst: a policy's energy_performance_preference;
   intel_pstate.rst: intel_pstate/no_turbo and max_perf_pct); per_cpu: in the CPU's cpufreq policy. Each is
   set only by someone on the machine (a user, an administrator, tuned or power-profiles-daemon). Not
   scaling_max_freq: firmware (ACPI _PPC) and thermal limits move it too (cpufreq.rst, bios_limit), and a run
   they slow is one the speed history is there to mark, not another machine (review R19). */
static const struct {
	int per_cpu;
	const char *file;
} clock_knobs[] = {
	{1, "scaling_governor"}, {1, "energy_performance_preference"}, {1, "boost"},
	{0, "cpufreq/boost"},    {0, "intel_pstate/no_turbo"},         {0, "intel_pstate/max_perf_pct"},
};

void sysinfo_clock_policy(const char *sys_root, int cpu, char *buf, size_t len)
{
	char path[4096], value[64];
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof clock_knobs / sizeof clock_knobs[0] && used < len; i++) {
		if (clock_knobs[i].per_cpu)
			snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/cpufreq/%s", sys_root, cpu,
				 clock_knobs[i].file);
		else
			snprintf(path, sizeof path, "%s/devices/system/cpu/%s", sys_root,
				 clock_knobs[i].file);
		read_line(path, value, sizeof value);
		if (value[0])
			used += (size_t)snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "",
						 clock_knobs[i].file, value);
	}
}

/* The value of the first "key<tabs>: value" line of /proc/cpuinfo. */
static void cpuinfo_field(const char *key, char *out, size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "r");

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (strncmp(line, key, klen) != 0 || !colon || (line[klen] != '\t' && line[klen] != ' '))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		snprintf(out, len, "%s", colon);
		out[strcspn(out, "\n")] = 0;
		break;
	}
	fclose(f);
}

/* The bracketed choice of a sysfs "a [b] c" file. */
static void bracketed(const char *path, char *out, size_t len)
{
	char line[256], *a, *b;

	read_line(path, line, sizeof line);
	a = strchr(line, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = 0;
		snprintf(out, len, "%s", a + 1);
	} else {
		snprintf(out, len, "%s", line[0] ? line : "unknown");
	}
}

long long sysinfo_meminfo_kib(const char *proc, const char *key)
{
	char path[4096], line[256];
	size_t klen = strlen(key);
	long long kib = -1;
	FILE *f;

	snprintf(path, sizeof path, "%s/meminfo", proc);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			if (sscanf(line + klen + 1, " %lld kB", &kib) != 1)
				kib = -1;
			break;
		}
	fclose(f);
	return kib;
}

void sysinfo_read(struct sysinfo *s)
{
	static const struct {
		unsigned bit;
		const char *name;
	} isa[] = {{KISA_SSE2, "sse2"}, {KISA_AVX, "avx"}, {KISA_AVX2, "avx2"}, {KISA_AVX512F, "avx512f"}};
	struct utsname u;
	char buf[64];

	memset(s, 0, sizeof *s);
	cpuid_read(&s->cpu);
	cpuinfo_field("model name", s->model_name, sizeof s->model_name);
	cpuinfo_field("microcode", s->microcode, sizeof s->microcode);
	cpuinfo_field("cpu MHz", buf, sizeof buf);
	s->mhz = atof(buf);
	for (size_t i = 0; i < sizeof isa / sizeof *isa; i++)
		if (cpuid_isa_ok(isa[i].bit)) {
			size_t n = strlen(s->isa);
			snprintf(s->isa + n, sizeof s->isa - n, "%s%s", n ? " " : "", isa[i].name);
		}
	if (uname(&u) == 0)
		snprintf(s->kernel, sizeof s->kernel, "%s %s", u.sysname, u.release);
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", s->governor, sizeof s->governor);
	bracketed("/sys/kernel/mm/transparent_hugepage/enabled", s->thp, sizeof s->thp);
	read_line("/sys/devices/system/cpu/smt/active", buf, sizeof buf);
	snprintf(s->smt, sizeof s->smt, "%s", buf[0] == '1' ? "on" : buf[0] == '0' ? "off" : "unknown");
	gethostname(s->host, sizeof s->host - 1);
	s->mem_total_kib = sysinfo_meminfo_kib(SYSINFO_PROC, "MemTotal");
	if (s->mem_total_kib < 0)
		s->mem_total_kib = 0;
}

void sysinfo_print(const struct sysinfo *s, FILE *f)
{
	fprintf(f, "cpu             %s (%s, family 0x%x, model 0x%x, stepping %u)\n", s->model_name,
		s->cpu.vendor, s->cpu.family, s->cpu.model, s->cpu.stepping);
	fprintf(f, "microcode       %s\n", s->microcode[0] ? s->microcode : "unknown");
	fprintf(f, "isa used        %s\n", s->isa);
	fprintf(f, "kernel          %s\n", s->kernel);
	fprintf(f, "frequency       %.0f MHz at start, governor %s\n", s->mhz,
		s->governor[0] ? s->governor : "none (no cpufreq driver: a VM, or fixed frequency)");
	fprintf(f, "huge pages      THP %s%s\n", s->thp,
		!strcmp(s->thp, "never") ? " (buffers and chains use 4 KiB pages)" : "");
	fprintf(f, "smt             %s\n", s->smt);
}

json_t *sysinfo_cpu_json(const struct sysinfo *s)
{
	return json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:s}", "vendor", s->cpu.vendor, "family",
			 (int)s->cpu.family, "model", (int)s->cpu.model, "stepping", (int)s->cpu.stepping,
			 "model_name", s->model_name, "microcode", s->microcode, "isa", s->isa);
}

json_t *sysinfo_os_json(const struct sysinfo *s)
{
	return json_pack("{s:s, s:s, s:f, s:s, s:s, s:I}", "kernel", s->kernel, "governor", s->governor,
			 "mhz", s->mhz, "thp", s->thp, "smt", s->smt, "mem_total_kib",
			 (json_int_t)s->mem_total_kib);
}
