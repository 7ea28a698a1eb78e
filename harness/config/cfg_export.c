/* cfg_export.c — the [export] section: the names perf and LIKWID give the events of this architecture
 * (common/export_names.h), for `pmucheck export`. Its keys are the encodings themselves, one line per
 * event:
 *   likwid_groups = skylakeX                      LIKWID's group directory for the architecture
 *   core 0xd0/0x81 = mem_inst_retired.all_loads MEM_INST_RETIRED_ALL_LOADS
 *   core 0xa3/0x0c/12 = cycle_activity.stalls_l1d_miss -      (a counter mask; '-': no name there)
 *   core 0x2a/0x01/0/0x94002380 = ocr.hwpf_l3.l3_miss -     (an offcore response)
 *   uncore amd_df 0x07/0x38 = DRAM_CHANNEL_0 DFC    LIKWID's name and counter class
 * configs/README.md documents it. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg_int.h"
#include "num.h"

#define NAMES(x) (&(x)->cfg->exports)

static int export_open(struct cfg_ctx *x, const char *name)
{
	(void)name;
	if (x->cfg->has_export)
		return cfg_fail(x, "[export] given twice");
	x->cfg->has_export = 1;
	return 0;
}

static int export_likwid_groups(struct cfg_ctx *x, const char *v)
{
	if (!cfg_name_ok(v))
		return cfg_fail(x, "likwid_groups: '%s' is not a directory name (letters, digits, _ . : -)",
				v);
	return cfg_strdup(x, &NAMES(x)->likwid_dir, v);
}

/* "a/b/c/d" -> up to max numbers (C syntax: 0x.. or decimal), each at most lim[i]; how many, or -1. */
static int numbers(const char *s, unsigned long long *v, const unsigned long long *lim, int max)
{
	int n = 0;

	for (;;) {
		char *end;
		if (n == max || !(*s >= '0' && *s <= '9'))
			return -1;
		errno = 0;
		v[n] = strtoull(s, &end, 0);
		if (errno || v[n] > lim[n])
			return -1;
		n++;
		if (!*end)
			return n;
		if (*end != '/')
			return -1;
		s = end + 1;
	}
}

/* "perf-name likwid-name" or "likwid-name class": two names, '-' for none. */
static int two_names(struct cfg_ctx *x, const char *key, const char *v, char **a, char **b)
{
	char w[2][128];
	int used = 0; /* where %n stops; 0 if it never ran: then v[0] is no end and the line is refused */

	if (sscanf(v, "%127s %127s %n", w[0], w[1], &used) != 2 || v[used] || !cfg_name_ok(w[0]) ||
	    !cfg_name_ok(w[1]))
		return cfg_fail(x, "[export] %s: '%s' is not two names ('-' for none)", key, v);
	if (!strcmp(w[0], "-") && !strcmp(w[1], "-"))
		return cfg_fail(x, "[export] %s: names nothing ('- -')", key);
	if ((strcmp(w[0], "-") && cfg_strdup(x, a, w[0])) || (strcmp(w[1], "-") && cfg_strdup(x, b, w[1])))
		return x->status;
	return 0;
}

static int export_core(struct cfg_ctx *x, const char *key, const char *enc, const char *v)
{
	static const unsigned long long lim[] = {0xfff, 0xff, 0xff, ~0ull};
	unsigned long long n[4] = {0};
	struct export_names *nm = NAMES(x);
	struct export_core_name *c;
	unsigned i;

	if (numbers(enc, n, lim, 4) < 2)
		return cfg_fail(
			x,
			"[export] '%s': expected core EVENT/UMASK[/CMASK[/OFFCORE]] (event up to 0xfff, "
			"umask and cmask up to 0xff)",
			key);
	if (export_core_lookup(nm, (unsigned)n[0], (unsigned)n[1], (unsigned)n[2], n[3]))
		return cfg_fail(x, "[export] '%s' given twice", key);
	if (cfg_grow(x, (void **)&nm->core, &nm->ncore, sizeof *nm->core, &i))
		return x->status;
	c = &nm->core[i];
	c->event = (unsigned)n[0], c->umask = (unsigned)n[1], c->cmask = (unsigned)n[2], c->offcore = n[3];
	return two_names(x, key, v, &c->perf, &c->likwid);
}

/* "LIKWID-NAME CLASS [UNITS]": two_names, then the boxes of the class LIKWID defines, a decimal 1-64. */
static int uncore_names(struct cfg_ctx *x, const char *key, const char *v, struct export_uncore_name *u)
{
	char names[256];
	const char *units = NULL;
	int words = 0;
	uint64_t n;
	struct err ignored;

	/* the third word, where there is one: two_names reads the first two (words end at any blank, as
	   sscanf's do) */
	for (const char *c = v; *c; c++)
		if (!isspace((unsigned char)*c) && (c == v || isspace((unsigned char)c[-1])) && ++words == 3)
			units = c;
	snprintf(names, sizeof names, "%.*s", units ? (int)(units - v) : (int)strlen(v), v);
	if (two_names(x, key, names, &u->likwid, &u->lclass))
		return x->status;
	if (!units)
		return 0;
	if (num_parse_u64(key, units, &n, &ignored) || n < 1 || n > 64)
		return cfg_fail(x, "[export] %s: '%s' is no count of LIKWID's %s boxes (1-64)", key, units,
				u->lclass ? u->lclass : "?");
	u->lunits = (unsigned)n;
	return 0;
}

static int export_uncore(struct cfg_ctx *x, const char *key, const char *rest, const char *v)
{
	static const unsigned long long lim[] = {0xfff, 0xff};
	unsigned long long n[2];
	struct export_names *nm = NAMES(x);
	struct export_uncore_name *u;
	char pmu[64];
	int used = 0; /* as in two_names */
	unsigned i;

	if (sscanf(rest, "%63s %n", pmu, &used) != 1 || !cfg_name_ok(pmu) ||
	    numbers(rest + used, n, lim, 2) != 2)
		return cfg_fail(x,
				"[export] '%s': expected uncore PMU EVENT/UMASK (a perf PMU without its box "
				"number: amd_df, uncore_imc)",
				key);
	if (export_uncore_lookup(nm, pmu, (unsigned)n[0], (unsigned)n[1]))
		return cfg_fail(x, "[export] '%s' given twice", key);
	if (cfg_grow(x, (void **)&nm->uncore, &nm->nuncore, sizeof *nm->uncore, &i))
		return x->status;
	u = &nm->uncore[i];
	u->event = (unsigned)n[0], u->umask = (unsigned)n[1];
	if (cfg_strdup(x, &u->pmu, pmu) || uncore_names(x, key, v, u))
		return x->status;
	if (!u->likwid || !u->lclass)
		return cfg_fail(x, "[export] %s: give LIKWID's name and its counter class (DFC, CPMC, MBOX)",
				key);
	return 0;
}

/* A key that names an event: "core ENCODING" or "uncore PMU ENCODING". */
static int export_event(struct cfg_ctx *x, const char *key, const char *v)
{
	if (!strncmp(key, "core ", 5))
		return export_core(x, key, key + 5, v);
	if (!strncmp(key, "uncore ", 7))
		return export_uncore(x, key, key + 7, v);
	return cfg_fail(x, "[export]: unknown key '%s' (likwid_groups, core ENCODING or uncore PMU ENCODING)",
			key);
}

static const struct cfg_key export_keys[] = {
	{"likwid_groups", 0, export_likwid_groups},
};

const struct cfg_kind cfg_kind_export = {
	"export",    0,    export_keys, sizeof export_keys / sizeof export_keys[0],
	export_open, NULL, export_event};

int cfg_export_names(const char *arch, struct export_names *out, struct err *e)
{
	char name[96], path[4096];
	struct cfg c;
	int rc;

	memset(out, 0, sizeof *out);
	if (!cfg_name_ok(arch) || (size_t)snprintf(name, sizeof name, "%s.ini", arch) >= sizeof name)
		return 0; /* no architecture of the config directory */
	if ((rc = cfg_dir_file(name, path, sizeof path, e)))
		return rc;
	if (access(path, F_OK))
		return 0; /* a config of its own (pmucheck discover's, --config): no names */
	if ((rc = cfg_load(path, &c, e)))
		return rc;
	*out = c.exports;
	memset(&c.exports, 0, sizeof c.exports);
	cfg_free(&c);
	return 0;
}
