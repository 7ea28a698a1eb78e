#!/usr/bin/env python3
"""points_clock.py RAW_CSV — the core clock over a run's points, recomputed from raw.csv (and the machine.json
beside it) as report.md states it in its **Core clock** line, by analysis/agg.c's rules:
  - a point's clock is the highest of the clocks of its repetitions (group 0);
  - a point none of whose repetitions has a clock (every sample rejected: core_ghz empty) takes the run's,
    machine.json clock.core_ghz, and is left out when that is missing too;
  - the run's clock is the median of the points', with their tenth and ninetieth percentile as
    common/stats.c's stats_decile() takes them (the sample at index (n - 1) * k / 10).

It judges no L1 ports (machine.json config.ports): a point past them at its bound loses its clock in the
analysis, so a directory checked with it has its ports taken out (report.sh).

Prints "MEDIAN P10 P90 POINTS" (GHz, 2 decimals), or "0 0 0 0" when no point has a clock.
"""
import csv
import json
import os
import statistics
import sys

machine = json.load(open(os.path.join(os.path.dirname(sys.argv[1]), "machine.json")))
run_ghz = (machine.get("clock") or {}).get("core_ghz") or 0
reps = {}  # point -> {rep: clock}, in file order
for r in csv.DictReader(open(sys.argv[1])):
    if r["group"] == "0":
        reps.setdefault(r["point"], {})[r["rep"]] = float(r["core_ghz"]) if r["core_ghz"] else 0.0
v = []
for clocks in reps.values():
    positive = [c for c in clocks.values() if c > 0]
    ghz = max(positive) if positive else run_ghz
    if ghz > 0:
        v.append(ghz)
v.sort()
if not v:
    print("0 0 0 0")
else:
    print("%.2f %.2f %.2f %d" % (statistics.median(v), v[(len(v) - 1) // 10], v[(len(v) - 1) * 9 // 10], len(v)))
