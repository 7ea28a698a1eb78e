/* merge_int.h — what the parts of `merge` share: a node reduced to the few figures and facts the
 * comparison needs (a directory is read, reduced and closed before the next is opened, so memory
 * grows with nodes x figures, never with the rows of their raw.csv or tables), node types,
 * architectures with their per-node event verdicts. */
#ifndef PMUCHECK_MERGE_INT_H
#define PMUCHECK_MERGE_INT_H

#include <limits.h>
#include <stdio.h>

#include "err.h"
#include "merge.h"
#include "verdict.h"

/* The facts nodes of one type must share; a node that differs from its type's most common value is an
   outlier. */
enum merge_fact { MF_MICROCODE, MF_PREFETCH, MF_THP, MF_GOVERNOR, MF_SMT, MF_CACHES, MF_PMUCHECK, MF_COUNT };
extern const char *const merge_fact_names[MF_COUNT];

#define MERGE_TEXT 256
#define MERGE_NO_CLASS 255 /* the node did not list the event */

struct merge_node {
	char name[128], dir[PATH_MAX];
	unsigned type, arch;
	char fact[MF_COUNT][MERGE_TEXT];
	double *val; /* by the type's figure index; NaN (or beyond nval) where the node has no figure */
	unsigned char *noisy; /* by figure index: 1 where peaks.csv's quality says the figure is a noisy
				 point's; such a figure is shown but neither forms the median nor is judged */
	unsigned nval;
};

/* A figure of peaks.csv: "L2 read GB/s 1 core". Latency figures are better when lower. */
struct merge_fig {
	char name[96];
	int latency;
	double median, spread; /* over the type's nodes: geometric median, robust spread (relative) */
	unsigned n;            /* nodes with a value */
};

/* What a node type is beyond its CPU: how the node is built (merge_read.c type_key). */
enum merge_shape { MS_SOCKETS, MS_CORES, MS_CPUS, MS_NUMA, MS_GIB, MS_COUNT };

struct merge_type {
	char key[512], label[512];
	char cpu[512];             /* the CPU alone: model name, vendor, family, model, stepping */
	long long shape[MS_COUNT]; /* GiB -1: memory unknown */
	unsigned *node, nnode;
	struct merge_fig *fig;
	unsigned nfig;
	char fact[MF_COUNT][MERGE_TEXT]; /* the most common value of each fact; "" where split */
	int split[MF_COUNT];             /* two or more values share the most nodes: none is most common */
};

struct merge_event {
	char name[256];
	unsigned char *cls; /* by the architecture's node index: enum verdict_class or MERGE_NO_CLASS */
};

struct merge_arch {
	char name[256];
	unsigned *node, nnode;
	struct merge_event *ev;
	unsigned nev;
};

/* One reason a node is an outlier. */
struct merge_outlier {
	unsigned node;
	char reason[400];
};

struct merge {
	struct merge_node *node;
	unsigned nnode;
	struct merge_type *type;
	unsigned ntype;
	struct merge_arch *arch;
	unsigned narch;
	struct merge_outlier *out;
	unsigned nout;
	unsigned outlier_nodes;
};

/* Reads DIR into m as a new node. A directory that is not an analysed pmucheck results directory of a
   format this version reads gives E_USAGE with the reason (naming the file) and leaves m as it was. */
int merge_read_dir(struct merge *m, const char *dir, struct err *e);

/* Per type and figure: the median and spread; then every outlier (figures and facts). -1 when out of
   memory. */
int merge_judge(struct merge *m);

/* The most common class of event ev over the architecture's nodes that listed it (of equals the
   weakest: VC_BOX last), and in *agree on how many. */
unsigned merge_ev_majority(const struct merge_arch *a, const struct merge_event *ev, unsigned *agree);

/* The outputs into the fileset's directory (merge_out.c, merge_plot.c). */
struct fileset;
int merge_write_tables(struct fileset *o, const struct merge *m, const struct merge_summary *s,
		       struct err *e);
int merge_write_md(FILE *f, const struct merge *m, const struct merge_summary *s, const char *const *plots);
/* Draws plots/type-N.{png,svg} per node type with >= 1 figure; plots[i] names type i's PNG or is NULL. */
int merge_plots(const struct merge *m, const char *out, char **plots, struct merge_summary *s, struct err *e);

#endif
