/* test_ctr_cpumask.c — socket-scope perf PMUs are opened on a CPU their cpumask takes: a fake two-socket
 * machine (CPUs 0-3 on package 0, 4-7 on package 1; two CCXs of two CPUs per socket, each with its own
 * L3) with Intel-style IMC boxes (one CPU per socket), AMD-style UMC boxes numbered across sockets (only
 * their own socket's CPU) and an AMD-style amd_l3 (one CPU per CCX: several on each socket). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "ctr_int.h"
#include "fake_file.h"

static char root[] = "/tmp/pmucheck-cpumask.XXXXXX";
static char pmus[300], cpus[300];

static int setup(void **state)
{
	static const struct {
		const char *pmu, *mask;
	} boxes[] = {{"uncore_imc_0", "0,4\n"},
		     {"amd_umc_0", "0\n"},
		     {"amd_umc_8", "4\n"},
		     {"amd_l3", "0,2,4,6\n"},
		     {"nomask", NULL}};
	char path[512], id[16];

	(void)state;
	if (!mkdtemp(root))
		return -1;
	snprintf(pmus, sizeof pmus, "%s/pmus", root);
	snprintf(cpus, sizeof cpus, "%s/cpus", root);
	if (mkdir(pmus, 0755) || mkdir(cpus, 0755))
		return -1;
	for (int c = 0; c < 8; c++) {
		snprintf(path, sizeof path, "%s/cpu%d", cpus, c);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/cpu%d/topology", cpus, c);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/cpu%d/topology/physical_package_id", cpus, c);
		if (fake_put(path, c < 4 ? "0\n" : "1\n"))
			return -1;
		if (c == 7)
			continue; /* CPU 7 without cache files: an L3 the kernel does not name */
		snprintf(path, sizeof path, "%s/cpu%d/cache", cpus, c);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/cpu%d/cache/index3", cpus, c);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/cpu%d/cache/index3/level", cpus, c);
		snprintf(id, sizeof id, "%d\n", c / 2);
		if (fake_put(path, "3\n"))
			return -1;
		snprintf(path, sizeof path, "%s/cpu%d/cache/index3/id", cpus, c);
		if (fake_put(path, id))
			return -1;
	}
	for (size_t i = 0; i < sizeof boxes / sizeof *boxes; i++) {
		snprintf(path, sizeof path, "%s/%s", pmus, boxes[i].pmu);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/%s/cpumask", pmus, boxes[i].pmu);
		if (boxes[i].mask && fake_put(path, boxes[i].mask))
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[320];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

/* Intel IMC: the mask's CPU on the run CPU's socket, so the socket the run uses is the one counted. */
static void test_imc_opens_on_the_run_socket(void **state)
{
	(void)state;
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "uncore_imc_0", 1), 0);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "uncore_imc_0", 6), 4);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "uncore_imc_0", 4), 4);
}

/* AMD UMC: each box only on its own socket's CPU, whatever CPU the run uses. */
static void test_umc_opens_on_its_own_socket(void **state)
{
	(void)state;
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_umc_0", 5), 0);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_umc_8", 1), 4);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_umc_8", 4), 4);
}

/* amd_l3 is per CCX: its mask has a CPU per L3, two on each socket. A mask holding the run CPU keeps it;
   else the mask's CPU of the run CPU's own L3, never the socket's first (CPU 3 shares CPU 2's L3, not
   CPU 0's: opened on 0 it would count the other CCX). */
static void test_amd_l3_opens_on_the_cpu_of_the_run_cpus_ccx(void **state)
{
	(void)state;
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_l3", 6), 6);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_l3", 1), 0);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_l3", 3), 2);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_l3", 5), 4);
	/* the run CPU's L3 unknown (CPU 7 has no cache files): the socket's mask CPU, as for a box */
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_l3", 7), 4);
	/* Intel's IMC: L3 ids per CCX change nothing, the socket's CPU is taken */
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "uncore_imc_0", 3), 0);
}

/* No cpumask: any CPU; a probe (-1) gets the mask's first CPU, or CPU 0. */
static void test_no_mask_and_probes(void **state)
{
	(void)state;
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "nomask", 3), 3);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "nomask", -1), 0);
	assert_int_equal(ctr_cpumask_cpu(pmus, cpus, "amd_umc_8", -1), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imc_opens_on_the_run_socket),
		cmocka_unit_test(test_umc_opens_on_its_own_socket),
		cmocka_unit_test(test_amd_l3_opens_on_the_cpu_of_the_run_cpus_ccx),
		cmocka_unit_test(test_no_mask_and_probes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
