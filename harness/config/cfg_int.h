/* cfg_int.h — what the config loader's files share; not for callers outside harness/cfg*.c. */
#ifndef PMUCHECK_CFG_INT_H
#define PMUCHECK_CFG_INT_H

#include "cfg.h"

/* The state of one load. The handler of inih does not get line numbers in Debian's build, so our own
   line reader counts them (cfg.c). */
struct cfg_ctx {
	struct cfg *cfg;
	const char *file;
	unsigned line;               /* line being parsed */
	const struct cfg_kind *kind; /* section being filled, NULL before the first */
	unsigned cur;                /* its index in the cfg array of that kind */
	unsigned seen;               /* bit per key of kind->keys already given in this section */
	unsigned section_line;       /* line of its header */
	unsigned header_line;        /* line of the last "[...]" the reader saw */
	int header_used;             /* whether a key followed that header */
	int status;                  /* first error, then every later callback is ignored */
	struct err *e;
};

struct cfg_key {
	const char *name;
	int required;
	int (*set)(struct cfg_ctx *x, const char *value);
};

/* A section type: "[word]" or "[word NAME]". */
struct cfg_kind {
	const char *word;
	int named;
	const struct cfg_key *keys;
	unsigned nkeys;
	int (*open)(struct cfg_ctx *x, const char *name); /* adds the object, sets x->cur */
	int (*close)(struct cfg_ctx *x);                  /* checks across keys; may be NULL */
	/* a key not in keys: the section's own kind of key ([export]'s encodings); NULL: an unknown key */
	int (*other)(struct cfg_ctx *x, const char *key, const char *value);
};

extern const struct cfg_kind cfg_kind_arch, cfg_kind_event, cfg_kind_export, cfg_kind_preset, cfg_kind_run;

/* Sets "file:line: message" and returns E_USAGE. */
int cfg_fail(struct cfg_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copies value into *dst (which must be NULL). */
int cfg_strdup(struct cfg_ctx *x, char **dst, const char *value);
/* Grows *arr (of n elements of size sz) by one zeroed element; returns its index via *idx. */
int cfg_grow(struct cfg_ctx *x, void **arr, unsigned *n, size_t sz, unsigned *idx);

/* A decimal number as configs/README.md allows one (digits, or digits.digits) into *out; -1 for
   anything else. */
int cfg_decimal(const char *s, double *out);

/* Value parsers (cfg_parse.c); each names the key in its message. */
struct cfg_word {
	const char *word;
	unsigned bits;
};
/* A whitespace or comma separated list of words from table, OR-ed together. */
int cfg_parse_words(struct cfg_ctx *x, const char *key, const char *value, const struct cfg_word *table,
		    unsigned *bits);
/* A list of numbers and ranges "a..b" or "a..b/step"; sizes take k, M, G suffixes (binary).
   Numbers below min are refused; extra_word (if not NULL) stands for extra_value. */
int cfg_parse_list(struct cfg_ctx *x, const char *key, const char *value, int sizes, unsigned long long min,
		   const char *extra_word, unsigned long long extra_value, struct cfg_list *out);
int cfg_parse_uint(struct cfg_ctx *x, const char *key, const char *value, unsigned max, unsigned *out);
/* "quantity" or "quantity * scale". */
int cfg_parse_expect(struct cfg_ctx *x, const char *value, enum cfg_quantity *q, double *scale);
/* A name for a section, event or kernel: letters, digits and _ . : - only. */
int cfg_name_ok(const char *s);

/* After the last section: every preset has runs. */
int cfg_presets_check(struct cfg_ctx *x);

extern const struct cfg_word cfg_level_words[], cfg_prefetch_words[], cfg_placement_words[];

#endif
