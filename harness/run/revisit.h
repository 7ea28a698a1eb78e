/* revisit.h — `run --revisits N`: once the plan is measured, each bandwidth row's best point (in the first
 * round its rivals' too where the budget holds them: REVISIT_RIVAL) and every one-thread latency point
 * measured again, N rounds, seconds apart, within what is left of --time-budget.
 *
 * Why: on a shared host the machine's speed comes in phases of seconds (a 2-vCPU Zen 3 guest, 2026-11-30: a
 * 16 KiB L1 read timed back to back for 20 s in 0.13 ms calls ran fast, 60-66 GB/s, for 4.5 s in all, in runs
 * of a median 0.78 ms, with stretches of up to 3.7 s without one fast call), so a point measured in one
 * stretch reads whichever phase it fell in, and a row's figure with it. Longer stretches do not help: two
 * `--quick` runs given `--time-budget 150` (more repetitions per point) agreed no better than two of 60 s (27
 * of 56 one-core figures over 3 %, against 27-41 in six pairs of 60 s). Samples far apart in time do: the
 * best of three whole `--quick` runs against the best of the next three, 12 and 17 of 56 (2026-12-01). So the
 * time a user adds buys most as later, separate visits of the points the figures come from, and each visit's
 * calls short (REVISIT_MIN_SECONDS), since a fast stretch is shorter than the default 2 ms call: replaying
 * the 0.11 ms calls of a 120 s trace (load.avx, 16 KiB), eight visits of 25 ms five seconds apart, two runs'
 * best agreed within 3 % in 75 % of the draws with 2 ms R calls and 93 % with 0.5 ms ones.
 *
 * A revisit is an ordinary point of raw.csv, numbered after the plan's, with the parameters of the point it
 * measures again and no events (it is there for its time); the analysis takes it as one more point of its
 * row, whose figure is the best of all its points. A latency row's figure is a median of the level's sizes,
 * which the best size alone would not move, so every size is revisited, and each counts once in the median,
 * at its fastest visit (analysis/peak.c latency). */
#ifndef PMUCHECK_REVISIT_H
#define PMUCHECK_REVISIT_H

#include "plan.h"
#include "run.h"

#define REVISIT_MAX 16
/* The rounds of a run that sweeps the levels (no --sizes, no --preset), whose product is the peak table: as
   many as its --time-budget holds (a round begins only where what is left holds it), since more rounds made
   two runs agree better, if not with every round. On the Zen 3 guest (2026-12-01) three pairs of default runs
   given 16 (the second of each --levels-from the first; 15-16 rounds fitted, 78-126 s of them, 276-288 s a
   run), each cut after r rounds and analysed again, had of their 120 figures 64, 72 and 74 over issue 14's
   limits with none, 48, 68 and 65 with 4, 42, 54 and 68 with 8, and 34, 53 and 47 with all (one-core figures
   30, 25, 20; 13, 18, 20; 9, 17, 12). Earlier, with `--quick` (2-4 rounds fitting in its 60 s), three
   interleaved pairs had 37, 27 and 37 of 56 one-core figures over without revisits and 15, 16 and 31 with. A
   run of chosen sizes measures those points; it revisits only when asked. */
#define REVISIT_DEFAULT REVISIT_MAX
/* A round begins no sooner than this after the one before began: further apart than the longest slow
   stretch measured (3.7 s), so that the visits of a point are not all in one. */
#define REVISIT_APART_S 4.0
/* The R call of a revisit lasts at least this long, whatever the run's --min-time. */
#define REVISIT_MIN_SECONDS 0.0005

/* Whether plan point i is one a revisit may measure again: a point of a peak row in a level, not on fresh
   memory: a bandwidth point, or a one-thread latency chase. */
int revisit_eligible(const struct plan_point *p);

/* A variant of a bandwidth row whose best plan point read within this part of the row's best is revisited
   too, in the first round where the budget holds it (revisit_first_round; later rounds revisit each row's
   best after it): a variant's plan points run back to back, so one slow stretch can hold all of them, clean
   and slow, which the L1 speed probe need not see, and the row's figure then came from a slower variant on
   every visit. On the Zen 3 guest (2026-12-01) a default run's four load.avx L3 points read 55.5-56.5 GB/s in
   the plan, none flagged, and its L3 read peak was load.sse's 69.1 GB/s, the best of that point's 13 visits;
   in the next run load.avx read 76.8-78.4 in the plan, and the peak was its 80.0 (+15.7 %). Variants further
   below (load.gpr in L1, which moves a quarter of load.avx's bytes a load) cannot win on another visit. */
#define REVISIT_RIVAL 0.25

/* Into pick (room for p->npoints), in plan order, per row (level, access, threads, prefetch state and
   placement; for latency, and size) the eligible point of the highest res[].gbps, where some point of the
   row has one above 0; and per bandwidth row, each other variant's eligible point of its highest res[].gbps
   where that is within `rival` (a part, REVISIT_RIVAL or 0) of the row's best. Returns how many. */
int revisit_choose(const struct plan *p, const struct run_point_result *res, double rival, int *pick);

/* The picks of the rounds after the first: revisit_choose without rivals over the plan's outcomes (res),
   each picked point's raised to its first round's (round[k] of pick[k], k < n) where that was faster, so
   that a rival which overtook its row stands for it. Into out (room for p->npoints); how many, or -1 when
   out of memory. */
int revisit_repick(const struct plan *p, const struct run_point_result *res, const int *pick, int n,
		   const struct run_point_result *round, int *out);

/* A round's plan: a copy of plan points pick[0 .. n-1], in that order. 0, or -1 when out of memory. */
int revisit_round(const struct plan *p, const int *pick, int n, struct plan *out);

/* What the first round of picks pick[0 .. n-1] is reckoned at: the sum of their first repetitions in the
   plan (res[].first_seconds; revisit_run says why not their whole visits). A DRAM point's includes the memory
   probe before it, ~50 ms, which a revisit has not (revisit.c): its revisit is reckoned high by that. */
double revisit_first_cost(const struct run_point_result *res, const int *pick, int n);

/* What the round after one that took `took` seconds is reckoned at: `took` less what its points'
   repetitions after their first took (res[0 .. n-1], their outcomes: visit_seconds - first_seconds), since a
   round's points repeat within its share, which may be more than it needs. */
double revisit_round_floor(double took, const struct run_point_result *res, int n);

/* The seconds of `left` a round begun now, reckoned at `cost`, may take, of `rounds` still asked, each later
   one reckoned at `later` (less than `cost` where this round has rivals, revisit_run): an equal part for each
   round that can begin and end in `left` (this one now, each later one REVISIT_APART_S or the one before's
   reckoning after it began, whichever is longer), never less than its `cost`. Not a part for each round
   asked: where fewer fit, that part was less than a round took, its points repeated little past their first
   repetition, and the rest of the budget idled before the next round or the run's end (on the Zen 3 guest,
   2026-12-01, all 112 bandwidth revisits of a `--quick` run of 2 rounds had one repetition, 30-156 of 168 in
   runs of 3; with this part, 17-30 of 112-224, and 1.3-11 times as many repetitions in runs of as many
   rounds). */
double revisit_share(double left, double cost, double later, int rounds);

/* What the rounds after the first are reckoned at: the first's floor_s (revisit_round_floor; its points
   pick[0 .. n-1], outcomes round[]) less its points' first repetitions, plus those of the points the later
   rounds keep (later[0 .. m-1], revisit_repick), and the rest of the floor (what each point costs besides:
   the probes before it, the waits) in proportion to how many they keep. */
double revisit_narrowed_cost(double floor_s, const int *pick, const struct run_point_result *round, int n,
			     const int *later, int m);

/* What the rounds measured: their points' outcomes in raw.csv order (the first numbered after the plan's
   last), and of[k], the plan point revisit k measured again. */
struct revisit_done {
	struct run_point_result *res;
	int n;
	int *of;
	int asked, rounds;
	double seconds;
	double began[REVISIT_MAX]; /* when each round began, seconds from the run's start */
	/* the first round's rivals: within this part of their row's best (REVISIT_RIVAL), 0 where it left
	   them out (revisit_first_round), rivals_left_out then saying why */
	double rival;
	char rivals_left_out[256];
	char why[256]; /* why fewer rounds than asked; "" when all ran */
};

/* What the first round measures where `left` seconds remain for it: its picks with their rivals where they
   fit (reckoned at `cost`, revisit_first_cost), else each row's best alone where those fit (`bare`, their
   own reckoning), else nothing. Where the plan has spent most of the budget, a round of the rows' best
   points still gives each row it revisits a visit apart from the plan's: of two consecutive --quick runs on
   the Zen 1 guest (2026-12-02), the first fitted its first round (129 points, 9.5 s) and the second none
   (6.8 s left, the round reckoned at 7.7 s with its rivals), and the second's one-thread L1 write read
   26.0 GB/s against the first's 39.0, whose store.sse point had read 39.0 and 25.9 on its two visits. */
enum revisit_first {
	REVISIT_FIRST_RIVALS,
	REVISIT_FIRST_BARE, /* the rows' best alone */
	REVISIT_FIRST_NONE,
};
enum revisit_first revisit_first_fits(double left, double cost, double bare);

/* The first round's picks where `left` seconds remain: pick[0 .. *n - 1], reckoned at *cost, come in as its
   picks with rivals (revisit_choose with REVISIT_RIVAL, revisit_first_cost over the plan's outcomes res);
   where only each row's best fits (revisit_first_fits) they become those, *n and *cost theirs, d->rival 0
   and d->rivals_left_out saying so, else d->rival is REVISIT_RIVAL and rivals_left_out "". *bare_cost: what
   the picks without rivals are reckoned at, which is what a round after the first is reckoned at before any
   was measured (the first round's part of the budget then counts as many later rounds as fit, not as many
   as fit at its own cost); *cost where they cannot be had. */
void revisit_first_round(const struct plan *p, const struct run_point_result *res, double left, int *pick,
			 int *n, double *cost, double *bare_cost, struct revisit_done *d);

/* Measures up to `rounds` rounds of the rows' best points (in the first, their rivals' too where the budget
   holds them: revisit_first_round) of the plan `main` measured (main->results), each REVISIT_APART_S or more
   after the one before began, none begun unless what is left of the budget holds it (the first round reckoned
   at its points' first repetitions in the plan, the second at the first's floor narrowed to its points,
   revisit_narrowed_cost, each later one at the round before, revisit_round_floor: a round's share of the
   budget, revisit_share, is at least that, and its points repeat within it; a revisit's first repetition,
   without events and with shorter calls, is shorter than the plan's; the plan's whole visits, with their
   events and more repetitions, reckoned it at 1.7 times what it took, 11.8 s for 6.7, on the Zen 3 guest,
   2026-12-01, and so left out rounds that fitted). Their points have no events, R calls of
   REVISIT_MIN_SECONDS and no memory probe (revisit.c says why). 0 or a negative error (d holds what was
   measured before it). */
int revisit_run(const struct run_state *main, int rounds, struct revisit_done *d, struct err *e);
void revisit_done_free(struct revisit_done *d);

#endif
