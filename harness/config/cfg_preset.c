/* cfg_preset.c — [preset NAME] sections (a seed paper's experiment set) and the [run NAME.STEP]
 * sections after each one (one experiment: kernels x sizes x threads x placements x prefetch states x
 * arguments, with the events to count and the paper's figures to show beside the results). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg_int.h"

#define PRESET(x) (&(x)->cfg->presets[(x)->cur])
#define RUN(x) (&(x)->cfg->runs[(x)->cur])

static int preset_open(struct cfg_ctx *x, const char *name)
{
	const struct cfg_preset *old = cfg_preset_find(x->cfg, name);

	if (old)
		return cfg_fail(x, "duplicate preset '%s' (first at line %u)", name, old->line);
	if (strchr(name, '.'))
		return cfg_fail(x, "preset name '%s' must not contain '.' (it separates run names)", name);
	if (cfg_grow(x, (void **)&x->cfg->presets, &x->cfg->npresets, sizeof *PRESET(x), &x->cur))
		return x->status;
	PRESET(x)->line = x->line;
	PRESET(x)->first_run = x->cfg->nruns;
	return cfg_strdup(x, &PRESET(x)->name, name);
}

static int preset_title(struct cfg_ctx *x, const char *v)
{
	return cfg_strdup(x, &PRESET(x)->title, v);
}
static int preset_note(struct cfg_ctx *x, const char *v)
{
	return cfg_strdup(x, &PRESET(x)->note, v);
}

static const struct cfg_key preset_keys[] = {
	{"title", 1, preset_title},
	{"note", 0, preset_note},
};

const struct cfg_kind cfg_kind_preset = {
	"preset", 1, preset_keys, sizeof preset_keys / sizeof preset_keys[0], preset_open, NULL, NULL};

/* Runs follow their preset, so that a preset's runs are one slice of cfg.runs. */
static int run_open(struct cfg_ctx *x, const char *name)
{
	struct cfg *c = x->cfg;
	const char *dot = strchr(name, '.');
	struct cfg_preset *p = c->npresets ? &c->presets[c->npresets - 1] : NULL;
	struct cfg_run *r;

	if (!dot || dot == name || !dot[1])
		return cfg_fail(x, "run name '%s' is not PRESET.STEP", name);
	if (!p || strlen(p->name) != (size_t)(dot - name) || strncmp(p->name, name, dot - name))
		return cfg_fail(x, "[run %s] must follow [preset %.*s] and its other runs", name,
				(int)(dot - name), name);
	for (unsigned i = p->first_run; i < c->nruns; i++)
		if (!strcmp(c->runs[i].name, name))
			return cfg_fail(x, "duplicate run '%s' (first at line %u)", name, c->runs[i].line);
	if (cfg_grow(x, (void **)&c->runs, &c->nruns, sizeof *r, &x->cur))
		return x->status;
	p->nruns++;
	r = RUN(x);
	r->line = x->line;
	r->preset = c->npresets - 1;
	r->quantities = ~0u;
	return cfg_strdup(x, &r->name, name);
}

static int run_kernels(struct cfg_ctx *x, const char *v)
{
	struct cfg_run *r = RUN(x);
	char buf[512], *save = NULL;

	if (strlen(v) >= sizeof buf)
		return cfg_fail(x, "kernels: list too long");
	strcpy(buf, v);
	for (char *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		unsigned idx;

		if (!cfg_name_ok(tok))
			return cfg_fail(x, "kernels: '%s' is not family or family.variant", tok);
		/* as --kernels refuses it: the plan would measure the variant's points twice */
		for (unsigned i = 0; i < r->nkernels; i++) {
			const char *k = r->kernels[i];
			enum kern_overlap o = kern_names_overlap(k, strlen(k), tok, strlen(tok));
			if (o == KERN_SAME)
				return cfg_fail(x, "kernels: '%s' is listed twice", tok);
			if (o == KERN_FAMILY_OF)
				return cfg_fail(x, "kernels: '%s' and '%s': a family and a variant of it", k,
						tok);
		}
		if (cfg_grow(x, (void **)&r->kernels, &r->nkernels, sizeof *r->kernels, &idx) ||
		    cfg_strdup(x, &r->kernels[idx], tok))
			return x->status;
	}
	if (!r->nkernels)
		return cfg_fail(x, "kernels: empty list");
	return 0;
}

static int run_levels(struct cfg_ctx *x, const char *v)
{
	return cfg_parse_words(x, "levels", v, cfg_level_words, &RUN(x)->levels);
}

/* A step's list of sizes or arguments: no more than a run takes, none twice (a run's --sizes and --args
   refuse the same; a step cut at the most once measured 64 of its 100 sizes and said nothing). */
static int once_each(struct cfg_ctx *x, const char *key, const struct cfg_list *l, unsigned most)
{
	if (l->n > most)
		return cfg_fail(x, "%s: %u values, more than the %u a step takes", key, l->n, most);
	for (unsigned i = 0; i < l->n; i++)
		for (unsigned j = 0; j < i; j++)
			if (l->v[j] == l->v[i])
				return cfg_fail(x, "%s: %llu is listed twice", key, l->v[i]);
	return 0;
}

static int run_sizes(struct cfg_ctx *x, const char *v)
{
	struct cfg_list *l = &RUN(x)->sizes;

	if (cfg_parse_list(x, "sizes", v, 1, KERN_LINE, NULL, 0, l) ||
	    once_each(x, "sizes", l, CFG_RUN_MAX_SIZES))
		return x->status;
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i] % KERN_LINE)
			return cfg_fail(x, "sizes: %llu is not a multiple of %u bytes", l->v[i], KERN_LINE);
	return 0;
}

static int run_threads(struct cfg_ctx *x, const char *v)
{
	struct cfg_list *l = &RUN(x)->threads;

	if (cfg_parse_list(x, "threads", v, 0, 1, "socket", CFG_THREADS_SOCKET, l) ||
	    once_each(x, "threads", l, CFG_RUN_MAX_THREADS))
		return x->status;
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i] > 4096)
			return cfg_fail(x, "threads: %llu is more than 4096", l->v[i]);
	return 0;
}

static int run_args(struct cfg_ctx *x, const char *v)
{
	struct cfg_list *l = &RUN(x)->args;

	if (cfg_parse_list(x, "args", v, 0, 0, NULL, 0, l) || once_each(x, "args", l, CFG_RUN_MAX_ARGS))
		return x->status;
	return 0;
}

static int run_placement(struct cfg_ctx *x, const char *v)
{
	return cfg_parse_words(x, "placement", v, cfg_placement_words, &RUN(x)->placement);
}

static int run_prefetch(struct cfg_ctx *x, const char *v)
{
	return cfg_parse_words(x, "prefetch", v, cfg_prefetch_words, &RUN(x)->prefetch);
}

/* "all", "none", or the quantities whose events to count. */
static int run_events(struct cfg_ctx *x, const char *v)
{
	struct cfg_run *r = RUN(x);
	char buf[256], *save = NULL;

	if (!strcmp(v, "all") || !strcmp(v, "none")) {
		r->quantities = strcmp(v, "all") ? 0 : ~0u;
		return 0;
	}
	if (strlen(v) >= sizeof buf)
		return cfg_fail(x, "events: list too long");
	strcpy(buf, v);
	r->quantities = 0;
	for (char *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		enum cfg_quantity q;

		for (q = 0; q < CFG_Q_COUNT; q++)
			if (!strcmp(cfg_quantity_name(q), tok))
				break;
		if (q == CFG_Q_COUNT)
			return cfg_fail(x, "events: '%s' is not all, none or a quantity", tok);
		/* as every list of a config (configs/README.md, Syntax) */
		if (r->quantities & 1u << q)
			return cfg_fail(x, "events: '%s' is listed twice", tok);
		r->quantities |= 1u << q;
	}
	if (!r->quantities)
		return cfg_fail(x, "events: empty list");
	return 0;
}

static int run_repeat(struct cfg_ctx *x, const char *v)
{
	if (cfg_parse_uint(x, "repeat", v, 1000, &RUN(x)->repeat))
		return x->status;
	if (!RUN(x)->repeat)
		return cfg_fail(x, "repeat: must be at least 1");
	return 0;
}

/* Relative to the directory of the config file, and it must be there. */
static int run_reference(struct cfg_ctx *x, const char *v)
{
	const char *slash = strrchr(x->file, '/');
	int dirlen = slash ? (int)(slash - x->file) : 1;
	char path[4096];
	struct stat st;

	if (v[0] == '/' || strstr(v, ".."))
		return cfg_fail(x, "reference: '%s' must be a path inside the config directory", v);
	snprintf(path, sizeof path, "%.*s/%s", dirlen, slash ? x->file : ".", v);
	if (access(path, R_OK))
		return cfg_fail(x, "reference: cannot read %s", path);
	/* a directory passes access(): the run would have made its results directory, and probed the levels,
	   before the copy failed */
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return cfg_fail(x, "reference: %s is not a file", path);
	return cfg_strdup(x, &RUN(x)->reference, path);
}

static int run_note(struct cfg_ctx *x, const char *v)
{
	return cfg_strdup(x, &RUN(x)->note, v);
}

static int run_close(struct cfg_ctx *x)
{
	struct cfg_run *r = RUN(x);

	if (r->levels && r->sizes.n)
		return cfg_fail(x, "[run %s]: give levels or sizes, not both", r->name);
	if (!r->levels && !r->sizes.n)
		r->levels = CFG_LEVELS_ALL;
	if (!r->placement)
		r->placement = CFG_LOCAL;
	if (!r->prefetch)
		r->prefetch = CFG_PF_ON;
	if (!r->threads.n)
		return cfg_parse_list(x, "threads", "1", 0, 1, NULL, 0, &r->threads);
	return 0;
}

static const struct cfg_key run_keys[] = {
	{"kernels", 1, run_kernels},     {"levels", 0, run_levels}, {"sizes", 0, run_sizes},
	{"threads", 0, run_threads},     {"args", 0, run_args},     {"placement", 0, run_placement},
	{"prefetch", 0, run_prefetch},   {"events", 0, run_events}, {"repeat", 0, run_repeat},
	{"reference", 0, run_reference}, {"note", 0, run_note},
};

const struct cfg_kind cfg_kind_run = {"run",    1,         run_keys, sizeof run_keys / sizeof run_keys[0],
				      run_open, run_close, NULL};

int cfg_presets_check(struct cfg_ctx *x)
{
	for (unsigned i = 0; i < x->cfg->npresets; i++) {
		if (x->cfg->presets[i].nruns)
			continue;
		x->line = x->cfg->presets[i].line;
		return cfg_fail(x, "preset '%s' has no [run %s.STEP] sections", x->cfg->presets[i].name,
				x->cfg->presets[i].name);
	}
	return 0;
}

int cfg_run_wants(const struct cfg_run *r, enum cfg_quantity q)
{
	return (unsigned)q < CFG_Q_COUNT && (r->quantities & (1u << q));
}
