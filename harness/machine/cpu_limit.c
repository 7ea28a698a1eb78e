/* cpu_limit.c — the cgroup CPU quota from the files the kernel documents (cgroups(7), proc(5),
 * Documentation/admin-guide/cgroup-v2.rst, Documentation/scheduler/sched-bwc.rst):
 *   /proc/self/cgroup     "ID:controllers:path" per hierarchy; v1 lists "cpu" among the controllers,
 *                         v2 is "0::path";
 *   /proc/self/mountinfo  where each hierarchy is mounted: "... root mountpoint ... - fstype source opts",
 *                         v1 "cgroup" with "cpu" in its options, v2 "cgroup2". A container sees its own
 *                         cgroup as the mount's root, so the path is taken relative to that root;
 *   v1 cpu.cfs_quota_us (-1: none) and cpu.cfs_period_us; v2 cpu.max "max|QUOTA PERIOD";
 *   cpu.stat nr_periods, nr_throttled, and throttled_time (v1, ns) or throttled_usec (v2).
 * A parent's quota throttles all its children together, so every cgroup from the run's up to the
 * mount's root is read and the tightest (fewest CPUs) taken; and the cpu.stat of each with a quota is
 * sampled, since a looser parent shared with sibling jobs stops the run whenever they all used it up,
 * while the tighter child's own cpu.stat shows no stop. */
#include <stdio.h>
#include <string.h>

#include "cpu_limit.h"

/* mountinfo writes space, tab, newline and backslash as \ooo octal escapes. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

/* Whether the comma-separated list holds the token word. */
static int has_token(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == 0 || p[n] == '\n'))
			return 1;
	return 0;
}

/* The run's cgroup paths: v1's where the cpu controller is, v2's; "" where absent. */
static int own_cgroups(const char *root, char *v1, char *v2, struct err *e)
{
	char path[PATH_MAX], line[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
	if (!(f = fopen(path, "r")))
		return err_set(e, E_RUNTIME, "%s: cannot read it", path);
	*v1 = *v2 = 0;
	while (fgets(line, sizeof line, f)) {
		char *ctl = strchr(line, ':'), *cg = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!cg)
			continue;
		*ctl = 0;
		*cg++ = 0;
		cg[strcspn(cg, "\n")] = 0;
		if (!strcmp(line, "0") && !ctl[1])
			snprintf(v2, PATH_MAX, "%s", cg);
		else if (has_token(ctl + 1, "cpu"))
			snprintf(v1, PATH_MAX, "%s", cg);
	}
	fclose(f);
	return 0;
}

/* The mount of hierarchy version (1: the one with the cpu controller, 2: cgroup2): its root within the
   hierarchy and its mount point. 1 when found. */
static int find_mount(const char *root, int version, char *mroot, char *mpoint, struct err *e)
{
	char path[PATH_MAX], line[3 * PATH_MAX];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/proc/self/mountinfo", root);
	if (!(f = fopen(path, "r")))
		return err_set(e, E_RUNTIME, "%s: cannot read it", path);
	while (!found && fgets(line, sizeof line, f)) {
		char *field[6], *sep = strstr(line, " - "), *save = NULL, fstype[32] = "", opts[512] = "";
		int n = 0;
		if (!sep || sscanf(sep + 3, "%31s %*s %511s", fstype, opts) < 1)
			continue;
		*sep = 0;
		for (char *t = strtok_r(line, " ", &save); t && n < 6; t = strtok_r(NULL, " ", &save))
			field[n++] = t;
		if (n < 5)
			continue;
		if (version == 1 ? !strcmp(fstype, "cgroup") && has_token(opts, "cpu")
				 : !strcmp(fstype, "cgroup2")) {
			unescape(field[3]);
			unescape(field[4]);
			snprintf(mroot, PATH_MAX, "%s", field[3]);
			snprintf(mpoint, PATH_MAX, "%s", field[4]);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* One cgroup directory's quota: 1 with *quota, *period set, 0 when it has none (or no quota file: the
   root of a v2 hierarchy), E_RUNTIME when a file is there but not as documented. */
static int read_quota(const char *dir, int version, long long *quota, long long *period, struct err *e)
{
	char path[PATH_MAX + 32], word[32];
	FILE *f;
	int n;

	snprintf(path, sizeof path, "%s/%s", dir, version == 1 ? "cpu.cfs_quota_us" : "cpu.max");
	if (!(f = fopen(path, "r")))
		return 0;
	n = version == 1 ? fscanf(f, "%lld", quota) : fscanf(f, "%31s %lld", word, period);
	fclose(f);
	if (version == 2 && n == 2 && !strcmp(word, "max"))
		return 0;
	if (version == 2 && n == 2 && sscanf(word, "%lld", quota) != 1)
		n = 0;
	if (n != version)
		return err_set(e, E_RUNTIME, "%s: not %s", path,
			       version == 1 ? "a number" : "'max PERIOD' or 'QUOTA PERIOD'");
	if (*quota < 0)
		return 0; /* v1's -1: no limit */
	if (version == 1) {
		snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
		if (!(f = fopen(path, "r")))
			return err_set(e, E_RUNTIME, "%s: cannot read it", path);
		n = fscanf(f, "%lld", period);
		fclose(f);
		if (n != 1)
			return err_set(e, E_RUNTIME, "%s: not a number", path);
	}
	if (*period <= 0 || *quota == 0)
		return err_set(e, E_RUNTIME, "%s: quota %lld us per %lld us is not a limit the kernel takes",
			       path, *quota, *period);
	return 1;
}

/* Reads the quotas from the run's cgroup up to base (the mount point), keeping each in l->level and the
   tightest in l's own fields. */
static int tightest(struct cpu_limit *l, const char *base, struct err *e)
{
	char dir[PATH_MAX], cg[PATH_MAX];
	size_t nbase = strlen(base);

	snprintf(dir, sizeof dir, "%s", l->own_dir);
	snprintf(cg, sizeof cg, "%s", l->own_cgroup);
	for (;;) {
		struct cpu_limit_level *v = &l->level[l->nlevels];
		int r = l->nlevels < CPU_LIMIT_MAX
			? read_quota(dir, l->version, &v->quota_us, &v->period_us, e)
			: 0;
		char *slash;
		if (r < 0)
			return r;
		if (r) {
			v->dir_len = strlen(dir);
			v->cgroup_len = strlen(cg);
			if (!l->quota_us || (double)v->quota_us / (double)v->period_us < cpu_limit_cpus(l)) {
				l->tight = l->nlevels;
				l->quota_us = v->quota_us;
				l->period_us = v->period_us;
				snprintf(l->cgroup, sizeof l->cgroup, "%s", *cg ? cg : "/");
			}
			l->nlevels++;
		}
		if (strlen(dir) <= nbase || !(slash = strrchr(dir + nbase, '/')))
			return 0;
		*slash = 0;
		if ((slash = strrchr(cg, '/')))
			*slash = 0;
	}
}

int cpu_limit_find(const char *root, struct cpu_limit *l, struct err *e)
{
	char v1[PATH_MAX], v2[PATH_MAX], mroot[PATH_MAX], mpoint[PATH_MAX], base[PATH_MAX];
	const char *cg, *rel;
	size_t n;
	int r;

	memset(l, 0, sizeof *l);
	if ((r = own_cgroups(root, v1, v2, e)))
		return r;
	if (*v1 && (r = find_mount(root, 1, mroot, mpoint, e)) > 0)
		l->version = 1;
	else if (r >= 0 && *v2 && (r = find_mount(root, 2, mroot, mpoint, e)) > 0)
		l->version = 2;
	if (r < 0)
		return r;
	if (!l->version)
		return err_set(e, E_RUNTIME,
			       "%s/proc/self/cgroup and mountinfo: no mounted cgroup hierarchy has the cpu "
			       "controller",
			       root);
	cg = l->version == 1 ? v1 : v2;
	/* the path below the mount's root; a cgroup outside what the mount shows counts as its root */
	n = strlen(mroot);
	rel = !strcmp(mroot, "/") ? cg : !strncmp(cg, mroot, n) && (!cg[n] || cg[n] == '/') ? cg + n : "";
	snprintf(base, sizeof base, "%s%s", root, strcmp(mpoint, "/") ? mpoint : "");
	snprintf(l->own_dir, sizeof l->own_dir, "%s%s", base, strcmp(rel, "/") ? rel : "");
	snprintf(l->own_cgroup, sizeof l->own_cgroup, "%s%s", strcmp(mroot, "/") ? mroot : "", rel);
	snprintf(l->cgroup, sizeof l->cgroup, "%s", l->own_cgroup);
	/* a quota that cannot be read is none found: with l->version left set, machine.json recorded a
	   cgroup without a quota ("cpus": null) where the run said it was not recorded */
	if ((r = tightest(l, base, e)))
		memset(l, 0, sizeof *l);
	return r;
}

/* One cgroup's cpu.stat in dir. */
static int read_stat(const char *dir, struct cpu_stat *s, struct err *e)
{
	char path[PATH_MAX + 16], line[256];
	unsigned long long v;
	int have = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/cpu.stat", dir);
	if (!(f = fopen(path, "r")))
		return err_set(e, E_RUNTIME, "%s: cannot read it", path);
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "nr_periods %llu", &v) == 1)
			s->periods = v, have |= 1;
		else if (sscanf(line, "nr_throttled %llu", &v) == 1)
			s->throttled = v, have |= 2;
		else if (sscanf(line, "throttled_time %llu", &v) == 1)
			s->throttled_ns = v, have |= 4;
		else if (sscanf(line, "throttled_usec %llu", &v) == 1)
			s->throttled_ns = v * 1000, have |= 4;
	}
	fclose(f);
	if (have != 7)
		return err_set(e, E_RUNTIME, "%s: no nr_periods, nr_throttled and throttled time", path);
	return 0;
}

int cpu_limit_sample(const struct cpu_limit *l, struct cpu_throttle *s, struct err *e)
{
	char dir[PATH_MAX];
	int r;

	memset(s, 0, sizeof *s);
	for (int i = 0; i < l->nlevels; i++) {
		snprintf(dir, sizeof dir, "%.*s", (int)l->level[i].dir_len, l->own_dir);
		if ((r = read_stat(dir, &s->at[i], e)))
			return r;
	}
	s->n = l->nlevels;
	return 0;
}

unsigned long long cpu_limit_stops(const struct cpu_throttle *s)
{
	unsigned long long n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->at[i].throttled;
	return n;
}

/* Whether level i's counters moved forward between the samples (a cgroup removed and made again under
   the same name starts them over). */
static int counted(const struct cpu_throttle *a, const struct cpu_throttle *b, int i)
{
	return i < a->n && i < b->n && b->at[i].periods >= a->at[i].periods &&
		b->at[i].throttled >= a->at[i].throttled && b->at[i].throttled_ns >= a->at[i].throttled_ns;
}

int cpu_limit_worst(const struct cpu_limit *l, const struct cpu_throttle *before,
		    const struct cpu_throttle *after)
{
	int worst = l->tight;

	for (int i = 0; i < l->nlevels; i++)
		if (counted(before, after, i) &&
		    (!counted(before, after, worst) ||
		     after->at[i].throttled - before->at[i].throttled >
			     after->at[worst].throttled - before->at[worst].throttled))
			worst = i;
	return worst;
}

const char *cpu_limit_level_cgroup(const struct cpu_limit *l, int i, char *buf)
{
	snprintf(buf, PATH_MAX, "%.*s", (int)l->level[i].cgroup_len, l->own_cgroup);
	return *buf ? buf : "/";
}

double cpu_limit_cpus(const struct cpu_limit *l)
{
	return l->quota_us > 0 && l->period_us > 0 ? (double)l->quota_us / (double)l->period_us : 0;
}

/* The figures of one cgroup with a quota: its quota, and its throttling where both samples were read. */
static json_t *level_json(const struct cpu_limit *l, int i, const struct cpu_throttle *a,
			  const struct cpu_throttle *b)
{
	const struct cpu_limit_level *v = &l->level[i];
	char cg[PATH_MAX];
	json_t *o = json_pack("{s:s, s:f, s:I}", "cgroup", cpu_limit_level_cgroup(l, i, cg), "cpus",
			      (double)v->quota_us / (double)v->period_us, "period_us",
			      (json_int_t)v->period_us);

	if (a && b && counted(a, b, i)) {
		json_object_set_new(o, "periods",
				    json_integer((json_int_t)(b->at[i].periods - a->at[i].periods)));
		json_object_set_new(o, "throttled_periods",
				    json_integer((json_int_t)(b->at[i].throttled - a->at[i].throttled)));
		json_object_set_new(
			o, "throttled_seconds",
			json_real((double)(b->at[i].throttled_ns - a->at[i].throttled_ns) * 1e-9));
	}
	return o;
}

/* what "limits" holds, alike for both hierarchies */
#define LIMITS_SOURCE \
	"; limits: the same of every cgroup on the path with a quota, the run's first, each on its own, " \
	"since a looser parent shared with other jobs stops the run too once they used it up, and the " \
	"periods of one cgroup are not another's"

json_t *cpu_limit_json(const struct cpu_limit *l, const struct cpu_throttle *before,
		       const struct cpu_throttle *after)
{
	json_t *o = json_pack(
		"{s:s, s:i, s:o, s:s}", "cgroup", l->cgroup, "version", l->version, "cpus",
		l->quota_us ? json_real(cpu_limit_cpus(l)) : json_null(), "source",
		l->version == 1
			? "cgroup v1 cpu.cfs_quota_us / cpu.cfs_period_us of the run's cgroup and "
			  "its parents, the tightest; its cpu.stat nr_periods, nr_throttled and "
			  "throttled_time between the start and the end of the measurements" LIMITS_SOURCE
			: "cgroup v2 cpu.max of the run's cgroup and its parents, the tightest; its "
			  "cpu.stat nr_periods, nr_throttled and throttled_usec between the start and "
			  "the end of the measurements" LIMITS_SOURCE);
	json_t *limits, *tight;

	if (!l->quota_us)
		return o;
	json_object_set_new(o, "period_us", json_integer(l->period_us));
	limits = json_array();
	for (int i = 0; i < l->nlevels; i++)
		json_array_append_new(limits, level_json(l, i, before, after));
	/* the top-level figures are the tightest's, as before limits existed */
	tight = json_array_get(limits, (size_t)l->tight);
	json_object_update_missing(o, tight);
	json_object_set_new(o, "limits", limits);
	return o;
}
