#!/usr/bin/env python3
"""points_clock.py RAW_CSV — the core clock over a run's points, recomputed from raw.csv as report.md states
it (its **Core clock** line): each point's clock is the median of its repetitions' (group 0, clock > 0),
and the run's is the median of the points', with their tenth and ninetieth percentile.

Prints "MEDIAN P10 P90 POINTS" (GHz, 2 decimals), or "0 0 0 0" when no repetition has a clock.
"""
import csv
import statistics
import sys

reps = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["group"] == "0" and r["core_ghz"] and float(r["core_ghz"]) > 0:
        reps.setdefault(r["point"], {})[r["rep"]] = float(r["core_ghz"])
v = sorted(statistics.median(x.values()) for x in reps.values())
if not v:
    print("0 0 0 0")
else:
    # the deciles as common/stats.c's stats_decile() takes them: the sample at index (n - 1) * k / 10
    print("%.2f %.2f %.2f %d" % (statistics.median(v), v[(len(v) - 1) // 10], v[(len(v) - 1) * 9 // 10], len(v)))
