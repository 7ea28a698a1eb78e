/* pf.h — hardware prefetcher control through MSRs, with a guaranteed restore.
 *
 * Every supported CPU model has one table (pf_table.c) that names its prefetchers and their bits in
 * one MSR; in all tables a set bit disables that prefetcher. Only the bits of the table are ever
 * changed (read-modify-write); models without a verified table (the model lists', or the layout named
 * by the config that describes the CPU) are refused, never guessed.
 *
 * Two kinds of change, each with its own state file in the state directory ($PMUCHECK_STATE_DIR,
 * else $PMUCHECK_MSR_DIR when set, else /var/lib/pmucheck):
 *   session  pf_open .. pf_close (the run loop). The values at pf_open are saved to prefetch.state
 *            (fsync'd) before the first write and put back on every way out: pf_close, exit(),
 *            SIGINT/TERM/HUP/QUIT/SEGV/BUS/ABRT. After a SIGKILL or a crash the next pmucheck start
 *            (pf_recover_stale) restores them.
 *   held     pmucheck prefetch off/on: the user wants the change to outlive the process. The values
 *            before the first such change are kept in prefetch.held; only pf_restore_saved
 *            (pmucheck prefetch restore) puts them back.
 * One lock file (prefetch.lock, flock) serialises all changes: a second pmucheck is refused while a
 * session is open, and a state file whose lock is free belongs to a dead process.
 */
#ifndef PMUCHECK_PF_H
#define PMUCHECK_PF_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_id.h"
#include "err.h"

#define PF_MAX_BITS 5
#define PF_MAX_CPUS 1024

struct pf_bit {
	const char *name; /* what users type: l2-stream, l1-ip, ... */
	unsigned bit;     /* 1 = this prefetcher disabled */
	const char *what; /* the vendor's description */
};

struct pf_table {
	const char *name; /* "Intel Core/Xeon", ... */
	uint32_t msr;
	unsigned nbits;
	struct pf_bit bits[PF_MAX_BITS];
	/* the prefetchers of these CPUs that the table does not switch, which an "off" state leaves as
	   the machine had them; "" when its sources list none */
	const char *left_running;
	const char *layout; /* its name in the configs' [arch] prefetch: "intel-1a4", "amd-c0000108", ... */
	const char *vendor; /* the CPUID vendor whose MSR it is */
};

/* The table for this CPU (the model's name in *model): the built-in model lists' (pf_table.c), else
   the layout that the config describing the CPU names (pf_set_layout_source); E_USAGE naming
   vendor/family/model when neither knows it. */
int pf_table_for(const struct cpuid_info *id, const struct pf_table **t, const char **model, struct err *e);

/* The layout a config's [arch] prefetch names, NULL for "none" or any name no table has. */
const struct pf_table *pf_layout_named(const char *layout);

/* The names pf_layout_named knows, each followed by ", " ("intel-1a4, intel-knl, amd-c0000108, "). */
void pf_layout_names(char *buf, size_t len);

/* Where the built-in lists do not know a model, the config that describes the CPU may name its
   layout ([arch] prefetch, configs/README.md), so that adding an architecture of a known layout is one
   config and no C. The source gives, for the CPU, that name into layout and words naming the config
   into by; 0 where a config names one; -1 where none does, with by naming the config that matches the
   CPU and names no layout (none, listed), or "" where none matches. The prefetcher layer reads no config itself: the commands
   register the source once (commands/main.c), and pf_table_for asks it only for a model it does not
   know. */
typedef int (*pf_layout_source)(const struct cpuid_info *id, char *layout, size_t len, char *by,
				size_t by_len);
void pf_set_layout_source(pf_layout_source source);

/* The table of this machine's CPU (E_USAGE without one; PMUCHECK_FAKE_CPUID names another CPU). */
int pf_machine_table(const struct pf_table **t, struct err *e);

/* Mask of all bits of the table. */
uint64_t pf_table_mask(const struct pf_table *t);

/* Bits to set for a list of prefetchers to disable: NULL or "" none, "all" every one, or names
   separated by commas ("l2-stream,l1-ip"), for this machine's table. E_USAGE naming the unknown
   prefetcher and listing the valid ones. */
int pf_parse_names(const char *list, uint64_t *bits, struct err *e);
int pf_parse_names_in(const struct pf_table *t, const char *list, uint64_t *bits, struct err *e);

/* --- sessions (the run loop) --- */
struct pf_ctl;

/* Opens the MSR of the given CPUs (all CPUs with an MSR file when cpus is NULL), takes the lock and
   saves their current values. E_RUNTIME with the reason and the fix (modprobe msr, run as root)
   without access or when another pmucheck holds the lock; E_USAGE for a CPU model without table. */
int pf_open(struct pf_ctl **out, const int *cpus, int ncpus, struct err *e);

/* Whether a session could open on these CPUs (a table for this CPU model, their MSR files open read-write),
   without taking the lock, saving or writing anything: what --dry-run predicts with. Errors as pf_open. */
int pf_check(const int *cpus, int ncpus, struct err *e);

/* Disables the prefetchers named in names_off (see pf_parse_names) and enables all others of the
   table, on every CPU of the session; reads each value back and fails if it did not stick. */
int pf_set(struct pf_ctl *c, const char *names_off, struct err *e);

/* The values in force, read now, as "cpu=0xVALUE;..." (raw.csv's msr column). Returns 0, or
   E_RUNTIME (buf then "") when a read fails or buf is too small. */
int pf_values(struct pf_ctl *c, char *buf, size_t len);

/* Puts back the values saved by pf_open (table bits only); the session stays open. */
int pf_restore(struct pf_ctl *c, struct err *e);

/* Restores, removes the state file, releases the lock and frees c. NULL is a no-op. */
void pf_close(struct pf_ctl *c);

/* --- after the fact --- */

/* When prefetch.state belongs to a dead process: restores its values, removes it and says what was
   done in report; report is "" when there was nothing to do (no file, or its owner is alive).
   Returns 0 or a negative error.
   An owner that is still exiting (killed a moment ago) is waited for, briefly. */
int pf_recover_stale(char *report, size_t len, struct err *e);

/* pmucheck prefetch off/on: sets the bits in disable and clears those in enable (both limited to
   the table), leaving the table's other bits as they are, on the given CPUs (NULL = all). The values
   before the first held change are kept in prefetch.held. */
int pf_hold(const int *cpus, int ncpus, uint64_t disable, uint64_t enable, struct err *e);

/* pmucheck prefetch restore: a dead session's values first, then the held originals, for the
   given CPUs (NULL = all saved). Returns the number of CPUs restored; report says which. */
int pf_restore_saved(const int *cpus, int ncpus, char *report, size_t len, struct err *e);

#endif
