/* copy_desc.c — descriptor of the copy family (copy.S): a = b (STREAM copy) with normal and
 * non-temporal stores. */
#include "kern.h"

#define COPY_BLOCK 512u /* the granule: whole loop iterations (8 vectors) at every width up to 64 bytes */

uint64_t kern_copy_sse(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_copy_avx(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_copy_avx512(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_copy_sse_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_copy_avx_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_copy_avx512_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);

static const struct kern_variant copy_variants[] = {
	{"copy.sse", 16, KISA_SSE2, 0, kern_copy_sse, KA_COPY, NULL},
	{"copy.avx", 32, KISA_AVX, 0, kern_copy_avx, KA_COPY, NULL},
	{"copy.avx512", 64, KISA_AVX512F, 0, kern_copy_avx512, KA_COPY, NULL},
	{"copy.sse.nt", 16, KISA_SSE2, KV_NT, kern_copy_sse_nt, KA_NT_COPY, NULL},
	{"copy.avx.nt", 32, KISA_AVX, KV_NT, kern_copy_avx_nt, KA_NT_COPY, NULL},
	{"copy.avx512.nt", 64, KISA_AVX512F, KV_NT, kern_copy_avx512_nt, KA_NT_COPY, NULL},
};

/* b[i] = i mod 1024 + 1, never zero: a CPU may drop stores of zeros to zeroed lines, which would hide
   the write traffic (store.S). a is zeroed. */
static void copy_prepare(const struct kern_variant *v, const struct kern_params *p, void *buf, uint64_t seed)
{
	uint64_t n = p->bytes / sizeof(double);
	double *a = buf, *b = a + n;

	(void)v;
	(void)seed;
	for (uint64_t i = 0; i < n; i++) {
		a[i] = 0.0;
		b[i] = (double)(i % 1024 + 1);
	}
}

static void copy_volumes(const struct kern_variant *v, const struct kern_params *p, struct kern_volumes *out)
{
	uint64_t vectors = p->reps * (p->bytes / v->width);
	uint64_t lines = p->reps * (p->bytes / KERN_LINE);
	int nt = v->flags & KV_NT;

	*out = (struct kern_volumes){0};
	/* 7 outside the loops (add, lea, neg, mov, jmp, xor, ret) + sfence (NT) + vzeroupper (AVX,
	   AVX-512); per pass 3 (index reset, dec, jnz); per iteration of 8 vectors add + jnz; per
	   vector a load and a store */
	out->instructions = 7 + !!nt + (v->width > 16) + 3 * p->reps + 2 * (vectors / 8) + 2 * vectors;
	out->loads = vectors + 1; /* + ret's read of the return address */
	out->stores = vectors;
	out->bytes_loaded = p->reps * p->bytes + 8;
	out->bytes_stored = p->reps * p->bytes;
	out->lines_read = (nt ? 1 : 2) * lines; /* b, and a's write-allocate unless NT */
	out->lines_demand_read = lines;         /* b: a is only stored to */
	out->lines_written = lines;
}

static const struct kern_family copy_family = {
	.name = "copy",
	.summary = "STREAM copy a = b on doubles, normal or non-temporal stores (2 arrays)",
	.variants = copy_variants,
	.nvariants = sizeof(copy_variants) / sizeof(copy_variants[0]),
	.granule = COPY_BLOCK,
	.arrays = 2,
	.policy = {.sweep = KS_EVERY_LEVEL, .plots = KP_BW_SIZE | KP_EV_SIZE},
	.prepare = copy_prepare,
	.volumes = copy_volumes,
};
KERN_REGISTER(copy_family);
