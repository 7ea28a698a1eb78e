/* test_kern_volumes.c — the registry and the descriptors' volumes: every family and variant is
 * found, volumes grow exactly linearly in passes and blocks, and each family counts what its
 * design says (write-allocate, split loads, NOPs, multiplies, pages). The exact instruction and
 * access counts are pinned against valgrind in tests/kernels/valgrind_exact.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kern.h"

#define NFIELDS 12

static const struct {
	const char *name;
	unsigned nvariants;
} expected[] = {
	{"load", 5}, {"store", 8}, {"nopread", 1}, {"splitread", 1}, {"triad", 6}, {"chase", 3}, {"touch", 1},
};

static void vols(const char *variant, uint64_t bytes, uint64_t reps, uint64_t arg, struct kern_volumes *out)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_find(variant, &f);
	struct kern_params p = {bytes, reps, arg};

	assert_non_null(v);
	f->volumes(v, &p, out);
}

static void as_array(const struct kern_volumes *v, uint64_t a[NFIELDS])
{
	unsigned i = 0;
#define COPY(name) a[i++] = v->name;
	KERN_VOLUME_FIELDS(COPY)
#undef COPY
}

static void test_registry_finds_every_family_and_variant(void **state)
{
	const struct kern_family *f, *found;

	(void)state;
	assert_int_equal(kern_family_count(), sizeof(expected) / sizeof(expected[0]));
	for (unsigned i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		f = kern_family_find(expected[i].name);
		assert_non_null(f);
		assert_int_equal(f->nvariants, expected[i].nvariants);
		for (unsigned j = 0; j < f->nvariants; j++) {
			const char *name = f->variants[j].name;

			assert_int_equal(strncmp(name, f->name, strlen(f->name)), 0);
			assert_int_equal(name[strlen(f->name)], '.');
			assert_ptr_equal(kern_variant_find(name, &found), &f->variants[j]);
			assert_ptr_equal(found, f);
		}
		assert_ptr_equal(kern_variant_find(f->name, &found), &f->variants[0]);
	}
	assert_null(kern_variant_find("load.avx1024", &found));
	assert_null(kern_variant_find("lode", &found));
	assert_null(found);
}

static void test_every_family_is_well_formed(void **state)
{
	(void)state;
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = kern_family_at(i);

		assert_non_null(f->volumes);
		assert_true(f->granule >= KERN_LINE && f->granule % KERN_LINE == 0);
		assert_true(f->arrays >= 1);
		assert_int_equal(f->arg_name != NULL, f->arg_max > 0);
		for (unsigned j = 0; j < f->nvariants; j++) {
			unsigned w = f->variants[j].width;

			assert_non_null(f->variants[j].fn);
			assert_true(w == 8 || w == 16 || w == 32 || w == 64);
		}
	}
}

/* v(3x) - v(2x) == v(2x) - v(x), field by field, for x in passes and in granules. */
static void test_volumes_are_linear_in_reps_and_blocks(void **state)
{
	(void)state;
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = kern_family_at(i);
		uint64_t arg = f->arg_max / 2;

		for (unsigned j = 0; j < f->nvariants; j++) {
			const char *name = f->variants[j].name;
			struct kern_volumes r[3], b[3];
			uint64_t ra[3][NFIELDS], ba[3][NFIELDS];

			for (unsigned k = 0; k < 3; k++) {
				vols(name, 2 * f->granule, k + 1, arg, &r[k]);
				vols(name, (k + 1) * f->granule, 2, arg, &b[k]);
				as_array(&r[k], ra[k]);
				as_array(&b[k], ba[k]);
			}
			for (unsigned q = 0; q < NFIELDS; q++) {
				if (ra[2][q] - ra[1][q] != ra[1][q] - ra[0][q])
					fail_msg("%s: field %u not linear in reps", name, q);
				if (ba[2][q] - ba[1][q] != ba[1][q] - ba[0][q])
					fail_msg("%s: field %u not linear in blocks", name, q);
			}
			assert_true(r[1].instructions > r[0].instructions);
			assert_true(b[1].instructions > b[0].instructions);
		}
	}
}

/* Every load / store instruction moves `width` bytes, and one pass moves what the family design
   says: every byte of the arrays (load, store, triad's 3 arrays), or 8 bytes per line. */
static void test_bytes_are_accesses_times_width(void **state)
{
	static const struct {
		const char *variant;
		unsigned num, den; /* bytes moved per pass = bytes * num / den */
	} cases[] = {
		{"load.gpr", 1, 1},  {"load.sd", 1, 1},   {"load.sse", 1, 1},  {"load.avx", 1, 1},      {"load.avx512", 1, 1},
		{"store.gpr", 1, 1}, {"store.sse.nt", 1, 1}, {"store.avx512.nt", 1, 1},
		{"triad.sse", 3, 1}, {"triad.avx512.nt", 3, 1}, {"chase.dep", 1, 8}, {"nopread.gpr", 1, 8},
		{"splitread.gpr", 1, 8},
	};
	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kern_family *f;
		const struct kern_variant *v = kern_variant_find(cases[i].variant, &f);
		uint64_t bytes = 4 * f->granule, moved;
		struct kern_volumes a, b;

		/* difference of 2 and 1 passes: the per-pass accesses only */
		vols(cases[i].variant, bytes, 2, 0, &b);
		vols(cases[i].variant, bytes, 1, 0, &a);
		assert_int_equal(b.bytes_loaded - a.bytes_loaded, (b.loads - a.loads) * v->width);
		assert_int_equal(b.bytes_stored - a.bytes_stored, (b.stores - a.stores) * v->width);
		moved = b.bytes_loaded - a.bytes_loaded + b.bytes_stored - a.bytes_stored;
		assert_int_equal(moved, bytes * cases[i].num / cases[i].den);
	}
}

static void test_store_counts_write_allocate_line(void **state)
{
	struct kern_volumes n, nt;

	(void)state;
	vols("store.avx", 4096, 3, 0, &n);
	vols("store.avx.nt", 4096, 3, 0, &nt);
	assert_int_equal(n.lines_written, 3 * 4096 / 64);
	assert_int_equal(n.lines_read, n.lines_written); /* the write-allocate read */
	assert_int_equal(nt.lines_written, 3 * 4096 / 64);
	assert_int_equal(nt.lines_read, 0);
	vols("triad.avx", 4096, 1, 0, &n);
	vols("triad.avx.nt", 4096, 1, 0, &nt);
	assert_int_equal(n.lines_read, 3 * 4096 / 64); /* b, c and a's write-allocate */
	assert_int_equal(nt.lines_read, 2 * 4096 / 64);
	assert_int_equal(n.lines_written, nt.lines_written);
}

static void test_split_loads_switch_at_offset_57(void **state)
{
	struct kern_volumes v;

	(void)state;
	for (uint64_t o = 0; o <= 63; o++) {
		vols("splitread", 2048, 3, o, &v);
		assert_int_equal(v.split_loads, o > 56 ? 3 * 2048 / 64 : 0);
		assert_int_equal(v.lines_read, 3 * 2048 / 64 + (o > 56 ? 3 : 0));
	}
}

static void test_nopread_counts_delay_nops_per_iteration(void **state)
{
	struct kern_volumes v0, v9;

	(void)state;
	vols("nopread", 4096, 2, 0, &v0);
	vols("nopread", 4096, 2, 9, &v9);
	assert_int_equal(v0.nops, 0);
	assert_int_equal(v9.nops, 9 * 2 * 4096 / 256); /* 16 iterations (4 lines each) per pass */
	assert_int_equal(v9.instructions - v0.instructions, v9.nops);
	assert_int_equal(v9.lines_read, 2 * 4096 / 64);
}

static void test_chase_counts_accesses_and_multiplies(void **state)
{
	struct kern_volumes plain, indep, dep;

	(void)state;
	vols("chase.plain", 8192, 3, 0, &plain);
	vols("chase.indep", 8192, 3, 11, &indep);
	vols("chase.dep", 8192, 3, 11, &dep);
	assert_int_equal(plain.chase_accesses, 3 * 8192 / 64);
	assert_int_equal(plain.multiplies, 0);
	assert_int_equal(indep.chase_accesses, plain.chase_accesses);
	assert_int_equal(indep.multiplies, 11 * plain.chase_accesses);
	assert_int_equal(dep.multiplies, 11 * plain.chase_accesses);
	assert_int_equal(dep.instructions, indep.instructions);
	assert_true(kern_family_find("chase")->flags & KF_LATENCY);
}

static void test_touch_pages_do_not_grow_with_reps(void **state)
{
	const struct kern_family *f = kern_family_find("touch");
	struct kern_volumes one, three;

	(void)state;
	vols("touch", 4 * f->granule, 1, 0, &one);
	vols("touch", 4 * f->granule, 3, 0, &three);
	assert_int_equal(one.pages, 4 * f->granule / KERN_PAGE);
	assert_int_equal(three.pages, one.pages);
	assert_int_equal(three.stores, 3 * one.stores);
	assert_int_equal(one.stores, one.pages);
	assert_true(f->flags & KF_DIFF_BY_SIZE);
	assert_true(f->flags & KF_FRESH_BUFFER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_finds_every_family_and_variant),
		cmocka_unit_test(test_every_family_is_well_formed),
		cmocka_unit_test(test_volumes_are_linear_in_reps_and_blocks),
		cmocka_unit_test(test_bytes_are_accesses_times_width),
		cmocka_unit_test(test_store_counts_write_allocate_line),
		cmocka_unit_test(test_split_loads_switch_at_offset_57),
		cmocka_unit_test(test_nopread_counts_delay_nops_per_iteration),
		cmocka_unit_test(test_chase_counts_accesses_and_multiplies),
		cmocka_unit_test(test_touch_pages_do_not_grow_with_reps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
