/* kern.h — the contract between assembly kernels, the harness, the tests and the analysis.
 *
 * A kernel family is one .S file (the loops) plus one .c descriptor (this struct, registered with
 * KERN_REGISTER). The descriptor is the single source of truth for what one call does: its volumes()
 * function computes the exact instruction-level and line-level traffic from the parameters alone.
 * Nothing here is ever measured or fitted; tests/kernels/ checks volumes() against valgrind's counts.
 *
 * Every kernel has the same C signature (System V ABI):
 *
 *     uint64_t fn(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);
 *
 *   buf    64-byte aligned start of the first array (arrays > 1: the next array starts at buf + bytes)
 *   bytes  bytes walked per array and pass; a multiple of the family's granule, never 0
 *   reps   passes over the buffer (chase: passes over the whole chain), >= 1
 *   arg    the family's run-time parameter (nopread: delay D in NOPs, splitread: offset o, chase: K
 *          multiplies); 0 where the family has none
 *   return a value that depends on the loads, so a test can check the kernel really walked the data:
 *          on every load, except in `load`, whose plain moves leave the xor of the array's last
 *          words (load.S says why); the chase returns the final pointer
 */
#ifndef PMUCHECK_KERN_H
#define PMUCHECK_KERN_H

#include <stddef.h>
#include <stdint.h>

#define KERN_LINE 64u   /* cache line size all descriptors assume (x86-64) */
#define KERN_PAGE 4096u /* base page: what `touch` faults in and `chase` randomises over */

/* ISA extensions a variant needs; the harness checks them against CPUID before running it. */
enum kern_isa {
	KISA_BASE = 0,
	KISA_SSE2 = 1u << 0,
	KISA_AVX = 1u << 1,
	KISA_AVX2 = 1u << 2,
	KISA_AVX512F = 1u << 3,
};

/* Variant properties the harness and the analysis need to know about. */
enum kern_flag {
	KV_NT = 1u << 0,         /* non-temporal stores: no write-allocate read */
	KV_MUL_INDEP = 1u << 1,  /* chase: K independent imul on r8-r15 per access */
	KV_MUL_DEP = 1u << 2,    /* chase: K dependent imul on the pointer per access */
};

/* Family properties. */
enum kern_family_flag {
	KF_DIFF_BY_SIZE = 1u << 0, /* cancel overhead with sizes N and 2N, not reps R and 2R (touch:
	                              only the first pass over fresh memory faults) */
	KF_FRESH_BUFFER = 1u << 1, /* every call needs never-touched memory (touch) */
	KF_LATENCY = 1u << 2,      /* result is a latency per access (chase), not a bandwidth */
};

/* What one call does, exactly. Counts, not rates. "lines" are 64-byte cache lines. */
struct kern_volumes {
	uint64_t instructions;   /* retired instructions of the whole call, prologue to ret */
	uint64_t loads;          /* load instructions (memory-source operands) */
	uint64_t stores;         /* store instructions */
	uint64_t bytes_loaded;   /* bytes the load instructions read */
	uint64_t bytes_stored;   /* bytes the store instructions write */
	uint64_t lines_read;     /* distinct lines read per pass x passes, incl. write-allocate reads */
	uint64_t lines_written;  /* lines made dirty per pass x passes (what must eventually be written back) */
	uint64_t split_loads;    /* loads that cross a 64-byte line boundary */
	uint64_t chase_accesses; /* dependent (pointer-chasing) loads */
	uint64_t multiplies;     /* imul instructions */
	uint64_t nops;           /* nop instructions executed */
	uint64_t pages;          /* pages first-touched */
};

/* The volume fields by name, in struct order: raw.csv columns v_<name>, the analysis' quantities. */
#define KERN_VOLUME_FIELDS(X) \
	X(instructions) X(loads) X(stores) X(bytes_loaded) X(bytes_stored) X(lines_read) \
	X(lines_written) X(split_loads) X(chase_accesses) X(multiplies) X(nops) X(pages)

struct kern_params {
	uint64_t bytes;
	uint64_t reps;
	uint64_t arg;
};

typedef uint64_t (*kern_fn)(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);

struct kern_variant {
	const char *name;  /* "<family>.<variant>", e.g. "load.avx512", "store.avx.nt", "chase.dep" */
	unsigned width;    /* bytes per memory access instruction */
	unsigned isa;      /* enum kern_isa bits required */
	unsigned flags;    /* enum kern_flag bits */
	kern_fn fn;
};

struct kern_family {
	const char *name;     /* "load" */
	const char *summary;  /* one line for `pmucheck list kernels` */
	const struct kern_variant *variants;
	unsigned nvariants;
	unsigned granule;     /* `bytes` must be a multiple of this */
	unsigned arrays;      /* arrays of `bytes` each the kernel walks (triad: 3) */
	unsigned flags;       /* enum kern_family_flag bits */
	const char *arg_name; /* "delay", "offset", "k"; NULL when the family takes no argument */
	uint64_t arg_max;     /* largest valid arg */
	/* Fill the buffer before the first call (chase: build the chain). NULL: the harness only
	   first-touches it. Deterministic for a given seed. Returns 0 or a negative error. */
	int (*prepare)(const struct kern_variant *v, const struct kern_params *p, void *buf,
	               uint64_t seed);
	/* The exact volumes of one call with these parameters. */
	void (*volumes)(const struct kern_variant *v, const struct kern_params *p,
	                struct kern_volumes *out);
};

/* Registration: each descriptor file says KERN_REGISTER(family_struct); the linker collects them. */
#define KERN_REGISTER(fam) \
	static const struct kern_family *const kern_reg_##fam \
		__attribute__((used, section("kern_families"), aligned(sizeof(void *)))) = &(fam)

/* Registry (kernels/registry.c). */
unsigned kern_family_count(void);
const struct kern_family *kern_family_at(unsigned i);
const struct kern_family *kern_family_find(const char *name);
/* Finds "family.variant" (or a bare family name: its first variant). Sets *fam. */
const struct kern_variant *kern_variant_find(const char *name, const struct kern_family **fam);

#endif
