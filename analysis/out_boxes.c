/* out_boxes.c — boxes.csv and boxes.md: how each box wildcard's sum (uncore_imc_*: the memory channels)
 * divides among its boxes per level, and the imbalance that makes a box alone a poor stand-in for the
 * sum (box_share.h). Written only when raw.csv holds a summed row with its boxes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box_share.h"
#include "out.h"

/* The entries of one summed row and level: s[0..*k). */
static unsigned run_of(const struct box_share *s, unsigned n)
{
	unsigned k = 1;

	while (k < n && s[k].sum == s[0].sum && s[k].level == s[0].level)
		k++;
	return k;
}

static const char *ratio(char *buf, size_t len, double x)
{
	if (isfinite(x))
		snprintf(buf, len, "%.3f", x);
	else
		snprintf(buf, len, "%s", isinf(x) ? "inf" : "");
	return buf;
}

static void write_csv(FILE *f, const struct agg *a, const struct box_share *s, unsigned n)
{
	fputs("event,box,level,points,share,share_min,share_max,max_over_mean,max_over_min\n", f);
	for (unsigned i = 0; i < n;) {
		unsigned k = run_of(&s[i], n - i);
		double mean, min;
		char b[5][32];
		box_imbalance(&s[i], k, &mean, &min);
		for (unsigned j = i; j < i + k; j++) {
			out_csv_field(f, a->events[s[j].sum].name, 0);
			out_csv_field(f, a->events[s[j].box].name, 0);
			out_csv_field(f, point_level_name(s[j].level), 0);
			snprintf(b[0], 32, "%u", s[j].points);
			out_csv_field(f, b[0], 0);
			snprintf(b[1], 32, "%.4f", s[j].share);
			out_csv_field(f, b[1], 0);
			snprintf(b[2], 32, "%.4f", s[j].lo);
			out_csv_field(f, b[2], 0);
			snprintf(b[3], 32, "%.4f", s[j].hi);
			out_csv_field(f, b[3], 0);
			out_csv_field(f, ratio(b[4], 32, mean), 0);
			out_csv_field(f, ratio(b[4], 32, min), 1);
		}
		i += k;
	}
}

/* One table per summed row: a line per box (its median share in %), a column per level, then the points
   and the imbalance per level; at most 1 + 7 columns however many boxes (28 CHAs) there are. */
static void write_table(FILE *f, const struct agg *a, const struct box_share *s, unsigned n)
{
	unsigned nb = run_of(s, n), nl = n / nb; /* every level has every box, in the same order */
	double mean, min;
	char b[32];

	fprintf(f, "\n## `%s`\n\n| Box |", a->events[s[0].sum].name);
	for (unsigned l = 0; l < nl; l++)
		fprintf(f, " %s |", point_level_name(s[l * nb].level));
	fputs("\n|---|", f);
	for (unsigned l = 0; l < nl; l++)
		fputs("---|", f);
	for (unsigned k = 0; k < nb; k++) {
		box_number(a, s[k].sum, s[k].box, b, sizeof b);
		fprintf(f, "\n| box %s |", b);
		for (unsigned l = 0; l < nl; l++)
			fprintf(f, " %.1f |", s[l * nb + k].share * 100);
	}
	fputs("\n| points |", f);
	for (unsigned l = 0; l < nl; l++)
		fprintf(f, " %u |", s[l * nb].points);
	for (int r = 0; r < 2; r++) {
		fprintf(f, "\n| %s |", r ? "max / min" : "max / mean");
		for (unsigned l = 0; l < nl; l++) {
			box_imbalance(&s[l * nb], nb, &mean, &min);
			fprintf(f, " %s |", ratio(b, sizeof b, r ? min : mean));
		}
	}
	fputc('\n', f);
}

static void write_md(FILE *f, const struct agg *a, const struct box_share *s, unsigned n)
{
	fprintf(f,
		"# Boxes of summed events\n\nA config's box wildcard (`uncore_imc_*`) is judged as the sum "
		"over "
		"its boxes; each box's rows are in raw.csv, and here is how the sum divides among them: per "
		"level, the median over the points of each box's share of the sum (%%), and the largest "
		"share "
		"over the mean (1 = even) and over the smallest. boxes.csv has each share's range.\n");
	for (unsigned i = 0, k; i < n; i += k) {
		for (k = 1; i + k < n && s[i + k].sum == s[i].sum; k++)
			;
		write_table(f, a, &s[i], k);
	}
}

int out_boxes(struct fileset *o, const struct agg *a, unsigned *written, struct err *e)
{
	struct box_share *s;
	unsigned n;
	FILE *csv, *md;
	int rc;

	*written = 0;
	if ((rc = box_shares(a, &s, &n, e)))
		return rc;
	if (n && !(rc = fileset_open(o, "boxes.csv", &csv, e)) &&
	    !(rc = fileset_open(o, "boxes.md", &md, e))) {
		write_csv(csv, a, s, n);
		write_md(md, a, s, n);
		*written = n;
	}
	free(s);
	return rc;
}
