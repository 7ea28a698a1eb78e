#!/bin/bash
# levels_repeat.sh — the level probe gives the same answer five runs out of five: the same number of
# plateaus, and where each ends within one step of --quick's size grid (2^(1/2)). A benchmark (make bench): a neighbour that holds the core for the whole
# of several consecutive sizes can still move a limit, which is no bug of the code.
. "$(dirname "$0")/../lib.sh"

for i in 1 2 3 4 5; do
	if ! "$PMUCHECK" info --levels --quick --json >"$TMP/l$i.json" 2>"$TMP/err"; then
		notok "level probe run $i" "$(tail -3 "$TMP/err")"
		exit 0
	fi
done
check "five level probes agree (plateaus, their ends within one grid step)" \
	python3 - "$TMP"/l[1-5].json <<'PY'
import json, sys
runs = [json.load(open(p))["levels"] for p in sys.argv[1:]]
for i, r in enumerate(runs, 1):
    pl = ", ".join("%.0f-%.0f KiB %.1f ns" % (p["first"] / 1024, p["last"] / 1024, p["ns"]) for p in r["plateaus"])
    print("# run %d: %s" % (i, pl))
    for d in r["disagreements"]:
        print("#   %s" % d)
def limits(r):
    # the end of each plateau but the last (the level limits the probe can give)
    return [p["last"] for p in r["plateaus"][:-1]]
first = runs[0]
ok = True
for i, r in enumerate(runs[1:], 2):
    if len(r["plateaus"]) != len(first["plateaus"]):
        print("# run %d: %d plateaus, run 1: %d" % (i, len(r["plateaus"]), len(first["plateaus"])))
        ok = False
        continue
    for a, b in zip(limits(first), limits(r)):
        if max(a, b) > 1.42 * min(a, b):
            print("# run %d: a limit at %d KiB, run 1: %d KiB" % (i, b // 1024, a // 1024))
            ok = False
sys.exit(0 if ok else 1)
PY
