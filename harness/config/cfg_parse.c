/* cfg_parse.c — value syntax of the config files: word lists, number lists with ranges, expectations. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_int.h"
#include "num.h"

const struct cfg_word cfg_level_words[] = {
	{"L1", CFG_L1}, {"L2", CFG_L2}, {"L3", CFG_L3}, {"DRAM", CFG_DRAM}, {"all", CFG_LEVELS_ALL}, {0},
};
const struct cfg_word cfg_prefetch_words[] = {
	{"on", CFG_PF_ON},
	{"off", CFG_PF_OFF},
	{"both", CFG_PF_BOTH},
	{0},
};
const struct cfg_word cfg_placement_words[] = {
	{"local", CFG_LOCAL},
	{"remote", CFG_REMOTE},
	{"interleave", CFG_INTERLEAVE},
	{0},
};

static const char *const quantity_names[CFG_Q_COUNT] = {
#define CFG_Q_NAME(f, presence) #f,
	KERN_VOLUME_FIELDS(CFG_Q_NAME)
#undef CFG_Q_NAME
		"cycles",
};

const char *cfg_quantity_name(enum cfg_quantity q)
{
	return (unsigned)q < CFG_Q_COUNT ? quantity_names[q] : NULL;
}

int cfg_name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.:-", *s))
			return 0;
	return 1;
}

/* Next token of a list separated by blanks or commas; returns its length, 0 at the end. */
static size_t next_token(const char **p)
{
	const char *s = *p;
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	n = strcspn(s, " \t,");
	*p = s;
	return n;
}

int cfg_parse_words(struct cfg_ctx *x, const char *key, const char *value, const struct cfg_word *table,
		    unsigned *bits)
{
	const char *p = value;
	size_t n;

	*bits = 0;
	while ((n = next_token(&p))) {
		const struct cfg_word *w;

		for (w = table; w->word; w++)
			if (strlen(w->word) == n && !strncmp(w->word, p, n))
				break;
		if (!w->word) {
			char list[256] = "";

			for (w = table; w->word; w++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
					 w == table ? "" : ", ", w->word);
			return cfg_fail(x, "%s: '%.*s' is not one of %s", key, (int)n, p, list);
		}
		/* as a list item given twice is refused elsewhere (README): "L1 L1", "on both", "all L1" */
		if (*bits & w->bits)
			return cfg_fail(x, "%s: '%.*s' repeats what the list already names", key, (int)n, p);
		*bits |= w->bits;
		p += n;
	}
	if (!*bits)
		return cfg_fail(x, "%s: empty list", key);
	return 0;
}

int cfg_decimal(const char *s, double *out)
{
	size_t digits = strspn(s, "0123456789"), frac = 0;

	if (s[digits] == '.')
		frac = strspn(s + digits + 1, "0123456789");
	/* digits, or digits '.' digits: no sign, exponent, hex, inf or nan, which strtod takes too */
	if (!digits || (s[digits] == '.' && !frac) || s[digits + (s[digits] == '.') + frac])
		return -1;
	*out = strtod(s, NULL);
	return 0;
}

static int parse_number(struct cfg_ctx *x, const char *key, const char *tok, int sizes,
			unsigned long long *out)
{
	char option[160];
	struct err e;
	uint64_t v;
	int rc;

	snprintf(option, sizeof option, "%s", key);
	rc = sizes ? num_parse_size(option, tok, &v, &e) : num_parse_u64(option, tok, &v, &e);
	if (rc)
		return cfg_fail(x, "%s", e.msg);
	*out = v;
	return 0;
}

static int append(struct cfg_ctx *x, const char *key, struct cfg_list *l, unsigned long long v)
{
	/* Bounds the cross product a run can ask for, and what a fuzzer can make us allocate. */
	enum { LIST_MAX = 4096 };
	unsigned idx;

	if (l->n >= LIST_MAX)
		return cfg_fail(x, "%s: list longer than %d values", key, LIST_MAX);
	if (cfg_grow(x, (void **)&l->v, &l->n, sizeof *l->v, &idx))
		return x->status;
	l->v[idx] = v;
	return 0;
}

/* "a..b" or "a..b/step", expanded. */
static int parse_range(struct cfg_ctx *x, const char *key, char *tok, int sizes, unsigned long long min,
		       struct cfg_list *l)
{
	char *dots = strstr(tok, ".."), *slash = strchr(tok, '/');
	unsigned long long lo, hi, step = 1;

	if (slash && slash < dots)
		return cfg_fail(x, "%s: '%s' is not a range (a..b or a..b/step)", key, tok);
	*dots = '\0';
	if (slash)
		*slash = '\0';
	if (parse_number(x, key, tok, sizes, &lo) || parse_number(x, key, dots + 2, sizes, &hi))
		return x->status;
	if (slash && parse_number(x, key, slash + 1, sizes, &step))
		return x->status;
	if (lo > hi || step == 0)
		return cfg_fail(x, "%s: range %llu..%llu/%llu is empty", key, lo, hi, step);
	if (lo < min)
		return cfg_fail(x, "%s: %llu is less than %llu", key, lo, min);
	for (unsigned long long v = lo;; v += step) {
		if (append(x, key, l, v))
			return x->status;
		if (hi - v < step)
			break;
	}
	return 0;
}

int cfg_parse_list(struct cfg_ctx *x, const char *key, const char *value, int sizes, unsigned long long min,
		   const char *extra_word, unsigned long long extra_value, struct cfg_list *out)
{
	const char *p = value;
	size_t n;

	while ((n = next_token(&p))) {
		char tok[64];
		unsigned long long v;

		if (n >= sizeof tok)
			return cfg_fail(x, "%s: '%.*s' is too long for a number", key, (int)n, p);
		memcpy(tok, p, n);
		tok[n] = '\0';
		p += n;
		if (extra_word && !strcmp(tok, extra_word)) {
			if (append(x, key, out, extra_value))
				return x->status;
			continue;
		}
		if (strstr(tok, "..")) {
			if (parse_range(x, key, tok, sizes, min, out))
				return x->status;
			continue;
		}
		if (parse_number(x, key, tok, sizes, &v))
			return x->status;
		if (v < min)
			return cfg_fail(x, "%s: %llu is less than %llu", key, v, min);
		if (append(x, key, out, v))
			return x->status;
	}
	if (!out->n)
		return cfg_fail(x, "%s: empty list", key);
	return 0;
}

int cfg_parse_uint(struct cfg_ctx *x, const char *key, const char *value, unsigned max, unsigned *out)
{
	unsigned long long v;

	if (parse_number(x, key, value, 0, &v))
		return x->status;
	if (v > max)
		return cfg_fail(x, "%s: %llu is larger than %u", key, v, max);
	*out = (unsigned)v;
	return 0;
}

int cfg_parse_expect(struct cfg_ctx *x, const char *value, enum cfg_quantity *q, double *scale)
{
	size_t n = strcspn(value, " \t*");
	const char *p = value + n;

	for (*q = 0; *q < CFG_Q_COUNT; (*q)++)
		if (strlen(quantity_names[*q]) == n && !strncmp(quantity_names[*q], value, n))
			break;
	if (*q == CFG_Q_COUNT)
		return cfg_fail(x, "expect: '%.*s' is not a quantity (kern.h volumes or cycles)", (int)n,
				value);
	*scale = 1.0;
	p += strspn(p, " \t");
	if (!*p)
		return 0;
	if (*p != '*')
		return cfg_fail(x, "expect: expected 'quantity * scale', got '%s'", value);
	p++;
	p += strspn(p, " \t");
	/* '?': the event counts a share of the quantity that no config can know (one DRAM channel of an
	   unknown number populated, one of several links): the quantity is the hypothesis, not a scale */
	if (!strcmp(p, "?")) {
		*scale = 0;
		return 0;
	}
	if (cfg_decimal(p, scale) || !(*scale > 0))
		return cfg_fail(x, "expect: scale '%s' is not a positive decimal number or '?'", p);
	return 0;
}
