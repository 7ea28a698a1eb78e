/* budget.h — when a point stops repeating. Repetitions adapt instead of being retried: a point stops as soon
 * as its estimate (min(min(2R) - min(R), min(R)), common/stats.h) is confirmed, or when its share of the
 * run's time budget is spent, and is then marked instead of measured again. Re-measuring every point whose
 * spread exceeded 2 % / 5 % multiplied the time by the retries on a busy machine: --quick took 5 min 03 s on
 * a 2-vCPU Zen 3 VM with 126 of 136 points re-measured. Pure functions, so the rule is unit-tested.
 *
 * The share may end a point after its first repetition: on the 2-vCPU development VM with `yes` on the
 * other vCPU one repetition of a --quick DRAM pointer chase (128 MiB, R = 1) takes 3.4 s, so its three
 * points took 31 of the 48 s of timed calls at 3 repetitions each, and --quick took 85 s against its
 * 60 s budget; such a point is flagged, not measured less often than the budget allows.
 *
 * Every point left must still get its floor (its warm-up and first repetition), so only the time beyond
 * the floors of the points left is shared: an equal share of all the time left let the cheap one-thread
 * points of --quick spend what the two-thread points after them (a barrier under a busy neighbour costs
 * a time slice) then lacked; the last 100 of 224 points got one repetition, and the run took 65.7 s. */
#ifndef PMUCHECK_BUDGET_H
#define PMUCHECK_BUDGET_H

#define BUDGET_MIN_REPS 3 /* before an estimate may be called confirmed */
/* Confirmed: the two shortest R calls agree, and where the estimate is their difference the two shortest 2R
   calls agree, within this part of the estimate (stats_mindiff_spread), half of what two runs' peaks may
   differ by (3 % in the caches, 5 % in DRAM, issue 14), so that two runs each confirmed that far agree;
   and the calls are within BUDGET_MISMATCH_CONFIRMED times that part of R and 2R passes' times
   (stats_mindiff_mismatch: for one thread, twice the shortest R call no further past the shortest 2R call,
   since where every R call was stretched alike the difference is too short by half of that; for several
   threads the same of their longest thread's own calls, and where their R call stands in, the shortest 2R
   call no further past twice it). The rule before (the estimate changed less than 1 % over the last two
   repetitions) held for a minimum that no later repetition undercut because every one was stretched: on
   the development VM one L1 point's repetitions read 361, 168, -694 and -220 GB/s, and two quiet --quick
   runs' L1 read peaks differed by 22 % (9.5 % in bytes per cycle). DRAM calls spread more on their own
   (the two shortest of a quiet --quick run's DRAM points: median 3.5-5 % apart, against 1.6-3 % in the
   caches). */
#define BUDGET_CONFIRMED_CACHE 0.015
#define BUDGET_CONFIRMED_DRAM 0.025
/* How many times that part twice the shortest R call may be past the shortest 2R call (4.5 % in the caches,
   7.5 % in DRAM; a one-thread difference confirmed so is at most half that too fast): the timer tick
   stretches every call a little (a 1 kHz tick of 9-20 us against calls of a few ms), so 2 min(R) - min(2R)
   spreads around 0 on an undisturbed point (one thread: 10th-90th percentile -2.1 % to +1.7 % of the R call
   on the Emerald Rapids guest), and at 1x a fifth of the points would repeat for that alone (review R18, of
   the same rule's mirror); a point past it repeats on, and unconfirmed ends noisy at its bound,
   min(R, 2R/2). */
#define BUDGET_MISMATCH_CONFIRMED 3
/* The most repetitions of a fresh-memory point (touch): its time is page-fault time, tens of percent apart
   from call to call whatever the machine does, so more repetitions confirm nothing, and each faults its
   memory anew. --quick's default --reps (40) made run --quick --kernels touch take 40 each. */
#define BUDGET_FRESH_REPS 8
/* Kept back from the points for what the clock counts around them (loading the topology before the
   budget starts, writing machine.json and the summary after the last point) and for the last points' first
   repetitions, which no share can shorten: --quick with `yes` on the other vCPU took 60.4 s of its 60 when
   the points could spend all of it; with 2 % kept back and `yes` on both vCPUs, 59.1-61.3 s over five runs
   (its start to its end in machine.json: 59-61 s). */
#define BUDGET_RESERVE 0.04

/* Where a point stands after a repetition. */
struct budget_point {
	int reps_done, reps_max; /* repetitions measured, and the most allowed (--reps) */
	double est_now;          /* the estimate now (stats_mindiff), > 0 once there is one */
	double spread;           /* how far it is from confirmed (stats_mindiff_spread) */
	double mismatch;         /* its calls against R and 2R passes' times (stats_mindiff_mismatch) */
	double confirmed;        /* the spread that confirms it: BUDGET_CONFIRMED_CACHE or _DRAM */
	double spent_s, share_s; /* seconds the point has taken (warm-up included), and its share */
	double rep_s;            /* seconds its last repetition took: what another one would */
	double over_s;           /* the most another repetition may end past the share (BUDGET_OVER) */
};

struct stats_mindiff;

/* Sets the point's estimate, spread and mismatch from its calls (stats_mindiff, _spread, _mismatch). */
void budget_calls(struct budget_point *p, const struct stats_mindiff *calls);

enum budget_next {
	BUDGET_GO,          /* repeat */
	BUDGET_STABLE_STOP, /* the estimate is confirmed: a clean point */
	BUDGET_SPENT,       /* share spent, or the next repetition would end far past it: marked */
	BUDGET_MAX,         /* --reps repetitions without settling: marked */
};

/* The time a point may take, known after its first repetition: its own floor (floor_s, the seconds from
   its start to the end of that repetition) and its part of the slack, the budget (less BUDGET_RESERVE)
   left at its start (elapsed_s spent) beyond its own floor and the floors of the points after it.
   Points are weighed by their thread count: the points left weigh weight_left (the sum of their threads,
   this one's included), this one weight, and the later ones' floors are reckoned at floors_after_s
   (budget_floor_unit); the slack is shared in proportion to weight. This point's own floor is known by
   then: reckoned at its level's median instead, the slack was overstated by the difference (a last
   --quick point of a 0.5 s floor against a 0.1 s median could run 0.4 s past its due).

   The median of all floors so far, per point, was moved by three DRAM pointer chases when it was the
   mean (5 s each against a median of tens of ms: no slack for the next 45 points, which got one
   repetition each, and a --quick of 43 s that left its budget unused). Per point and over the whole run
   it undercounted the points that run on every CPU, which come last: under load 5 (a parallel build on
   the 2-vCPU guest) a one-thread floor of --quick took 0.040 s (median of 128) and a two-thread one
   0.126 s (of 96); the one-thread points spent the slack, the two-thread ones got one repetition each,
   and `run --quick` took 62.75 s of its 60.

   Most points are confirmed well within their part and leave the rest to later points, so a run mostly
   ends early (default run: 208-214 s of 300). Stretching each part by what the points so far left unused
   (their parts over what they spent, at most 4x) was tried and not kept: in three interleaved pairs of
   --quick runs on the Emerald Rapids guest it left 118-125 points unconfirmed within their share against
   85-96 without (143-182 noisy in all against 117-165, in 56.5-57.7 s against 54.0-55.6 s), the first
   points taking what the later ones then lacked, as above. */
#define BUDGET_RECENT 16
double budget_share(double budget_s, double elapsed_s, double weight_left, double weight,
		    double floors_after_s, double floor_s);

/* The floors so far, per thread, each with its point's level (enum level), from which those of the points
   left are reckoned (floors_after_s above): each at the median floor of its own level's last BUDGET_RECENT
   points. One median of all levels left the DRAM points out wherever they were fewer than half of the
   recent points: --quick has one in four, and once their streams were sized past a 128 MiB L3
   (PLAN_DRAM_REPORTED_LLC_CAP, plan.h) their 58 points took 12.9 s of the 18.5 s of timed calls of a
   --quick run with a busy loop on each vCPU of the Emerald Rapids guest, which took 66-73 s of its 60,
   the earlier points having spent the slack that those floors then lacked. */
struct budget_floors {
	double *s;  /* per thread, in the order measured */
	int *level; /* each one's */
	int n;
};
/* The median of the last BUDGET_RECENT floors of `level`, or of all levels where it has none yet or for
   level < 0; 0 without any floor. */
double budget_floor_unit(const struct budget_floors *f, int level);

/* The most a repetition may end past its point's share, as a part of the budget's reserve: a repetition
   that is started runs to its end. On the development VM with a busy loop on each vCPU the three DRAM
   pointer chases of --quick, with shares of 5.8-7.1 s, started a second repetition of about 5 s each with
   1.6-2.2 s of their shares left and took 9.0-10.7 s: 30 of the run's 53 s of points, the last 65 points
   got one repetition each, and --quick took 58.4-61.6 s over seven runs. Not starting any repetition its
   share cannot hold cut the default run's points short instead (503 of 858 noisy, 245 s of its 300): its
   shares hold two or three repetitions, the third, which confirms (BUDGET_MIN_REPS), ending a little past
   the share, and what that saves comes back to no later point. A tenth of the reserve (0.24 s in --quick,
   1.2 s in the default run) keeps such small overshoots: busy --quick 58.0 and 58.7 s, quiet 50.9 s (67 of
   224 noisy), the default run 264.6 s (432 of 909 noisy; 285 s and 503 of 960 before either rule). */
#define BUDGET_OVER 0.1

/* Whether a point goes on repeating, after at least one repetition. It is confirmed at the earliest after
   BUDGET_MIN_REPS; before that only its share or reps_max ends it: it repeats while its share is not spent
   and another repetition as long as the last (rep_s) would end no more than over_s past it. */
enum budget_next budget_next(const struct budget_point *p);

/* Waiting for the machine before a point (speed_probe.h: SPEED_PROBE_SLOW says why): steps of
   BUDGET_WAIT_STEP, idle (a vCPU that idles lets the host place it anew), at most BUDGET_WAIT_POINT before
   one point and BUDGET_WAIT_RUN of --time-budget in all, so that a machine slow for the whole run costs
   the run that part of its budget and no more. The steps are tens of milliseconds since the slowdowns
   that waiting can outlast are that short: two threads reading L1 together on the Zen 3 guest for 30 s
   read below 0.75 of twice one thread's speed in 55 episodes of 10-80 ms (median 20 ms). */
#define BUDGET_WAIT_STEP 0.01
#define BUDGET_WAIT_POINT 0.05
#define BUDGET_WAIT_RUN 0.05
/* Whether another step may be waited before a point that waited point_s so far, in a run that waited
   run_s so far (that point's included) under a budget of budget_s seconds. */
int budget_wait(double point_s, double run_s, double budget_s);

#endif
