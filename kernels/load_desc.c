/* load_desc.c — descriptor of the load family (load.S): read bandwidth at 8/16/32/64 bytes per load. */
#include "kern.h"

#define LOAD_BLOCK 512u /* bytes per unrolled block, the family's granule */

uint64_t kern_load_gpr(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_load_sd(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_load_sse(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_load_avx(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
uint64_t kern_load_avx512(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);

/* load.gpr runs on every x86-64 CPU, and its loads and adds compete for the ports a neighbour on the
   same core (a VM's other tenant on the SMT sibling) uses: the run's speed probe. */
#define LOAD_PLOTS (KP_BW_SIZE | KP_EV_SIZE)
static const struct kern_policy load_gpr_policy = {.sweep = KS_EVERY_LEVEL,
						   .plots = LOAD_PLOTS | KP_SPEED_PROBE};

static const struct kern_variant load_variants[] = {
	{"load.gpr", 8, KISA_BASE, 0, kern_load_gpr, KA_READ, &load_gpr_policy},
	{"load.sd", 8, KISA_SSE2, 0, kern_load_sd, KA_READ, NULL},
	{"load.sse", 16, KISA_SSE2, 0, kern_load_sse, KA_READ, NULL},
	{"load.avx", 32, KISA_AVX | KISA_AVX2, 0, kern_load_avx, KA_READ,
	 NULL}, /* the fold's vpxor ymm is AVX2 */
	{"load.avx512", 64, KISA_AVX512F | KISA_AVX2, 0, kern_load_avx512, KA_READ, NULL},
};

/* Instructions outside the loops, per variant: loop setup (4: add, neg, mov, jmp), then the fold
   of the destination registers into rax and ret (gpr 4, sd and sse 12, avx 14, avx512 16). */
static const unsigned load_fixed[] = {4 + 4, 4 + 12, 4 + 12, 4 + 14, 4 + 16};

static void load_volumes(const struct kern_variant *v, const struct kern_params *p, struct kern_volumes *out)
{
	uint64_t per_block = LOAD_BLOCK / v->width;
	uint64_t blocks = p->bytes / LOAD_BLOCK;

	*out = (struct kern_volumes){0};
	/* per block: its loads + add + jnz; per pass: index reset + dec + jnz */
	out->instructions = load_fixed[v - load_variants] + p->reps * (3 + blocks * (per_block + 2));
	/* + ret's read of the return address: the instruction-level fields count all the call does */
	out->loads = p->reps * blocks * per_block + 1;
	out->bytes_loaded = p->reps * p->bytes + 8;
	out->lines_read = out->lines_demand_read = p->reps * (p->bytes / KERN_LINE);
}

static const struct kern_family load_family = {
	.name = "load",
	.summary = "sequential aligned loads of 8 (GPR, xmm)/16/32/64 bytes, plain moves (read bandwidth)",
	.variants = load_variants,
	.nvariants = sizeof(load_variants) / sizeof(load_variants[0]),
	.granule = LOAD_BLOCK,
	.arrays = 1,
	.policy = {.sweep = KS_EVERY_LEVEL, .plots = LOAD_PLOTS},
	.volumes = load_volumes,
};
KERN_REGISTER(load_family);
