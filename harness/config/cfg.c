/* cfg.c — loads one INI config file with libinih: line counting, section dispatch, cleanup.
 * The keys of each section type live in cfg_event.c ([arch], [event]), cfg_export.c ([export]) and
 * cfg_preset.c ([preset], [run]); value syntax in cfg_parse.c. */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cfg_int.h"

static const struct cfg_kind *const kinds[] = {
	&cfg_kind_arch, &cfg_kind_event, &cfg_kind_export, &cfg_kind_preset, &cfg_kind_run,
};

int cfg_fail(struct cfg_ctx *x, const char *fmt, ...)
{
	char msg[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	x->status = E_USAGE;
	return err_set(x->e, E_USAGE, "%s:%u: %s", x->file, x->line, msg);
}

int cfg_strdup(struct cfg_ctx *x, char **dst, const char *value)
{
	*dst = strdup(value);
	if (!*dst)
		return x->status = err_set(x->e, E_RUNTIME, "%s: out of memory", x->file);
	return 0;
}

int cfg_grow(struct cfg_ctx *x, void **arr, unsigned *n, size_t sz, unsigned *idx)
{
	char *p = realloc(*arr, (*n + 1) * sz);

	if (!p)
		return x->status = err_set(x->e, E_RUNTIME, "%s: out of memory", x->file);
	memset(p + *n * sz, 0, sz);
	*arr = p;
	*idx = (*n)++;
	return 0;
}

/* The line reader given to inih: whole lines only, counted. Debian's inih truncates lines longer than
   INI_MAX_LINE silently, so a longer line is an error here instead. */
enum { SECTION_MAX = 50 }; /* inih's INI_MAX_SECTION */

struct reader {
	struct cfg_ctx *x;
	FILE *f;
	char *buf;
	size_t cap;
};

/* An empty section never reaches the handler, so the reader catches it. */
static void ends_section(struct cfg_ctx *x)
{
	if (x->header_line && !x->header_used && !x->status) {
		x->line = x->header_line;
		cfg_fail(x, "section has no keys");
	}
}

/* Whether s[0..n) is UTF-8 (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF). The text of
   a config reaches machine.json, whose writer (jansson) refuses any other: the run's config and an event's
   hypothesis were left out of it without a word. */
static int utf8_ok(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i],
			 len = c < 0x80      ? 1
			: (c & 0xe0) == 0xc0 ? 2
			: (c & 0xf0) == 0xe0 ? 3
			: (c & 0xf8) == 0xf0 ? 4
					     : 0;
		unsigned long cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;

		if (!len || i + len > n)
			return 0;
		for (unsigned k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	ssize_t n = getline(&r->buf, &r->cap, r->f);
	const char *p;

	if (n < 0 || r->x->status) {
		if (n < 0)
			ends_section(r->x);
		return NULL;
	}
	r->x->line++;
	/* inih reads with fgets(num): a line and its newline must fit in num - 1 bytes. */
	if (n >= num || memchr(r->buf, '\0', (size_t)n)) {
		cfg_fail(r->x, "line longer than %d characters, or not text", num - 2);
		return NULL;
	}
	if (!utf8_ok((const unsigned char *)r->buf, (size_t)n)) {
		cfg_fail(r->x, "not UTF-8 text");
		return NULL;
	}
	memcpy(str, r->buf, (size_t)n + 1);
	/* A UTF-8 byte-order mark, which Windows editors (Notepad until 2019) write before the first line, is
	   skipped, as inih itself skips it (INI_ALLOW_BOM): it is no part of the text, and refusing it would
	   refuse a config that reads the same without it. Left in, it hid the first line's [arch] from the
	   check below ("key 'name' before the first [section]"). */
	if (r->x->line == 1 && !strncmp(str, "\xEF\xBB\xBF", 3))
		memmove(str, str + 3, (size_t)n - 2);
	for (p = str; isspace((unsigned char)*p); p++)
		;
	if (*p == '[') {
		/* inih reports a header without its ']' as an error of its own line, which the handler
		   never sees: the message would be the last section's */
		if (!strchr(p, ']')) {
			cfg_fail(r->x, "section header without its closing ']'");
			return NULL;
		}
		/* Debian's inih truncates section names to INI_MAX_SECTION - 1 characters, silently. */
		if (strcspn(p + 1, "]") >= SECTION_MAX) {
			cfg_fail(r->x, "section name longer than %d characters", SECTION_MAX - 1);
			return NULL;
		}
		ends_section(r->x);
		r->x->header_line = r->x->line;
		r->x->header_used = 0;
	} else if (*p && *p != ';' && *p != '#') {
		r->x->header_used = 1;
	}
	return str;
}

static int close_section(struct cfg_ctx *x)
{
	const struct cfg_kind *k = x->kind;
	unsigned line = x->line;

	if (!k)
		return 0;
	x->line = x->section_line;
	for (unsigned i = 0; i < k->nkeys; i++)
		if (k->keys[i].required && !(x->seen & (1u << i)))
			return cfg_fail(x, "[%s]: missing required key '%s'", k->word, k->keys[i].name);
	if (k->close && k->close(x))
		return x->status;
	x->line = line;
	x->kind = NULL;
	return 0;
}

/* "[word NAME]" -> kind and name. */
static int open_section(struct cfg_ctx *x, const char *section)
{
	const char *sp = strchr(section, ' ');
	size_t wlen = sp ? (size_t)(sp - section) : strlen(section);
	const char *name = sp ? sp + 1 : NULL;
	unsigned line = x->line;
	int rc;

	if (close_section(x))
		return x->status;
	x->line = x->header_line; /* the header is at fault, not the first key */
	for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		const struct cfg_kind *k = kinds[i];

		if (strlen(k->word) != wlen || strncmp(k->word, section, wlen))
			continue;
		if (k->named && (!name || !cfg_name_ok(name)))
			return cfg_fail(x, "[%s]: expected [%s NAME] with a name of letters, digits, _ . : -",
					section, k->word);
		if (!k->named && name)
			return cfg_fail(x, "[%s]: [%s] takes no name", section, k->word);
		x->kind = k;
		x->seen = 0;
		x->section_line = x->header_line;
		x->line = x->header_line;
		rc = k->open(x, name);
		x->line = line;
		return rc;
	}
	return cfg_fail(x,
			"unknown section [%s] (expected arch, event NAME, export, preset NAME or run NAME)",
			section);
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct cfg_ctx *x = user;
	const struct cfg_kind *k;

	if (x->status)
		return 1;
	if (!x->header_line)
		return !cfg_fail(x, "key '%s' before the first [section]", key);
	/* inih hands us the section name with every key; a section starts at the first key after a
	   header (so two headers of the same name are two sections). */
	if (!x->kind || x->section_line != x->header_line) {
		if (open_section(x, section))
			return 0;
	}
	k = x->kind;
	for (unsigned i = 0; i < k->nkeys; i++) {
		if (strcmp(k->keys[i].name, key))
			continue;
		if (x->seen & (1u << i))
			return !cfg_fail(x,
					 "[%s]: key '%s' given twice (continuation lines are not supported)",
					 section, key);
		x->seen |= 1u << i;
		if (!*value && k->keys[i].required)
			return !cfg_fail(x, "[%s]: key '%s' is empty", section, key);
		return !k->keys[i].set(x, value);
	}
	if (k->other)
		return !k->other(x, key, value);
	return !cfg_fail(x, "[%s]: unknown key '%s'", section, key);
}

static void free_run(struct cfg_run *r)
{
	for (unsigned i = 0; i < r->nkernels; i++)
		free(r->kernels[i]);
	free(r->kernels);
	free(r->sizes.v);
	free(r->threads.v);
	free(r->args.v);
	free(r->name);
	free(r->reference);
	free(r->note);
}

void cfg_free(struct cfg *c)
{
	struct cfg_arch *a = &c->arch;

	free(a->name), free(a->title), free(a->vendor), free(a->pmu), free(a->prefetch), free(a->note);
	free(a->pmu_uncore);
	for (unsigned i = 0; i < c->nevents; i++) {
		struct cfg_event *ev = &c->events[i];

		free(ev->name), free(ev->spec), free(ev->conflict), free(ev->unverified), free(ev->note);
		free(ev->source);
	}
	for (unsigned i = 0; i < c->npresets; i++)
		free(c->presets[i].name), free(c->presets[i].title), free(c->presets[i].note);
	for (unsigned i = 0; i < c->nruns; i++)
		free_run(&c->runs[i]);
	free(c->events), free(c->presets), free(c->runs), free(c->path);
	export_names_free(&c->exports);
	memset(c, 0, sizeof *c);
}

int cfg_load_stream(FILE *f, const char *name, struct cfg *out, struct err *e)
{
	struct cfg_ctx x = {.cfg = out, .file = name, .e = e};
	struct reader r = {.x = &x, .f = f};
	int rc;

	memset(out, 0, sizeof *out);
	if (cfg_strdup(&x, &out->path, name))
		return x.status;
	rc = ini_parse_stream(read_line, &r, handler, &x);
	free(r.buf);
	/* inih's own syntax errors (no '=', no ']') are returned as a line number and skip the handler. */
	if (!x.status && rc > 0) {
		x.line = (unsigned)rc;
		cfg_fail(&x, "expected [section], key = value, or a ; comment");
	}
	if (!x.status && rc < 0)
		x.status = err_set(e, E_RUNTIME, "%s: out of memory", name);
	/* said as what it is, not as a config without an [arch] or events */
	if (!x.status && !x.line)
		x.status = err_set(e, E_USAGE, "%s: empty file", name);
	if (!x.status && !close_section(&x))
		cfg_presets_check(&x);
	if (!x.status && !out->has_arch && out->nevents) {
		x.line = out->events[0].line;
		cfg_fail(&x, "events need an [arch] section saying which CPUs they are for");
	}
	if (x.status)
		cfg_free(out);
	return x.status;
}

int cfg_load(const char *path, struct cfg *out, struct err *e)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	int rc;

	memset(out, 0, sizeof *out);
	if (!f)
		return err_set(e, errno == ENOENT ? E_USAGE : E_RUNTIME, "%s: %s", path, strerror(errno));
	/* a directory opens, then reads as an empty file */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return err_set(e, E_USAGE, "%s is a directory, not a file", path);
	}
	rc = cfg_load_stream(f, path, out, e);
	fclose(f);
	return rc;
}

const struct cfg_event *cfg_event_find(const struct cfg *c, const char *name)
{
	for (unsigned i = 0; i < c->nevents; i++)
		if (!strcmp(c->events[i].name, name))
			return &c->events[i];
	return NULL;
}

const struct cfg_preset *cfg_preset_find(const struct cfg *c, const char *name)
{
	for (unsigned i = 0; i < c->npresets; i++)
		if (!strcmp(c->presets[i].name, name))
			return &c->presets[i];
	return NULL;
}
