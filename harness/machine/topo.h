/* topo.h — the machine's topology from hwloc: sockets, cores, PUs, NUMA nodes, data caches and who shares
 * them, plus CPU-list parsing against it. */
#ifndef PMUCHECK_TOPO_H
#define PMUCHECK_TOPO_H

#include <stdint.h>
#include <stdio.h>

#include <hwloc.h>
#include <jansson.h>

#include "err.h"
#include "level.h"

#define TOPO_MAX_CPUS 1024
/* Room for TOPO_MAX_CPUS CPU or NUMA node numbers (below 10000) with their separators and the terminating
   NUL, as topo_format_cpus writes a point's CPUs and its threads' nodes into raw.csv: a point of 192
   threads over two sockets needs 650 characters, and a cut list would name a CPU that is not in it. */
#define TOPO_LIST_CHARS (TOPO_MAX_CPUS * 5 + 1)
#define TOPO_MAX_LEVELS 4

struct topo_cache {
	int level;         /* 1, 2, 3 (data or unified caches only) */
	uint64_t size;     /* bytes of one instance, as reported */
	uint64_t measured; /* usable bytes found by the latency probe (levels.c) when clearly smaller; 0 */
	unsigned line;     /* line size in bytes */
	unsigned npus;     /* PUs sharing one instance */
	unsigned ncores;   /* cores sharing it (hwloc's cores under it; 0: not known, npus / smt stands in) */
	char cpus[128];    /* PUs sharing the instance the caches were read from (topo_caches_of), "0-1" */
	enum level_inclusion inclusion; /* hwloc's info "Inclusive" of the cache (common/level.h) */
};

struct topo {
	hwloc_topology_t h;
	int sockets, cores, pus, numa_nodes;
	int smt;                                   /* PUs per core: the most any core has */
	struct topo_cache caches[TOPO_MAX_LEVELS]; /* index 0 = L1 */
	int ncaches;
	int cpus[TOPO_MAX_CPUS]; /* OS indexes of the usable PUs (below), ascending */
	int ncpus;
	/* The PUs a run may pin to: hwloc's allowed set (cgroup cpusets), narrowed on this machine to the CPU
	   affinity pmucheck was started with (taskset, numactl --physcpubind, a batch system's binding), so
	   that no thread is pinned where its launcher did not let it run. */
	hwloc_bitmap_t usable;
	int bound; /* the affinity left out some allowed PUs */
};

int topo_load(struct topo *t, struct err *e);
/* The same with every PU hwloc allows usable, whatever this process's affinity: for a command that pins
   nothing (`prefetch` writes any CPU's MSR file from wherever it runs). */
int topo_load_machine(struct topo *t, struct err *e);
void topo_free(struct topo *t);

/* Bytes of the level-`level` cache one thread may use when `threads` threads share it (the measured size
   when the latency probe found the level smaller than reported). */
uint64_t topo_cache_share(const struct topo *t, int level, int threads);
/* Bytes of the level-`level` cache each of `threads` threads can keep, by common/level_capacity.h's rule
   from the sizes topo_cache_share takes: its share, or for an L3 that is not inclusive the L2's with its
   part of the L3. The plan sizes and labels its points with it. */
uint64_t topo_cache_capacity(const struct topo *t, int level, int threads);
/* The same from hwloc's reported sizes alone, whatever the probe found. */
uint64_t topo_reported_capacity(const struct topo *t, int level, int threads);
/* The working set one thread alone fills the level-`level` cache with as `threads` threads of `per_thread`
   bytes each fill one instance of it (common/level_capacity.h level_capacity_alone). */
uint64_t topo_cache_alone(const struct topo *t, int level, uint64_t per_thread, int threads);
/* The same from hwloc's reported size alone, whatever the probe found (machine.json levels.reported). */
uint64_t topo_reported_share(const struct topo *t, int level, int threads);
/* The CPUs of a run by default: one usable PU per core (the core's first usable one) of the socket that
   holds the first usable PU, ascending; only cores of the first usable PU's hwloc CPU kind whose data
   caches are as large as its, level by level (on a hybrid CPU the cores of its kind), since the plan sizes
   every thread's points from those. Returns how many. */
int topo_default_cpus(const struct topo *t, int *cpus, int max);
/* How many of cpus[1..n) are on cores that topo_default_cpus would leave out beside cpus[0] (another CPU
   kind, other cache sizes), listed into list as --cpus takes them ("4,6", "16-31"); a list longer than len
   ends after its last whole entry with "...". */
int topo_unlike_first(const struct topo *t, const int *cpus, int n, char *list, size_t len);
/* Whether PUs cpus[0..n) are each on a core of its own, as hwloc reports the cores (a PU hwloc does not
   know counts as its own core). */
int topo_distinct_cores(const struct topo *t, const int *cpus, int n);
/* Appends to cpus[0..n) the other PUs of each one's core, as hwloc reports the cores, up to max in all;
   returns how many there are then. */
int topo_add_core_siblings(const struct topo *t, int *cpus, int n, int max);
/* NUMA node (OS index) that holds PU `cpu`'s local memory, or -1. */
int topo_cpu_node(const struct topo *t, int cpu);
/* A socket whose uncore a run's traffic passes: the CPU to count it from, and why it is counted. */
struct topo_socket_use {
	int socket; /* the package's logical index */
	int cpu;    /* the first of the run's CPUs on it, else its first usable PU (else its first PU): uncore
		    counters are opened there */
	int threads; /* a thread of the run runs there */
	int memory;  /* the run's memory is there (a node of it, or interleaved over all) */
};
/* The most sockets a machine may have (the largest x86 machines, HPE Superdome Flex, have 32); one of more
   is refused as it loads, never cut to its first ones, whose uncore counts would then be summed alone. */
#define TOPO_MAX_SOCKETS 32
/* topo_format_sockets' text for them all: "NN:threads+memory;" each. */
#define TOPO_SOCKETS_CHARS (TOPO_MAX_SOCKETS * 18)

/* The sockets that the threads on cpus[0..ncpus-1] and memory on nodes[0..ncpus-1] (one per thread; -1:
   interleaved over every node) touch, ascending; their uncore (memory controllers, links) sees the
   traffic. Returns how many (at most TOPO_MAX_SOCKETS). */
int topo_sockets_used(const struct topo *t, const int *cpus, const int *nodes, int ncpus,
		      struct topo_socket_use *out);
/* The most L3 caches a machine may have (two Zen 4c sockets, Bergamo, have 32 CCXs of one each); as with
   sockets, one of more is refused as it loads. */
#define TOPO_MAX_L3_DOMAINS 64
/* One CPU of cpus[0..ncpus-1] per L3 cache they run under (hwloc's L3 objects; none when it names no L3),
   in order, at most max: where a per-L3 uncore PMU (AMD's amd_l3, one per CCX) must be opened to count
   every L3 the threads use. Returns how many. */
int topo_l3_cpus(const struct topo *t, const int *cpus, int ncpus, int *out, int max);
/* Formats uses as "0:threads+memory;1:memory". */
void topo_format_sockets(const struct topo_socket_use *u, int n, char *buf, size_t len);
/* Whether `node` is a NUMA node of this machine. */
int topo_node_exists(const struct topo *t, int node);
/* Pins the calling thread to PU `cpu` alone. Fails (naming the CPU and errno) when the kernel refuses,
   e.g. a CPU outside the process's cgroup cpuset or offline since the topology was read: a measurement
   on an unpinned thread would be recorded under a CPU it never ran on. */
int topo_pin_self(int cpu, struct err *e);
/* The data caches as seen from PU cpu (a PU hwloc does not know leaves them as they are): a run's first
   CPU, from whose caches every point is sized (plan.h) and whose the level probe measures. hwloc's first
   usable PU, which topo_load reads them from, may be on a core of another kind: a hybrid CPU's P-core
   (L2 1.25 MiB) where --cpus names E-cores (L2 2 MiB), whose points were then labelled by the P-core's. */
void topo_caches_of(struct topo *t, int cpu);
/* Runs fn(arg, e) on the calling thread pinned to PU `cpu` (topo_pin_self), then puts the thread's CPU
   mask back; fn's result, or the pinning's or restoring's error. For what is measured once on the main
   thread (the machine's clock, the level probe): unpinned, it runs where the scheduler puts it, on a
   hybrid CPU perhaps an E-core while the points run on a P-core. */
int topo_on_cpu(int cpu, int (*fn)(void *arg, struct err *e), void *arg, struct err *e);

/* Parses "0-3,8,10-11" (and hwloc's open "4-": the usable CPUs from 4 on) into PU OS indexes with hwloc's
   list parser, items in the order given, checking each exists and is allowed. option names the option or
   config key in messages. Rejects duplicates. t NULL: the syntax alone, for options that another machine
   will run (fleet); an open range then stands for its start. */
int topo_parse_cpulist(const struct topo *t, const char *option, const char *list, int *cpus, int max, int *n,
		       struct err *e);
/* Formats cpus as "a<sep>b<sep>c" into buf (TOPO_LIST_CHARS holds any n up to TOPO_MAX_CPUS). */
void topo_format_cpus(const int *cpus, int n, char sep, char *buf, size_t len);

void topo_print(const struct topo *t, FILE *f);
json_t *topo_json(const struct topo *t);
/* The level sizes the latency probe measured where it found a level smaller than reported, {"L3": bytes}
   (machine.json levels.measured; `info --levels` shows what a run would take). */
json_t *topo_measured_json(const struct topo *t);
/* Sets each level's measured size from measured[l - 1] (0: none), as a run that took another run's sizes
   (--levels-from, --resume) plans with them. */
void topo_take_measured(struct topo *t, const uint64_t measured[TOPO_MAX_LEVELS]);

#endif
