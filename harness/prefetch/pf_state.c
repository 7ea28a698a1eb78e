#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msr.h"
#include "pf_state.h"
#include "pf_stop.h"
#include "state_dir.h"

void pf_state_path(enum pf_kind kind, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", state_dir(), kind == PF_SESSION ? "prefetch.state" : "prefetch.held");
}

static void pf_lock_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/prefetch.lock", state_dir());
}

/* Whether the line ends at n (its line break aside): a value with anything after it (0x8garbage) is no
   value pmucheck wrote. */
static int ends_at(const char *line, int n)
{
	return line[n] == '\0' || (line[n] == '\n' && line[n + 1] == '\0');
}

/* A hex value as pmucheck writes it (0x and up to 16 digits, or bare digits), the whole rest of the line:
   sscanf alone reads -1 and 0x10000000000000000 as all ones and 0xzz as 0, which a restore would write to
   the prefetcher bits. */
static int hex_value(const char *text, unsigned long long *v)
{
	const char *d = text + (text[0] == '0' && text[1] == 'x' ? 2 : 0);
	size_t n = strspn(d, "0123456789abcdefABCDEF");

	if (!n || n > 16 || !ends_at(d, (int)n))
		return -1;
	*v = strtoull(d, NULL, 16);
	return 0;
}

/* A decimal value from 0 to 999999999 (a CPU number, a pid: all fit, and %d cannot wrap), the whole rest
   of the line but for what follows at *end (NULL: nothing). */
static int dec_value(const char *text, int *v, const char **end)
{
	size_t n = strspn(text, "0123456789");

	if (!n || n > 9)
		return -1;
	*v = (int)strtol(text, NULL, 10);
	if (end) {
		*end = text + n;
		return 0;
	}
	return ends_at(text, (int)n) ? 0 : -1;
}

static int parse_line(const char *line, struct pf_saved *s)
{
	char word[16];
	unsigned long long v;
	const char *rest;
	int cpu, pid, n = -1;

	if (line[0] == '#' || line[0] == '\n')
		return 0;
	if (sscanf(line, "kind %15s%n", word, &n) == 1 && ends_at(line, n)) {
		if (strcmp(word, "session") && strcmp(word, "held"))
			return -1;
		s->kind = strcmp(word, "session") ? PF_HELD : PF_SESSION;
		return 0;
	}
	if (!strncmp(line, "pid ", 4))
		return dec_value(line + 4, &pid, NULL) ? -1 : (s->pid = pid, 0);
	/* before "msr ", which would read msrdir's 'd' as a hex digit; the rest of the line, as a path may
	   hold spaces */
	if (!strncmp(line, "msrdir ", 7)) {
		snprintf(s->msrdir, sizeof s->msrdir, "%.*s", (int)strcspn(line + 7, "\n"), line + 7);
		return 0;
	}
	if (!strncmp(line, "msr ", 4)) {
		if (hex_value(line + 4, &v) || v > UINT32_MAX)
			return -1;
		s->msr = (uint32_t)v;
		return 0;
	}
	if (!strncmp(line, "mask ", 5))
		return hex_value(line + 5, &v) ? -1 : (s->mask = v, 0);
	if (sscanf(line, "layout %31s%n", s->layout, &n) == 1 && ends_at(line, n))
		return 0;
	if (!strncmp(line, "cpu ", 4) && !dec_value(line + 4, &cpu, &rest) && rest[0] == ' ' &&
	    !hex_value(rest + 1, &v) && s->n < PF_MAX_CPUS) {
		s->cpu[s->n] = cpu;
		s->val[s->n++] = v;
		return 0;
	}
	return -1;
}

/* The table the file was saved for: this CPU's, where the built-in lists or its config know it; else the
   layout the file records, when that is a layout of this CPU's vendor, so that a model whose layout only
   a config names is restored without that config (sudo resets PMUCHECK_CONFIG_DIR). A model the lists
   know is never checked against a file's word alone. */
static int saved_table(const struct pf_saved *s, const struct pf_table **t, const char **model, struct err *e)
{
	struct cpuid_info id;
	struct err ignored;

	if (cpuid_read(&id))
		return E_RUNTIME;
	if (!s->layout[0])
		return pf_table_for(&id, t, model, e);
	if (!pf_table_for(&id, t, model, &ignored))
		return 0;
	*t = pf_layout_named(s->layout);
	if (!*t || strcmp((*t)->vendor, id.vendor))
		return E_RUNTIME;
	*model = (*t)->name;
	return 0;
}

/* A state file may only name this CPU's prefetcher MSR and bits of its table: anything else (a
   corrupt or foreign file) is not pmucheck's to write, and "restoring" it could write any MSR. */
static int check_table(const char *path, const struct pf_saved *s, struct err *e)
{
	const struct pf_table *t;
	const char *model;

	if (saved_table(s, &t, &model, e))
		return err_set(e, E_RUNTIME,
			       "%s: this CPU has no prefetcher table to check MSR 0x%" PRIx32
			       " against; not restoring it (remove the file if it is not pmucheck's)",
			       path, s->msr);
	if (s->msr != t->msr || (s->mask & ~pf_table_mask(t)))
		return err_set(e, E_RUNTIME,
			       "%s: MSR 0x%" PRIx32 " bits 0x%" PRIx64 " are not the %s "
			       "prefetcher bits (MSR 0x%" PRIx32 " bits 0x%" PRIx64 "); not restoring it "
			       "(remove the file if it is not pmucheck's)",
			       path, s->msr, s->mask, model, t->msr, pf_table_mask(t));
	return 0;
}

int pf_state_read(const char *path, struct pf_saved *s, int *found, struct err *e)
{
	char line[256];
	int lineno = 0, rc = 0;
	FILE *f = fopen(path, "r");

	memset(s, 0, sizeof *s);
	s->kind = -1;
	*found = f || errno != ENOENT;
	if (!*found)
		return 0;
	if (!f)
		return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (parse_line(line, s)) {
			rc = err_set(e, E_RUNTIME, "%s line %d: cannot parse '%.*s'", path, lineno,
				     (int)strcspn(line, "\n"), line);
			goto out;
		}
	}
	if ((int)s->kind < 0 || !s->msr || !s->mask)
		rc = err_set(e, E_RUNTIME, "%s: incomplete (kind, msr or mask missing)", path);
	else if (s->msrdir[0] && strcmp(s->msrdir, msr_dir()))
		/* Values read from other MSR files are not these CPUs' to put back: a test session's, saved
		   from fake files into a state directory shared with the node's real one (PMUCHECK_STATE_DIR
		   set node-wide), would otherwise be written to /dev/cpu by the next pmucheck start. */
		rc = err_set(e, E_RUNTIME,
			     "%s: saved from the MSR files under %s, not %s; not restoring it here "
			     "(PMUCHECK_MSR_DIR=%s pmucheck prefetch restore puts them back; remove the file "
			     "if it is not pmucheck's)",
			     path, s->msrdir, msr_dir(), s->msrdir);
	else
		rc = check_table(path, s, e);
out:
	fclose(f);
	return rc;
}

/* Makes a rename durable: the directory entry is data too. */
static int sync_dir(const char *path, struct err *e)
{
	char dir[4096];
	char *slash;
	int fd, rc = 0;

	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		rc = err_set(e, E_RUNTIME, "%s: cannot sync directory: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

static int write_all(FILE *f, const struct pf_saved *s)
{
	fprintf(f, "# pmucheck prefetcher state: the values 'pmucheck prefetch restore' puts back\n");
	fprintf(f, "kind %s\npid %d\nmsr 0x%" PRIx32 "\nmask 0x%" PRIx64 "\n",
		s->kind == PF_SESSION ? "session" : "held", (int)s->pid, s->msr, s->mask);
	if (s->layout[0])
		fprintf(f, "layout %s\n", s->layout);
	fprintf(f, "msrdir %s\n", msr_dir());
	for (int i = 0; i < s->n; i++)
		fprintf(f, "cpu %d 0x%016" PRIx64 "\n", s->cpu[i], s->val[i]);
	if (fflush(f) || fsync(fileno(f)))
		return -1;
	return 0;
}

int pf_state_write(const char *path, const struct pf_saved *s, struct err *e)
{
	char tmp[4096];
	FILE *f;
	int rc;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return err_set(e, E_RUNTIME, "cannot save prefetcher state to %s: %s", tmp, strerror(errno));
	rc = write_all(f, s);
	if (fclose(f) || rc)
		goto fail;
	pf_stop_at("state-tmp");
	if (rename(tmp, path))
		goto fail;
	return sync_dir(path, e);
fail:
	rc = err_set(e, E_RUNTIME, "cannot save prefetcher state to %s: %s", path, strerror(errno));
	unlink(tmp);
	return rc;
}

int pf_state_remove(const char *path, struct err *e)
{
	if (unlink(path) && errno != ENOENT)
		return err_set(e, E_RUNTIME, "cannot remove %s: %s", path, strerror(errno));
	return sync_dir(path, e);
}

static int lock_busy(int fd, const char *path, struct err *e)
{
	char pid[32] = "";
	ssize_t n = pread(fd, pid, sizeof pid - 1, 0);

	close(fd);
	pid[n > 0 ? strcspn(pid, "\n") : 0] = 0;
	return err_set(e, E_RUNTIME,
		       "another pmucheck (pid %s) is changing the prefetchers (lock %s); "
		       "prefetchers left unchanged, try again when it has finished",
		       pid[0] ? pid : "unknown", path);
}

int pf_lock(int *fd, int *busy, int wait_ms, struct err *e)
{
	char path[4096], pid[32];
	int len;

	if (busy)
		*busy = 0;
	if (mkdir(state_dir(), 0755) && errno != EEXIST)
		return err_set(e, E_RUNTIME, "cannot create %s: %s", state_dir(), strerror(errno));
	pf_lock_path(path, sizeof path);
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0)
		return err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
	if (state_lock(*fd, wait_ms)) {
		if (errno == EWOULDBLOCK) {
			if (busy)
				*busy = 1;
			return lock_busy(*fd, path, e);
		}
		err_set(e, E_RUNTIME, "cannot lock %s: %s", path, strerror(errno));
		close(*fd);
		return E_RUNTIME;
	}
	/* The pid is only for the message another process prints while we hold the lock. */
	len = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
	if (ftruncate(*fd, 0) || pwrite(*fd, pid, (size_t)len, 0) != len) {
		err_set(e, E_RUNTIME, "%s: %s", path, strerror(errno));
		pf_unlock(*fd);
		return E_RUNTIME;
	}
	return 0;
}

void pf_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* closing the only descriptor releases the flock */
}
