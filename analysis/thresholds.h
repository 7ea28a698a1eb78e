/* thresholds.h — every number that turns measurements into verdicts, in one place.
 *
 * Each table the analysis writes prints these values under it (out_thresholds_md), so a reader can
 * judge a verdict without reading code. Change a value here and every table follows.
 */
#ifndef PMUCHECK_THRESHOLDS_H
#define PMUCHECK_THRESHOLDS_H

#include "clock_floor.h"
#include "level.h"

/* exact: the median ratio count/quantity is within 2 % of a simple scale, the spread of the ratios
   within 2 %, and the linear fit count = a*q + b over the points where it holds has R^2 >= 0.999. */
#define THR_EXACT_ERROR 0.02
#define THR_EXACT_R2 0.999

/* approximate: within 10 % of a simple scale, with R^2 >= 0.99. A level counts as "holding" when its
   median ratio is within this error of the scale. */
#define THR_APPROX_ERROR 0.10
#define THR_APPROX_R2 0.99

/* Outliers: within a level x prefetch group, a point whose ratio lies further from the group's median
   than THR_OUTLIER_SIGMAS robust standard deviations (1.4826 x the median absolute deviation) and
   than THR_OUTLIER_MIN of it is left out, and reported, as long as such points are at most
   THR_OUTLIER_SHARE of a group of at least THR_OUTLIER_MIN_POINTS points (a random chase with
   prefetchers on drags in extra lines on a few points); a group with more is split (two populations):
   judged whole, so never exact, and named in the note; a smaller group is judged whole. */
#define THR_OUTLIER_SIGMAS 4.0
#define THR_OUTLIER_MIN 0.10
#define THR_OUTLIER_SHARE 0.25
#define THR_OUTLIER_MIN_POINTS 5

/* A point where the quantity is 0 but the event counts more than THR_NOISE_COUNTS, at THR_UNEXPLAINED_RATE
   or more of the median rate (count per second) of its group's points with the quantity, is one the
   quantity does not explain (verdict_eval.c bucket_ratios): it lies off any ratio, as an outlier. A
   socket's background, a small fraction of the kernels' own rate, stays below it. */
#define THR_UNEXPLAINED_RATE 0.10

/* Background (verdict_background.c): a per-second offset is subtracted from an event's counts when
   that makes it hold on more points, or as many and consistent on more, or as many of both with at least
   20 % less error + spread (verdict.c background_helps); it must explain at most
   THR_BACKGROUND_MAX of any held point's count (else the event counts time, not the quantity) and at
   least THR_EXACT_ERROR of one (else it is noise, not a background). */
#define THR_BACKGROUND_MAX 0.5

/* Two quantities the data cannot tell apart: they hold on the same groups and their ratio varies by
   less than this over the event's points (a splitread sweep: loads = lines_read = bytes_loaded / 8). */
#define THR_TIE 0.01

/* overcounts / undercounts: no simple scale fits, but the ratio is consistent (its spread within
   THR_APPROX_ERROR) on some groups and the event linear in the quantity there (R^2 >= 0.95); the
   direction is the measured ratio against the scale. Below that the event is unrelated. */
#define THR_RELATED_R2 0.95

/* Level boundaries: a point within 25 % below or 50 % above a cache limit belongs to no level; the
   values live with the levels (common/level.h LEVEL_BOUNDARY_*), which the run's summary shares. */
#define THR_BOUNDARY_BELOW LEVEL_BOUNDARY_BELOW
#define THR_BOUNDARY_ABOVE LEVEL_BOUNDARY_ABOVE

/* Fewest distinct measurement points (sizes x parameters) an event needs for any verdict. */
#define THR_MIN_POINTS 3

/* Noise floor: an event whose largest count stays below this many events per measurement is treated
   as counting nothing (differenced counts of an idle event are a few interrupts, not zero). */
#define THR_NOISE_COUNTS 64.0

/* Impossible readings (analysis/reading.c): no event counts more than this many events per cycle
   and counting unit (a thread; every core of the socket for an uncore event), at this clock. The
   widest real events count a few per cycle (retired uops, flits, sectors); 2^48 garbage is 10^4 x
   beyond. */
#define THR_MAX_EVENTS_PER_CYCLE 64.0
#define THR_MAX_GHZ 8.0
/* The run keeps no clock sample below this (clock_floor.h): one in raw.csv was not written by a run. */
#define THR_MIN_GHZ CLOCK_FLOOR_GHZ

/* Non-negative least squares decomposition: add a term only if it removes at least half of the
   remaining squared residual; keep at most this many terms; drop coefficients below 1/32. */
#define THR_NNLS_GAIN 0.5
#define THR_NNLS_MAX_TERMS 4
#define THR_NNLS_MIN_COEF (1.0 / 32)

/* Stall events (chase.plain / .indep / .dep): "memory stalls only" when the dependent variant
   reports the same cycles per load as the plain one and independent multiplies do not raise it,
   both within this tolerance; an event is stall-like when it reports at least this fraction of
   the measured cycles per load. */
#define THR_STALL_MATCH 0.10
#define THR_STALL_MIN_FRACTION 0.25

/* merge: a node's peak figure is an outlier when it lies more than THR_MERGE_Z robust standard deviations
   from its type's median AND more than a factor of 1 + THR_MERGE_MIN_DEV away from it, on a log scale (a
   node half as fast is as far off as one twice as fast: 1.1 is 10 % above the median and 9.1 % below).
   The robust standard deviation is 1.4826 x the median absolute deviation; 3.5 is Iglewicz and Hoaglin's
   cut-off for their modified z-score ("How to Detect and Handle Outliers", ASQC 1993). The floor keeps a
   cluster whose nodes agree within 1 % from calling a 3 % node an outlier: the shared development VMs
   differ by up to 20 % between identical runs. A type needs THR_MERGE_MIN_NODES nodes for figure
   outliers: of two nodes neither is the odd one; a smaller one is compared, by how it is built, with the
   type of the most nodes of its CPU (merge_stat.c peer_type). */
#define THR_MERGE_Z 3.5
#define THR_MERGE_MIN_DEV 0.10
#define THR_MERGE_MIN_NODES 3

/* Run quality: a run whose speed probe (machine.json disturbance.speed_probe) read THR_SPEED_SLOW or more
   below its best in a tenth of the points is called disturbed. Quiet --quick runs on the development VM
   read 7 %, 10 %, 14 % and 15 %; 10 % is over three times the 3 % by which two runs' cache figures should
   agree. The same holds for the memory probe (disturbance.memory_probe) and the 5 % of DRAM figures: two
   --quick runs there read theirs 20 % and 28 % below their best, and their DRAM figures 27 % apart. */
#define THR_SPEED_SLOW 0.10

#endif
