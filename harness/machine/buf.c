#include <errno.h>
#include <numa.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "buf.h"

#define HUGE_2M (2u << 20)

int buf_parse_placement(const char *option, const char *text, const struct topo *t, struct buf_place *out,
			struct err *e)
{
	char *end;
	long node;

	if (!strcmp(text, "local") || !strcmp(text, "remote") || !strcmp(text, "interleave")) {
		out->kind = text[0] == 'l' ? BUF_LOCAL : text[0] == 'r' ? BUF_REMOTE : BUF_INTERLEAVE;
		out->node = -1;
		if (t && out->kind == BUF_REMOTE && t->numa_nodes < 2)
			return err_set(e, E_USAGE,
				       "%s: 'remote' needs a second NUMA node; this machine has %d", option,
				       t->numa_nodes);
		return 0;
	}
	if (strncmp(text, "node:", 5) != 0 || text[5] < '0' || text[5] > '9')
		return err_set(e, E_USAGE, "%s: '%s' is not a placement (local, node:N, remote, interleave)",
			       option, text);
	node = strtol(text + 5, &end, 10);
	/* past INT_MAX before the cast: node:4294967296 read as node 0 */
	if (!t && (*end || node > INT_MAX))
		return err_set(e, E_USAGE, "%s: '%s' is not a NUMA node number", option, text + 5);
	if (t && (*end || node > INT_MAX || !topo_node_exists(t, (int)node)))
		return err_set(e, E_USAGE, "%s: NUMA node '%s' does not exist (this machine has %d node(s))",
			       option, text + 5, t->numa_nodes);
	out->kind = BUF_NODE;
	out->node = (int)node;
	return 0;
}

void buf_format_placement(const struct buf_place *p, char *out, size_t len)
{
	static const char *const names[] = {"local", "node", "remote", "interleave"};

	if (p->kind == BUF_NODE)
		snprintf(out, len, "node:%d", p->node);
	else
		snprintf(out, len, "%s", names[p->kind]);
}

static int nearest_other_node(const struct topo *t, int home)
{
	int best = -1, best_d = 0;

	for (int n = 0; n <= numa_max_node(); n++) {
		int d;
		if (n == home || !topo_node_exists(t, n))
			continue;
		d = numa_distance(home, n);
		if (best < 0 || d < best_d)
			best = n, best_d = d;
	}
	return best;
}

int buf_place_node(const struct buf_place *p, const struct topo *t, int cpu, int *node, struct err *e)
{
	int home = topo_cpu_node(t, cpu);

	switch (p->kind) {
	case BUF_LOCAL:
		*node = home;
		return 0;
	case BUF_NODE:
		*node = p->node;
		return 0;
	case BUF_INTERLEAVE:
		*node = -1;
		return 0;
	case BUF_REMOTE:
		*node = nearest_other_node(t, home);
		if (*node < 0)
			return err_set(e, E_USAGE, "no NUMA node is remote to CPU %d", cpu);
		return 0;
	}
	return err_set(e, E_USAGE, "unknown placement");
}

int buf_alloc(struct buf *b, size_t len, const struct buf_place *p, const struct topo *t, int cpu, int thp,
	      struct err *e)
{
	size_t need = len + BUF_SLACK;
	int rc;

	/* With huge pages, whole ones even for a small buffer: contiguous physical memory, so a buffer
	   that fits a cache never loses lines to set conflicts that differ from run to run (4 KiB pages
	   put a 512 KiB buffer 4 % apart in L2 bandwidth between two identical runs here). */
	if (thp)
		need = (need + HUGE_2M - 1) & ~(size_t)(HUGE_2M - 1);

	memset(b, 0, sizeof *b);
	rc = buf_place_node(p, t, cpu, &b->node, e);
	if (rc)
		return rc;
	b->map_len = need + HUGE_2M;
	b->map = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		return err_set(e, E_RUNTIME, "cannot map %zu bytes: %s", b->map_len, strerror(errno));
	}
	b->base = (void *)(((uintptr_t)b->map + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
	b->len = len;
	madvise(b->base, need, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	/* Bind before the first touch: the kernel places a page when it is first written. */
	if (numa_available() >= 0) {
		if (b->node >= 0)
			numa_tonode_memory(b->base, need, b->node);
		else
			numa_interleave_memory(b->base, need, numa_all_nodes_ptr);
	}
	return 0;
}

void buf_first_touch(struct buf *b)
{
	volatile char *p = b->base;

	for (size_t off = 0; off < b->len + BUF_SLACK; off += 4096)
		p[off] = 0;
}

double buf_thp_share(const struct buf *b, size_t len)
{
	uintptr_t lo = (uintptr_t)b->base, hi = lo + b->len;
	unsigned long long huge_kb = 0;
	char line[256];
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return 0;
	/* Sum AnonHugePages over the mappings that overlap the buffer. */
	while (fgets(line, sizeof line, f)) {
		unsigned long long a, z, kb;
		if (sscanf(line, "%llx-%llx ", &a, &z) == 2)
			in = a < hi && z > lo;
		else if (in && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
			huge_kb += kb;
	}
	fclose(f);
	double share = len ? (double)huge_kb * 1024.0 / (double)len : 0;
	return share > 1 ? 1 : share;
}

void buf_free(struct buf *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof *b);
	b->node = -1;
}
