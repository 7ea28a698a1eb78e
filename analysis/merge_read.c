/* merge_read.c — one results directory reduced to a merge node: its type (CPU, sockets, cores, NUMA
 * nodes, memory), the facts its type must share, its peak figures (peaks.csv) and its event verdicts
 * (events.json); machine.json through the one typed reader (machine_read). Every check comes before
 * the first change to the merge, so a refused directory leaves no trace but its refusal. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_file.h"
#include "kern.h"
#include "merge_int.h"
#include "machine_read.h"
#include "out_report_csv.h"
#include "out_report_data.h"
#include "partial.h"
#include "peak.h"

const char *const merge_fact_names[MF_COUNT] = {"microcode",   "prefetcher MSRs", "THP", "governor", "SMT",
						"cache sizes", "pmucheck version"};

/* The peaks.csv columns merged, and how a figure is named after its row's level and access; the all-cores
   figure after its thread count too (threads_col), so that nodes run with other --threads are not one
   figure, the fewer threads' node an outlier for its option. */
static const struct {
	const char *col, *what, *threads_col;
	int latency;
} fig_cols[] = {
	{"gbps_1_core", "GB/s 1 core", NULL, 0},
	{"gbps_all_cores", "GB/s all cores", "threads_all_cores", 0},
	{"latency_ns", "ns", NULL, 1},
};
#define NFIG_COLS (sizeof fig_cols / sizeof fig_cols[0])

static const char *str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* "L1d 48K L2 1024K L3 520192K", the BIOS-visible sizes from hwloc. */
static void caches_text(const struct machine *mj, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < mj->ncaches; i++) {
		const struct machine_cache *c = &mj->caches[i];
		if (!strcmp(c->type, "instruction") || n + 32 > len)
			continue;
		n += snprintf(buf + n, len - n, "%sL%d%s %.0fK", n ? " " : "", c->level,
			      !strcmp(c->type, "data") ? "d" : "", c->size / 1024);
	}
}

static void facts(const struct machine *mj, char fact[MF_COUNT][MERGE_TEXT])
{
	snprintf(fact[MF_MICROCODE], MERGE_TEXT, "%s", mj->microcode);
	snprintf(fact[MF_PREFETCH], MERGE_TEXT, "%s",
		 mj->prefetch_control ? mj->prefetch_before : "not readable");
	snprintf(fact[MF_THP], MERGE_TEXT, "%s", mj->thp);
	snprintf(fact[MF_GOVERNOR], MERGE_TEXT, "%s", mj->governor);
	snprintf(fact[MF_SMT], MERGE_TEXT, "%s", mj->smt);
	caches_text(mj, fact[MF_CACHES], MERGE_TEXT);
	snprintf(fact[MF_PMUCHECK], MERGE_TEXT, "%s", mj->version);
}

/* The node type: what the CPU is and how the memory is built. Microcode is a fact nodes of a type
   share, not part of the type: a node left on old microcode must stand out among its peers rather
   than form a type of its own. Memory is MemTotal rounded to GiB (the kernel's reservations move it by
   a few MiB between identical nodes). t gets its key, label, CPU and shape. */
static void type_of(const struct machine *mj, struct merge_type *t)
{
	long long kib = mj->mem_total_kib, gib = kib > 0 ? (kib + 512 * 1024) / (1024 * 1024) : -1;
	const char *model = *mj->cpu ? mj->cpu : "?";
	char mem[32];

	if (gib >= 0)
		snprintf(mem, sizeof mem, "%lld GiB", gib);
	else
		snprintf(mem, sizeof mem, "memory unknown");
	snprintf(t->cpu, sizeof t->cpu, "%s|%s|%d|%d|%d", model, mj->vendor, mj->family, mj->model,
		 mj->stepping);
	t->shape[MS_SOCKETS] = mj->sockets;
	t->shape[MS_CORES] = mj->cores;
	t->shape[MS_CPUS] = mj->pus;
	t->shape[MS_NUMA] = mj->numa_nodes;
	t->shape[MS_GIB] = gib;
	snprintf(t->key, sizeof t->key, "%s|%d|%d|%d|%d|%lld", t->cpu, mj->sockets, mj->cores, mj->pus,
		 mj->numa_nodes, gib);
	snprintf(t->label, sizeof t->label,
		 "%s (family 0x%x model 0x%x stepping %d), %d socket(s), %d cores, %d CPUs, %d NUMA node(s), "
		 "%s",
		 model, (unsigned)mj->family, (unsigned)mj->model, mj->stepping, mj->sockets, mj->cores,
		 mj->pus, mj->numa_nodes, mem);
}

/* The first event listed again in events.json: the analysis lists each once (agg.c keys them by name),
   and merge, keying them by name too, took the later one's verdict for the node's without a word. */
static int events_once(const json_t *j, const char *path, struct err *e)
{
	json_t *seen = json_object(), *ev;
	size_t i;
	int rc = seen ? 0 : err_set(e, E_RUNTIME, "out of memory");

	json_array_foreach(json_object_get(j, "events"), i, ev)
	{
		const char *name = str(ev, "event");
		json_t *first = json_object_get(seen, name);
		if (rc)
			break;
		if (first)
			rc = err_set(e, E_USAGE, "%s: malformed: event %zu, %s, again (event %lld)", path,
				     i + 1, name, (long long)json_integer_value(first));
		else if (json_object_set_new(seen, name, json_integer((json_int_t)i + 1)))
			rc = err_set(e, E_RUNTIME, "out of memory");
	}
	json_decref(seen);
	return rc;
}

/* dir/events.json, of pmucheck's format, with a known class for every event (out_events_check), each event
   once. Any fault of the file refuses the directory, never ends the merge. */
static int load_events(const char *dir, json_t **j, struct err *e)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/events.json", dir);
	if (json_file_load(path, JSON_FILE_OPTIONAL | JSON_FILE_FORMAT | JSON_FILE_RESULTS, j, e))
		return E_USAGE;
	if (!*j)
		return err_set(e, E_USAGE, "%s: no events.json: not a pmucheck results directory", dir);
	return out_events_check(*j, path, e) || out_events_current(*j, dir, -1, e) ? E_USAGE
										   : events_once(*j, path, e);
}

/* A figure cell as the analysis writes it: empty (no figure), or a finite decimal number, *v its value;
   -1 for anything else (an edited 1e400 or 0x10 went into merge.json as a bare inf, which is no JSON). */
static int figure_cell(const char *cell, double *v)
{
	char *end;

	*v = 0;
	if (!cell[0])
		return 0;
	*v = strtod(cell, &end);
	return *end || !isfinite(*v) || *v < 0 || strpbrk(cell, "xX") ? -1 : 0;
}

static int check_peaks(const struct out_csv *t, const char *dir, struct err *e)
{
	if (out_csv_col(t, "level") < 0 || out_csv_col(t, "access") < 0)
		return err_set(e, E_USAGE, "%s/peaks.csv: malformed: no level and access columns", dir);
	for (size_t c = 0; c < NFIG_COLS; c++)
		if (out_csv_col(t, fig_cols[c].col) < 0)
			return err_set(e, E_USAGE, "%s/peaks.csv: no column %s: written by another version",
				       dir, fig_cols[c].col);
	int lc = out_csv_col(t, "level"), ac = out_csv_col(t, "access");

	/* as analyze refuses a malformed raw.csv: a row cut short read its quality as clean, one with a
	   quote never closed vanished */
	if (t->bad_line)
		return err_set(e, E_USAGE, "%s/peaks.csv line %u: %s", dir, t->bad_line, t->bad_why);
	for (unsigned r = 0; r < t->nrows; r++) {
		/* "other DRAM": a file from before each placement had rows of its own */
		int level = peak_level_known(t->rows[r][lc]) || !strcmp(t->rows[r][lc], "other DRAM"),
		    access = kern_name_index(t->rows[r][ac], kern_access_names, KA_COUNT) > 0;
		if (t->nfields[r] != t->ncols)
			return err_set(e, E_USAGE, "%s/peaks.csv line %u: %s%u fields, the header has %u",
				       dir, t->line[r], t->nfields[r] > t->ncols ? "more than " : "",
				       t->nfields[r] > t->ncols ? t->ncols : t->nfields[r], t->ncols);
		if (!level || !access)
			return err_set(e, E_USAGE, "%s/peaks.csv line %u: no %s '%s'", dir, t->line[r],
				       level ? "access" : "level", level ? t->rows[r][ac] : t->rows[r][lc]);
		for (unsigned q = 0; q < r; q++)
			if (!strcmp(t->rows[q][lc], t->rows[r][lc]) &&
			    !strcmp(t->rows[q][ac], t->rows[r][ac]))
				return err_set(e, E_USAGE,
					       "%s/peaks.csv line %u: the %s %s row again (line %u)", dir,
					       t->line[r], t->rows[r][lc], t->rows[r][ac], t->line[q]);
	}
	/* the row named by its level and access: the reader skips '#' lines, so its index is no line */
	for (unsigned r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < NFIG_COLS; c++) {
			const char *cell = t->rows[r][out_csv_col(t, fig_cols[c].col)];
			double v;
			if (figure_cell(cell, &v))
				return err_set(e, E_USAGE,
					       "%s/peaks.csv: the %s %s row, column %s: '%s' is no figure (a "
					       "finite decimal number, not negative, or empty)",
					       dir, t->rows[r][out_csv_col(t, "level")],
					       t->rows[r][out_csv_col(t, "access")], fig_cols[c].col, cell);
		}
	return 0;
}

/* Grows *p (n elements of size sz) by one zeroed element; NULL when out of memory. */
static void *grow(void *p, unsigned n, size_t sz, void **out)
{
	char *q = realloc(p, (n + 1) * sz);

	if (!q)
		return NULL;
	memset(q + n * sz, 0, sz);
	*out = q;
	return q + n * sz;
}

static int find_type(struct merge *m, const struct merge_type *of)
{
	struct merge_type *t;

	for (unsigned i = 0; i < m->ntype; i++)
		if (!strcmp(m->type[i].key, of->key))
			return (int)i;
	if (!(t = grow(m->type, m->ntype, sizeof *t, (void **)&m->type)))
		return -1;
	memcpy(t->key, of->key, sizeof t->key);
	memcpy(t->label, of->label, sizeof t->label);
	memcpy(t->cpu, of->cpu, sizeof t->cpu);
	memcpy(t->shape, of->shape, sizeof t->shape);
	return (int)m->ntype++;
}

static int find_fig(struct merge_type *t, const char *name, int latency)
{
	struct merge_fig *f;

	for (unsigned i = 0; i < t->nfig; i++)
		if (!strcmp(t->fig[i].name, name))
			return (int)i;
	if (!(f = grow(t->fig, t->nfig, sizeof *f, (void **)&t->fig)))
		return -1;
	snprintf(f->name, sizeof f->name, "%s", name);
	f->latency = latency;
	return (int)t->nfig++;
}

static int set_val(struct merge_node *nd, unsigned i, double v, int noisy)
{
	if (i >= nd->nval) {
		double *p = realloc(nd->val, (i + 1) * sizeof *p);
		unsigned char *q;
		if (!p)
			return -1;
		nd->val = p;
		if (!(q = realloc(nd->noisy, i + 1)))
			return -1;
		nd->noisy = q;
		for (unsigned k = nd->nval; k <= i; k++)
			p[k] = NAN, q[k] = 0;
		nd->nval = i + 1;
	}
	nd->val[i] = v;
	nd->noisy[i] = (unsigned char)noisy;
	return 0;
}

/* Whether a row of quality q has figure fig_cols[c] from a disturbed point: "noisy (W; n of m points
   disturbed)" says which (peak_noisy_which: the 1-core figures, bandwidth and latency, or the all-cores
   one, or both); files from before it said which ("noisy (n of m ...)"): every figure of the row; files
   without the column: none. */
static int noisy_figure(const char *q, size_t c)
{
	if (strncmp(q, "noisy", 5))
		return 0;
	for (int w = PEAK_NOISY_ONE; w <= PEAK_NOISY_ALL; w++)
		if (!strncmp(q, "noisy (", 7) &&
		    !strncmp(q + 7, peak_noisy_which[w], strlen(peak_noisy_which[w])))
			return (fig_cols[c].threads_col != NULL) == (w == PEAK_NOISY_ALL);
	return 1;
}

static int add_figures(struct merge_type *t, struct merge_node *nd, const struct out_csv *pk)
{
	int lc = out_csv_col(pk, "level"), ac = out_csv_col(pk, "access"), qc = out_csv_col(pk, "quality");

	for (unsigned r = 0; r < pk->nrows; r++)
		for (size_t c = 0; c < NFIG_COLS; c++) {
			int noisy = qc >= 0 && noisy_figure(pk->rows[r][qc], c);
			const char *cell = pk->rows[r][out_csv_col(pk, fig_cols[c].col)];
			char name[96];
			double v;
			int fi;
			if (figure_cell(cell, &v) || !(v > 0)) /* check_peaks refused a bad one */
				continue;
			int tc = fig_cols[c].threads_col ? out_csv_col(pk, fig_cols[c].threads_col) : -1;
			if (tc >= 0 && pk->rows[r][tc][0]) /* "GB/s 8 cores"; files without it: all cores */
				snprintf(name, sizeof name, "%s %s GB/s %s cores", pk->rows[r][lc],
					 pk->rows[r][ac], pk->rows[r][tc]);
			else
				snprintf(name, sizeof name, "%s %s %s", pk->rows[r][lc], pk->rows[r][ac],
					 fig_cols[c].what);
			if ((fi = find_fig(t, name, fig_cols[c].latency)) < 0 ||
			    set_val(nd, (unsigned)fi, v, noisy))
				return -1;
		}
	return 0;
}

static int find_arch(struct merge *m, const char *name)
{
	struct merge_arch *a;

	for (unsigned i = 0; i < m->narch; i++)
		if (!strcmp(m->arch[i].name, name))
			return (int)i;
	if (!(a = grow(m->arch, m->narch, sizeof *a, (void **)&m->arch)))
		return -1;
	snprintf(a->name, sizeof a->name, "%s", name);
	return (int)m->narch++;
}

/* Adds the node as the architecture's next column: every event known so far gets a cell. */
static int add_events(struct merge_arch *a, unsigned node, json_t *ej)
{
	unsigned *nodes = realloc(a->node, (a->nnode + 1) * sizeof *nodes), col = a->nnode;
	json_t *ev;
	size_t i;

	if (!nodes)
		return -1;
	a->node = nodes;
	for (unsigned k = 0; k < a->nev; k++) {
		unsigned char *c = realloc(a->ev[k].cls, col + 1);
		if (!c)
			return -1;
		c[col] = MERGE_NO_CLASS;
		a->ev[k].cls = c;
	}
	a->node[a->nnode++] = node;
	json_array_foreach(json_object_get(ej, "events"), i, ev)
	{
		const char *name = str(ev, "event"), *cls = str(ev, "class");
		unsigned k = 0, c = 0;
		while (k < a->nev && strcmp(a->ev[k].name, name))
			k++;
		if (k == a->nev) {
			struct merge_event *n = grow(a->ev, a->nev, sizeof *n, (void **)&a->ev);
			if (!n || !(n->cls = malloc(col + 1)))
				return -1;
			memset(n->cls, MERGE_NO_CLASS, col + 1);
			snprintf(n->name, sizeof n->name, "%s", name);
			a->nev++;
		}
		while (strcmp(cls, verdict_class_names[c]))
			c++;
		a->ev[k].cls[col] = (unsigned char)c;
	}
	return 0;
}

static int name_taken(const struct merge *m, const char *name)
{
	for (unsigned i = 0; i < m->nnode; i++)
		if (!strcmp(m->node[i].name, name))
			return 1;
	return 0;
}

/* The host, or where another node has it (two runs of one node) the directory's last component, or
   where that is taken too (x/run, y/run) the same with -2, -3, ... */
static void node_name(const struct merge *m, const struct machine *mj, const char *dir, char *buf, size_t len)
{
	const char *base = strrchr(dir, '/');

	base = base && base[1] ? base + 1 : dir;
	snprintf(buf, len, "%s", mj->host);
	if (buf[0] && !name_taken(m, buf))
		return;
	snprintf(buf, len, "%s", base);
	for (int k = 2; name_taken(m, buf); k++) {
		/* the suffix whole, the name cut before it: a name as long as buf was cut to the taken
		   name again, -2, -3, ... each cut off, and the loop never ended */
		char sfx[16];
		int n = snprintf(sfx, sizeof sfx, "-%d", k);
		snprintf(buf, len, "%.*s%s", (int)len - 1 - n, base, sfx);
	}
}

static int commit(struct merge *m, const char *dir, const struct machine *mj, json_t *ej,
		  const struct out_csv *pk, struct err *e)
{
	struct merge_type of = {0};
	struct merge_node *nd;
	int t, a;

	type_of(mj, &of);
	if ((t = find_type(m, &of)) < 0 ||
	    (a = find_arch(m,
			   *mj->arch          ? mj->arch
				   : *mj->cpu ? mj->cpu
					      : "?")) < 0 ||
	    !(nd = grow(m->node, m->nnode, sizeof *nd, (void **)&m->node)))
		return err_set(e, E_RUNTIME, "out of memory");
	node_name(m, mj, dir, nd->name, sizeof nd->name);
	snprintf(nd->dir, sizeof nd->dir, "%s", dir);
	nd->type = (unsigned)t;
	nd->arch = (unsigned)a;
	facts(mj, nd->fact);
	struct merge_type *ty = &m->type[t];
	unsigned *tn = realloc(ty->node, (ty->nnode + 1) * sizeof *tn);
	if (!tn)
		return err_set(e, E_RUNTIME, "out of memory");
	ty->node = tn;
	ty->node[ty->nnode++] = m->nnode;
	if (add_figures(ty, nd, pk) || add_events(&m->arch[a], m->nnode, ej))
		return err_set(e, E_RUNTIME, "out of memory");
	m->nnode++;
	return 0;
}

int merge_read_dir(struct merge *m, const char *dir, struct err *e)
{
	struct machine mj = {0};
	json_t *ej = NULL;
	struct out_csv pk = {0};
	char path[PATH_MAX];
	struct stat sb;
	int rc;

	/* errno is stat's only where stat failed: a file given after a refused directory would be said
	   missing by that directory's ENOENT */
	if (stat(dir, &sb))
		return err_set(e, E_USAGE, "%s: %s", dir,
			       errno == ENOENT ? "no such directory" : strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return err_set(e, E_USAGE, "%s: not a directory", dir);
	snprintf(path, sizeof path, "%s/machine.json", dir);
	if (access(path, F_OK))
		return err_set(e, E_USAGE, "%s: no machine.json: not a pmucheck results directory", dir);
	if ((rc = machine_read(path, &mj, e)))
		goto out;
	if (!*mj.version || !*mj.host || !*mj.cpu)
		rc = err_set(e, E_USAGE,
			     "%s/machine.json: no pmucheck, host or cpu: not a pmucheck results directory",
			     dir);
	else if (partial_marked(dir))
		rc = err_set(e, E_USAGE,
			     "%s: an interrupted run (" PARTIAL_NAME "): 'pmucheck run --resume %s' first",
			     dir, dir);
	else if (snprintf(path, sizeof path, "%s/peaks.csv", dir), access(path, F_OK))
		rc = err_set(e, E_USAGE, "%s: not analysed (no peaks.csv): 'pmucheck analyze %s' first", dir,
			     dir);
	else if (out_csv_read(path, &pk))
		rc = err_set(e, E_USAGE, "%s: malformed: no header", path);
	else if (!(rc = check_peaks(&pk, dir, e)) && !(rc = load_events(dir, &ej, e)))
		rc = commit(m, dir, &mj, ej, &pk, e);
out:
	out_csv_free(&pk);
	json_decref(ej);
	machine_free(&mj);
	return rc;
}
