/* topo.c — hwloc topology. Only what pmucheck needs: counts, the data-cache hierarchy seen from one PU
 * (the first allowed one, or a run's first CPU: topo_caches_of), CPU lists, and pinning a thread to one of
 * them. Parsing and formatting a CPU list: topo_cpulist.c; the topology as `info` and machine.json show it:
 * topo_print.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "level_capacity.h"
#include "topo.h"

/* hwloc's "Inclusive" info of a cache object (common/level.h says where it comes from). */
static enum level_inclusion cache_inclusion(hwloc_obj_t o)
{
	const char *v = hwloc_obj_get_info_by_name(o, "Inclusive");

	if (v && !strcmp(v, "1"))
		return LEVEL_INCLUSIVE;
	return v && !strcmp(v, "0") ? LEVEL_NOT_INCLUSIVE : LEVEL_INCLUSION_UNKNOWN;
}

static void load_caches(struct topo *t, int cpu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpu);
	uint64_t measured[TOPO_MAX_LEVELS];

	/* the ends a resumed run measured (topo_take_measured, before the run reads its CPU's caches) stay */
	for (int l = 0; l < TOPO_MAX_LEVELS; l++)
		measured[l] = t->caches[l].measured;
	t->ncaches = 0;
	memset(t->caches, 0, sizeof t->caches);
	for (int l = 0; l < TOPO_MAX_LEVELS; l++)
		t->caches[l].measured = measured[l];
	for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent) {
		struct topo_cache *c;

		if (!hwloc_obj_type_is_dcache(o->type) || !o->attr)
			continue;
		if (o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
			continue;
		if (o->attr->cache.depth < 1 || o->attr->cache.depth > TOPO_MAX_LEVELS)
			continue;
		c = &t->caches[o->attr->cache.depth - 1];
		c->level = (int)o->attr->cache.depth;
		c->size = o->attr->cache.size;
		c->line = o->attr->cache.linesize;
		c->npus = (unsigned)hwloc_bitmap_weight(o->cpuset);
		c->ncores = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, o->cpuset, HWLOC_OBJ_CORE);
		hwloc_bitmap_list_snprintf(c->cpus, sizeof c->cpus, o->cpuset);
		c->inclusion = cache_inclusion(o);
		if (c->level > t->ncaches)
			t->ncaches = c->level;
	}
}

/* The CPUs pmucheck was started on. Where OMP_PROC_BIND, OMP_PLACES or GOMP_CPU_AFFINITY ask libgomp for
   places, it binds the initial thread to the first place before main (OMP_PROC_BIND=true here: CPU 0 of
   0-1), but its place list covers the CPUs it was started on; so their union is taken then, and the
   thread's own affinity otherwise. */
static int launch_affinity(hwloc_topology_t h, hwloc_bitmap_t out)
{
	int places = omp_get_num_places(), ids[TOPO_MAX_CPUS];

	if (places <= 0)
		return hwloc_get_cpubind(h, out, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_zero(out);
	for (int p = 0; p < places; p++) {
		int n = omp_get_place_num_procs(p);
		if (n < 0 || n > TOPO_MAX_CPUS)
			return -1;
		omp_get_place_proc_ids(p, ids);
		for (int i = 0; i < n; i++)
			hwloc_bitmap_set(out, (unsigned)ids[i]);
	}
	return 0;
}

/* hwloc's allowed PUs, and on this machine only those pmucheck was started on (topo.h says why). A
   synthetic or XML topology describes another machine, whose PUs this process's mask does not name. */
static int load_usable(struct topo *t, int narrow)
{
	hwloc_bitmap_t bound;

	t->usable = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(t->h));
	if (!t->usable)
		return -1;
	if (!narrow || !hwloc_topology_is_thissystem(t->h))
		return 0;
	bound = hwloc_bitmap_alloc();
	if (!bound)
		return -1;
	if (launch_affinity(t->h, bound) == 0 && hwloc_bitmap_intersects(bound, t->usable)) {
		t->bound = !hwloc_bitmap_isincluded(t->usable, bound);
		hwloc_bitmap_and(t->usable, t->usable, bound);
	}
	hwloc_bitmap_free(bound);
	return 0;
}

static int load(struct topo *t, int narrow, struct err *e)
{
	int id, n;

	memset(t, 0, sizeof *t);
	if (hwloc_topology_init(&t->h) < 0 || hwloc_topology_load(t->h) < 0)
		return err_set(e, E_RUNTIME, "hwloc could not read the topology: %s", strerror(errno));
	t->sockets = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PACKAGE);
	t->cores = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_CORE);
	t->pus = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
	t->numa_nodes = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_NUMANODE);
	if (t->sockets < 1)
		t->sockets = 1;
	/* The most PUs of any core, not PUs over cores: a hybrid CPU (Alder Lake: 8 P-cores of 2 PUs, 8 E-cores
	   of 1, 24 / 16 = 1) or one with a sibling offline has cores of either kind. */
	t->smt = 1;
	for (int i = 0; i < t->cores; i++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_CORE, (unsigned)i);
		int pus = core ? hwloc_bitmap_weight(core->cpuset) : 1;
		if (pus > t->smt)
			t->smt = pus;
	}

	if (load_usable(t, narrow)) {
		topo_free(t);
		return err_set(e, E_RUNTIME, "out of memory for the CPU set");
	}
	/* More than t->cpus holds: refused, not cut to its first TOPO_MAX_CPUS (a 2048-PU machine then took
	   --cpus 1500 for "not in this machine (usable CPUs: 0-2047)") */
	if ((n = hwloc_bitmap_weight(t->usable)) > TOPO_MAX_CPUS) {
		topo_free(t);
		return err_set(e, E_RUNTIME, "hwloc reports %d usable CPUs; pmucheck handles at most %d%s", n,
			       TOPO_MAX_CPUS,
			       narrow ? ": start it on fewer (taskset -c LIST, numactl --physcpubind)" : "");
	}
	/* as many sockets and L3s as the uncore lists hold (topo_sockets_used, topo_l3_cpus): one more would
	   leave its uncore counts out of every sum */
	if (t->sockets > TOPO_MAX_SOCKETS) {
		topo_free(t);
		return err_set(e, E_RUNTIME, "hwloc reports %d sockets; pmucheck handles at most %d",
			       t->sockets, TOPO_MAX_SOCKETS);
	}
	if ((n = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_L3CACHE)) > TOPO_MAX_L3_DOMAINS) {
		topo_free(t);
		return err_set(e, E_RUNTIME, "hwloc reports %d L3 caches; pmucheck handles at most %d", n,
			       TOPO_MAX_L3_DOMAINS);
	}
	hwloc_bitmap_foreach_begin(id, t->usable)
	{
		t->cpus[t->ncpus++] = id;
	}
	hwloc_bitmap_foreach_end();
	if (t->ncpus == 0) {
		topo_free(t);
		return err_set(e, E_RUNTIME, "hwloc reports no usable CPU");
	}
	load_caches(t, t->cpus[0]);
	return 0;
}

int topo_load(struct topo *t, struct err *e)
{
	return load(t, 1, e);
}

int topo_load_machine(struct topo *t, struct err *e)
{
	return load(t, 0, e);
}

void topo_free(struct topo *t)
{
	if (t->h)
		hwloc_topology_destroy(t->h);
	hwloc_bitmap_free(t->usable);
	t->h = NULL;
	t->usable = NULL;
}

/* Cores sharing one instance of c: hwloc's count, since PUs per core differ between cores on a hybrid CPU or
   with a sibling offline (a P-core's L1 is its own, though two of its PUs share it). */
static unsigned sharers(const struct topo *t, const struct topo_cache *c)
{
	unsigned n = c->ncores ? c->ncores : c->npus / (unsigned)(t->smt > 0 ? t->smt : 1);

	return n < 1 ? 1 : n;
}

static uint64_t share(const struct topo *t, int level, int threads, int use_measured)
{
	const struct topo_cache *c;
	uint64_t size;
	unsigned k;

	if (level < 1 || level > t->ncaches)
		return 0;
	c = &t->caches[level - 1];
	size = use_measured && c->measured ? c->measured : c->size;
	k = sharers(t, c);
	if ((unsigned)threads < k)
		k = (unsigned)threads;
	return size / k;
}

/* Levels 1..level of t as common/level_capacity.h takes them, with the sizes topo_cache_share takes, or
   with the reported ones alone (use_measured 0). */
static void capacity_levels(const struct topo *t, int level, int use_measured, struct level_cache *c)
{
	for (int l = 0; l < level; l++) {
		int measured = use_measured && t->caches[l].measured;
		c[l] = (struct level_cache){
			.size = (double)(measured ? t->caches[l].measured : t->caches[l].size),
			.measured = measured,
			.sharers = (int)sharers(t, &t->caches[l]),
			.inclusion = t->caches[l].inclusion,
		};
	}
}

static uint64_t capacity(const struct topo *t, int level, int threads, int use_measured)
{
	struct level_cache c[TOPO_MAX_LEVELS];

	if (level < 1 || level > t->ncaches)
		return 0;
	capacity_levels(t, level, use_measured, c);
	return (uint64_t)level_capacity(c, (enum level)(level - 1), threads);
}

uint64_t topo_cache_capacity(const struct topo *t, int level, int threads)
{
	return capacity(t, level, threads, 1);
}

uint64_t topo_reported_capacity(const struct topo *t, int level, int threads)
{
	return capacity(t, level, threads, 0);
}

uint64_t topo_cache_alone(const struct topo *t, int level, uint64_t per_thread, int threads)
{
	struct level_cache c[TOPO_MAX_LEVELS];

	if (level < 1 || level > t->ncaches)
		return per_thread;
	capacity_levels(t, level, 1, c);
	return (uint64_t)level_capacity_alone(c, (enum level)(level - 1), (double)per_thread, threads);
}

uint64_t topo_cache_share(const struct topo *t, int level, int threads)
{
	return share(t, level, threads, 1);
}

uint64_t topo_reported_share(const struct topo *t, int level, int threads)
{
	return share(t, level, threads, 0);
}

/* The sizes of the data caches above PU pu as hwloc reports them, by level (index 0 = L1); zero where it
   has none. */
struct cache_shape {
	uint64_t size[TOPO_MAX_LEVELS];
};

static void cache_shape(hwloc_obj_t pu, struct cache_shape *s)
{
	memset(s, 0, sizeof *s);
	for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent) {
		if (!hwloc_obj_type_is_dcache(o->type) || !o->attr ||
		    o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION || o->attr->cache.depth < 1 ||
		    o->attr->cache.depth > TOPO_MAX_LEVELS)
			continue;
		s->size[o->attr->cache.depth - 1] = o->attr->cache.size;
	}
}

/* The hwloc CPU kind of cpuset, -1 where hwloc knows fewer than two kinds. */
static int cpu_kind(const struct topo *t, hwloc_const_cpuset_t set)
{
	return hwloc_cpukinds_get_nr(t->h, 0) < 2 ? -1 : hwloc_cpukinds_get_by_cpuset(t->h, set, 0);
}

/* Whether core is of the first usable PU's kind, with data caches as large level by level. The plan sizes
   every thread's points from the first PU's caches; a hybrid CPU's cores of the other kind have others
   (Alder Lake: a P-core's own 1.25 MiB L2, an E-core's 2 MiB L2 shared by four; Intel Optimization
   Reference Manual, its Alder Lake performance hybrid architecture section), where a point the plan labels
   L2 would run from L3. A cache shared by fewer cores than the first PU's (a core offline) or by more is
   not another kind: excluding it would leave a socket whose first L3 is short a core one L3 of cores. */
static int like_first(const struct topo *t, hwloc_obj_t core, const struct cache_shape *first, int kind)
{
	struct cache_shape s;

	if (kind >= 0 && cpu_kind(t, core->cpuset) != kind)
		return 0;
	cache_shape(hwloc_get_obj_inside_cpuset_by_type(t->h, core->cpuset, HWLOC_OBJ_PU, 0), &s);
	return !memcmp(s.size, first->size, sizeof s.size);
}

int topo_default_cpus(const struct topo *t, int *cpus, int max)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)t->cpus[0]);
	hwloc_obj_t pkg = pu ? hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, pu) : NULL;
	int n = 0, ncores = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_CORE);
	hwloc_bitmap_t both = hwloc_bitmap_alloc();
	struct cache_shape first;
	int kind = pu ? cpu_kind(t, pu->cpuset) : -1;

	cache_shape(pu, &first);
	for (int i = 0; both && i < ncores && n < max; i++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_CORE, (unsigned)i);

		if ((pkg && !hwloc_bitmap_isincluded(core->cpuset, pkg->cpuset)) ||
		    !like_first(t, core, &first, kind))
			continue;
		hwloc_bitmap_and(both, core->cpuset, t->usable);
		if (!hwloc_bitmap_iszero(both))
			cpus[n++] = hwloc_bitmap_first(both);
	}
	hwloc_bitmap_free(both);
	return n;
}

/* Ends a list that hwloc cut at len - 1 characters after its last whole entry, with "...": a message names
   no CPU that is not in the list (a cut "12" of "123"). */
static void list_cut(char *list, size_t len)
{
	char *comma;

	if (len < 4) {
		list[0] = 0;
		return;
	}
	list[len - 4] = 0;
	comma = strrchr(list, ',');
	strcpy(comma ? comma + 1 : list, "...");
}

int topo_unlike_first(const struct topo *t, const int *cpus, int n, char *list, size_t len)
{
	hwloc_obj_t pu = n ? hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpus[0]) : NULL;
	int kind = pu ? cpu_kind(t, pu->cpuset) : -1, unlike;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	struct cache_shape first;

	if (len)
		list[0] = 0;
	if (!pu || !set) {
		hwloc_bitmap_free(set);
		return 0;
	}
	cache_shape(pu, &first);
	for (int i = 1; i < n; i++) {
		hwloc_obj_t other = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpus[i]);
		hwloc_obj_t core = other ? hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, other) : NULL;
		if (core && !like_first(t, core, &first, kind))
			hwloc_bitmap_set(set, (unsigned)cpus[i]);
	}
	unlike = hwloc_bitmap_weight(set);
	/* hwloc's own list syntax, as --cpus takes it: the E-cores of a hybrid CPU or one CCD of two make one
	   range ("16-31"), not a list a message would have to cut */
	if (unlike > 0 && len && hwloc_bitmap_list_snprintf(list, len, set) >= (int)len)
		list_cut(list, len);
	hwloc_bitmap_free(set);
	return unlike > 0 ? unlike : 0;
}

/* The core PU `cpu` is on, as hwloc reports the cores; NULL for a PU hwloc does not know or puts in no core. */
static hwloc_obj_t core_of(const struct topo *t, int cpu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpu);

	return pu ? hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, pu) : NULL;
}

int topo_distinct_cores(const struct topo *t, const int *cpus, int n)
{
	hwloc_obj_t core[TOPO_MAX_CPUS];

	for (int i = 0; i < n && i < TOPO_MAX_CPUS; i++) {
		core[i] = core_of(t, cpus[i]);
		for (int k = 0; core[i] && k < i; k++)
			if (core[k] == core[i])
				return 0;
	}
	return 1;
}

int topo_add_core_siblings(const struct topo *t, int *cpus, int n, int max)
{
	for (int i = 0, given = n; i < given; i++) {
		hwloc_obj_t core = core_of(t, cpus[i]);
		unsigned id;

		if (!core)
			continue;
		hwloc_bitmap_foreach_begin(id, core->cpuset)
		{
			int listed = 0;
			for (int k = 0; k < n; k++)
				listed |= cpus[k] == (int)id;
			if (!listed && n < max)
				cpus[n++] = (int)id;
		}
		hwloc_bitmap_foreach_end();
	}
	return n;
}

int topo_cpu_node(const struct topo *t, int cpu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpu);
	hwloc_obj_t node;

	if (!pu)
		return -1;
	node = hwloc_get_next_obj_covering_cpuset_by_type(t->h, pu->cpuset, HWLOC_OBJ_NUMANODE, NULL);
	return node ? (int)node->os_index : 0;
}

static struct topo_socket_use *use_of(const struct topo *t, hwloc_obj_t pkg, struct topo_socket_use *out,
				      int *n)
{
	hwloc_bitmap_t both;
	int i = 0;

	while (i < *n && out[i].socket != (int)pkg->logical_index)
		i++;
	if (i < *n || i == TOPO_MAX_SOCKETS)
		return i < *n ? &out[i] : NULL;
	out[i] = (struct topo_socket_use){.socket = (int)pkg->logical_index,
					  .cpu = hwloc_bitmap_first(pkg->cpuset)};
	both = hwloc_bitmap_alloc();
	if (both) {
		hwloc_bitmap_and(both, pkg->cpuset, t->usable);
		if (!hwloc_bitmap_iszero(both))
			out[i].cpu = hwloc_bitmap_first(both);
		hwloc_bitmap_free(both);
	}
	(*n)++;
	return &out[i];
}

static int by_socket(const void *a, const void *b)
{
	return ((const struct topo_socket_use *)a)->socket - ((const struct topo_socket_use *)b)->socket;
}

int topo_sockets_used(const struct topo *t, const int *cpus, const int *nodes, int ncpus,
		      struct topo_socket_use *out)
{
	int n = 0, npkg = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PACKAGE);

	for (int i = 0; i < ncpus; i++) {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpus[i]);
		hwloc_obj_t pkg = pu ? hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, pu) : NULL;
		struct topo_socket_use *u = pkg ? use_of(t, pkg, out, &n) : NULL;
		/* a PMU per L3 (amd_l3) counts the L3 of the CPU it opens on: one of the run's */
		if (u && !u->threads)
			u->cpu = cpus[i];
		if (u)
			u->threads = 1;
		/* memory: the packages that hold the node's CPUs, or every package when interleaved */
		for (int k = 0; k < npkg; k++) {
			hwloc_obj_t p = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, (unsigned)k);
			hwloc_obj_t node = nodes[i] >= 0
				? hwloc_get_numanode_obj_by_os_index(t->h, (unsigned)nodes[i])
				: NULL;
			if (nodes[i] >= 0 && (!node || !hwloc_bitmap_intersects(node->cpuset, p->cpuset)))
				continue;
			if ((u = use_of(t, p, out, &n)))
				u->memory = 1;
		}
	}
	qsort(out, (size_t)n, sizeof *out, by_socket);
	return n;
}

int topo_l3_cpus(const struct topo *t, const int *cpus, int ncpus, int *out, int max)
{
	hwloc_obj_t seen[TOPO_MAX_L3_DOMAINS];
	int n = 0;

	for (int i = 0; i < ncpus && n < max && n < TOPO_MAX_L3_DOMAINS; i++) {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpus[i]);
		hwloc_obj_t l3 = pu ? hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_L3CACHE, pu) : NULL;
		int k = 0;
		while (k < n && seen[k] != l3)
			k++;
		if (!l3 || k < n)
			continue;
		seen[n] = l3;
		out[n++] = cpus[i];
	}
	return n;
}

void topo_format_sockets(const struct topo_socket_use *u, int n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d:%s", i ? ";" : "", u[i].socket,
					 u[i].threads && u[i].memory ? "threads+memory"
						 : u[i].threads      ? "threads"
								     : "memory");
}

int topo_node_exists(const struct topo *t, int node)
{
	return node >= 0 && hwloc_get_numanode_obj_by_os_index(t->h, (unsigned)node) != NULL;
}

void topo_caches_of(struct topo *t, int cpu)
{
	if (hwloc_get_pu_obj_by_os_index(t->h, (unsigned)cpu))
		load_caches(t, cpu);
}

int topo_pin_self(int cpu, struct err *e)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return err_set(e, E_RUNTIME, "cannot pin a thread to CPU %d: no such CPU number", cpu);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set))
		return err_set(e, E_RUNTIME, "cannot pin a thread to CPU %d: %s", cpu, strerror(errno));
	return 0;
}

int topo_on_cpu(int cpu, int (*fn)(void *arg, struct err *e), void *arg, struct err *e)
{
	cpu_set_t old;
	int rc;

	if (sched_getaffinity(0, sizeof old, &old))
		return err_set(e, E_RUNTIME, "cannot read the thread's CPU mask: %s", strerror(errno));
	if ((rc = topo_pin_self(cpu, e)))
		return rc;
	rc = fn(arg, e);
	if (sched_setaffinity(0, sizeof old, &old) && rc == 0)
		rc = err_set(e, E_RUNTIME,
			     "cannot restore the thread's CPU mask after pinning it to CPU %d: %s", cpu,
			     strerror(errno));
	return rc;
}

json_t *topo_measured_json(const struct topo *t)
{
	json_t *measured = json_object();

	for (int l = 1; l <= t->ncaches; l++) {
		char key[8];
		if (!t->caches[l - 1].measured)
			continue;
		snprintf(key, sizeof key, "L%d", l);
		json_object_set_new(measured, key, json_integer((json_int_t)t->caches[l - 1].measured));
	}
	return measured;
}

void topo_take_measured(struct topo *t, const uint64_t measured[TOPO_MAX_LEVELS])
{
	for (int l = 0; l < t->ncaches; l++)
		t->caches[l].measured = measured[l];
}
