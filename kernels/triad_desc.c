/* triad_desc.c — descriptor of the triad family (triad.S): a = b + s*c (STREAM) with normal and
 * non-temporal stores. */
#include "kern.h"

#define TRIAD_BLOCK 512u /* the granule: whole loop iterations (8 vectors) at every width up to 64 bytes */

uint64_t kern_triad_sse(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_triad_avx(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_triad_avx512(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_triad_sse_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_triad_avx_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_triad_avx512_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);

static const struct kern_variant triad_variants[] = {
	{"triad.sse", 16, KISA_SSE2, 0, kern_triad_sse, KA_TRIAD, NULL},
	{"triad.avx", 32, KISA_AVX, 0, kern_triad_avx, KA_TRIAD, NULL},
	{"triad.avx512", 64, KISA_AVX512F, 0, kern_triad_avx512, KA_TRIAD, NULL},
	{"triad.sse.nt", 16, KISA_SSE2, KV_NT, kern_triad_sse_nt, KA_NT_TRIAD, NULL},
	{"triad.avx.nt", 32, KISA_AVX, KV_NT, kern_triad_avx_nt, KA_NT_TRIAD, NULL},
	{"triad.avx512.nt", 64, KISA_AVX512F, KV_NT, kern_triad_avx512_nt, KA_NT_TRIAD, NULL},
};

/* b[i] = i mod 1024 and c[i] = i mod 7: small integers, so a = b + 3c is exact and checkable, and
   no denormal or NaN ever slows the arithmetic down. a is zeroed. */
static void triad_prepare(const struct kern_variant *v, const struct kern_params *p, void *buf, uint64_t seed)
{
	uint64_t n = p->bytes / sizeof(double);
	double *a = buf, *b = a + n, *c = b + n;

	(void)v;
	(void)seed;
	for (uint64_t i = 0; i < n; i++) {
		a[i] = 0.0;
		b[i] = (double)(i % 1024);
		c[i] = (double)(i % 7);
	}
}

static void triad_volumes(const struct kern_variant *v, const struct kern_params *p, struct kern_volumes *out)
{
	uint64_t vectors = p->reps * (p->bytes / v->width);
	uint64_t iterations = vectors / 8; /* the loop body is 8 vectors (triad.S) */
	uint64_t lines = p->reps * (p->bytes / KERN_LINE);
	int sse = v->width == 16;
	unsigned per_vector = sse ? 4 : 3; /* SSE is 2-operand: c needs its own movapd */
	int nt = v->flags & KV_NT;

	*out = (struct kern_volumes){0};
	/* 9 outside the loops (s load, add, lea, lea, neg, mov, jmp, xor, ret) + sfence (NT) +
	   vzeroupper (AVX, AVX-512); per pass 3 (index reset, dec, jnz); per iteration add + jnz */
	out->instructions = 9 + !!nt + !sse + 3 * p->reps + 2 * iterations + per_vector * vectors;
	/* b and c per vector, + s (one load of the variant's width) + ret's read of the return address */
	out->loads = 2 * vectors + 2;
	out->stores = vectors;
	out->bytes_loaded = 2 * p->reps * p->bytes + v->width + 8;
	out->bytes_stored = p->reps * p->bytes;
	out->lines_read = (nt ? 2 : 3) * lines; /* b, c, and a's write-allocate unless NT */
	out->lines_demand_read = 2 * lines;     /* b and c: a is only stored to */
	out->lines_written = lines;
}

static const struct kern_family triad_family = {
	.name = "triad",
	.summary = "STREAM triad a = b + 3.0*c on doubles, normal or non-temporal stores (3 arrays)",
	.variants = triad_variants,
	.nvariants = sizeof(triad_variants) / sizeof(triad_variants[0]),
	.granule = TRIAD_BLOCK,
	.arrays = 3,
	.policy = {.sweep = KS_EVERY_LEVEL, .plots = KP_BW_SIZE | KP_EV_SIZE},
	.prepare = triad_prepare,
	.volumes = triad_volumes,
};
KERN_REGISTER(triad_family);
