#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "partial.h"
#include "results.h"

void results_utc_now(char *out, size_t len, int compact)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(out, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int results_lock_dir(const char *dir, int *fd, struct err *e)
{
	int why;

	*fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0 || flock(*fd, LOCK_EX | LOCK_NB) == 0)
		return 0; /* a directory that cannot be opened fails at its first write, with its reason */
	why = errno;
	close(*fd);
	*fd = -1;
	/* held: refused; a filesystem without flock on directories (some NFS, FUSE, 9p mounts: ENOLCK,
	   EINVAL, EOPNOTSUPP), where fleet's shared results go, runs unlocked as before */
	if (why != EWOULDBLOCK)
		return 0;
	return err_set(e, E_USAGE,
		       "%s: another pmucheck is running into it; --resume continues an "
		       "interrupted run only",
		       dir);
}

static int out_refused(const char *out, int errnum, struct err *e)
{
	return err_set(e, E_USAGE, "--out: cannot create results directory %s: %s", out, strerror(errnum));
}

/* Why dir is no directory this process may make entries in (an errno), 0 where it is one. */
static int not_writable_dir(const char *dir)
{
	struct stat st;

	return stat(dir, &st) ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : access(dir, W_OK | X_OK) ? errno : 0;
}

/* Whether a directory could be made at path: errno's reason in *why where its parent is no directory this
   process may write in. */
static int creatable(const char *path, int *why)
{
	char parent[4096], own[4096];
	const char *slash;
	size_t n = strlen(path);

	/* "newdir/" is made as "newdir" is: its parent is what lies before the last slash of the name */
	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(own, sizeof own, "%.*s", (int)n, path);
	path = own;
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(parent, sizeof parent, ".");
	else
		snprintf(parent, sizeof parent, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	*why = not_writable_dir(parent);
	return *why == 0;
}

int results_out_free(const char *out, const char *root, struct err *e)
{
	struct stat st;
	int why;

	if (out && !*out)
		return err_set(e, E_USAGE, "--out: an empty path");
	/* lstat: mkdir finds a link to nothing there too (EEXIST), where access follows it and finds none */
	if (out && lstat(out, &st) == 0)
		return out_refused(out, EEXIST, e);
	if (out)
		return creatable(out, &why) ? 0 : out_refused(out, why, e);
	/* mkdir("") fails: a dry run took "" for a new directory of the working directory */
	if (!*root)
		return err_set(e, E_USAGE, "--results: an empty path");
	why = not_writable_dir(root);
	/* a link to nothing is no directory to make, nor one to make entries in (ENOENT, as the run says) */
	if (why == ENOENT && lstat(root, &st) != 0)
		creatable(root, &why);
	if (why)
		return err_set(e, E_USAGE, "--results: cannot create results directory '%s': %s", root,
			       strerror(why));
	return 0;
}

int results_create_dir(const char *out, const char *root, const char *host, char *dir, size_t len,
		       struct err *e)
{
	char stamp[32];

	if (out) {
		snprintf(dir, len, "%s", out);
		return mkdir(dir, 0755) != 0 ? out_refused(dir, errno, e) : 0;
	}
	if (mkdir(root, 0755) != 0 && errno != EEXIST)
		return err_set(e, E_USAGE, "--results: cannot create results directory '%s': %s", root,
			       strerror(errno));
	results_utc_now(stamp, sizeof stamp, 1);
	for (int i = 1; i < 1000; i++) {
		if (i == 1)
			snprintf(dir, len, "%s/%s-%s", root, host, stamp);
		else
			snprintf(dir, len, "%s/%s-%s-%d", root, host, stamp, i);
		if (mkdir(dir, 0755) == 0)
			return 0;
		if (errno != EEXIST)
			return err_set(e, E_USAGE, "--results: cannot create results directory %s: %s", dir,
				       strerror(errno));
	}
	return err_set(e, E_RUNTIME, "no free results directory name under %s", root);
}

int results_write_json(const char *dir, const char *name, json_t *obj, struct err *e)
{
	char tmp[4096], path[4096];
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, E_RUNTIME, "cannot write %s: %s", tmp, strerror(errno));
	if (json_dumpfd(obj, fd, JSON_INDENT(2) | JSON_SORT_KEYS) != 0 || write(fd, "\n", 1) != 1 ||
	    fsync(fd) != 0) {
		close(fd);
		unlink(tmp);
		return err_set(e, E_RUNTIME, "cannot write %s: %s", tmp, strerror(errno));
	}
	close(fd);
	if (rename(tmp, path) != 0) {
		unlink(tmp);
		return err_set(e, E_RUNTIME, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
	}
	return 0;
}

int results_mark_partial(const char *dir, int partial, struct err *e)
{
	char path[4096];
	int fd;

	partial_path(dir, path, sizeof path);
	if (!partial) {
		if (unlink(path) != 0 && errno != ENOENT)
			return err_set(e, E_RUNTIME, "cannot remove %s: %s", path, strerror(errno));
		return 0;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, E_RUNTIME, "cannot create %s: %s", path, strerror(errno));
	if (write(fd, "run in progress or interrupted; raw.csv holds the finished points\n", 66) != 66) {
		close(fd);
		return err_set(e, E_RUNTIME, "cannot write %s", path);
	}
	close(fd);
	return 0;
}
