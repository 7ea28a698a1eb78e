/* store_desc.c — descriptor of the store family (store.S): write bandwidth at 8 (GPR, xmm)/16/32/64 bytes
 * per store, with write-allocate (normal stores) and without (non-temporal stores, KV_NT). */
#include "kern.h"

#define STORE_BLOCK 512u /* bytes per unrolled block, the family's granule */
#define STORE_PLOTS (KP_BW_SIZE | KP_EV_SIZE)

uint64_t kern_store_gpr(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_sd(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_sse(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_avx(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_avx512(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_gpr_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_sse_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_avx_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_store_avx512_nt(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);

/* The run's path probe (harness/run/path_probe.h) is the non-temporal store every x86-64 CPU has (SSE2): its
   stores leave the core for memory whatever the buffer's size. */
static const struct kern_policy store_path_policy = {.sweep = KS_EVERY_LEVEL,
						     .plots = STORE_PLOTS | KP_PATH_PROBE};

static const struct kern_variant store_variants[] = {
	{"store.gpr", 8, KISA_BASE, 0, kern_store_gpr, KA_WRITE, NULL},
	{"store.sd", 8, KISA_SSE2, 0, kern_store_sd, KA_WRITE, NULL},
	{"store.sse", 16, KISA_SSE2, 0, kern_store_sse, KA_WRITE, NULL},
	{"store.avx", 32, KISA_AVX, 0, kern_store_avx, KA_WRITE, NULL},
	{"store.avx512", 64, KISA_AVX512F, 0, kern_store_avx512, KA_WRITE, NULL},
	{"store.gpr.nt", 8, KISA_SSE2, KV_NT, kern_store_gpr_nt, KA_NT_WRITE, NULL},
	{"store.sse.nt", 16, KISA_SSE2, KV_NT, kern_store_sse_nt, KA_NT_WRITE, &store_path_policy},
	{"store.avx.nt", 32, KISA_AVX, KV_NT, kern_store_avx_nt, KA_NT_WRITE, NULL},
	{"store.avx512.nt", 64, KISA_AVX512F, KV_NT, kern_store_avx512_nt, KA_NT_WRITE, NULL},
};

static void store_volumes(const struct kern_variant *v, const struct kern_params *p, struct kern_volumes *out)
{
	uint64_t per_block = STORE_BLOCK / v->width;
	uint64_t blocks = p->bytes / STORE_BLOCK;
	uint64_t lines = p->reps * (p->bytes / KERN_LINE);
	/* prologue 5 (source, add, neg, mov, jmp) + xor + ret; sfence for NT, vzeroupper for AVX */
	uint64_t fixed = 7 + !!(v->flags & KV_NT) + (v->isa & (KISA_AVX | KISA_AVX512F) ? 1 : 0);

	*out = (struct kern_volumes){0};
	/* per block: its stores + add + jnz; per pass: index reset + dec + jnz */
	out->instructions = fixed + p->reps * (3 + blocks * (per_block + 2));
	out->stores = p->reps * blocks * per_block;
	/* ret's read of the return address: the instruction-level fields count all the call does */
	out->loads = 1;
	out->bytes_loaded = 8;
	out->bytes_stored = p->reps * p->bytes;
	out->lines_written = lines;
	out->lines_read = v->flags & KV_NT ? 0 : lines; /* the write-allocate read */
	/* lines_demand_read stays 0: no load touches the array */
}

static const struct kern_family store_family = {
	.name = "store",
	.summary = "sequential aligned stores of 8 (GPR, xmm)/16/32/64 bytes, normal or non-temporal (write "
		   "bandwidth)",
	.variants = store_variants,
	.nvariants = sizeof(store_variants) / sizeof(store_variants[0]),
	.granule = STORE_BLOCK,
	.arrays = 1,
	.policy = {.sweep = KS_EVERY_LEVEL, .plots = STORE_PLOTS},
	.volumes = store_volumes,
};
KERN_REGISTER(store_family);
