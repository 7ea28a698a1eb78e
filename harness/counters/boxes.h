/* boxes.h — a config's box wildcard: a '*' in place of the box number of a PMU name (perf uncore_imc_N,
 * amd_umc_N; PAPI skx_unc_imcN::UNC_M_CAS_COUNT:RD) stands for the same event on every box of that
 * kind (memory channels, CHAs, links). Expanded to one event per box this machine has, each counted
 * and written to raw.csv (the imbalance between channels), and summed per repetition into a row named
 * as the wildcard (run_record.c): the sum is what the config's hypothesis describes, as LIKWID's MEM
 * groups sum MBOX0..n; a channel of eight sees an eighth of the lines. */
#ifndef PMUCHECK_BOXES_H
#define PMUCHECK_BOXES_H

#include "ctr.h"

#define BOXES_MAX 64

/* A config's conflict tag names a register every box has its own of (a CHA's or a QPI link's filter):
   the tag the event gets is scoped to its box, "<tag>@<box>", where the box is the spec's PMU part
   (before the first '/' of perf syntax or '::' of PAPI's); a spec without one keeps the tag as is.
   Without the scope, every box of an expanded wildcard shares the tag and lands in a group, and a
   kernel re-run, of its own (28 for Skylake-SP's CHA lookups). */
void boxes_conflict_tag(const char *tag, const char *spec, char *out, size_t len);
/* The box wildcard of a perf uncore PMU name: "uncore_imc_3" -> "uncore_imc_*", "amd_umc_0" ->
   "amd_umc_*" (returns 1); a name without a "_<number>" box suffix is copied as it is (returns 0). */
int boxes_kind(const char *pmu, char *out, size_t len);
/* Whether spec holds a box wildcard. */
int boxes_wildcard(const char *spec);
/* The specs of the boxes found here, into out[0..]; 0 when none (the spec then stays as written and is
   recorded as not measured). pmus is the sysfs PMU directory for perf specs, where an uncore unit of one
   box has no number ("uncore_imc_*" takes "uncore_imc" where no "uncore_imc_<n>" exists and it has a
   cpumask; num_wild_unnumbered). */
unsigned boxes_expand(const char *spec, const char *pmus, char (*out)[CTR_SPEC_MAX], unsigned max);

/* The room an event list's entry takes in boxes_append's arrays: BOXES_MAX for a box wildcard, else 1. */
unsigned boxes_room(const char *spec);
/* Appends an event list's entry at specs[n]: the boxes it expands to here (boxes_expand; their text in
   boxes[n..], aligned with specs, and sums[] naming spec, whose sum each is), or spec itself, sums[] NULL,
   where it names no box here. Returns the new n. A config's events (experiment.c) and an --events list
   (run_events.c) both go through it. */
unsigned boxes_append(const char *spec, const char *pmus, char (*boxes)[CTR_SPEC_MAX], const char **specs,
		      const char **sums, unsigned n);

/* The encoding of the row summed over `boxes` boxes, box one of them: "sum of 4 boxes,domain=all", and a
   sysfs alias's scale and unit as each box has them (perf stat prints the sum in that unit, which the
   perf export's formula divides out: ctr_spec.c; left out, the formula read 16384x too low). */
void boxes_sum_encoding(const struct ctr_event *box, unsigned boxes, char *out, size_t len);

#endif
