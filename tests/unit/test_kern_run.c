/* test_kern_run.c — every kernel variant run for real (where the CPU has its ISA): each one must
 * leave the result a correct implementation leaves, and nothing past its arrays.
 *
 * The tests are built per variant at run time from the registry: every variant of every registered
 * family gets the checks any kernel must pass, and the families named below also their own check of
 * the values they compute, so a new variant or family is tested without an edit here; one that
 * needs an ISA this CPU lacks is skipped (with the reason printed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "kern.h"
#include "skip_why.h"

#define SLACK KERN_PAGE /* what the harness allocates after the last array */
#define MAX_TESTS 160

struct kern_case {
	const struct kern_family *f;
	const struct kern_variant *v;
};

/* The first feature of isa the CPU (and OS) lacks, or NULL. */
static const char *isa_missing(unsigned isa)
{
	__builtin_cpu_init();
	if ((isa & KISA_SSE2) && !__builtin_cpu_supports("sse2"))
		return "sse2";
	if ((isa & KISA_AVX) && !__builtin_cpu_supports("avx"))
		return "avx";
	if ((isa & KISA_AVX2) && !__builtin_cpu_supports("avx2"))
		return "avx2";
	if ((isa & KISA_AVX512F) && !__builtin_cpu_supports("avx512f"))
		return "avx512f";
	return NULL;
}

static void skip_unless_supported(const struct kern_variant *v)
{
	const char *missing = isa_missing(v->isa);

	if (missing) {
		skip_why("%s: this CPU lacks %s", v->name, missing);
	}
}

/* Deterministic non-zero pattern: every 8-byte word differs. */
static void fill(uint8_t *buf, size_t n, uint64_t seed)
{
	uint64_t x = seed;

	for (size_t i = 0; i + 8 <= n; i += 8) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		memcpy(buf + i, &x, 8);
	}
}

static uint64_t word(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

static uint8_t *alloc(const struct kern_family *f, uint64_t bytes)
{
	void *buf = NULL;

	assert_int_equal(posix_memalign(&buf, KERN_PAGE, f->arrays * bytes + SLACK), 0);
	return buf;
}

/* load: the xor of the 8-byte words of the array's last block of loads, one load per destination
   register (4 GPRs for load.gpr, 8 xmm/ymm/zmm for the others), whatever the repetition count. */
static void test_load_returns_xor_of_last_loads(void **state)
{
	const struct kern_case *c = *state;
	uint64_t bytes = 4 * c->f->granule, want = 0;
	uint64_t tail = c->v->isa == KISA_BASE ? 4 * 8 : 8 * c->v->width;
	uint8_t *buf;

	skip_unless_supported(c->v);
	buf = alloc(c->f, bytes);
	fill(buf, bytes + SLACK, 1);
	for (uint64_t i = bytes - tail; i < bytes; i += 8)
		want ^= word(buf + i);
	assert_int_not_equal(want, 0);
	assert_int_equal(c->v->fn(buf, bytes, 3, 0), want);
	assert_int_equal(c->v->fn(buf, bytes, 2, 0), want);
	/* the first word of the tail changed: a walk that stopped short or ran on would not see it */
	buf[bytes - tail] ^= 0x10;
	assert_int_equal(c->v->fn(buf, bytes, 1, 0), want ^ 0x10);
	/* a word before the tail changed: plain loads leave no trace of it */
	buf[bytes - tail - 8] ^= 0x20;
	assert_int_equal(c->v->fn(buf, bytes, 1, 0), want ^ 0x10);
	free(buf);
}

/* store: every byte of the array becomes 0xff, the slack after it stays untouched. */
static void test_store_writes_every_byte_and_nothing_else(void **state)
{
	const struct kern_case *c = *state;
	uint64_t bytes = 3 * c->f->granule;
	uint8_t *buf;

	skip_unless_supported(c->v);
	buf = alloc(c->f, bytes);
	memset(buf, 0, bytes + SLACK);
	c->v->fn(buf, bytes, 2, 0);
	for (uint64_t i = 0; i < bytes; i++)
		if (buf[i] != 0xff)
			fail_msg("byte %llu is 0x%02x", (unsigned long long)i, buf[i]);
	for (uint64_t i = bytes; i < bytes + SLACK; i++)
		if (buf[i] != 0)
			fail_msg("slack byte %llu written", (unsigned long long)(i - bytes));
	free(buf);
}

/* nopread: the xor of the first word of every line, whatever the delay. */
static void test_nopread_reads_first_word_of_every_line(void **state)
{
	const struct kern_case *c = *state;
	uint64_t bytes = 8 * c->f->granule, want = 0;
	uint8_t *buf;

	skip_unless_supported(c->v);
	buf = alloc(c->f, bytes);
	fill(buf, bytes + SLACK, 2);
	for (uint64_t i = 0; i < bytes; i += KERN_LINE)
		want ^= word(buf + i);
	assert_int_equal(c->v->fn(buf, bytes, 1, 0), want);
	assert_int_equal(c->v->fn(buf, bytes, 3, 17), want);
	assert_int_equal(c->v->fn(buf, bytes, 1, c->f->arg_max), want);
	free(buf);
}

/* splitread: the xor of the word at offset o of every line, for aligned, unaligned and split o. */
static void test_splitread_reads_word_at_offset(void **state)
{
	const struct kern_case *c = *state;
	uint64_t bytes = 2 * c->f->granule;
	static const uint64_t offsets[] = {0, 7, 56, 57, 63};
	uint8_t *buf;

	skip_unless_supported(c->v);
	buf = alloc(c->f, bytes);
	fill(buf, bytes + SLACK, 3);
	for (unsigned k = 0; k < sizeof(offsets) / sizeof(offsets[0]); k++) {
		uint64_t o = offsets[k], want = 0;

		for (uint64_t i = 0; i < bytes; i += KERN_LINE)
			want ^= word(buf + i + o);
		assert_int_equal(c->v->fn(buf, bytes, 1, o), want);
	}
	free(buf);
}

/* The harness's buffer for c: its arrays and the slack after them set to 0x5a, then prepare()d. */
static uint8_t *prepared(const struct kern_case *c, const struct kern_params *p)
{
	uint8_t *buf = alloc(c->f, p->bytes);

	memset(buf, 0x5a, c->f->arrays * p->bytes + SLACK);
	c->f->prepare(c->v, p, buf, 1);
	return buf;
}

/* Nothing written past the arrays of a prepared() buffer. */
static void assert_slack_untouched(const struct kern_case *c, const uint8_t *buf, uint64_t bytes)
{
	for (uint64_t i = c->f->arrays * bytes; i < c->f->arrays * bytes + SLACK; i++)
		assert_int_equal(buf[i], 0x5a);
}

/* triad: a = b + 3.0 c exactly, b and c unchanged, nothing written past a. */
static void test_triad_computes_a_equals_b_plus_3c(void **state)
{
	const struct kern_case *c = *state;
	struct kern_params p = {.bytes = 3 * c->f->granule, .reps = 2};
	uint64_t n = p.bytes / sizeof(double);
	uint8_t *buf;
	double *a, *b, *cc;

	skip_unless_supported(c->v);
	buf = prepared(c, &p);
	a = (double *)buf;
	b = a + n;
	cc = b + n;
	for (uint64_t i = 0; i < n; i++) {
		b[i] = (double)(i % 1000) + 0.5; /* not what prepare() wrote: the kernel must read it */
		cc[i] = (double)(i % 13);
	}
	c->v->fn(buf, p.bytes, p.reps, 0);
	for (uint64_t i = 0; i < n; i++) {
		if (a[i] != b[i] + 3.0 * cc[i])
			fail_msg("a[%llu] = %g, want %g", (unsigned long long)i, a[i], b[i] + 3.0 * cc[i]);
		if (b[i] != (double)(i % 1000) + 0.5 || cc[i] != (double)(i % 13))
			fail_msg("b or c changed at %llu", (unsigned long long)i);
	}
	assert_slack_untouched(c, buf, p.bytes);
	free(buf);
}

/* copy: a = b exactly, b unchanged, nothing written past the arrays. */
static void test_copy_makes_a_equal_to_b(void **state)
{
	const struct kern_case *c = *state;
	struct kern_params p = {.bytes = 3 * c->f->granule, .reps = 2};
	uint64_t n = p.bytes / sizeof(double);
	uint8_t *buf;
	double *a, *b;

	skip_unless_supported(c->v);
	buf = prepared(c, &p);
	a = (double *)buf;
	b = a + n;
	for (uint64_t i = 0; i < n; i++)
		b[i] = (double)(i % 997) + 0.25; /* not what prepare() wrote: the kernel must read it */
	c->v->fn(buf, p.bytes, p.reps, 0);
	for (uint64_t i = 0; i < n; i++) {
		if (a[i] != (double)(i % 997) + 0.25)
			fail_msg("a[%llu] = %g, want %g", (unsigned long long)i, a[i],
				 (double)(i % 997) + 0.25);
		if (b[i] != (double)(i % 997) + 0.25)
			fail_msg("b changed at %llu", (unsigned long long)i);
	}
	assert_slack_untouched(c, buf, p.bytes);
	free(buf);
}

/* chase: full passes end where they started; a partial chain ends where the chain says. */
static void test_chase_returns_final_pointer(void **state)
{
	const struct kern_case *c = *state;
	struct kern_params p = {.bytes = 8 * KERN_PAGE, .reps = 1};
	uint64_t k = c->v->flags & (KV_MUL_INDEP | KV_MUL_DEP) ? 5 : 0;
	uint8_t *buf, *want;

	skip_unless_supported(c->v);
	buf = alloc(c->f, p.bytes);
	c->f->prepare(c->v, &p, buf, 7);
	assert_ptr_equal((void *)(uintptr_t)c->v->fn(buf, p.bytes, 2, k), buf);
	/* walk only the first quarter of the chain's length */
	want = buf;
	for (uint64_t i = 0; i < p.bytes / 4 / KERN_LINE; i++)
		want = (uint8_t *)(uintptr_t)word(want);
	assert_ptr_not_equal(want, buf);
	assert_ptr_equal((void *)(uintptr_t)c->v->fn(buf, p.bytes / 4, 1, k), want);
	free(buf);
}

/* touch: the first word of every page written (non-zero), every other byte untouched. */
static void test_touch_writes_first_word_of_every_page(void **state)
{
	const struct kern_case *c = *state;
	uint64_t bytes = 2 * c->f->granule;
	uint8_t *buf;

	skip_unless_supported(c->v);
	buf = alloc(c->f, bytes);
	memset(buf, 0, bytes + SLACK);
	c->v->fn(buf, bytes, 1, 0);
	for (uint64_t i = 0; i < bytes + SLACK; i += 8) {
		int first = i % KERN_PAGE == 0 && i < bytes;

		if ((word(buf + i) != 0) != first)
			fail_msg("word at %llu is %s", (unsigned long long)i, first ? "zero" : "written");
	}
	free(buf);
}

/* Any kernel, run as the harness runs it (prepared arrays, each of its default arguments, the largest
   one): nothing past its arrays is written, a kernel that stores nothing leaves them as they were,
   and the same call on the same data returns the same value. */
static void test_writes_only_its_arrays_and_repeats(void **state)
{
	const struct kern_case *c = *state;
	const struct kern_values *args = &kern_policy(c->f, c->v)->args;
	struct kern_params p = {.bytes = 4 * c->f->granule, .reps = 2};
	uint64_t total = c->f->arrays * p.bytes;
	uint8_t *buf, *before;

	skip_unless_supported(c->v);
	buf = alloc(c->f, p.bytes);
	before = malloc(total + SLACK);
	assert_non_null(before);
	fill(buf, total + SLACK, 4);
	if (c->f->prepare)
		c->f->prepare(c->v, &p, buf, 1);
	memcpy(before, buf, total + SLACK);
	for (unsigned i = 0; i <= args->n; i++) {
		struct kern_volumes vol;
		uint64_t first;

		p.arg = i < args->n ? args->v[i] : c->f->arg_max;
		c->f->volumes(c->v, &p, &vol);
		first = c->v->fn(buf, p.bytes, p.reps, p.arg);
		assert_int_equal(c->v->fn(buf, p.bytes, p.reps, p.arg), first);
		if (memcmp(buf + total, before + total, SLACK) != 0)
			fail_msg("arg %llu: written past the arrays", (unsigned long long)p.arg);
		if (vol.bytes_stored == 0 && memcmp(buf, before, total) != 0)
			fail_msg("arg %llu: stores nothing by its volumes, yet changed its arrays",
				 (unsigned long long)p.arg);
	}
	free(before);
	free(buf);
}

static void test_clock_chain_sums_every_add(void **state)
{
	(void)state;
	assert_int_equal(kern_clock_chain(0), 0);
	assert_int_equal(kern_clock_chain(1), KERN_CLOCK_ADDS);
	assert_int_equal(kern_clock_chain(1000), kern_clock_chain_adds(1000));
}

static const struct {
	const char *family;
	const char *behaviour;
	CMUnitTestFunction fn;
} checks[] = {
	{"load", "load_returns_xor_of_last_loads", test_load_returns_xor_of_last_loads},
	{"store", "store_writes_every_byte_and_nothing_else", test_store_writes_every_byte_and_nothing_else},
	{"nopread", "nopread_reads_first_word_of_every_line", test_nopread_reads_first_word_of_every_line},
	{"splitread", "splitread_reads_word_at_offset", test_splitread_reads_word_at_offset},
	{"copy", "copy_makes_a_equal_to_b", test_copy_makes_a_equal_to_b},
	{"triad", "triad_computes_a_equals_b_plus_3c", test_triad_computes_a_equals_b_plus_3c},
	{"chase", "chase_returns_final_pointer", test_chase_returns_final_pointer},
	{"touch", "touch_writes_first_word_of_every_page", test_touch_writes_first_word_of_every_page},
};

static struct CMUnitTest tests[MAX_TESTS];
static struct kern_case cases[MAX_TESTS];
static char names[MAX_TESTS][96];
static size_t ntests;

/* One test per variant of f. Returns -1 when MAX_TESTS is too small. */
static int add_tests(const struct kern_family *f, const char *behaviour, CMUnitTestFunction fn)
{
	for (unsigned j = 0; j < f->nvariants; j++, ntests++) {
		if (ntests == MAX_TESTS - 1) {
			fprintf(stderr, "more than %d kernel tests: raise MAX_TESTS\n", MAX_TESTS);
			return -1;
		}
		cases[ntests] = (struct kern_case){f, &f->variants[j]};
		snprintf(names[ntests], sizeof(names[ntests]), "%s/%s", behaviour, f->variants[j].name);
		tests[ntests] = (struct CMUnitTest){names[ntests], fn, NULL, NULL, &cases[ntests]};
	}
	return 0;
}

int main(void)
{
	for (unsigned i = 0; i < kern_family_count(); i++)
		if (add_tests(kern_family_at(i), "writes_only_its_arrays_and_repeats",
			      test_writes_only_its_arrays_and_repeats))
			return 1;
	for (unsigned i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct kern_family *f = kern_family_find(checks[i].family);

		if (!f) {
			fprintf(stderr, "family %s is not registered\n", checks[i].family);
			return 1;
		}
		if (add_tests(f, checks[i].behaviour, checks[i].fn))
			return 1;
	}
	tests[ntests++] = (struct CMUnitTest){"clock_chain_sums_every_add", test_clock_chain_sums_every_add,
					      NULL, NULL, NULL};
	return _cmocka_run_group_tests("kern_run", tests, ntests, NULL, NULL);
}
