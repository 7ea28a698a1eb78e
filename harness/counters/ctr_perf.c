/* ctr_perf.c — the perf_event backend: one perf group per ctr_group, leader pinned.
 *
 * Pinned means the kernel never rotates the group off the counters: if it cannot be on them (too many
 * events, or counters taken by the NMI watchdog or another pinned user) it goes into an error state and
 * read() returns nothing, which we report as failed. The group is read in one read() (PERF_FORMAT_GROUP),
 * so all its events cover the same interval; time_enabled and time_running come with it and any
 * difference between them marks the reading as multiplexed.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ctr_int.h"
#include "num.h"

#define READ_WORDS (3 + CTR_GROUP_MAX) /* nr, time_enabled, time_running, value[nr] */

int ctr_perf_paranoid(void)
{
	return (int)num_read_file("/proc/sys/kernel/perf_event_paranoid",
				  99); /* unreadable: assume the worst */
}

bool ctr_may_count_kernel(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f;

	if (ctr_perf_paranoid() <= 1)
		return true;
	if (!(f = fopen("/proc/self/status", "r")))
		return false;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps & (1ull << 38 | 1ull << 21); /* CAP_PERFMON, CAP_SYS_ADMIN (linux/capability.h) */
}

bool ctr_sw_clock(uint32_t type, uint64_t config)
{
	return type == PERF_TYPE_SOFTWARE &&
		(config == PERF_COUNT_SW_TASK_CLOCK || config == PERF_COUNT_SW_CPU_CLOCK);
}

bool ctr_perf_sw_clock(const struct ctr_event *ev)
{
	return ev->backend == CTR_PERF && ctr_sw_clock(ev->perf.type, ev->perf.config);
}

const char *ctr_domain_name(const struct ctr_event *ev)
{
	if (ev->scope == CTR_SCOPE_SOCKET)
		return "all";
	/* The clocks add up time on the CPU and never look at the exclude bits (kernel/events/core.c,
	   task_clock_event_update): an unprivileged open needs exclude_kernel, and still counts the
	   kernel's part of the task's time. */
	if (ctr_perf_sw_clock(ev) || !strncmp(ev->pool, CTR_PAPI_CLOCK_POOL, strlen(CTR_PAPI_CLOCK_POOL)))
		return "user+kernel";
	/* Only PAPI's perf_event component filters privilege levels. It sets a domain only after opening
	   a hardware instructions event with it (check_permissions in PAPI's perf_event.c), so where the
	   kernel has no core PMU its software events (perf::PAGE-FAULTS) keep its default, user. */
	if (ev->backend == CTR_PAPI)
		return strcmp(ev->pool, "perf_event")                               ? "all"
			: ctr_may_count_kernel() && ctr_hardware_available(NULL, 0) ? "user+kernel"
										    : "user";
	return ev->perf.exclude_user ? "kernel" : ev->perf.exclude_kernel ? "user" : "user+kernel";
}

static void attr_of(const struct ctr_event *ev, bool leader, struct perf_event_attr *a)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = ev->perf.type;
	a->config = ev->perf.config;
	a->config1 = ev->perf.config1;
	a->config2 = ev->perf.config2;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Siblings follow the leader: only the leader is created disabled and pinned. */
	a->disabled = leader;
	a->pinned = leader;
	a->exclude_kernel = ev->perf.exclude_kernel;
	a->exclude_user = ev->perf.exclude_user;
	a->exclude_hv = ev->perf.exclude_kernel || ev->perf.exclude_user; /* perf's :u and :k do */
}

static int open_one(const struct ctr_event *ev, bool leader, int pid, int cpu, int group_fd)
{
	struct perf_event_attr a;

	attr_of(ev, leader, &a);
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* The PMU the kernel counts ev on, into name, when the sysfs tree pmus exposes it (its type file): the
   core PMU for the generic hardware and cache events ("cpu", or a hybrid's "cpu_core" or "cpu_atom"),
   "software" for the software events, else the sysfs PMU the event was resolved on (its pool). */
static bool pmu_exposed(const char *pmus, const struct ctr_event *ev, char *name, size_t len)
{
	static const char *const core[] = {"cpu", "cpu_core", "cpu_atom"};
	bool generic = ev->perf.type == PERF_TYPE_HARDWARE || ev->perf.type == PERF_TYPE_HW_CACHE;
	const char *own = ev->perf.type == PERF_TYPE_SOFTWARE ? "software" : ev->pool;
	char path[512];

	for (size_t i = 0; i < (generic ? sizeof core / sizeof *core : 1); i++) {
		snprintf(name, len, "%s", generic ? core[i] : own);
		snprintf(path, sizeof path, "%s/%s/type", pmus, name);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

void ctr_perf_explain(const char *pmus, int err, const struct ctr_event *ev, unsigned sibling, char *buf,
		      size_t len)
{
	char pmu[CTR_NAME_MAX];

	switch (err) {
	case EACCES:
	case EPERM:
		snprintf(buf, len,
			 "perf_event_open: permission denied (perf_event_paranoid=%d): run as "
			 "root or lower it with 'sysctl kernel.perf_event_paranoid=%d'",
			 ctr_perf_paranoid(), ev->scope == CTR_SCOPE_SOCKET ? 0 : 1);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (!pmu_exposed(pmus, ev, pmu, sizeof pmu))
			snprintf(buf, len,
				 "perf_event_open: %s: the kernel cannot count this event here (no "
				 "hardware PMU exposed, e.g. a VM without a virtual PMU)",
				 strerror(err));
		/* The x86 PMU answers a generic hardware or cache event its table maps to no event code
		   with ENOENT (Linux arch/x86/events/core.c, x86_setup_perfctr and set_ext_hw_attr):
		   AMD's has no ref-cycles. */
		else if (err == ENOENT)
			snprintf(buf, len,
				 "perf_event_open: %s: the kernel maps no such event on PMU '%s' (the PMU is "
				 "here, but has no event code for this one, e.g. ref-cycles on AMD)",
				 strerror(err), pmu);
		else
			snprintf(buf, len, "perf_event_open: %s: PMU '%s' cannot count this event as asked",
				 strerror(err), pmu);
		break;
	case EINVAL:
		/* An event is grouped only after it opened alone (ctr_perf_probe), so EINVAL for a sibling
		   is the group's: the kernel refuses a group its PMU cannot schedule at once (Linux
		   arch/x86/events/core.c validate_group; intel/uncore.c uncore_validate_group, where
		   uncore_collect_events refuses more events than the box has counters). A box is planned
		   with libpfm4's count of its counters, which is 4 for some of 2 or 3 (Skylake-SP's IRP and
		   M3UPI), or with UNCORE_COUNTERS where libpfm4 does not know it (ctr_box_counters.c). */
		if (sibling)
			snprintf(buf, len,
				 "perf_event_open: the kernel refuses it as event %u of a group on PMU '%s' "
				 "(EINVAL), though it opens alone: the group does not fit the PMU's "
				 "counters (planned for %u; some uncore PMUs have fewer)",
				 sibling + 1, ev->pool, ev->counters);
		else
			snprintf(buf, len, "perf_event_open: the kernel rejects encoding %s (EINVAL)",
				 ev->encoding);
		break;
	default:
		snprintf(buf, len, "perf_event_open: %s", strerror(err));
	}
}

/* A PMU that cannot tell privilege levels apart (the msr PMU; the kernel's PERF_PMU_CAP_NO_EXCLUDE)
   answers any exclude bit with EINVAL, which would blame the encoding. Opened again without them, the
   answer says what stands in the way: nothing (a u or k modifier was asked of it), or the right to
   count the kernel too, which is all such a PMU can do. */
static void explain_no_exclude(struct ctr_event *ev)
{
	struct perf_event_attr a;
	int fd;

	attr_of(ev, true, &a);
	a.exclude_kernel = a.exclude_user = a.exclude_hv = 0;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		snprintf(ev->reason, sizeof ev->reason,
			 "PMU '%s' counts every privilege level or none (the kernel refuses a user- or "
			 "kernel-only count, EINVAL): it takes no u or k modifier",
			 ev->pool);
	} else if (errno == EACCES || errno == EPERM) {
		snprintf(ev->reason, sizeof ev->reason,
			 "PMU '%s' counts every privilege level or none (the kernel refuses a user-only "
			 "count, EINVAL), and counting the kernel needs CAP_PERFMON or "
			 "perf_event_paranoid <= 1 (it is %d)",
			 ev->pool, ctr_perf_paranoid());
	}
}

void ctr_perf_probe(struct ctr_event *ev)
{
	int fd, err;

	if (ev->status != CTR_OK)
		return;
	/* What no open can count here: the scheduler counts context switches and migrations in its own
	   context, with the kernel's registers, so one that excludes the kernel reads 0 with status ok; and
	   the kernel alone needs the privilege to count it. */
	int kernel_context = ev->perf.exclude_kernel && ev->perf.type == PERF_TYPE_SOFTWARE &&
		(ev->perf.config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
		 ev->perf.config == PERF_COUNT_SW_CPU_MIGRATIONS);
	if (kernel_context || (ev->perf.exclude_user && !ctr_may_count_kernel())) {
		ev->status = CTR_NOT_MEASURED;
		snprintf(ev->reason, sizeof ev->reason,
			 kernel_context
				 ? "counted in the kernel's own context: with the kernel excluded (a u "
				   "modifier, or no CAP_PERFMON with perf_event_paranoid %d > 1) it "
				   "reads 0"
				 : "counting the kernel only (:k) needs CAP_PERFMON or "
				   "perf_event_paranoid <= 1 (it is %d)",
			 ctr_perf_paranoid());
		return;
	}
	if (ev->scope == CTR_SCOPE_SOCKET)
		fd = open_one(ev, true, -1, ctr_cpumask_cpu(CTR_SYSFS_PMUS, CTR_SYSFS_CPUS, ev->pool, -1),
			      -1);
	else
		fd = open_one(ev, true, 0, -1, -1);
	if (fd >= 0) {
		close(fd);
		return;
	}
	err = errno; /* the explanation reads sysfs */
	ev->status = CTR_NOT_MEASURED;
	ctr_perf_explain(CTR_SYSFS_PMUS, err, ev, 0, ev->reason, sizeof ev->reason);
	if (err == EINVAL && (ev->perf.exclude_kernel || ev->perf.exclude_user))
		explain_no_exclude(ev);
}

int ctr_perf_open(struct ctr_set *s, struct err *e)
{
	int pid = s->g.scope == CTR_SCOPE_SOCKET ? -1 : 0;
	int cpu = s->cpu; /* socket scope: ctr_open_cpu's choice; -1 for thread scope */

	for (unsigned i = 0; i < CTR_GROUP_MAX; i++)
		s->fd[i] = -1;
	for (unsigned i = 0; i < s->g.n; i++) {
		s->fd[i] = open_one(s->g.ev[i], i == 0, pid, cpu, i ? s->fd[0] : -1);
		if (s->fd[i] < 0) {
			char why[CTR_REASON_MAX];
			ctr_perf_explain(CTR_SYSFS_PMUS, errno, s->g.ev[i], i, why, sizeof why);
			return err_set(e, E_RUNTIME, "event '%s': %s", s->g.ev[i]->spec, why);
		}
	}
	return 0;
}

static int group_ioctl(struct ctr_set *s, unsigned long req, const char *what, struct err *e)
{
	if (ioctl(s->fd[0], req, PERF_IOC_FLAG_GROUP) < 0)
		return err_set(e, E_RUNTIME, "%s of the group of '%s': %s", what, s->g.ev[0]->spec,
			       strerror(errno));
	return 0;
}

int ctr_perf_start(struct ctr_set *s, struct err *e)
{
	uint64_t buf[READ_WORDS];
	int rc = group_ioctl(s, PERF_EVENT_IOC_RESET, "reset", e);
	ssize_t got;

	if (rc)
		return rc;
	/* RESET zeroes the counts but not time_enabled and time_running, which run on from the open: the
	   times read here, before the enable, are taken off the ones the next read returns, so that a
	   reading times its own interval (the 2R call's, not the R and 2R calls' together). */
	got = read(s->fd[0], buf, sizeof buf);
	s->enabled0 = got >= 3 * (ssize_t)sizeof buf[0] ? buf[1] : 0;
	s->running0 = got >= 3 * (ssize_t)sizeof buf[0] ? buf[2] : 0;
	return group_ioctl(s, PERF_EVENT_IOC_ENABLE, "enable", e);
}

int ctr_perf_stop(struct ctr_set *s, struct err *e)
{
	return group_ioctl(s, PERF_EVENT_IOC_DISABLE, "disable", e);
}

void ctr_perf_parse_group_read(const uint64_t *buf, size_t bytes, unsigned n, struct ctr_reading *r)
{
	size_t want = (3 + (size_t)n) * sizeof(uint64_t);

	for (unsigned i = 0; i < n; i++) {
		memset(&r[i], 0, sizeof r[i]);
		if (bytes < want || buf[0] != n) {
			r[i].status = CTR_FAILED;
			snprintf(r[i].reason, sizeof r[i].reason,
				 bytes ? "short group read"
				       : "pinned group could not be scheduled (counters full or taken by the "
					 "NMI "
					 "watchdog or another pinned user)");
			continue;
		}
		r[i].time_enabled = buf[1];
		r[i].time_running = buf[2];
		r[i].count = buf[3 + i];
		ctr_classify(&r[i]);
	}
}

int ctr_perf_read(struct ctr_set *s, struct ctr_reading *r, struct err *e)
{
	uint64_t buf[READ_WORDS];
	ssize_t got = read(s->fd[0], buf, sizeof buf);

	if (got < 0)
		return err_set(e, E_RUNTIME, "read of the group of '%s': %s", s->g.ev[0]->spec,
			       strerror(errno));
	if (got >= 3 * (ssize_t)sizeof buf[0]) {
		buf[1] -= s->enabled0;
		buf[2] -= s->running0;
	}
	ctr_perf_parse_group_read(buf, (size_t)got, s->g.n, r);
	return 0;
}

void ctr_perf_close(struct ctr_set *s)
{
	/* Siblings first, so none is promoted to a lone event while the group is taken apart. */
	for (unsigned i = s->g.n; i-- > 0;)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
}
