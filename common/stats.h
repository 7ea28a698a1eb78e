/* stats.h — the one home of the statistics harness and analysis take of repetitions, clock samples and
   points. The run's summary and the analysis's peaks must give the same figure from the same
   repetitions, so neither writes its own median. */
#ifndef PMUCHECK_STATS_H
#define PMUCHECK_STATS_H

#include <stddef.h>

/* The mean of the positive values of v[0..n) (a failed measurement is 0); 0 when there are none. */
double stats_mean_positive(const double *v, int n);

/* Sorts v[0..n) in place and returns its median; 0 when n is 0. For even n it is the mean of the two
   middle values, as numpy and R take it: the upper or lower middle alone would make the figure depend on
   which side of the middle a single disturbed repetition falls, and an even --reps gave a summary and a
   peaks.md that disagreed when the harness took one middle and the analysis the mean. */
double stats_median(double *v, size_t n);

/* The same median as stats_median in linear time, leaving v[0..n) in no particular order. */
double stats_median_select(double *v, size_t n);

/* Sorts v[0..n) ascending (no NANs). */
void stats_sort(double *v, size_t n);

/* The k-th decile (0-10) of v[0..n) sorted ascending, n > 0: v[(n - 1) * k / 10], a value of v itself
   (the speed probes' slowest tenth, the report's clock range). */
double stats_decile(const double *sorted, size_t n, int k);

/* The largest value, the median (as stats_median) and the low tenth (stats_decile 1) of v[0..n), from a
   sorted copy: the speed probes' and the path probe's figures. n 0 (all 0) when v has none or out of
   memory. */
struct stats_spread {
	size_t n;
	double best, median, p10;
};
struct stats_spread stats_spread(const double *v, size_t n);

/* Appends x to *v, which holds *n values in room for *cap, doubling the room when full (64 at first): the
   probes' samples, one per point. -1 out of memory, nothing appended. */
int stats_push(double **v, int *n, int *cap, double x);

/* The median (as stats_median) of the positive values of v[0..n), which it moves to the front of v in
   sorted order; 0 when there are none. A differenced time <= 0 (noise on a tiny point) or a clock of 0 (no
   accepted sample) is no value at all, not a small one. */
double stats_median_positive(double *v, size_t n);

/* The largest value of v[0..n); 0 when none is positive. */
double stats_max_positive(const double *v, size_t n);

/* The median speed of `threads` threads reading at once as a share of `threads` times one thread's median
   speed (the speed probes, each thread its own L1 slice): 1 where each has a core to itself, below it where
   the host slowed the points of as many threads by about as much. 0 where either median is missing. The
   run's summary states it and report.md judges it, from the same figures. */
double stats_thread_share(double all_median, int threads, double one_median);

/* A point's time from its repetitions: the shortest 2R call less the shortest R call over them, or the
   shortest R call where that is shorter: min(min(2R) - min(R), min(R)); for fresh-memory kernels, which
   difference 2N and N bytes, the difference alone (below). Interference (preemption, a neighbour on the
   core, a VM's steal) only ever adds time to a call, so the shortest call of each length is its
   least-disturbed one: a preempted 2R call cannot make the point faster, and a preempted R call is outvoted
   by any undisturbed one. The median of the per-repetition differences, used before, was moved by every
   stretched R call (a difference too short) and needed most repetitions clean; on a 2-vCPU VM with a busy
   neighbour 126 of 136 --quick points stayed above the 2 % / 5 % spread limit and were re-measured for 5
   minutes. Calls of 0 ticks are no measurement (files from before raw.csv had tsc_lo and tsc_hi).

   The difference cancels the call's fixed cost (its entry, the timer's and counters' reads), which an R
   call also pays; so an undisturbed difference is shorter than the R call, and a difference longer than
   the R call says that every 2R call was stretched, by as much. The R call itself is an upper bound of R's
   work that no 2R call moves: on the Emerald Rapids guest (2026-11-29) a 16 KiB pointer chase's R calls
   took 4.30-4.46 M ticks and its four 2R calls 34.2, 34.2, 42.3 and 55.6 M (one host time slice of about
   12 ms in each), the two shortest of each length agreed, and the difference alone was confirmed at 13.58
   ns, 7x its 1.9 ns; the R call reads 1.95. Where it stands in for the difference the figure is slower
   than an undisturbed difference by the fixed cost, which for one thread is below what the timer tick lets
   one see: over 674 clean one-thread points of --quick runs on that guest whose two shortest calls of each
   length agreed within 1 %, 2 min(R) - min(2R), the fixed cost where neither minimum was stretched, read a
   median -0.06 % of the R call (10th-90th percentile -2.1 % to +1.7 %). In two --quick runs there 57 and 38
   clean points took their R call, where the difference would have read a median 1.5 % and 1.4 % slower
   (90th percentile 5.5 % and 4.3 %, the slowest 14 % and 20 %). (The rule before this one held such a
   point to repeat until its 2R calls read no more than 4.5 % past twice its R calls, and ended it noisy
   otherwise: repetitions spent on a figure its R calls already give.)

   Two kinds of calls are not held to that (the caller says which: by_size, spans). Touch differences 2N
   and N bytes of fresh memory, and twice the memory can take more than twice the page faults' time (its 2
   MiB point's 2N call read 15-30 % past twice its N call): a difference longer than the N call says
   nothing of a disturbance there, so its time is the difference. A call of several threads is a span from
   the first thread's start to the last one's end (harness record_span), and the threads' start skew is in
   every call, a fixed cost the difference cancels and the R call keeps: over 462 such clean two-thread
   points 2 min(R) - min(2R) read up to 11.8 % of the R call (90th percentile 3.1 %; review R19 saw a
   median of 2.9 % in one run). So where the R call of several threads stands in (it is still an upper
   bound, never too fast), it is confirmed only where the shortest 2R call is within 3x the tolerance of
   twice it (stats_mindiff_mismatch): further past, the point repeats for an undisturbed 2R call, and
   without one ends noisy at its bound, the same R call. Confirmed so, its figure is at most the skew
   slower than an undisturbed difference, where the rule before this one confirmed the difference itself,
   stretched by the skew and up to 4.5 % more. (Refusing such points any confirmation left 56 and 48 of
   the about 100 two-thread points of two --quick runs noisy at the same figures, and the runs took 5 s
   longer.) The skew also hides R calls stretched alike (below) in spans: 2 min(R) - min(2R) is the skew
   there too (review R20: with a steady 10 % skew, holding the spans to it made an undisturbed point repeat
   and end noisy while one whose 2R calls were stretched by about the skew was confirmed at that). So spans
   are held to it through their longest thread's own calls, each from its own start to its own end, which
   hold no skew (the caller gives their shortest: stats_mindiff_add_spans). They are a little faster than
   the threads together (likely as one runs alone while the other starts): over 102 two-thread points in
   each of two --quick runs on the Emerald Rapids guest their 2 min(R) - min(2R) read a median -0.4 % of
   the estimate, the 10th percentile -7.1 % and -5.2 % (one thread: -2.1 %), so R calls stretched alike
   by up to about that more than one thread's can still pass there.

   "Outvoted by any undisturbed one" needs one: when every R call of a point was stretched, min(R) is too
   long and the difference too short, a point faster than the hardware. So the two shortest calls of each
   length are kept, and the minimum counts as found only when a second call confirms it (stats_mindiff_
   spread): two repetitions stretched by the same amount are unlikely, one undisturbed repetition among
   disturbed ones is not. Unlikely, not impossible: something that stretches every R call alike and no 2R
   call shows where twice the shortest R call is far past the shortest 2R call (stats_mindiff_mismatch). On
   the development VM (Zen 5 guest, 2 vCPUs) one L1 point's four repetitions read 361, 168, -694 and -220
   GB/s: R calls stretched past their 2R calls by up to 3 ms, and nothing told whether the shortest R call
   was an undisturbed one. */
struct stats_mindiff {
	double lo, hi;   /* shortest R call and 2R call so far; 0 = none */
	double lo2, hi2; /* the second shortest of each; 0 = none */
	int by_size;     /* set by the caller: the calls differ in their memory, 2N and N bytes (touch) */
	int spans;       /* set by the caller: the calls are spans of several threads (record_span) */
	double own_lo, own_hi; /* spans: the shortest of the longest thread's own R and 2R calls; 0 = none */
	double lo_skew,
		hi_skew; /* spans: the shortest R and 2R span's start skew, the span less its own call */
};

/* Adds one repetition's two calls (spans: stats_mindiff_add_spans, which also keeps their skew). */
void stats_mindiff_add(struct stats_mindiff *m, double lo, double hi);

/* Spans: adds one repetition's two spans (stats_mindiff_add) and its longest thread's own R and 2R calls,
   each from its own start to its own end (no start skew; the longest of each, which may be two threads'),
   and where a span is the shortest of its length so far, its skew: the span less that own call; without
   one (0), the skew that holds the estimate furthest from confirmed, an R span's whole span and a 2R
   span's none (stats.c says why). */
void stats_mindiff_add_spans(struct stats_mindiff *m, double lo, double hi, double own_lo, double own_hi);

/* min(min(hi) - min(lo), min(lo)), by_size the difference alone; 0 when a length has no call, or when the
   difference is not positive (every R call stretched past every 2R call: no time at all, not a tiny one). */
double stats_mindiff(const struct stats_mindiff *m);

/* Whether that is the R call: every 2R call was stretched past twice it (never by_size). A LIKWID or
   nanoBench reader compares differences; the analysis counts such points (peaks.csv quality), the run's
   summary too. */
int stats_mindiff_r_call(const struct stats_mindiff *m);

/* How far the estimate is from being confirmed, relative to it: (second shortest - shortest) of the R calls,
   and of the 2R calls where the estimate is their difference (where it is the R call, the 2R calls only
   said they were longer). INFINITY while a length it rests on has fewer than two calls, or where there is
   no estimate. */
double stats_mindiff_spread(const struct stats_mindiff *m);

/* How far the calls are from R and 2R passes' times in the direction that makes the estimate doubtful,
   relative to it. One thread: (2 min(R) - min(2R)) / stats_mindiff, the call's fixed cost where neither
   minimum was stretched (negative where the R call stands in); where every R call was stretched alike by s
   and no 2R call, 2s, and the difference is too short by s: in one --quick run on the Emerald Rapids guest
   a 608 KiB one-thread triad.avx512 point's four R calls took 13.36-13.59 M ticks and its 2R calls
   18.32-18.54 M, so it was confirmed at 50.6 GB/s where the other runs read 25-27 (1.69 here). Of 854
   clean one-thread points of such runs 3.4 % were past 4.5 %. Spans: how far the shortest 2R call is past
   twice the shortest R call, where the R call stands in (0 otherwise: above), or where given their longest
   thread's own calls the same as one thread's of those, or where the shortest R span began with more start
   skew than the shortest 2R span twice that difference (their difference is short by all of it: a
   multi-thread point confirmed so is at most 1.5x the tolerance too fast as one thread's is; the spans'
   own calls said nothing of it), whichever is furthest. 0 by_size (its lengths differ
   by more than passes); INFINITY without an estimate. Held to 3x the tolerance (budget.h,
   BUDGET_MISMATCH_CONFIRMED): a one-thread difference confirmed so is at most 1.5x the tolerance too fast. */
double stats_mindiff_mismatch(const struct stats_mindiff *m);

/* The time of R's work that interference can only have lengthened: min(min(R), min(2R) / 2), 0 when a
   length has no call. Every call is an upper bound of its work (its fixed cost and any disturbance only
   add), so this never reads faster than the hardware, where an unconfirmed difference can (a stretched R
   call shortens 2R - R). It is a disturbed point's time (the run and the analysis): the point still counts,
   at a figure no faster than its least-disturbed call, instead of being dropped or trusted. */
double stats_mindiff_bound(const struct stats_mindiff *m);

#endif
