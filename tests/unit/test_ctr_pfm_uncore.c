/* test_ctr_pfm_uncore.c — a PAPI (libpfm4) uncore name whose PMU sysfs names is resolved for the perf
 * backend, with libpfm4's attr and the sysfs PMU of its type: skx_unc_imc1::UNC_M_CAS_COUNT:RD becomes
 * uncore_imc_1 config 0x304 (the kernel's cas_count_read, event=0x04,umask=0x03), a socket event that perf
 * groups per box. libpfm4 reads a PMU's type from the fixed path /sys/bus/event_source/devices, so the fake
 * tree is bind-mounted there in a private user and mount namespace; where the kernel allows none, every
 * test is skipped with the reason. LIBPFM_ENCODE_INACTIVE=1 lets libpfm4 encode Skylake-SP events here. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctr_fixture.h"
#include "ctr_int.h"
#include "fake_file.h"
#include "skip_why.h"

static char fake[] = "/tmp/pmucheck-pfm-uncore.XXXXXX";
static char skip_reason[300];

/* uncore_imc_0 and _1 (types 42, 43; one CPU per socket), uncore_ubox (44), power (45, RAPL's free-running
   counters), cpu (4): a two-channel Skylake-SP's PMUs. */
static int make_tree(void)
{
	static const struct {
		const char *pmu, *type, *mask;
	} pmus[] = {{"uncore_imc_0", "42\n", "0\n"},
		    {"uncore_imc_1", "43\n", "0\n"},
		    {"uncore_ubox", "44\n", "0\n"},
		    {"power", "45\n", "0\n"},
		    {"cpu", "4\n", NULL}};
	char path[512];

	if (!mkdtemp(fake))
		return -1;
	for (size_t i = 0; i < sizeof pmus / sizeof *pmus; i++) {
		snprintf(path, sizeof path, "%s/%s", fake, pmus[i].pmu);
		if (mkdir(path, 0755))
			return -1;
		snprintf(path, sizeof path, "%s/%s/type", fake, pmus[i].pmu);
		if (fake_put(path, pmus[i].type))
			return -1;
		snprintf(path, sizeof path, "%s/%s/cpumask", fake, pmus[i].pmu);
		if (pmus[i].mask && fake_put(path, pmus[i].mask))
			return -1;
	}
	return 0;
}

/* This process alone sees the fake tree at CTR_SYSFS_PMUS: a user namespace (root inside, mapped to
   the caller), a mount namespace whose mounts propagate nowhere, and a bind mount. */
static void enter_fake_sysfs(void)
{
	char map[64], gmap[64];

	/* the ids outside, taken before: inside, unmapped, they read as the overflow id */
	snprintf(map, sizeof map, "0 %u 1", (unsigned)getuid());
	snprintf(gmap, sizeof gmap, "0 %u 1", (unsigned)getgid());
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS)) {
		snprintf(skip_reason, sizeof skip_reason, "no user and mount namespace here (unshare: %s)",
			 strerror(errno));
		return;
	}
	if (fake_put("/proc/self/setgroups", "deny") || fake_put("/proc/self/uid_map", map)) {
		snprintf(skip_reason, sizeof skip_reason, "cannot map the user into its namespace");
		return;
	}
	if (fake_put("/proc/self/gid_map", gmap) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount(fake, CTR_SYSFS_PMUS, NULL, MS_BIND, NULL))
		snprintf(skip_reason, sizeof skip_reason, "cannot bind-mount a fake %s (%s)", CTR_SYSFS_PMUS,
			 strerror(errno));
}

static void test_a_papi_uncore_name_is_counted_by_perf_on_its_sysfs_pmu(void **state)
{
	struct ctr_event ev;

	(void)state;
	if (*skip_reason)
		skip_why("%s", skip_reason);
	memset(&ev, 0, sizeof ev);
	assert_true(ctr_perf_from_pfm(CTR_SYSFS_PMUS, "skx_unc_imc1::UNC_M_CAS_COUNT:RD", &ev));
	assert_int_equal(ev.backend, CTR_PERF);
	assert_int_equal(ev.scope, CTR_SCOPE_SOCKET);
	assert_string_equal(ev.pool, "uncore_imc_1");
	assert_int_equal(ev.perf.type, 43);
	assert_true(ev.perf.config == 0x304);
	assert_string_equal(ev.encoding,
			    "pmu=uncore_imc_1,type=43,config=0x304,domain=all,via=libpfm4:skx_unc_imc1");
}

/* ctr_resolve takes that path for a PAPI name; the probe then opens it (type 43 is no PMU of the real
   kernel, so it is not measured here, with perf's reason), still on the perf backend. */
static void test_resolve_prefers_perf_and_keeps_the_papi_name(void **state)
{
	struct ctr_event ev;
	struct err e;

	(void)state;
	if (*skip_reason)
		skip_why("%s", skip_reason);
	assert_int_equal(ctr_resolve("skx_unc_imc0::UNC_M_CAS_COUNT:WR", &ev, &e), 0);
	assert_int_equal(ev.backend, CTR_PERF);
	assert_string_equal(ev.spec, "skx_unc_imc0::UNC_M_CAS_COUNT:WR");
	assert_non_null(strstr(ev.encoding, "pmu=uncore_imc_0,type=42,config=0xc04,"));
}

/* Not taken: a core event (PAPI counts it as before), and a box sysfs does not have (libpfm4 finds no
   type for uncore_imc_5: PAPI's component reports it). */
static void test_core_events_and_absent_boxes_stay_with_papi(void **state)
{
	struct ctr_event ev;

	(void)state;
	if (*skip_reason)
		skip_why("%s", skip_reason);
	memset(&ev, 0, sizeof ev);
	assert_false(ctr_perf_from_pfm(CTR_SYSFS_PMUS, "skx::L1D:REPLACEMENT", &ev));
	assert_false(ctr_perf_from_pfm(CTR_SYSFS_PMUS, "skx_unc_imc5::UNC_M_CAS_COUNT:RD", &ev));
	assert_false(ctr_perf_from_pfm(CTR_SYSFS_PMUS, "no_such::EVENT", &ev));
}

/* The UBOX has 2 general counters where the IMC has 4 (libpfm4's skx_unc_ubo and skx_unc_imc0; the kernel's
   skx_uncore_ubox and skx_uncore_imc): its events are planned 2 to a group, by the libpfm4 PMU of a PAPI
   name and by the sysfs PMU whose type libpfm4 encodes that PMU's events with alike. Planned with 4, the
   kernel refused the group of 3 when it was opened. */
static void test_a_box_of_two_counters_is_planned_two_events_to_a_group(void **state)
{
	struct ctr_fixture *f = *state;
	struct ctr_event ev[3], imc;
	struct err e;

	if (*skip_reason)
		skip_why("%s", skip_reason);
	memset(ev, 0, sizeof ev);
	assert_true(ctr_perf_from_pfm(CTR_SYSFS_PMUS, "skx_unc_ubo::UNC_U_LOCK_CYCLES", &ev[0]));
	assert_string_equal(ev[0].pool, "uncore_ubox");
	assert_int_equal(ev[0].counters, 2);
	assert_int_equal(ctr_describe_sysfs(CTR_SYSFS_PMUS, "uncore_ubox/config=0x44/", &ev[1], &e), 0);
	assert_int_equal(ctr_describe_sysfs(CTR_SYSFS_PMUS, "uncore_ubox/config=0x45/", &ev[2], &e), 0);
	assert_int_equal(ev[1].counters, 2);
	assert_int_equal(ctr_describe_sysfs(CTR_SYSFS_PMUS, "uncore_imc_0/config=0x304/", &imc, &e), 0);
	assert_int_equal(imc.counters, 4);
	for (unsigned i = 0; i < 3; i++)
		ev[i].status = CTR_OK;
	assert_int_equal(ctr_plan_groups(ev, 3, NULL, 0, &f->plan, &e), 0);
	assert_int_equal(f->plan.ngroups, 2);
	assert_int_equal(f->plan.groups[0].n, 2);
	assert_int_equal(f->plan.groups[1].n, 1);
}

static int teardown(void **state)
{
	char cmd[320];

	(void)state;
	umount(CTR_SYSFS_PMUS);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake);
	return system(cmd) ? -1 : 0;
}

/* RAPL's energy counters run free (the power PMU): a PAPI name of it counted through perf takes no counter,
   where libpfm4's table of it (amd64_rapl, 0 general counters) once made it 4, UNCORE_COUNTERS. */
static void test_a_free_running_pmu_takes_no_counter(void **state)
{
	struct ctr_event ev;

	(void)state;
	if (*skip_reason)
		skip_why("%s", skip_reason);
	memset(&ev, 0, sizeof ev);
	if (!ctr_perf_from_pfm(CTR_SYSFS_PMUS, "amd64_rapl::RAPL_ENERGY_PKG", &ev))
		skip_why("libpfm4 does not encode amd64_rapl::RAPL_ENERGY_PKG for the power PMU here");
	assert_string_equal(ev.pool, "power");
	assert_int_equal(ev.counters, 0);
	assert_int_equal(ev.uses_counter, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_papi_uncore_name_is_counted_by_perf_on_its_sysfs_pmu),
		cmocka_unit_test(test_a_free_running_pmu_takes_no_counter),
		cmocka_unit_test(test_resolve_prefers_perf_and_keeps_the_papi_name),
		cmocka_unit_test(test_core_events_and_absent_boxes_stay_with_papi),
		CTR_FIXTURE_TEST(test_a_box_of_two_counters_is_planned_two_events_to_a_group),
	};

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (make_tree())
		snprintf(skip_reason, sizeof skip_reason, "cannot write the fake tree in /tmp");
	else
		enter_fake_sysfs();
	return cmocka_run_group_tests(tests, NULL, teardown);
}
