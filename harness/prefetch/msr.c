#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr.h"

const char *msr_dir(void)
{
	const char *dir = getenv("PMUCHECK_MSR_DIR");

	return dir && *dir ? dir : "/dev/cpu";
}

static int open_error(const char *path, int err, struct err *e)
{
	if (err == ENOENT || err == ENXIO || err == ENODEV)
		return err_set(e, E_RUNTIME,
			       "%s: %s (the msr driver is not loaded or the CPU is offline; "
			       "try 'modprobe msr' as root)",
			       path, strerror(err));
	if (err == EACCES || err == EPERM)
		return err_set(e, E_RUNTIME,
			       "%s: %s (MSR access needs root with CAP_SYS_RAWIO; run pmucheck as root)",
			       path, strerror(err));
	return err_set(e, E_RUNTIME, "%s: %s", path, strerror(err));
}

static void path_of(int cpu, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d/msr", msr_dir(), cpu);
}

int msr_open(int cpu, int writable, int *fd, struct err *e)
{
	const char *fake = getenv("PMUCHECK_FAKE_CPUID"), *dir = getenv("PMUCHECK_MSR_DIR");
	char path[4096];
	struct stat st;

	/* A faked CPU model selects another model's table of bits: against the real MSRs that would
	   write bits this CPU's table never verified. The test hook works on fake MSR files (ordinary
	   files; the msr driver's are character devices) only. */
	*fd = -1;
	path_of(cpu, path, sizeof path);
	if (fake && *fake && !(dir && *dir))
		return err_set(e, E_USAGE,
			       "PMUCHECK_FAKE_CPUID is a test hook and works only on fake MSR "
			       "files (PMUCHECK_MSR_DIR); refusing to open the real %s",
			       path);
	*fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (*fd < 0)
		return open_error(path, errno, e);
	if (fake && *fake && (fstat(*fd, &st) || !S_ISREG(st.st_mode))) {
		close(*fd);
		*fd = -1;
		return err_set(e, E_USAGE,
			       "PMUCHECK_FAKE_CPUID is a test hook and works only on fake MSR "
			       "files; %s is not an ordinary file",
			       path);
	}
	return 0;
}

/* The driver answers EIO when RDMSR/WRMSR faults: the CPU (or the hypervisor) has no such MSR, or
   refuses the value. */
static int io_error(const char *op, int cpu, uint32_t reg, ssize_t n, int err, struct err *e)
{
	if (n >= 0)
		return err_set(e, E_RUNTIME, "%s MSR 0x%x on CPU %d: short %s (%zd of 8 bytes)", op, reg, cpu,
			       op, n);
	if (err == EIO)
		return err_set(e, E_RUNTIME,
			       "%s MSR 0x%x on CPU %d faulted: this CPU or its hypervisor does not "
			       "implement it",
			       op, reg, cpu);
	return err_set(e, E_RUNTIME, "%s MSR 0x%x on CPU %d: %s", op, reg, cpu, strerror(err));
}

int msr_read(int fd, int cpu, uint32_t reg, uint64_t *val, struct err *e)
{
	ssize_t n = pread(fd, val, sizeof *val, (off_t)reg);

	return n == sizeof *val ? 0 : io_error("read", cpu, reg, n, errno, e);
}

int msr_write(int fd, int cpu, uint32_t reg, uint64_t val, struct err *e)
{
	ssize_t n = pwrite(fd, &val, sizeof val, (off_t)reg);

	return n == sizeof val ? 0 : io_error("write", cpu, reg, n, errno, e);
}

int msr_update(int fd, int cpu, uint32_t reg, uint64_t clear, uint64_t set, uint64_t *old, struct err *e)
{
	uint64_t cur, want, got;
	int rc = msr_read(fd, cpu, reg, &cur, e);

	if (rc)
		return rc;
	if (old)
		*old = cur;
	want = (cur & ~clear) | set;
	if (want == cur)
		return 0;
	rc = msr_write(fd, cpu, reg, want, e);
	if (!rc)
		rc = msr_read(fd, cpu, reg, &got, e);
	if (!rc && got != want)
		rc = err_set(e, E_RUNTIME,
			     "CPU %d: MSR 0x%" PRIx32 " reads 0x%" PRIx64 " after writing 0x%" PRIx64
			     " (the write did not take effect)",
			     cpu, reg, got, want);
	return rc;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int msr_cpus(int *cpus, int max, struct err *e)
{
	DIR *d = opendir(msr_dir());
	struct dirent *de;
	int n = 0;

	if (!d)
		return open_error(msr_dir(), errno, e);
	while ((de = readdir(d))) {
		char *end;
		long cpu = strtol(de->d_name, &end, 10);

		if (end == de->d_name || *end || cpu < 0)
			continue;
		/* readdir's order is the directory's, not the CPUs': a list cut at max would be any max of
		   them, and `prefetch off` would change those and say nothing of the rest */
		if (n == max) {
			closedir(d);
			return err_set(
				e, E_RUNTIME,
				"more than %d CPUs have an MSR file in %s: pmucheck handles at most %d "
				"at once (name them with --cpus)",
				max, msr_dir(), max);
		}
		cpus[n++] = (int)cpu;
	}
	closedir(d);
	qsort(cpus, (size_t)n, sizeof *cpus, cmp_int);
	return n;
}

int msr_is_fake(void)
{
	static int cpus[4096];
	const char *dir = getenv("PMUCHECK_MSR_DIR");
	int n;

	if (!dir || !*dir)
		return 0;
	n = msr_cpus(cpus, sizeof cpus / sizeof cpus[0], NULL);
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		path_of(cpus[i], path, sizeof path);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			return 0;
	}
	return n > 0;
}
