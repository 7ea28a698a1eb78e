/* out_stalls.c — stalls.md: cycles per load as each stall-like event reports it, for the plain,
 * independent-multiply and dependent-multiply pointer chase (Molka et al., Fig. 7/8). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out.h"
#include "thresholds.h"

/* A figure, marked "*" where it rests on noisy points only (stall.h). */
static const char *num(char *buf, size_t len, int have, double x, int noisy)
{
	if (!have || isnan(x))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.1f%s", x, noisy ? "*" : "");
	return buf;
}

static const char *judgement(const struct stall_row *r)
{
	if (r->memory_only)
		return "memory stalls only";
	if (r->dep_rises)
		return "counts execution too (rises with dependent multiplies)";
	if (r->indep_rises)
		return "rises with independent multiplies";
	if (!r->have[CH_DEP])
		return "undecided (no dependent-multiply chase)";
	return "falls with dependent multiplies";
}

/* The column head of a chase with multiplies: "dep (K=16)" where every row that has it took one K (stall.c:
   the most of a level's points), else "dep" and each figure names its own (k_each set). */
static void k_head(char *buf, size_t len, const char *name, const struct stall_row *rows, unsigned n, int c,
		   int *k_each)
{
	int64_t k = -1;

	*k_each = 0;
	for (unsigned i = 0; i < n; i++)
		if (rows[i].have[c]) {
			*k_each |= k >= 0 && rows[i].k[c] != k;
			k = rows[i].k[c];
		}
	if (k < 0 || *k_each)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s (K=%lld)", name, (long long)k);
}

/* num, followed by " (K=n)" where k_each. */
static const char *num_k(char *buf, size_t len, const struct stall_row *r, int c, int k_each)
{
	size_t used = strlen(num(buf, len, r->have[c], r->reported[c], r->noisy[c]));

	if (k_each && used)
		snprintf(buf + used, len - used, " (K=%lld)", (long long)r->k[c]);
	return buf;
}

static void write_md(FILE *f, const struct agg *a, const struct stall_row *rows, unsigned n)
{
	char b[6][48], head[2][32];
	int marked = 0, each[2];

	k_head(head[0], sizeof head[0], "indep", rows, n, CH_INDEP, &each[0]);
	k_head(head[1], sizeof head[1], "dep", rows, n, CH_DEP, &each[1]);
	fprintf(f,
		"# Memory stall events\n\nCycles per load reported by each event (count / dependent "
		"loads) next to the measured core cycles per load, for the pointer chase plain, with "
		"K independent and with K dependent multiplies per load (where a run has chases with "
		"several K, a level's figures are those of the most the event was counted with).\n\n");
	fprintf(f,
		"| Event | Level | plain | %s | %s | measured plain | measured indep "
		"| measured dep | Verdict | Plain vs measured latency |\n",
		head[0], head[1]);
	fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < n; i++) {
		const struct stall_row *r = &rows[i];
		char name[512];
		marked |= r->noisy[CH_PLAIN] || r->noisy[CH_INDEP] || r->noisy[CH_DEP];
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %s |\n",
			out_md_text(a->events[r->event].name, name, sizeof name), point_level_name(r->level),
			num(b[0], sizeof b[0], r->have[CH_PLAIN], r->reported[CH_PLAIN], r->noisy[CH_PLAIN]),
			num_k(b[1], sizeof b[1], r, CH_INDEP, each[0]),
			num_k(b[2], sizeof b[2], r, CH_DEP, each[1]),
			num(b[3], sizeof b[3], 1, r->measured[CH_PLAIN], r->noisy[CH_PLAIN]),
			num(b[4], sizeof b[4], 1, r->measured[CH_INDEP], r->noisy[CH_INDEP]),
			num(b[5], sizeof b[5], 1, r->measured[CH_DEP], r->noisy[CH_DEP]), judgement(r),
			r->indep_drops
				? "; falls with independent multiplies (counts only cycles without execution)"
				: "",
			r->matches_latency ? "matches" : "differs");
	}
	fprintf(f,
		"\nAn event reports memory stalls only when the dependent chase gives the same cycles per "
		"load as the plain one and independent multiplies do not raise it, both within %.0f %%; "
		"events showing less than %.0f %% of the measured cycles per load are not listed.\n",
		THR_STALL_MATCH * 100, THR_STALL_MIN_FRACTION * 100);
	fprintf(f,
		"Each figure rests on the level's clean points of that chase; where it has none, on its "
		"disturbed ones (raw.csv flag noisy), marked *: a disturbed chase takes longer while its "
		"events need not count more.\n");
	if (!marked)
		fprintf(f, "No figure here rests on disturbed points.\n");
	out_thresholds_md(f);
}

int out_stalls(struct fileset *o, const struct agg *a, const struct stall_row *rows, unsigned n,
	       struct err *e)
{
	FILE *md;
	int rc;

	if (!n)
		return 0;
	if ((rc = fileset_open(o, "stalls.md", &md, e)))
		return rc;
	write_md(md, a, rows, n);
	return 0;
}
