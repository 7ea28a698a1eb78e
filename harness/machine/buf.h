/* buf.h — measurement buffers: NUMA placement (libnuma), transparent huge pages, first touch by the owner.
 *
 * A buffer is mmap'ed, bound to its node(s) with mbind through libnuma before anything touches it, advised
 * for huge pages (or against them), and then first-touched by the thread that will use it, so the pages
 * land where the placement says. */
#ifndef PMUCHECK_BUF_H
#define PMUCHECK_BUF_H

#include <stddef.h>

#include "err.h"
#include "topo.h"

enum buf_placement {
	BUF_LOCAL,      /* the node of the measuring CPU */
	BUF_NODE,       /* a given node */
	BUF_REMOTE,     /* the nearest node that is not the measuring CPU's */
	BUF_INTERLEAVE, /* page-interleaved over all nodes */
};

struct buf_place {
	enum buf_placement kind;
	int node; /* BUF_NODE only */
};

#define BUF_SLACK 4096u /* readable bytes after the last array (splitread reads past its end by < 64) */

struct buf {
	void *base; /* 2 MiB aligned, so huge pages can back it from the first byte */
	size_t len; /* usable bytes (excluding the slack) */
	void *map;  /* what mmap returned */
	size_t map_len;
	int node; /* node the pages are bound to, -1 for interleaved */
};

/* Parses "local", "node:N", "remote", "interleave"; checks against t that the node exists, or a second
   one for remote. t NULL: the syntax alone (fleet: another machine will run it). */
int buf_parse_placement(const char *option, const char *text, const struct topo *t, struct buf_place *out,
			struct err *e);
/* "local", "node:1", ... */
void buf_format_placement(const struct buf_place *p, char *out, size_t len);
/* The node a placement puts memory on for a thread on `cpu`; -1 for interleave; E_USAGE when remote is
   asked for on a one-node machine. */
int buf_place_node(const struct buf_place *p, const struct topo *t, int cpu, int *node, struct err *e);

/* Maps and binds len (+ BUF_SLACK) bytes. Does not touch them: call buf_first_touch from the owner. thp:
   1 advise huge pages, 0 advise against them. */
int buf_alloc(struct buf *b, size_t len, const struct buf_place *p, const struct topo *t, int cpu, int thp,
	      struct err *e);
/* Writes every page of b once, from the calling thread. */
void buf_first_touch(struct buf *b);
/* Fraction of b's first len bytes (b->len: all of it) that transparent huge pages back (from
   /proc/self/smaps): its mapping's huge pages over len, at most 1, as pages past len are meant untouched
   (a huge page that len ends inside counts whole: at most 2 MiB too many). */
double buf_thp_share(const struct buf *b, size_t len);
void buf_free(struct buf *b);

#endif
