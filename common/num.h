/* num.h — numbers and sizes as a user types them (command-line options, config values), and the numbers
 * small /proc and /sys files hold. */
#ifndef PMUCHECK_NUM_H
#define PMUCHECK_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* A non-negative decimal integer. Returns 0, or E_USAGE with a message naming option. */
int num_parse_u64(const char *option, const char *text, uint64_t *out, struct err *e);
/* The same with an optional unit: binary k, K, KiB, m, M, MiB, g, G, GiB (1024-based); decimal kB, KB, MB,
 * GB (1000-based, as likwid-bench takes them). */
int num_parse_size(const char *option, const char *text, uint64_t *out, struct err *e);

/* bytes in binary units for people (figure legends, axis tics): "512 KiB", "1.5 MiB", "32 MiB". Returns buf. */
const char *num_format_size(double bytes, char *buf, size_t len);

/* A rate for people, to a tenth ("139.2"), or below 0.995 (which would read "1.0") to two significant
   digits: a speed probe's two threads that never ran together read 0.008 GB/s, printed "0.0" beside "100 %
   below the best". Returns buf. */
const char *num_format_rate(double v, char *buf, size_t len);

/* The first number in a small /proc or /sys file (perf_event_paranoid, cpuinfo_max_freq, a PMU's
   cpumask); fallback when the file is missing or does not start with a number. */
double num_read_file(const char *path, double fallback);

/* Whether name is wild with its one '*' standing for a decimal number: "uncore_imc_*" takes
   "uncore_imc_12", "skx_unc_imc*::X" takes "skx_unc_imc0::X" (the boxes of a config's box wildcard). 0
   when wild has no '*'. */
int num_wild_match(const char *wild, const char *name);

/* The name the Linux kernel gives a perf uncore unit of one box, into out: wild without its "_*", where
   that '*' ends the PMU name, before its terms ("uncore_arb_*" -> "uncore_arb", and so with "/event=1/"
   after each). Returns 0 (out empty) for any other wild: the kernel numbers a unit's boxes
   "uncore_<unit>_<n>" and names a unit of one box "uncore_<unit>" (arch/x86/events/intel/uncore.c,
   uncore_get_pmu_name), so only a '_' before the number is dropped with it; AMD's amd_df and amd_l3 have
   no number and amd_umc_<n> always one (arch/x86/events/amd/uncore.c). */
int num_wild_unnumbered(const char *wild, char *out, size_t len);
/* Whether name is that unit of one box (num_wild_unnumbered) of wild. */
int num_wild_is_unnumbered(const char *wild, const char *name);

#endif
