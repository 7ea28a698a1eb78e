/* chase_desc.c — descriptor of the chase family (chase.S): pointer chase over one random cycle through
 * every line of the buffer, plain or with K independent / dependent multiplies per access. */
#include "kern.h"

#define CHASE_GRANULE 1024u /* 16 lines: chase.plain's unrolled block */
#define CHASE_KMAX 128u     /* imuls in the sled (chase.S) */

uint64_t kern_chase_plain(void *buf, uint64_t bytes, uint64_t reps, uint64_t k);
uint64_t kern_chase_indep(void *buf, uint64_t bytes, uint64_t reps, uint64_t k);
uint64_t kern_chase_dep(void *buf, uint64_t bytes, uint64_t reps, uint64_t k);

/* The plain chase is the latency reference: every size of the sweep, no argument, and the chain the
   level probe uses. The multiply variants (the family's policy) need one size per level. */
static const struct kern_policy chase_plain_policy = {
	.sweep = KS_EVERY_LEVEL,
	.single_thread = 1,
	.plots = KP_LATENCY | KP_EV_SIZE | KP_LEVEL_PROBE,
};
static const uint64_t chase_k[] = {24}; /* Molka et al.: 24 multiplies per access */

static const struct kern_variant chase_variants[] = {
	{"chase.plain", 8, KISA_BASE, 0, kern_chase_plain, KA_LATENCY, &chase_plain_policy},
	{"chase.indep", 8, KISA_BASE, KV_MUL_INDEP, kern_chase_indep, KA_NONE, NULL},
	{"chase.dep", 8, KISA_BASE, KV_MUL_DEP, kern_chase_dep, KA_NONE, NULL},
};

/* splitmix64: small, deterministic, good enough to scatter lines. */
static uint64_t chase_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) by the multiply-shift method (bias below 2^-40 for any buffer size). */
static uint64_t chase_below(uint64_t *state, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)chase_rand(state) * n) >> 64);
}

/* Sattolo's algorithm, in place in the lines' first words: it yields a permutation that is one
   single cycle through all n lines, uniformly among those. The successor of a line is a random line
   anywhere in the buffer, so consecutive accesses land in random pages at random lines. The
   indices are then turned into absolute addresses. */
static void chase_prepare(const struct kern_variant *v, const struct kern_params *p, void *buf, uint64_t seed)
{
	uint64_t n = p->bytes / KERN_LINE, state = seed;
	char *base = buf;

	(void)v;
#define NEXT(i) (*(uint64_t *)(base + (i)*KERN_LINE))
	for (uint64_t i = 0; i < n; i++)
		NEXT(i) = i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = chase_below(&state, i), t = NEXT(i);

		NEXT(i) = NEXT(j);
		NEXT(j) = t;
	}
	for (uint64_t i = 0; i < n; i++)
		NEXT(i) = (uint64_t)(uintptr_t)(base + NEXT(i) * KERN_LINE);
#undef NEXT
}

static void chase_volumes(const struct kern_variant *v, const struct kern_params *p, struct kern_volumes *out)
{
	uint64_t steps = p->reps * (p->bytes / KERN_LINE);
	uint64_t k = v->flags & (KV_MUL_INDEP | KV_MUL_DEP) ? p->arg : 0;

	*out = (struct kern_volumes){0};
	if (v->flags & (KV_MUL_INDEP | KV_MUL_DEP))
		/* 8 outside the loop (7 setup, ret); per pass 3 (reset, dec, jnz); per access load,
		   jmp, K imul, dec, jnz */
		out->instructions = 8 + 3 * p->reps + steps * (4 + k);
	else
		/* 5 outside the loop (4 setup, ret); per pass 3; per block of 16: 16 loads, dec, jnz */
		out->instructions = 5 + 3 * p->reps + 18 * (steps / 16);
	out->loads = steps + 1; /* + ret's read of the return address */
	out->bytes_loaded = 8 * steps + 8;
	out->lines_read = out->lines_demand_read = steps;
	out->chase_accesses = steps;
	out->multiplies = steps * k;
}

static const struct kern_family chase_family = {
	.name = "chase",
	.summary = "pointer chase through one random cycle of all lines; + K independent/dependent imul",
	.variants = chase_variants,
	.nvariants = sizeof(chase_variants) / sizeof(chase_variants[0]),
	.granule = CHASE_GRANULE,
	.arrays = 1,
	.flags = KF_RESUMABLE,
	.arg_name = "k",
	.arg_max = CHASE_KMAX,
	.policy = {.sweep = KS_PER_LEVEL,
		   .args = KERN_VALUES(chase_k),
		   .quick_args = KERN_VALUES(chase_k),
		   .single_thread = 1,
		   .plots = KP_LATENCY | KP_EV_SIZE},
	.prepare = chase_prepare,
	.volumes = chase_volumes,
};
KERN_REGISTER(chase_family);
