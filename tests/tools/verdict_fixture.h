/* verdict_fixture.h — a generated results directory read into an agg, and one event's verdict, for the
 * cmocka verdict tests (test_verdict_synthetic.c, test_verdict_real.c). Header-only, as rawgen.h. */
#ifndef PMUCHECK_VERDICT_FIXTURE_H
#define PMUCHECK_VERDICT_FIXTURE_H

#include <stdlib.h>
#include <unistd.h>

#include "agg.h"
#include "rawgen.h"
#include "verdict.h"

struct fixture {
	char dir[64];
	struct agg a;
};

/* gen_dir (4 sizes per level, 3 repetitions, measured L3) of events into a fresh directory, read; sw
   (NULL: the default sweep) gives other kernels and the config's hypotheses; drop (NULL: none) names a
   raw.csv column taken out before reading, as in a file from before that column. */
static inline int fixture_open_without(void **state, const struct gen_event *ev, unsigned nev,
				       const struct gen_sweep *sw, const char *drop)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct err e;
	char path[128];

	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/pmucheck-verdict.XXXXXX");
	*state = f;
	if (!mkdtemp(f->dir) || gen_dir_sweep(f->dir, ev, nev, 4, 3, 1, sw) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/machine.json", f->dir);
	if (machine_read(path, &f->a.m, &e))
		return -1;
	if (drop) {
		char cmd[512];
		snprintf(cmd, sizeof cmd,
			 "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"%s\") c = i }"
			 " { s = \"\"; for (i = 1; i <= NF; i++) if (i != c) s = s (s == \"\" ? \"\" : "
			 "\",\") $i;"
			 " print s }' %s/raw.csv > %s/raw.tmp && mv %s/raw.tmp %s/raw.csv",
			 drop, f->dir, f->dir, f->dir, f->dir);
		if (system(cmd))
			return -1;
	}
	snprintf(path, sizeof path, "%s/raw.csv", f->dir);
	return agg_read(&f->a, path, &e) ? -1 : 0;
}

/* The points p[0..np), `reps` repetitions each of the events, into a fresh directory (machine.json without a
   measured L3), read: for a test that needs particular points rather than gen_dir's sweep. */
static inline int fixture_open_points(void **state, const struct gen_point *p, unsigned np, unsigned reps,
				      const struct gen_event *ev, unsigned nev)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct err e;
	char path[128];
	uint64_t rng = 1;
	FILE *out;

	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/pmucheck-points.XXXXXX");
	*state = f;
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(path, sizeof path, "%s/machine.json", f->dir);
	if (!(out = fopen(path, "w")))
		return -1;
	gen_machine(out, 0);
	fclose(out);
	if (machine_read(path, &f->a.m, &e))
		return -1;
	snprintf(path, sizeof path, "%s/raw.csv", f->dir);
	if (!(out = fopen(path, "w")))
		return -1;
	gen_header(out);
	for (unsigned i = 0; i < np; i++)
		for (unsigned r = 0; r < reps; r++)
			gen_rows(out, &p[i], r, ev, nev, &rng, NULL);
	fclose(out);
	return agg_read(&f->a, path, &e) ? -1 : 0;
}

static inline int fixture_open_sweep(void **state, const struct gen_event *ev, unsigned nev,
				     const struct gen_sweep *sw)
{
	return fixture_open_without(state, ev, nev, sw, NULL);
}

static inline int fixture_open(void **state, const struct gen_event *ev, unsigned nev)
{
	return fixture_open_sweep(state, ev, nev, NULL);
}

static inline int fixture_close(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	agg_free(&f->a);
	snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
	free(f);
	return system(cmd) ? -1 : 0;
}

/* The verdict of the event named name; its index into *index when index is not NULL. */
static inline struct verdict fixture_judge(void **state, const char *name, uint32_t *index)
{
	struct fixture *f = *state;
	struct verdict v = {0}; /* returned after fail_msg() too, which the compiler does not know ends */
	struct err e;

	for (uint32_t i = 0; i < f->a.nevents; i++)
		if (strcmp(f->a.events[i].name, name) == 0) {
			assert_int_equal(verdict_event(&f->a, i, &v, &e), 0);
			if (index)
				*index = i;
			return v;
		}
	fail_msg("event %s not in the generated data", name);
	return v;
}

#endif
