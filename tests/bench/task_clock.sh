#!/bin/bash
# task_clock.sh — task-clock counted by `pmucheck run` agrees with the TSC-timed kernel time: the thread's
# CPU time and the wall time of its calls are the same unless it was preempted, which a shared machine
# does to some repetitions; most must agree within 2 %. tests/integration/validate_software.sh keeps
# what no neighbour can change: task-clock is counted on every row.
. "$(dirname "$0")/../lib.sh"
d="$TMP/tc"

if ! "$PMUCHECK" run --kernels load.gpr,store.gpr --sizes 16k,128k,4M --threads 1 --reps 5 --min-time 5 \
	--reported-levels --events task-clock --no-progress --out "$d" >"$TMP/run.out" 2>&1; then
	notok "run counting task-clock" "$(tail -3 "$TMP/run.out")"
	exit 0
fi
check "task-clock agrees with the TSC-timed kernel time within 2 % (most measurements)" python3 - "$d/raw.csv" <<'PY'
import csv, statistics, sys
ratio = [int(r["count"]) * 1e-9 / float(r["seconds"]) for r in csv.DictReader(open(sys.argv[1]))
         if r["event"] == "task-clock" and r["status"] == "ok" and float(r["seconds"]) > 0]
agree = sum(abs(x - 1) < 0.02 for x in ratio)
print("# task-clock / TSC time: median %.4f, %d of %d within 2 %%" % (statistics.median(ratio), agree, len(ratio)))
assert agree * 2 > len(ratio), ratio
PY
