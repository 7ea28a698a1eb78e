/* nopread_desc.c — descriptor of the nopread family (nopread.S): 4 read streams throttled by D NOPs
 * per iteration, D chosen at run time. */
#include "kern.h"

#define NOPREAD_STREAMS 4u
#define NOPREAD_GRANULE (NOPREAD_STREAMS * KERN_LINE) /* one line of each stream */
#define NOPREAD_SLED 4096u                            /* one-byte NOPs in the sled (nopread.S) */

uint64_t kern_nopread(void *buf, uint64_t bytes, uint64_t reps, uint64_t delay);

static const struct kern_variant nopread_variants[] = {
	{"nopread.gpr", 8, KISA_BASE, 0, kern_nopread, KA_NONE, NULL},
};

static const uint64_t nopread_delays[] = {0, 8, 16, 32, 64, 128, 256, 512, 1024};
static const uint64_t nopread_delays_quick[] = {0, 256};

static void nopread_volumes(const struct kern_variant *v, const struct kern_params *p,
			    struct kern_volumes *out)
{
	uint64_t iters = p->reps * (p->bytes / NOPREAD_GRANULE);

	(void)v;
	*out = (struct kern_volumes){0};
	/* 13 outside the loops (11 setup, fold, ret); per pass 5 (index reset 2, jmp, dec, jz);
	   per iteration 4 xor + jmp + D nop + add + jnz */
	out->instructions = 13 + 5 * p->reps + iters * (7 + p->arg);
	out->loads = NOPREAD_STREAMS * iters + 1; /* + ret's read of the return address */
	out->bytes_loaded = 8 * NOPREAD_STREAMS * iters + 8;
	out->lines_read = out->lines_demand_read = NOPREAD_STREAMS * iters;
	out->nops = iters * p->arg;
}

static const struct kern_family nopread_family = {
	.name = "nopread",
	.summary = "4 read streams, one 8-byte load per line each, then D NOPs (bandwidth vs delay)",
	.variants = nopread_variants,
	.nvariants = 1,
	.granule = NOPREAD_GRANULE,
	.arrays = 1,
	.arg_name = "delay",
	.arg_max = NOPREAD_SLED,
	/* Helm et al. throttle memory bandwidth: DRAM only */
	.policy = {.sweep = KS_DRAM,
		   .args = KERN_VALUES(nopread_delays),
		   .quick_args = KERN_VALUES(nopread_delays_quick),
		   .plots = KP_BW_DELAY},
	.volumes = nopread_volumes,
};
KERN_REGISTER(nopread_family);
