/* cfg_select.c — where the configs are, and which one describes this CPU. The CPU lists live in the
 * [arch] sections, not here, so supporting a new model is an edit of its .ini file only. */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"

static int is_config_dir(const char *dir)
{
	char probe[PATH_MAX];

	snprintf(probe, sizeof probe, "%s/generic.ini", dir);
	return access(probe, R_OK) == 0;
}

/* Whether cand is the config directory, copied to buf; if not, it joins the list of places looked. */
static int found_dir(const char *cand, char *buf, size_t len, char *looked, size_t looked_len)
{
	size_t used = strlen(looked);

	if (is_config_dir(cand) && (size_t)snprintf(buf, len, "%s", cand) < len)
		return 1;
	snprintf(looked + used, looked_len - used, "%s%s", used ? ", " : "", cand);
	return 0;
}

int cfg_dir(char *buf, size_t len, struct err *e)
{
	const char *env = getenv("PMUCHECK_CONFIG_DIR");
	char exe[PATH_MAX], prefix[PATH_MAX], cand[PATH_MAX + 32], looked[ERR_MSG_MAX] = "", *dir;
	ssize_t n;

	if (env && *env) {
		if (!is_config_dir(env))
			return err_set(e, E_USAGE, "PMUCHECK_CONFIG_DIR=%s: no generic.ini there", env);
		snprintf(buf, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n < 0)
		return err_set(e, E_RUNTIME, "/proc/self/exe: %s", strerror(errno));
	exe[n] = '\0';
	dir = dirname(exe);
	snprintf(prefix, sizeof prefix, "%s", dir);
	/* In a build tree the binary sits in the project (pmucheck), in build/, or in build/tests/unit/:
	   the source tree's configs/ comes first, so a developer never runs against an older install. */
	for (int up = 0; up <= 3; up++) {
		snprintf(cand, sizeof cand, "%s/configs", strcmp(dir, "/") ? dir : "");
		if (found_dir(cand, buf, len, looked, sizeof looked))
			return 0;
		if (!strcmp(dir, "/"))
			break;
		dir = dirname(dir);
	}
	/* An installed binary (PREFIX/bin) finds PREFIX/share/pmucheck/configs relative to itself, so a
	   DESTDIR tree still works after it is moved as a whole. */
	snprintf(cand, sizeof cand, "%s/share/pmucheck/configs", dirname(prefix));
	if (found_dir(cand, buf, len, looked, sizeof looked))
		return 0;
	return err_set(e, E_RUNTIME,
		       "no config directory (one with generic.ini) in %s; "
		       "set PMUCHECK_CONFIG_DIR or use --config",
		       looked);
}

int cfg_dir_file(const char *name, char *buf, size_t len, struct err *e)
{
	char dir[PATH_MAX];
	int rc = cfg_dir(dir, sizeof dir, e);

	if (rc)
		return rc;
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		return err_set(e, E_RUNTIME, "%s/%s: path too long", dir, name);
	return 0;
}

/* 4: family and model listed, 3: a model range, 2: family:*, 1: match = any, 0: not for this CPU. */
static int match_rank(const struct cfg_arch *a, const char *vendor, unsigned family, unsigned model)
{
	int best = a->match_any && !strcmp(a->vendor, "any") ? 1 : 0;

	if (strcmp(a->vendor, vendor))
		return best;
	for (unsigned i = 0; i < a->nmatch; i++) {
		const struct cfg_match *m = &a->match[i];
		int rank;

		if (m->family != family || model < m->model_lo || model > m->model_hi)
			continue;
		rank = m->model_lo == m->model_hi ? 4 : m->model_hi - m->model_lo < 0xff ? 3 : 2;
		if (rank > best)
			best = rank;
	}
	return best;
}

static int ini_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".ini");
}

/* Which file describes the CPU (or the PMU) wanted: rank 0 is none, the highest rank wins. */
struct want {
	const char *vendor, *pmu;
	unsigned family, model;
};

static int rank_of(const struct cfg_arch *a, const struct want *w)
{
	if (w->pmu)
		return a->pmu && !strcmp(a->pmu, w->pmu);
	return match_rank(a, w->vendor, w->family, w->model);
}

/* The best-ranked config of dir (NULL: cfg_dir()) into path; *best is its rank, 0 when none. */
static int best_config(const char *dir, const struct want *w, char *path, size_t len, int *best,
		       struct err *e)
{
	char dbuf[PATH_MAX], file[PATH_MAX];
	struct dirent **list = NULL;
	int n, rc = 0;

	*best = 0;
	if (!dir) {
		rc = cfg_dir(dbuf, sizeof dbuf, e);
		if (rc)
			return rc;
		dir = dbuf;
	}
	n = scandir(dir, &list, ini_name, alphasort);
	if (n < 0)
		return err_set(e, E_RUNTIME, "%s: %s", dir, strerror(errno));
	for (int i = 0; i < n && !rc; i++) {
		struct cfg c;
		int rank;

		snprintf(file, sizeof file, "%s/%s", dir, list[i]->d_name);
		rc = cfg_load(file, &c, e);
		if (rc || !c.has_arch) {
			cfg_free(&c);
			continue;
		}
		rank = rank_of(&c.arch, w);
		if (rank > *best) {
			*best = rank;
			snprintf(path, len, "%s", file);
		}
		cfg_free(&c);
	}
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return rc;
}

int cfg_select_for_cpu(const char *dir, const char *vendor, unsigned family, unsigned model, char *path,
		       size_t len, struct err *e)
{
	struct want w = {.vendor = vendor, .family = family, .model = model};
	int best, rc = best_config(dir, &w, path, len, &best, e);

	if (rc)
		return rc;
	if (!best)
		return err_set(e, E_RUNTIME, "%s: no config matches %s family 0x%x model 0x%x",
			       dir ? dir : "the config directory", vendor, family, model);
	return 0;
}

int cfg_select_for_pmu(const char *dir, const char *pmu, char *path, size_t len, int *found, struct err *e)
{
	struct want w = {.pmu = pmu};

	return best_config(dir, &w, path, len, found, e);
}
