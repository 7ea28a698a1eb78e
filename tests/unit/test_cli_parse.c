/* test_cli_parse.c — sizes, numbers, CPU lists and placements as the user types them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "cli.h"
#include "num.h"
#include "topo.h"

static void test_sizes_take_binary_suffixes(void **state)
{
	uint64_t v;
	struct err e;

	(void)state;
	assert_int_equal(num_parse_size("--sizes", "32k", &v, &e), 0);
	assert_int_equal(v, 32768);
	assert_int_equal(num_parse_size("--sizes", "3MiB", &v, &e), 0);
	assert_int_equal(v, 3u << 20);
	assert_int_equal(num_parse_size("--sizes", "1G", &v, &e), 0);
	assert_int_equal(v, 1u << 30);
	assert_int_equal(num_parse_size("--sizes", "100", &v, &e), 0);
	assert_int_equal(v, 100);
}

/* Figure legends and tics: binary units, at most three digits, never "262144 KiB". */
static void test_sizes_format_in_binary_units(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(num_format_size(262144.0 * 1024, b, sizeof b), "256 MiB");
	assert_string_equal(num_format_size(512 * 1024, b, sizeof b), "512 KiB");
	assert_string_equal(num_format_size(1.5 * (1 << 20), b, sizeof b), "1.5 MiB");
	assert_string_equal(num_format_size(220160, b, sizeof b), "215 KiB");
	assert_string_equal(num_format_size(1 << 30, b, sizeof b), "1 GiB");
	assert_string_equal(num_format_size(64, b, sizeof b), "64 B");
	assert_string_equal(num_format_size(4986880, b, sizeof b), "4.8 MiB");
}

/* Rates: to a tenth, and below 0.995 (which would read "1.0") to two significant digits, never "0.0" for a
   rate that was measured. */
static void test_rates_format_to_a_tenth_or_two_digits(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(num_format_rate(139.24, b, sizeof b), "139.2");
	assert_string_equal(num_format_rate(1.0, b, sizeof b), "1.0");
	assert_string_equal(num_format_rate(0.995, b, sizeof b), "1.0");
	assert_string_equal(num_format_rate(0.994, b, sizeof b), "0.99");
	assert_string_equal(num_format_rate(0.95, b, sizeof b), "0.95");
	assert_string_equal(num_format_rate(0.0083, b, sizeof b), "0.0083");
	assert_string_equal(num_format_rate(0.5, b, sizeof b), "0.5");
	assert_string_equal(num_format_rate(0, b, sizeof b), "0.0");
}

static void test_sizes_take_likwid_decimal_suffixes(void **state)
{
	uint64_t v;
	struct err e;

	(void)state;
	assert_int_equal(num_parse_size("--sizes", "100kB", &v, &e), 0);
	assert_int_equal(v, 100000);
	assert_int_equal(num_parse_size("--sizes", "3MB", &v, &e), 0);
	assert_int_equal(v, 3000000);
	assert_int_equal(num_parse_size("--sizes", "2GB", &v, &e), 0);
	assert_int_equal(v, 2000000000);
	assert_int_equal(num_parse_size("--sizes", "20000000000GB", &v, &e), E_USAGE);
	assert_int_equal(num_parse_size("--sizes", "1Mb", &v, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "decimal"));
}

static void test_bad_sizes_name_the_option(void **state)
{
	static const char *const bad[] = {
		"", "-1", "k", "12q", "1.5M", "99999999999999999999", "20000000000G"};
	uint64_t v;
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(num_parse_size("--sizes", bad[i], &v, &e), E_USAGE);
		assert_non_null(strstr(e.msg, "--sizes"));
	}
}

/* A fraction is the fault of "1.5k", not its unit: the message says so, for the CLI and the configs alike. */
static void test_a_fractional_size_is_said_to_have_a_fraction(void **state)
{
	static const char *const bad[] = {"1.5k", "1.5.2k", "0.5", "2.MiB"};
	uint64_t v;
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(num_parse_size("--sizes", bad[i], &v, &e), E_USAGE);
		assert_non_null(strstr(e.msg, "has a fraction"));
		assert_non_null(strstr(e.msg, bad[i]));
		assert_null(strstr(e.msg, "unit ("));
	}
}

static void test_cpu_lists_keep_order_and_take_open_ranges(void **state)
{
	struct topo t;
	struct err e;
	int cpus[TOPO_MAX_CPUS], n;
	char list[32];

	(void)state;
	assert_int_equal(topo_load(&t, &e), 0);
	/* "last,first": items in the order given, so --threads 1 takes the last CPU. */
	snprintf(list, sizeof list, "%d,%d", t.cpus[t.ncpus - 1], t.cpus[0]);
	if (t.ncpus > 1) {
		assert_int_equal(topo_parse_cpulist(&t, "--cpus", list, cpus, TOPO_MAX_CPUS, &n, &e), 0);
		assert_int_equal(n, 2);
		assert_int_equal(cpus[0], t.cpus[t.ncpus - 1]);
		assert_int_equal(cpus[1], t.cpus[0]);
	}
	/* hwloc's open range "N-": to the last usable CPU. */
	snprintf(list, sizeof list, "%d-", t.cpus[0]);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", list, cpus, TOPO_MAX_CPUS, &n, &e), 0);
	assert_int_equal(n, t.ncpus);
	/* What hwloc alone would take: trailing junk, a number past 32 bits, an empty item. */
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "0-0x", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "4294967296", cpus, TOPO_MAX_CPUS, &n, &e),
			 E_USAGE);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "0,,0", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "not a CPU list"));
	/* and what hwloc reads as octal: 00 is CPU 0, 010 CPU 8 */
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "00", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "'00': a CPU number has no leading zero"));
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "0-00", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	topo_free(&t);
}

static void test_cpu_lists_expand_ranges_and_reject_foreign_cpus(void **state)
{
	struct topo t;
	struct err e;
	int cpus[TOPO_MAX_CPUS], n;
	char list[32];

	(void)state;
	assert_int_equal(topo_load(&t, &e), 0);
	snprintf(list, sizeof list, "%d-%d", t.cpus[0], t.cpus[t.ncpus - 1]);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", list, cpus, TOPO_MAX_CPUS, &n, &e), 0);
	assert_int_equal(n, t.ncpus);
	assert_int_equal(cpus[n - 1], t.cpus[t.ncpus - 1]);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "4095", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "not in this machine"));
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "0,0", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "1-0", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "0;1", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	assert_int_equal(topo_parse_cpulist(&t, "--cpus", "", cpus, TOPO_MAX_CPUS, &n, &e), E_USAGE);
	topo_free(&t);
}

static void test_placements_parse_and_check_nodes(void **state)
{
	struct topo t;
	struct err e;
	struct buf_place p;
	char s[32];

	(void)state;
	assert_int_equal(topo_load(&t, &e), 0);
	assert_int_equal(buf_parse_placement("-p", "node:0", &t, &p, &e), 0);
	buf_format_placement(&p, s, sizeof s);
	assert_string_equal(s, "node:0");
	assert_int_equal(buf_parse_placement("-p", "interleave", &t, &p, &e), 0);
	assert_int_equal(p.kind, BUF_INTERLEAVE);
	assert_int_equal(buf_parse_placement("-p", "node:999", &t, &p, &e), E_USAGE);
	assert_non_null(strstr(e.msg, "does not exist"));
	assert_int_equal(buf_parse_placement("-p", "far", &t, &p, &e), E_USAGE);
	if (t.numa_nodes < 2) {
		assert_int_equal(buf_parse_placement("-p", "remote", &t, &p, &e), E_USAGE);
		assert_non_null(strstr(e.msg, "second NUMA node"));
	}
	topo_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_take_binary_suffixes),
		cmocka_unit_test(test_bad_sizes_name_the_option),
		cmocka_unit_test(test_a_fractional_size_is_said_to_have_a_fraction),
		cmocka_unit_test(test_sizes_take_likwid_decimal_suffixes),
		cmocka_unit_test(test_sizes_format_in_binary_units),
		cmocka_unit_test(test_rates_format_to_a_tenth_or_two_digits),
		cmocka_unit_test(test_cpu_lists_expand_ranges_and_reject_foreign_cpus),
		cmocka_unit_test(test_cpu_lists_keep_order_and_take_open_ranges),
		cmocka_unit_test(test_placements_parse_and_check_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
