/* test_kern_chase.c — the chain chase.prepare() builds: one cycle through every line exactly once,
 * scattered over pages, made of absolute pointers, deterministic in the seed; and calls over parts of it
 * that go on where the last one stopped, as the harness calibrates them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kern.h"

#define CHAIN_BYTES (64u * KERN_PAGE) /* 4096 lines over 64 pages */

static uint8_t *build(uint64_t bytes, uint64_t seed)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_find("chase.plain", &f);
	struct kern_params p = {.bytes = bytes, .reps = 1};
	void *buf = NULL;

	assert_non_null(v);
	assert_int_equal(posix_memalign(&buf, KERN_PAGE, bytes + KERN_PAGE), 0);
	memset(buf, 0, bytes + KERN_PAGE);
	f->prepare(v, &p, buf, seed);
	return buf;
}

static uint8_t *next(const uint8_t *line)
{
	uint64_t w;

	memcpy(&w, line, 8);
	return (uint8_t *)(uintptr_t)w;
}

static void test_chain_is_one_cycle_through_every_line(void **state)
{
	uint64_t n = CHAIN_BYTES / KERN_LINE;
	uint8_t *buf = build(CHAIN_BYTES, 42), *p = buf;
	uint8_t *seen = calloc(n, 1);

	(void)state;
	assert_non_null(seen);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = (uint64_t)(p - buf);

		assert_true(p >= buf && p < buf + CHAIN_BYTES); /* absolute pointers into the buffer */
		assert_int_equal(off % KERN_LINE, 0);
		if (seen[off / KERN_LINE])
			fail_msg("line %llu visited twice after %llu steps",
				 (unsigned long long)(off / KERN_LINE), (unsigned long long)i);
		seen[off / KERN_LINE] = 1;
		p = next(p);
	}
	assert_ptr_equal(p, buf); /* n steps: back at the start, every line seen once */
	free(seen);
	free(buf);
}

/* Random pages: nearly every step leaves the page (a sequential or page-local chain would not), and
   the lines within a page are not visited in address order. */
static void test_chain_crosses_pages_at_random_lines(void **state)
{
	uint64_t n = CHAIN_BYTES / KERN_LINE, page_changes = 0, ascending = 0;
	uint8_t *buf = build(CHAIN_BYTES, 1), *p = buf;

	(void)state;
	for (uint64_t i = 0; i < n; i++) {
		uint8_t *q = next(p);

		page_changes += (uint64_t)(p - buf) / KERN_PAGE != (uint64_t)(q - buf) / KERN_PAGE;
		ascending += q == p + KERN_LINE;
		p = q;
	}
	/* 64 pages: a random successor stays in the same page with probability 1/64 */
	assert_true(page_changes > n * 9 / 10);
	assert_true(ascending < n / 100);
	free(buf);
}

static void test_chain_is_deterministic_in_seed(void **state)
{
	uint8_t *a = build(CHAIN_BYTES, 5), *b = build(CHAIN_BYTES, 5), *c = build(CHAIN_BYTES, 6);
	uint64_t same = 0, n = CHAIN_BYTES / KERN_LINE;

	(void)state;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = i * KERN_LINE;

		assert_int_equal(next(a + off) - a, next(b + off) - b);
		same += next(a + off) - a == next(c + off) - c;
	}
	assert_true(same < n / 10); /* another seed, another chain */
	free(a);
	free(b);
	free(c);
}

/* The smallest chain, one granule, is still one cycle through all its lines. */
static void test_smallest_chain_is_a_full_cycle(void **state)
{
	const struct kern_family *f = kern_family_find("chase");
	uint64_t n = f->granule / KERN_LINE;
	uint8_t *buf = build(f->granule, 9), *p = buf;

	(void)state;
	for (uint64_t i = 1; i < n; i++) {
		p = next(p);
		assert_ptr_not_equal(p, buf);
	}
	assert_ptr_equal(next(p), buf);
	free(buf);
}

/* A call over a part of the chain goes on where the last one stopped (KF_RESUMABLE): four calls over a
   quarter of it each, every one from the line the one before returned, each stop where the chain's own
   order puts it, and the fourth back at the start. True of every variant, with and without multiplies. */
static void test_calls_over_parts_go_on_along_the_chain(void **state)
{
	const struct kern_family *f = kern_family_find("chase");
	uint64_t quarter = CHAIN_BYTES / 4;
	uint8_t *buf = build(CHAIN_BYTES, 3);

	(void)state;
	assert_true(f->flags & KF_RESUMABLE);
	assert_int_equal(quarter % f->granule, 0);
	for (unsigned j = 0; j < f->nvariants; j++) {
		uint8_t *at = buf;

		for (int call = 0; call < 4; call++) {
			uint8_t *want = at;

			for (uint64_t i = 0; i < quarter / KERN_LINE; i++)
				want = next(want);
			at = (uint8_t *)(uintptr_t)f->variants[j].fn(at, quarter, 1, 2);
			assert_ptr_equal(at, want);
			if (call < 3)
				assert_ptr_not_equal(at, buf);
		}
		assert_ptr_equal(at, buf);
	}
	free(buf);
}

/* Calibration's steps (kern_call_longer): the chase's part of its buffer grows from one granule to all of
   it, capped there when the buffer is no power of two granules, and only then the passes double; a
   family that cannot go on from where it stopped always calls over its whole buffer. */
static void test_a_resumable_call_grows_its_part_before_its_passes(void **state)
{
	const struct kern_family *chase = kern_family_find("chase"), *load = kern_family_find("load");
	uint64_t g = chase->granule, bytes = 5 * g, span = kern_first_span(chase, bytes), reps = 1;
	const uint64_t want[][2] = {{2 * g, 1}, {4 * g, 1}, {5 * g, 1}, {5 * g, 2}, {5 * g, 4}};

	(void)state;
	assert_true(span == g);
	for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
		kern_call_longer(chase, bytes, &span, &reps);
		assert_true(span == want[i][0] && reps == want[i][1]);
	}
	assert_true(kern_first_span(chase, g) == g); /* one granule: already the whole buffer */
	assert_false(load->flags & KF_RESUMABLE);
	bytes = 8 * load->granule;
	span = kern_first_span(load, bytes);
	reps = 1;
	assert_true(span == bytes);
	kern_call_longer(load, bytes, &span, &reps);
	assert_true(span == bytes && reps == 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_is_one_cycle_through_every_line),
		cmocka_unit_test(test_chain_crosses_pages_at_random_lines),
		cmocka_unit_test(test_chain_is_deterministic_in_seed),
		cmocka_unit_test(test_smallest_chain_is_a_full_cycle),
		cmocka_unit_test(test_calls_over_parts_go_on_along_the_chain),
		cmocka_unit_test(test_a_resumable_call_grows_its_part_before_its_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
