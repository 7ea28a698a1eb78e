/* touch_desc.c — descriptor of the touch family (touch.S): one store per fresh 4 KiB page. */
#include "kern.h"

#define TOUCH_BLOCK (8u * KERN_PAGE) /* 8 pages per unrolled block, the family's granule */

uint64_t kern_touch(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);

static const struct kern_variant touch_variants[] = {
	{"touch.gpr", 8, KISA_BASE, 0, kern_touch, KA_FAULT, NULL},
};

/* Three sizes, the fewest points a fit of faults against pages needs (analysis/thresholds.h). */
static const uint64_t touch_sizes[] = {2u << 20, 8u << 20, 32u << 20};

static void touch_volumes(const struct kern_variant *v, const struct kern_params *p, struct kern_volumes *out)
{
	uint64_t pages = p->bytes / KERN_PAGE;

	(void)v;
	*out = (struct kern_volumes){0};
	/* 6 outside the loops; per pass 3 (index reset, dec, jnz); per block 8 stores + add + jnz */
	out->instructions = 6 + p->reps * (3 + 10 * (p->bytes / TOUCH_BLOCK));
	out->loads = 1; /* ret's read of the return address */
	out->bytes_loaded = 8;
	out->stores = p->reps * pages;
	out->bytes_stored = 8 * p->reps * pages;
	out->lines_read = p->reps * pages; /* write-allocate; lines_demand_read stays 0 */
	out->lines_written = p->reps * pages;
	out->pages = pages; /* only the first pass faults, whatever reps is */
}

static const struct kern_family touch_family = {
	.name = "touch",
	.summary = "one 8-byte store per fresh 4 KiB page (first touch: page faults)",
	.variants = touch_variants,
	.nvariants = 1,
	.granule = TOUCH_BLOCK,
	.arrays = 1,
	.flags = KF_DIFF_BY_SIZE | KF_FRESH_BUFFER,
	.policy = {.sweep = KS_FIXED,
		   .sizes = KERN_VALUES(touch_sizes),
		   .single_thread = 1,
		   .plots = KP_EV_SIZE},
	.volumes = touch_volumes,
};
KERN_REGISTER(touch_family);
