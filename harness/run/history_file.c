/* history_file.c — see history_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history_file.h"
#include "json_file.h"
#include "state_dir.h"

const char *history_dir(void)
{
	const char *dir = getenv("PMUCHECK_HISTORY_DIR");

	/* its name until 2026-11-29, when it held levels.json alone: a script that still sets it keeps its
	   histories where it put them, not in the node's state directory */
	if (!dir || !*dir)
		dir = getenv("PMUCHECK_LEVELS_HISTORY_DIR");
	return dir && *dir ? dir : state_dir();
}

void history_machine(const struct topo *t, int cpu, const char *boot_id_file, char *buf, size_t len)
{
	char boot[64] = "unknown";
	FILE *f = fopen(boot_id_file, "r");
	size_t used;

	if (f) {
		if (!fgets(boot, sizeof boot, f))
			snprintf(boot, sizeof boot, "unknown");
		boot[strcspn(boot, "\n")] = 0;
		fclose(f);
	}
	used = (size_t)snprintf(buf, len, "boot %s, CPU %d", boot, cpu);
	for (int l = 0; l < t->ncaches && used < len; l++)
		used += (size_t)snprintf(buf + used, len - used, ", L%d %llu", l + 1,
					 (unsigned long long)t->caches[l].size);
}

int history_lock(char *why, size_t len)
{
	const char *dir = history_dir();
	int fd;

	why[0] = 0;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, len, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 && state_lock(fd, HISTORY_LOCK_MS)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

json_t *history_read(const char *path, char *why, size_t len)
{
	struct err e;
	json_t *root;

	why[0] = 0;
	if (json_file_load(path, JSON_FILE_OPTIONAL | JSON_FILE_PLAIN, &root, &e))
		snprintf(why, len, "%s", e.msg);
	return root;
}

int history_ours(json_t *o, int64_t time, int64_t now, int64_t window, const char *machine, json_t *keep)
{
	if (time <= now - window || time > now)
		return 0;
	if (strcmp(json_string_value(json_object_get(o, "machine")), machine)) {
		json_array_append(keep, o);
		return 0;
	}
	return 1;
}

/* Writes root to a new file beside path, of a name mkstemp makes: not path.<pid>, where anyone who may write
   the state directory could have placed a link beforehand for root to write through (to /etc/passwd). Sets
   tmp to its name; returns 0, else -1 with errno, nothing left behind. */
static int write_beside(const char *path, const json_t *root, char *tmp, size_t len)
{
	int fd, failed, err;

	snprintf(tmp, len, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	/* mkstemp's 0600 would hide the history from the users who may read it but not write it (282c737) */
	/* fsync before the rename: after a power loss the name must not point at an empty file, which the next
	   run would refuse to read, keeping no history until someone removed it */
	failed = fchmod(fd, 0644) || json_dumpfd(root, fd, JSON_INDENT(1)) || fsync(fd);
	err = errno;
	if (close(fd) && !failed) {
		failed = 1;
		err = errno;
	}
	if (failed) {
		unlink(tmp);
		errno = err;
		return -1;
	}
	return 0;
}

int history_write(const char *path, const json_t *root, char *why, size_t len)
{
	char tmp[4160];
	int r = write_beside(path, root, tmp, sizeof tmp);

	if (!r && rename(tmp, path)) {
		int err = errno;
		unlink(tmp);
		errno = err;
		r = -1;
	}
	if (r)
		snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
	return r;
}
