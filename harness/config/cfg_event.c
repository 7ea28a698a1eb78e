/* cfg_event.c — the [arch] section (which CPUs a file is for) and [event NAME] sections (a candidate
 * event and the hypothesis it is tested against). */
#include <stdlib.h>
#include <string.h>

#include "cfg_int.h"
#include "pf.h"

#define ARCH(x) (&(x)->cfg->arch)
#define EVENT(x) (&(x)->cfg->events[(x)->cur])

static int arch_open(struct cfg_ctx *x, const char *name)
{
	(void)name;
	if (x->cfg->has_arch)
		return cfg_fail(x, "[arch] given twice (first at line %u)", ARCH(x)->line);
	x->cfg->has_arch = 1;
	ARCH(x)->line = x->line;
	return 0;
}

static int arch_name(struct cfg_ctx *x, const char *v)
{
	if (!cfg_name_ok(v))
		return cfg_fail(x, "name: '%s' is not a name (letters, digits, _ . : -)", v);
	return cfg_strdup(x, &ARCH(x)->name, v);
}

static int arch_title(struct cfg_ctx *x, const char *v)
{
	return cfg_strdup(x, &ARCH(x)->title, v);
}
static int arch_note(struct cfg_ctx *x, const char *v)
{
	return cfg_strdup(x, &ARCH(x)->note, v);
}

static int arch_vendor(struct cfg_ctx *x, const char *v)
{
	if (strcmp(v, "GenuineIntel") && strcmp(v, "AuthenticAMD") && strcmp(v, "any"))
		return cfg_fail(x, "vendor: '%s' is not GenuineIntel, AuthenticAMD or any", v);
	return cfg_strdup(x, &ARCH(x)->vendor, v);
}

static int arch_pmu(struct cfg_ctx *x, const char *v)
{
	if (!cfg_name_ok(v))
		return cfg_fail(x, "pmu: '%s' is not a libpfm4 PMU name", v);
	return cfg_strdup(x, &ARCH(x)->pmu, v);
}

/* libpfm4's uncore PMU names of this architecture, which libpfm4's API does not tie to the core PMU:
   "skx_unc_imc*, skx_unc_pcu" (comma- or blank-separated) is kept as "skx_unc_imc*,skx_unc_pcu". A
   trailing '*' stands for the box number of a kind of numbered boxes (every box, summed: boxes.h). */
static int arch_pmu_uncore(struct cfg_ctx *x, const char *v)
{
	char buf[1024], out[1024], item[1030], seen[1030], *save = NULL;
	size_t n = 0;

	if (strlen(v) >= sizeof buf)
		return cfg_fail(x, "pmu_uncore: list too long");
	strcpy(buf, v);
	for (char *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		size_t len = strlen(tok);
		int boxes = tok[len - 1] == '*';
		if (boxes)
			tok[--len] = '\0';
		if (!len || !cfg_name_ok(tok))
			return cfg_fail(
				x,
				"pmu_uncore: '%s' is not a libpfm4 PMU name (with an optional '*' for "
				"the box number)",
				tok);
		/* as every list of a config (configs/README.md, Syntax): ",a,b*," holds ",b*," once */
		snprintf(item, sizeof item, ",%s%s,", tok, boxes ? "*" : "");
		snprintf(seen, sizeof seen, ",%.*s,", (int)n, out);
		if (strstr(seen, item))
			return cfg_fail(x, "pmu_uncore: '%s%s' is listed twice", tok, boxes ? "*" : "");
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s%s", n ? "," : "", tok, boxes ? "*" : "");
	}
	if (!n)
		return cfg_fail(x, "pmu_uncore: empty list");
	return cfg_strdup(x, &ARCH(x)->pmu_uncore, out);
}

/* A prefetcher layout that harness/prefetch/pf_table.c has, none, or listed (configs/README.md). */
static int arch_prefetch(struct cfg_ctx *x, const char *v)
{
	char names[256];

	if (!strcmp(v, "none") || !strcmp(v, "listed") || pf_layout_named(v))
		return cfg_strdup(x, &ARCH(x)->prefetch, v);
	pf_layout_names(names, sizeof names);
	return cfg_fail(x, "prefetch: '%s' is not one of %snone, listed", v, names);
}

/* A clock in GHz that some CPU could run at: above 0 and below the 10 GHz no CPU has come near. */
static int arch_max_ghz(struct cfg_ctx *x, const char *v)
{
	double ghz;

	if (cfg_decimal(v, &ghz) || !(ghz > 0 && ghz < 10))
		return cfg_fail(x, "max_ghz: '%s' is not a clock in GHz (a decimal number above 0, below 10)",
				v);
	ARCH(x)->max_ghz = ghz;
	return 0;
}

static int parse_byte(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	*out = strtoul(s, &end, 0);
	return end != s && !*end && *out <= max;
}

/* One "family:model", "family:lo-hi" or "family:*" of a match list (C number syntax). */
static int match_one(struct cfg_ctx *x, char *tok)
{
	struct cfg_arch *a = ARCH(x);
	char *colon = strchr(tok, ':'), *dash;
	unsigned long fam, lo = 0, hi = 0xff;

	if (!colon)
		return cfg_fail(x, "match: '%s' is not family:model", tok);
	*colon++ = '\0';
	if (!parse_byte(tok, 0x1ff, &fam))
		return cfg_fail(x, "match: family '%s' is not a number up to 0x1ff", tok);
	dash = strchr(colon, '-');
	if (dash)
		*dash++ = '\0';
	if (strcmp(colon, "*") || dash) {
		if (!parse_byte(colon, 0xff, &lo) || !parse_byte(dash ? dash : colon, 0xff, &hi) || lo > hi)
			return cfg_fail(x,
					"match: model '%s%s%s' is not a number, lo-hi range up to 0xff, or *",
					colon, dash ? "-" : "", dash ? dash : "");
	}
	for (unsigned i = 0; i < a->nmatch; i++) /* as every list of a config (configs/README.md, Syntax) */
		if (a->match[i].family == fam && a->match[i].model_lo == lo && a->match[i].model_hi == hi)
			return cfg_fail(x, "match: family 0x%lx models 0x%lx-0x%lx are listed twice", fam, lo,
					hi);
	if (a->nmatch == CFG_MATCH_MAX)
		return cfg_fail(x, "match: more than %d entries", CFG_MATCH_MAX);
	a->match[a->nmatch++] = (struct cfg_match){(unsigned)fam, (unsigned)lo, (unsigned)hi};
	return 0;
}

static int arch_match(struct cfg_ctx *x, const char *v)
{
	char buf[256], *save = NULL;

	if (!strcmp(v, "any")) {
		ARCH(x)->match_any = 1;
		return 0;
	}
	if (strlen(v) >= sizeof buf)
		return cfg_fail(x, "match: list too long");
	strcpy(buf, v);
	for (char *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save))
		if (match_one(x, tok))
			return x->status;
	if (!ARCH(x)->nmatch)
		return cfg_fail(x, "match: empty list");
	return 0;
}

/* cfg_select.c ranks a file by its vendor and match together: match = any only with vendor = any (the
   fallback for every CPU), a family:model list only with the vendor whose numbers it gives. Any other pair
   loaded and was never chosen: "vendor = AuthenticAMD, match = any" for every AMD CPU left them on
   generic.ini. */
static int arch_close(struct cfg_ctx *x)
{
	const struct cfg_arch *a = ARCH(x);
	int any_vendor = !strcmp(a->vendor, "any");

	if (a->match_any && !any_vendor)
		return cfg_fail(
			x,
			"[arch]: match = any with vendor = %s is chosen for no CPU: match = any is the "
			"fallback for every vendor's (vendor = any); FAMILY:* takes a whole family",
			a->vendor);
	if (!a->match_any && any_vendor)
		return cfg_fail(x,
				"[arch]: vendor = any with a FAMILY:MODEL match is chosen for no CPU: the "
				"numbers are a vendor's, so name it (vendor = any goes with match = any)");
	return 0;
}

/* A port limit per core cycle (kern_ports): a number above 0 and up to `most`, what no core exceeds
   (kern.h KERN_MAX_*). */
static int port_limit(struct cfg_ctx *x, const char *key, const char *v, double most, double *out)
{
	double n;

	if (cfg_decimal(v, &n) || !(n > 0 && n <= most))
		return cfg_fail(
			x, "%s: '%s' is not a count per core cycle (a decimal number above 0, at most %g)",
			key, v, most);
	*out = n;
	return 0;
}

/* arch_load_bytes, arch_store_bytes, arch_loads, arch_stores: one setter per key, as the key table wants */
#define PORT_SETTER(field, key, most, one, many) \
	static int arch_##field(struct cfg_ctx *x, const char *v) \
	{ \
		return port_limit(x, key, v, most, &ARCH(x)->ports.field); \
	}
KERN_PORTS_FIELDS(PORT_SETTER)
#undef PORT_SETTER
#define PORT_KEY(field, key, most, one, many) {key, 0, arch_##field},

/* clang-format off */
static const struct cfg_key arch_keys[] = {
	{"name", 1, arch_name},         {"title", 1, arch_title}, {"vendor", 1, arch_vendor},
	{"match", 1, arch_match},       {"pmu", 0, arch_pmu},     {"pmu_uncore", 0, arch_pmu_uncore},
	{"prefetch", 1, arch_prefetch}, {"note", 0, arch_note},   {"max_ghz", 0, arch_max_ghz},
	KERN_PORTS_FIELDS(PORT_KEY)
};
/* clang-format on */
#undef PORT_KEY

const struct cfg_kind cfg_kind_arch = {
	"arch", 0, arch_keys, sizeof arch_keys / sizeof arch_keys[0], arch_open, arch_close, NULL};

static int event_open(struct cfg_ctx *x, const char *name)
{
	const struct cfg_event *old = cfg_event_find(x->cfg, name);
	struct cfg_event *ev;

	if (old)
		return cfg_fail(x, "duplicate event '%s' (first at line %u)", name, old->line);
	if (cfg_grow(x, (void **)&x->cfg->events, &x->cfg->nevents, sizeof *ev, &x->cur))
		return x->status;
	ev = EVENT(x);
	ev->line = x->line;
	/* Defaults: a core event that should hold everywhere, with and without prefetchers. */
	ev->scale = 1.0;
	ev->scope = CFG_SCOPE_CORE;
	ev->levels = CFG_LEVELS_ALL;
	ev->prefetch = CFG_PF_BOTH;
	ev->placement = CFG_LOCAL | CFG_REMOTE;
	return cfg_strdup(x, &ev->name, name);
}

static int event_spec(struct cfg_ctx *x, const char *v)
{
	struct cfg_event *ev = EVENT(x);

	if (strchr(v, '/') || cfg_perf_symbolic(v)) {
		struct err pe;

		if (cfg_perf_check(v, &pe))
			return cfg_fail(x, "spec: %s", pe.msg);
		ev->backend = CFG_PERF;
	} else {
		/* PAPI names: "pmu::EVENT:UMASK:c=1"; a '*' box number means every box, summed. */
		if (strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-*=") !=
		    strlen(v))
			return cfg_fail(x, "spec: '%s' is neither perf syntax (pmu/terms/) nor a PAPI name",
					v);
		ev->backend = CFG_PAPI;
	}
	return cfg_strdup(x, &ev->spec, v);
}

static int event_expect(struct cfg_ctx *x, const char *v)
{
	return cfg_parse_expect(x, v, &EVENT(x)->quantity, &EVENT(x)->scale);
}

static int event_scope(struct cfg_ctx *x, const char *v)
{
	if (!strcmp(v, "core"))
		EVENT(x)->scope = CFG_SCOPE_CORE;
	else if (!strcmp(v, "socket"))
		EVENT(x)->scope = CFG_SCOPE_SOCKET;
	else
		return cfg_fail(x, "scope: '%s' is not core or socket", v);
	return 0;
}

static int event_levels(struct cfg_ctx *x, const char *v)
{
	return cfg_parse_words(x, "levels", v, cfg_level_words, &EVENT(x)->levels);
}

static int event_prefetch(struct cfg_ctx *x, const char *v)
{
	return cfg_parse_words(x, "prefetch", v, cfg_prefetch_words, &EVENT(x)->prefetch);
}

static int event_placement(struct cfg_ctx *x, const char *v)
{
	return cfg_parse_words(x, "placement", v, cfg_placement_words, &EVENT(x)->placement);
}

static int event_conflict(struct cfg_ctx *x, const char *v)
{
	if (!cfg_name_ok(v))
		return cfg_fail(x, "conflict: '%s' is not a tag (letters, digits, _ . : -)", v);
	return cfg_strdup(x, &EVENT(x)->conflict, v);
}

static int event_unverified(struct cfg_ctx *x, const char *v)
{
	if (!*v)
		return cfg_fail(x, "unverified: give the reason no table can check this name");
	return cfg_strdup(x, &EVENT(x)->unverified, v);
}

static int event_note(struct cfg_ctx *x, const char *v)
{
	return cfg_strdup(x, &EVENT(x)->note, v);
}

static int event_source(struct cfg_ctx *x, const char *v)
{
	return cfg_strdup(x, &EVENT(x)->source, v);
}

static const struct cfg_key event_keys[] = {
	{"spec", 1, event_spec},         {"expect", 1, event_expect},
	{"scope", 0, event_scope},       {"levels", 0, event_levels},
	{"prefetch", 0, event_prefetch}, {"placement", 0, event_placement},
	{"conflict", 0, event_conflict}, {"unverified", 0, event_unverified},
	{"note", 0, event_note},         {"source", 0, event_source},
};

const struct cfg_kind cfg_kind_event = {
	"event", 1, event_keys, sizeof event_keys / sizeof event_keys[0], event_open, NULL, NULL};
