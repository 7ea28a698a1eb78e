/* test_kern_volumes.c — the registry and the descriptors: every family and variant is found, every
 * policy is complete, volumes grow exactly linearly in passes and blocks, and each family counts
 * what its design says (write-allocate, split loads, NOPs, multiplies, pages). Every check that can
 * be stated for any family iterates the registry. The exact instruction and access counts are
 * pinned against valgrind in tests/kernels/valgrind_exact.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kern.h"

#define NFIELDS 13

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
#define COPY(name, presence) a[i++] = v->name;
	KERN_VOLUME_FIELDS(COPY)
#undef COPY
}

static void test_registry_finds_every_family_and_variant(void **state)
{
	const struct kern_family *f, *found;

	(void)state;
	assert_true(kern_family_count() > 0);
	for (unsigned i = 0; i < kern_family_count(); i++) {
		f = kern_family_at(i);
		assert_ptr_equal(kern_family_find(f->name), f); /* names are unique */
		assert_true(f->nvariants > 0);
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
			assert_true(f->variants[j].access < KA_COUNT);
			assert_true(f->variants[j].flags < 1u << KV_COUNT);
		}
	}
}

static void check_values(const struct kern_values *v, uint64_t max)
{
	assert_true(v->n == 0 || v->v != NULL);
	for (unsigned i = 0; i < v->n; i++)
		assert_true(v->v[i] <= max);
}

/* Every variant's policy says what the harness needs: arguments within range (and a --quick set
   whenever there is a full one), sizes exactly when the sweep is fixed, and at least one figure. */
static void test_every_policy_is_complete(void **state)
{
	(void)state;
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = kern_family_at(i);

		for (unsigned j = 0; j < f->nvariants; j++) {
			const struct kern_policy *p = kern_policy(f, &f->variants[j]);

			assert_true(p->sweep <= KS_FIXED);
			assert_int_equal(p->sizes.n > 0, p->sweep == KS_FIXED);
			check_values(&p->sizes, UINT64_MAX);
			assert_int_equal(p->args.n > 0, p->quick_args.n > 0);
			assert_true(p->args.n == 0 || f->arg_name != NULL);
			check_values(&p->args, f->arg_max);
			check_values(&p->quick_args, f->arg_max);
			assert_true(p->plots != 0 && p->plots < 1u << KP_COUNT);
		}
	}
}

/* The run's level probe finds its chain by plot kind: one that can be prepared, measures latency
   and takes no argument. */
static void test_level_probe_chain_is_a_latency_kernel(void **state)
{
	const struct kern_family *f;
	const struct kern_variant *v = kern_variant_for_plot(KP_LEVEL_PROBE, &f);

	(void)state;
	assert_non_null(v);
	assert_non_null(f->prepare);
	assert_int_equal(v->access, KA_LATENCY);
	assert_int_equal(kern_policy(f, v)->args.n, 0);
}

/* raw.csv's names: one per access type, plot kind and flag, all distinct, and "a;b" lists round-trip. */
static void test_names_are_distinct_and_round_trip(void **state)
{
	char buf[256];
	unsigned bits;

	(void)state;
	for (int a = 0; a < KA_COUNT; a++)
		assert_int_equal(kern_name_index(kern_access_names[a], kern_access_names, KA_COUNT), a);
	for (unsigned all = 0; all < 1u << KP_COUNT; all++) {
		kern_bits_format(buf, sizeof buf, all, kern_plot_names, KP_COUNT);
		assert_int_equal(kern_bits_parse(buf, kern_plot_names, KP_COUNT, &bits), 0);
		assert_int_equal(bits, all);
	}
	kern_bits_format(buf, sizeof buf, KV_NT | KV_MUL_DEP, kern_flag_names, KV_COUNT);
	assert_string_equal(buf, "nt;mul-dep");
	assert_int_equal(kern_bits_parse("", kern_flag_names, KV_COUNT, &bits), 0);
	assert_int_equal(bits, 0);
	assert_int_equal(kern_bits_parse("nt;bogus", kern_flag_names, KV_COUNT, &bits), -1);
	assert_int_equal(kern_bits_parse("nt;", kern_flag_names, KV_COUNT, &bits), -1);
	assert_int_equal(kern_bits_parse(";nt", kern_flag_names, KV_COUNT, &bits), -1);
	assert_int_equal(kern_name_index("bogus", kern_access_names, KA_COUNT), -1);
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

/* Bytes moved per pass (the difference of 2 and 1 passes) over `bytes` per array. */
static uint64_t moved_per_pass(const struct kern_family *f, const struct kern_variant *v, uint64_t bytes)
{
	struct kern_volumes a, b;
	struct kern_params p1 = {bytes, 1, 0}, p2 = {bytes, 2, 0};

	f->volumes(v, &p2, &b);
	f->volumes(v, &p1, &a);
	/* every load and store instruction moves `width` bytes */
	assert_int_equal(b.bytes_loaded - a.bytes_loaded, (b.loads - a.loads) * v->width);
	assert_int_equal(b.bytes_stored - a.bytes_stored, (b.stores - a.stores) * v->width);
	return b.bytes_loaded - a.bytes_loaded + b.bytes_stored - a.bytes_stored;
}

/* A variant measured as a bandwidth moves every byte of every array once per pass. */
static void test_bandwidth_kernels_move_every_byte_per_pass(void **state)
{
	(void)state;
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = kern_family_at(i);

		for (unsigned j = 0; j < f->nvariants; j++) {
			const struct kern_variant *v = &f->variants[j];
			uint64_t moved = moved_per_pass(f, v, 4 * f->granule);
			enum kern_access a = v->access;

			if (a != KA_NONE && a != KA_LATENCY && a != KA_FAULT &&
			    moved != 4 * f->granule * f->arrays)
				fail_msg("%s moves %llu bytes per pass over %u arrays of %u", v->name,
					 (unsigned long long)moved, f->arrays, 4 * f->granule);
		}
	}
}

/* The line-sampling kernels move 8 bytes per line. */
static void test_sampling_kernels_move_8_bytes_per_line(void **state)
{
	static const char *const sampling[] = {"chase.plain", "chase.dep", "nopread", "splitread"};

	(void)state;
	for (unsigned i = 0; i < sizeof(sampling) / sizeof(sampling[0]); i++) {
		const struct kern_family *f;
		const struct kern_variant *v = kern_variant_find(sampling[i], &f);

		assert_non_null(v);
		assert_int_equal(moved_per_pass(f, v, 4 * f->granule), 4 * f->granule / 8);
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
	vols("copy.avx", 4096, 1, 0, &n);
	vols("copy.avx.nt", 4096, 1, 0, &nt);
	assert_int_equal(n.lines_read, 2 * 4096 / 64); /* b and a's write-allocate */
	assert_int_equal(nt.lines_read, 4096 / 64);
	assert_int_equal(n.lines_written, nt.lines_written);
}

/* Demand-load lines are the lines the loads read: stores read none of their own (the write-allocate
   read is the store's), with or without non-temporal stores; the read arrays count whole. */
static void test_demand_reads_leave_out_write_allocate(void **state)
{
	static const struct {
		const char *variant;
		uint64_t lines; /* lines_demand_read of 4096 bytes, 3 passes */
	} want[] = {
		{"load.avx", 3 * 64},         {"store.avx", 0},        {"store.avx.nt", 0},
		{"copy.avx", 3 * 64},         {"copy.avx.nt", 3 * 64}, {"triad.avx", 2 * 3 * 64},
		{"triad.avx.nt", 2 * 3 * 64}, {"chase.plain", 3 * 64}, {"touch.gpr", 0},
	};
	struct kern_volumes v;

	(void)state;
	for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
		vols(want[i].variant, 4096, 3, 0, &v);
		assert_int_equal(v.lines_demand_read, want[i].lines);
	}
	vols("splitread.gpr", 4096, 3, 60, &v); /* split: the slack line past the pass is read too */
	assert_int_equal(v.lines_demand_read, 3 * 64 + 3);
	vols("nopread.gpr", 4096, 3, 8, &v);
	assert_int_equal(v.lines_demand_read, v.lines_read);
}

/* Over the whole registry: lines_read is the demand lines plus one write-allocate read per line a
   normal (not non-temporal) store writes. */
static void test_lines_read_is_demand_plus_write_allocate(void **state)
{
	(void)state;
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = kern_family_at(i);

		for (unsigned j = 0; j < f->nvariants; j++) {
			const struct kern_variant *var = &f->variants[j];
			struct kern_params p = {4 * f->granule, 3, f->arg_max / 2};
			struct kern_volumes v;
			uint64_t rfo;

			f->volumes(var, &p, &v);
			rfo = v.stores && !(var->flags & KV_NT) ? v.lines_written : 0;
			assert_int_equal(v.lines_read, v.lines_demand_read + rfo);
		}
	}
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
		cmocka_unit_test(test_every_policy_is_complete),
		cmocka_unit_test(test_level_probe_chain_is_a_latency_kernel),
		cmocka_unit_test(test_names_are_distinct_and_round_trip),
		cmocka_unit_test(test_volumes_are_linear_in_reps_and_blocks),
		cmocka_unit_test(test_bandwidth_kernels_move_every_byte_per_pass),
		cmocka_unit_test(test_sampling_kernels_move_8_bytes_per_line),
		cmocka_unit_test(test_store_counts_write_allocate_line),
		cmocka_unit_test(test_demand_reads_leave_out_write_allocate),
		cmocka_unit_test(test_lines_read_is_demand_plus_write_allocate),
		cmocka_unit_test(test_split_loads_switch_at_offset_57),
		cmocka_unit_test(test_nopread_counts_delay_nops_per_iteration),
		cmocka_unit_test(test_chase_counts_accesses_and_multiplies),
		cmocka_unit_test(test_touch_pages_do_not_grow_with_reps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
