/* mem_drift.c — how much the machine's own memory bandwidth moves over a minute, measured without pmucheck
 * (tests/bench/memory_drift.sh).
 *
 * Issue 14 asks two consecutive runs' DRAM figures to agree within 5 %. Each is the best of its points'
 * calls, which interference can only slow: they agree only if the memory was, at its fastest moments in each
 * run, equally fast. Whether it was is a property of the machine, not of any estimator, so this loop shares
 * no code with pmucheck: one thread, pinned, reads one buffer past every cache again and again with 16-byte
 * SSE2 loads (on any x86-64; on the Zen 3 guest, 2026-12-01, it read 128 MiB at 19.1 and 19.5 GB/s at best in
 * two 5 s stretches, where a scratch copy of it with 32-byte AVX2 loads, not kept, read 21.2 at best in the 6
 * s just after: what counts here is how the figure moves, not the figure). A stretch's figure is its fastest
 * pass, one read of the whole buffer (about 11 ms for 200 MiB at 18 GB/s): the most a best-of estimator with
 * calls that long could read in it. Shorter calls can meet shorter fast moments, so a run's best can lie
 * above it; as far as the stretches' figures lie apart, two runs of that length can too. Each window's
 * fastest pass, kept as well, gives the stretch's median and slow tenth.
 *
 * usage: mem_drift BYTES STRETCHES STRETCH_SECONDS WINDOW_SECONDS CPU
 * prints per stretch: "stretch I best B median M p10 P windows W passes N mib S huge_mib H" (GB/s, 10^9 B/s;
 * S the buffer's MiB, a multiple of 2; H how many of them were huge pages at the stretch's end, from
 * /proc/self/smaps_rollup, -1 where it cannot be read). Exit 2, naming the argument, on bad arguments or no
 * memory. */
#define _GNU_SOURCE
#include <emmintrin.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define HUGE_PAGE (2ul << 20)
#define MAX_WINDOWS 100000
#define MAX_BYTES (1ull << 40)

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* What the loads fold into, read by nobody: it keeps the compiler from dropping or narrowing them. */
volatile __m128i mem_drift_sink;

/* One pass over buf (n 16-byte vectors, a multiple of 8); its seconds. Four independent chains, two lines an
   iteration, so that the loads issue back to back. */
static double read_pass(const __m128i *buf, size_t n)
{
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
	double t0 = now();

	for (size_t i = 0; i < n; i += 8) {
		a = _mm_xor_si128(a, _mm_load_si128(buf + i));
		b = _mm_xor_si128(b, _mm_load_si128(buf + i + 1));
		c = _mm_xor_si128(c, _mm_load_si128(buf + i + 2));
		d = _mm_xor_si128(d, _mm_load_si128(buf + i + 3));
		a = _mm_xor_si128(a, _mm_load_si128(buf + i + 4));
		b = _mm_xor_si128(b, _mm_load_si128(buf + i + 5));
		c = _mm_xor_si128(c, _mm_load_si128(buf + i + 6));
		d = _mm_xor_si128(d, _mm_load_si128(buf + i + 7));
	}
	mem_drift_sink = _mm_xor_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, d));
	return now() - t0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* argv[i] as a whole number in [lo, hi]; else says which argument and exits 2. */
static unsigned long long whole(char **argv, int i, const char *name, unsigned long long lo,
				unsigned long long hi)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(argv[i], &end, 10);
	if (!*argv[i] || *end || errno || *argv[i] == '-' || v < lo || v > hi) {
		fprintf(stderr, "mem_drift: %s '%s': a whole number from %llu to %llu\n", name, argv[i], lo,
			hi);
		exit(2);
	}
	return v;
}

/* argv[i] as finite seconds in [lo, hi]; else says which argument and exits 2. */
static double seconds(char **argv, int i, const char *name, double lo, double hi)
{
	char *end;
	double v = strtod(argv[i], &end);

	if (!*argv[i] || *end || !isfinite(v) || v < lo || v > hi) {
		fprintf(stderr, "mem_drift: %s '%s': seconds from %g to %g\n", name, argv[i], lo, hi);
		exit(2);
	}
	return v;
}

/* MiB of the process's anonymous memory in huge pages (the buffer is nearly all of it); -1: unknown. */
static long huge_mib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib < 0 ? -1 : kib >> 10;
}

int main(int argc, char **argv)
{
	static double best[MAX_WINDOWS];
	cpu_set_t set;
	__m128i *buf;

	if (argc != 6) {
		fprintf(stderr, "usage: mem_drift BYTES STRETCHES STRETCH_SECONDS WINDOW_SECONDS CPU\n");
		return 2;
	}
	size_t size = whole(argv, 1, "BYTES", HUGE_PAGE, MAX_BYTES) / HUGE_PAGE * HUGE_PAGE;
	int stretches = (int)whole(argv, 2, "STRETCHES", 1, 1000);
	double stretch_s = seconds(argv, 3, "STRETCH_SECONDS", 0.01, 3600);
	double window_s = seconds(argv, 4, "WINDOW_SECONDS", stretch_s / MAX_WINDOWS, stretch_s);
	int cpu = (int)whole(argv, 5, "CPU", 0, CPU_SETSIZE - 1);
	size_t n = size / sizeof *buf;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set)) {
		fprintf(stderr, "mem_drift: CPU '%s': %s\n", argv[5], strerror(errno));
		return 2;
	}
	buf = aligned_alloc(HUGE_PAGE, size);
	if (!buf) {
		fprintf(stderr, "mem_drift: BYTES '%s': %s\n", argv[1], strerror(errno));
		return 2;
	}
	/* as pmucheck's buffers: TLB reach stays out of the figure where the kernel gives huge pages, and
	   huge_mib says whether it did */
	madvise(buf, size, MADV_HUGEPAGE);
	memset(buf, 1, size);
	read_pass(buf, n);
	for (int s = 0; s < stretches; s++) {
		int w = 0;
		long passes = 0;
		for (double end = now() + stretch_s; now() < end && w < MAX_WINDOWS; w++) {
			double fastest = INFINITY;
			for (double wend = now() + window_s; now() < wend; passes++) {
				double t = read_pass(buf, n);
				if (t < fastest)
					fastest = t;
			}
			best[w] = (double)size / fastest * 1e-9;
		}
		qsort(best, (size_t)w, sizeof *best, cmp_double);
		printf("stretch %d best %.3f median %.3f p10 %.3f windows %d passes %ld mib %zu huge_mib "
		       "%ld\n",
		       s + 1, best[w - 1], best[w / 2], best[w / 10], w, passes, size >> 20, huge_mib());
		fflush(stdout);
	}
	free(buf);
	return 0;
}
