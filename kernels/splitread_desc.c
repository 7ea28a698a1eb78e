/* splitread_desc.c — descriptor of the splitread family (splitread.S): one 8-byte load per line at a
 * run-time offset, crossing into the next line when the offset is above 56. */
#include "kern.h"

#define SPLITREAD_BLOCK 512u /* 8 lines per unrolled block, the family's granule */
#define SPLITREAD_WIDTH 8u

uint64_t kern_splitread(void *buf, uint64_t bytes, uint64_t reps, uint64_t offset);

static const struct kern_variant splitread_variants[] = {
	{"splitread.gpr", SPLITREAD_WIDTH, KISA_BASE, 0, kern_splitread, KA_NONE, NULL},
};

/* Every offset in the line; quick: aligned, unaligned, the last unsplit one and two split ones. */
#define SPLITREAD_8(o) o, o + 1, o + 2, o + 3, o + 4, o + 5, o + 6, o + 7
static const uint64_t splitread_offsets[] = {
	SPLITREAD_8(0),  SPLITREAD_8(8),  SPLITREAD_8(16), SPLITREAD_8(24),
	SPLITREAD_8(32), SPLITREAD_8(40), SPLITREAD_8(48), SPLITREAD_8(56),
};
static const uint64_t splitread_offsets_quick[] = {0, 32, 56, 57, 63};

static void splitread_volumes(const struct kern_variant *v, const struct kern_params *p,
			      struct kern_volumes *out)
{
	uint64_t loads = p->reps * (p->bytes / KERN_LINE);
	int split = p->arg > KERN_LINE - SPLITREAD_WIDTH;

	(void)v;
	*out = (struct kern_volumes){0};
	/* 13 outside the loops (4 zeroing, add, add, neg, mov, jmp, 3 folds, ret); per pass index
	   reset + dec + jnz; per block 8 loads + add + jnz */
	out->instructions = 13 + p->reps * (3 + (p->bytes / SPLITREAD_BLOCK) * 10);
	out->loads = loads + 1; /* + ret's read of the return address */
	out->bytes_loaded = SPLITREAD_WIDTH * loads + 8;
	/* a split load reads the tail of its line and the head of the next, which is the next load's
	   own line; only the last load of a pass adds a distinct line (in the slack past `bytes`) */
	out->lines_read = out->lines_demand_read = split ? loads + p->reps : loads;
	out->split_loads = split ? loads : 0;
}

static const struct kern_family splitread_family = {
	.name = "splitread",
	.summary = "one 8-byte load per 64-byte line at offset o; o > 56 splits every load over two lines",
	.variants = splitread_variants,
	.nvariants = 1,
	.granule = SPLITREAD_BLOCK,
	.arrays = 1,
	.arg_name = "offset",
	.arg_max = KERN_LINE - 1,
	/* line-split accounting: in L1, where nothing else hides it, from one stream */
	.policy = {.sweep = KS_L1,
		   .args = KERN_VALUES(splitread_offsets),
		   .quick_args = KERN_VALUES(splitread_offsets_quick),
		   .single_thread = 1,
		   .plots = KP_TIME_OFFSET},
	.volumes = splitread_volumes,
};
KERN_REGISTER(splitread_family);
