/* kern.h — the contract between assembly kernels, the harness, the tests and the analysis.
 *
 * A kernel family is one .S file (the loops) plus one .c descriptor (this struct, registered with
 * KERN_REGISTER). The descriptor is the single source of truth for what one call does: its volumes()
 * function computes the exact instruction-level and line-level traffic from the parameters alone.
 * Nothing here is ever measured or fitted; tests/kernels/ checks volumes() against valgrind's counts.
 * It is also the only place that knows the family's policy: the sizes and arguments it is measured
 * with, whether it runs on one thread only, what each variant's access type is and which figures
 * its points feed. Nothing outside kernels/ knows a family by its name.
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

#define KERN_LINE 64u /* cache line size all descriptors assume (x86-64) */
/* More bytes than any x86-64 core moves between its registers and L1D per cycle, with margin: the widest
   to date load at most two 64-byte vectors and store at most 64 bytes per cycle (AMD's Zen 5 software
   optimization guide, 58455: 2 x 512-bit loads, 1 x 512-bit store; Golden Cove: 2 x 512-bit loads, and
   64 bytes of stores as measured, spr.ini says where), 192 bytes at most. A point measured faster than
   this per core cycle was disturbed (a stretched R call, a clock sample that ran slow), never real. */
#define KERN_MAX_BYTES_PER_CYCLE 256.0
/* More load or store instructions per core cycle than any x86-64 core executes, twice over: to date at most
   4 loads, or 2 loads and 2 stores (Zen 5, Agner Fog's microarchitecture manual), or 3 loads and 2 stores
   (Golden Cove, Intel's optimization reference manual). The byte limit alone is no limit for
   narrow accesses: a load.sse L1 point at 133 bytes per 3 GHz cycle, 8.3 loads a cycle, stood as the L1
   read peak, marked ok. */
#define KERN_MAX_LOADS_PER_CYCLE 8.0
#define KERN_MAX_STORES_PER_CYCLE 4.0
/* One core's L1 data cache ports per core cycle, as its architecture's config gives them (configs/README.md),
   0 where it does not. Every byte a kernel's instructions load or store passes them, at every level, so no
   core moves more; the bounds above hold for any core and are far above most: a Zen 1 guest's L2 write read
   18.4 bytes per cycle at its clock (one 16-byte store a cycle) and stood, marked noisy, as its peak. */
struct kern_ports {
	double load_bytes, store_bytes, loads, stores;
};
/* The fields of struct kern_ports: X(field, its key in a config's [arch] and machine.json config.ports,
   the most any core does, its words for one and for several). */
/* clang-format off */
#define KERN_PORTS_FIELDS(X) \
	X(load_bytes, "load_bytes_per_cycle", KERN_MAX_BYTES_PER_CYCLE, "byte loaded", "bytes loaded") \
	X(store_bytes, "store_bytes_per_cycle", KERN_MAX_BYTES_PER_CYCLE, "byte stored", "bytes stored") \
	X(loads, "loads_per_cycle", KERN_MAX_LOADS_PER_CYCLE, "load", "loads") \
	X(stores, "stores_per_cycle", KERN_MAX_STORES_PER_CYCLE, "store", "stores")
/* clang-format on */
/* How far past a port limit a time that is never faster than the hardware (a call's bound) may read at its
   clock and still be within it: the clock is a sample, which reads low rather than high, as uncertain as
   the clock bound allows a sample above the CPU's maximum (core_clock.h CLOCK_AGREE, 2 %). */
#define KERN_PORTS_MARGIN 0.02
#define KERN_PAGE 4096u /* base page: what `touch` faults in and `chase` randomises over */

/* ISA extensions a variant needs; the harness checks them against CPUID before running it. */
enum kern_isa {
	KISA_BASE = 0,
	KISA_SSE2 = 1u << 0,
	KISA_AVX = 1u << 1,
	KISA_AVX2 = 1u << 2,
	KISA_AVX512F = 1u << 3,
};

/* Variant properties the harness and the analysis need to know about (raw.csv column `traits`). */
enum kern_flag {
	KV_NT = 1u << 0,        /* non-temporal stores: no write-allocate read */
	KV_MUL_INDEP = 1u << 1, /* chase: K independent imul on r8-r15 per access */
	KV_MUL_DEP = 1u << 2,   /* chase: K dependent imul on the pointer per access */
	KV_COUNT = 3            /* number of flags */
};

/* Family properties. */
enum kern_family_flag {
	KF_DIFF_BY_SIZE = 1u << 0, /* cancel overhead with sizes N and 2N, not reps R and 2R (touch:
	                              only the first pass over fresh memory faults) */
	KF_FRESH_BUFFER = 1u << 1, /* every call needs never-touched memory (touch) */
	KF_RESUMABLE = 1u << 2,    /* a call may start where the last one ended (the kernel returns that
	                              address) and cover a part of the buffer: `bytes` is then a part of
	                              the buffer prepare() was given, in whole granules (chase: the chain
	                              is one cycle through every line, so the next line is always the
	                              buffer's, whatever part the last call covered) */
};

/* What a variant measures: the row of the peak table and of the run's summary its points count
   for (raw.csv column `access`). KA_NONE: no such row; the variant exists for its own figures
   (nopread's delay, splitread's offset, the chase's multiplies). */
enum kern_access {
	KA_NONE,
	KA_READ,     /* loads only */
	KA_WRITE,    /* stores, with the write-allocate read */
	KA_NT_WRITE, /* non-temporal stores */
	KA_COPY,     /* a = b */
	KA_NT_COPY,
	KA_TRIAD, /* a = b + s*c */
	KA_NT_TRIAD,
	KA_LATENCY, /* dependent loads: time per access, not bandwidth */
	KA_FAULT,   /* first touch of fresh pages: the data comes from the OS, not from a cache */
	KA_COUNT
};

/* The figures a variant's points feed (raw.csv column `plots`, names in kern_plot_names). */
enum kern_plot {
	KP_BW_SIZE = 1u << 0,     /* bandwidth vs buffer size, one figure per family */
	KP_EV_SIZE = 1u << 1,     /* events per known quantity vs buffer size */
	KP_BW_DELAY = 1u << 2,    /* bandwidth and loaded latency vs the delay argument */
	KP_TIME_OFFSET = 1u << 3, /* time and events per load vs the offset argument */
	KP_LATENCY = 1u << 4,     /* time per dependent access vs size; stall events (by the variants'
	                             multiply flags) */
	KP_LEVEL_PROBE = 1u << 5, /* the chain the run's level probe sweeps to find where levels end */
	KP_SPEED_PROBE = 1u << 6, /* the L1 read the run times before each point: the machine's own speed */
	KP_PATH_PROBE = 1u << 7,  /* the non-temporal store the run times before points that reach memory */
	KP_COUNT = 8              /* number of kinds */
};

/* Which working-set sizes a variant is measured at when the user names none (harness/plan/). */
enum kern_sweep {
	KS_EVERY_LEVEL, /* the whole sweep: several sizes inside every level, and DRAM */
	KS_PER_LEVEL,   /* the middle size of each level */
	KS_DRAM,        /* the largest size only */
	KS_L1,          /* the smallest size only */
	KS_FIXED,       /* the policy's own sizes */
};

struct kern_values {
	const uint64_t *v;
	unsigned n;
};
#define KERN_VALUES(array) \
	{ \
		(array), sizeof(array) / sizeof((array)[0]) \
	}

/* How the harness measures a variant and what its points are for; the family's, unless a variant
   brings its own. */
struct kern_policy {
	enum kern_sweep sweep;
	struct kern_values sizes;      /* KS_FIXED: working sets per thread */
	struct kern_values args;       /* default argument values; none: the variant takes no argument */
	struct kern_values quick_args; /* the same for --quick */
	int single_thread;             /* one thread only, unless the user names the kernel */
	unsigned plots;                /* enum kern_plot bits */
};

/* What one call does, exactly. Counts, not rates. "lines" are 64-byte cache lines. What the kernel's own
   instructions do, in user mode: a first-touch page fault (touch) also has the operating system zero the
   page, 64 lines written by its clear_page, which an event counted in kernel mode too sees and these do not;
   the analysis judges such points at a level of their own ("any"). */
struct kern_volumes {
	uint64_t instructions;      /* retired instructions of the whole call, prologue to ret */
	uint64_t loads;             /* load instructions (memory-source operands) */
	uint64_t stores;            /* store instructions */
	uint64_t bytes_loaded;      /* bytes the load instructions read */
	uint64_t bytes_stored;      /* bytes the store instructions write */
	uint64_t lines_read;        /* distinct lines read per pass x passes, incl. write-allocate reads */
	uint64_t lines_demand_read; /* the part of lines_read that load instructions read: without the
	                               write-allocate (RFO) reads of stores, which demand-load events
	                               (MEM_LOAD_RETIRED.*, L2 demand data reads) never see */
	uint64_t
		lines_written; /* lines made dirty per pass x passes (what must eventually be written back) */
	uint64_t split_loads;  /* loads that cross a 64-byte line boundary */
	uint64_t chase_accesses; /* dependent (pointer-chasing) loads */
	uint64_t multiplies;     /* imul instructions */
	uint64_t nops;           /* nop instructions executed */
	uint64_t pages;          /* pages first-touched */
};

/* The volume fields by name, in struct order: raw.csv columns v_<name>, the analysis' quantities.
 * X(name, presence): presence is the column's in raw.csv (common/raw_columns.h): REQUIRED, or
 * OPTIONAL for a volume added after raw.csv files were written without it (lines_demand_read), which
 * such files simply lack; the analysis then has no such quantity. */
/* A list, laid out as one: */
/* clang-format off */
#define KERN_VOLUME_FIELDS(X) \
	X(instructions, REQUIRED) X(loads, REQUIRED) X(stores, REQUIRED) X(bytes_loaded, REQUIRED) \
	X(bytes_stored, REQUIRED) X(lines_read, REQUIRED) X(lines_demand_read, OPTIONAL) \
	X(lines_written, REQUIRED) X(split_loads, REQUIRED) X(chase_accesses, REQUIRED) \
	X(multiplies, REQUIRED) X(nops, REQUIRED) X(pages, REQUIRED)
/* clang-format on */

/* One call: `reps` passes of `bytes` each (for a KF_RESUMABLE family a part of the buffer, kern_call_longer). */
struct kern_params {
	uint64_t bytes;
	uint64_t reps;
	uint64_t arg;
};

typedef uint64_t (*kern_fn)(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg);

struct kern_variant {
	const char *name; /* "<family>.<variant>", e.g. "load.avx512", "store.avx.nt", "chase.dep" */
	unsigned width;   /* bytes per memory access instruction */
	unsigned isa;     /* enum kern_isa bits required */
	unsigned flags;   /* enum kern_flag bits */
	kern_fn fn;
	enum kern_access access;
	const struct kern_policy *policy; /* NULL: the family's */
};

struct kern_family {
	const char *name;    /* "load" */
	const char *summary; /* one line for `pmucheck list kernels` */
	const struct kern_variant *variants;
	unsigned nvariants;
	unsigned granule;     /* `bytes` must be a multiple of this */
	unsigned arrays;      /* arrays of `bytes` each the kernel walks (triad: 3) */
	unsigned flags;       /* enum kern_family_flag bits */
	const char *arg_name; /* "delay", "offset", "k"; NULL when the family takes no argument */
	uint64_t arg_max;     /* largest valid arg */
	struct kern_policy policy;
	/* Fill the buffer before the first call (chase: build the chain). NULL: the harness only
	   first-touches it. Deterministic for a given seed; it cannot fail (the buffer is already there). */
	void (*prepare)(const struct kern_variant *v, const struct kern_params *p, void *buf, uint64_t seed);
	/* The exact volumes of one call with these parameters. */
	void (*volumes)(const struct kern_variant *v, const struct kern_params *p, struct kern_volumes *out);
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
/* The policy a variant is measured by: its own, or its family's. */
const struct kern_policy *kern_policy(const struct kern_family *f, const struct kern_variant *v);
/* The first variant whose policy feeds all of the plots bits, or NULL. Sets *fam. */
const struct kern_variant *kern_variant_for_plot(unsigned plots, const struct kern_family **fam);

/* Calibrating a call (kern_call.c): the harness doubles it until it lasts --min-time. A KF_RESUMABLE family
   starts at one granule of its buffer of `bytes` (kern_first_span) and doubles that part up to the whole
   buffer, then the passes; any other family calls over its whole buffer and doubles the passes. A
   pointer chase over 128 MiB in DRAM takes 0.4 s a pass on the Zen 5 guest: in whole passes its point's
   warm-up and one repetition (R and 2R) took 2 s, and a --quick run had room for one repetition. */
uint64_t kern_first_span(const struct kern_family *f, uint64_t bytes);
void kern_call_longer(const struct kern_family *f, uint64_t bytes, uint64_t *span, uint64_t *reps);

/* The work of a point (or of a read), as kern_impossibly_fast and kern_past_ports judge it: bytes its
   load and store instructions moved, and how many there were (0 where unknown). */
struct kern_work {
	double bytes_loaded, bytes_stored, loads, stores;
};

/* Whether work done in `seconds` on `threads` cores at `ghz` was more per core cycle than
   KERN_MAX_BYTES_PER_CYCLE, KERN_MAX_LOADS_PER_CYCLE or KERN_MAX_STORES_PER_CYCLE allow (kern_limits.c): a
   disturbed figure, never a real one. 0 when the clock or the time is unknown (<= 0). */
int kern_impossibly_fast(const struct kern_work *w, double seconds, double ghz, double threads);
/* Whether the same was past the core's ports (NULL or a 0 field: not given) by more than KERN_PORTS_MARGIN,
   loads and stores each against their own. Each thread is judged on the cycles of a core of its own: two on
   one core's SMT siblings, sharing its ports, may pass where together they were past them. 0 when the clock
   or the time is unknown. */
int kern_past_ports(const struct kern_work *w, double seconds, double ghz, double threads,
		    const struct kern_ports *ports);
/* The ports given, in words, into buf: "32 bytes loaded, 16 bytes stored, 2 loads, 1 store"; "" where none
   is (p NULL or every field 0). For `info` and report.md alike. */
void kern_ports_format(char *buf, size_t len, const struct kern_ports *p);

/* Names in raw.csv (kern_names.c): of the access types, of the plot kinds and of the variant flags
   (enum kern_flag) by bit. */
extern const char *const kern_access_names[KA_COUNT];
extern const char *const kern_plot_names[KP_COUNT];
extern const char *const kern_flag_names[KV_COUNT];
/* Writes the names of the bits set as "a;b" (empty for none) into buf. */
void kern_bits_format(char *buf, size_t len, unsigned bits, const char *const *names, unsigned n);
/* Parses "a;b" (or "") into bits; returns 0, or -1 for a name not in names. */
int kern_bits_parse(const char *s, const char *const *names, unsigned n, unsigned *bits);
/* The index of s in names, or -1. */
int kern_name_index(const char *s, const char *const *names, unsigned n);

/* How kernel names a[0..alen) and b[0..blen) (items of a list, not NUL-terminated there) overlap: not at
   all, the same name, or the shorter is the family the other is a variant of ("load", "load.gpr"). A list
   naming both of such a pair measures the variant's points twice (--kernels, a preset's [run] kernels). */
enum kern_overlap { KERN_DISTINCT, KERN_SAME, KERN_FAMILY_OF };
enum kern_overlap kern_names_overlap(const char *a, size_t alen, const char *b, size_t blen);

#endif
