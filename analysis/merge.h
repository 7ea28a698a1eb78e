/* merge.h — `pmucheck merge DIR...`: many analysed results directories (one per node, e.g. from
 * `pmucheck fleet`) in, one comparison out: per node type the nodes' peak figures side by side with the
 * type's median and spread and the outliers with their reason; per architecture one event table that
 * says on how many nodes each verdict holds and which nodes disagree (docs/results-format.md). */
#ifndef PMUCHECK_MERGE_H
#define PMUCHECK_MERGE_H

#include <limits.h>

#include "err.h"

struct merge_refusal {
	char dir[PATH_MAX];
	char reason[512];
};

struct merge_summary {
	unsigned nodes, types, archs, outliers, plots;
	int gnuplot_missing;
	struct merge_refusal *refused; /* directories that could not be read, in the order given */
	unsigned nrefused;
};

/* Reads every directory of dirs (a directory that cannot be read is refused by name in s->refused and
   left out; the others are merged) and writes merge.{md,json}, nodes.csv, outliers.csv, events.csv,
   report.html and plots/ into out, a new directory (it must not exist), or one the caller made for it and
   left empty (out_made: the default name, claimed by making it). E_USAGE when no directory could be read
   (nothing written), E_RUNTIME when out cannot be written. s is filled in either case; free it with
   merge_summary_free. */
int merge_dirs(char *const *dirs, unsigned n, const char *out, int out_made, struct merge_summary *s,
	       struct err *e);
void merge_summary_free(struct merge_summary *s);

#endif
