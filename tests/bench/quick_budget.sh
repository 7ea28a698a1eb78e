#!/bin/bash
# quick_budget.sh — does `pmucheck run --quick` keep its 60 s time budget (issue 14), as the machine is
# and with a busy loop on every CPU? A benchmark (make bench), not a test: the wall time depends on the
# machine and its neighbours. The budget adapts the repetitions to the time left, so the run should end
# within it plus what one point's first repetition can overshoot (a DRAM pointer chase: 3.4 s on the
# development VM with a busy neighbour); allowed: 10 %.
. "$(dirname "$0")/../lib.sh"
BUDGET=60
LIMIT=66

# One --quick run: its wall time against the budget, its points and noisy points. $1 says how it ran.
quick() {
	local start ms points noisy
	rm -rf "$TMP/q"
	start=$(date +%s%N)
	if ! "$PMUCHECK" run --quick --no-progress --out "$TMP/q" >"$TMP/out" 2>&1; then
		notok "--quick run, $1" "failed"
		sed 's/^/#   /' "$TMP/out"
		return
	fi
	ms=$((($(date +%s%N) - start) / 1000000))
	read -r points noisy < <(python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1])))
print(len({x["point"] for x in r}), len({x["point"] for x in r if x["flag"] == "noisy"}))' "$TMP/q/raw.csv")
	echo "# --quick, $1: $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s for $points points ($noisy noisy), budget $BUDGET s"
	[ "$ms" -le $((LIMIT * 1000)) ] && ok "--quick, $1, stays within its budget ($BUDGET s, allowed $LIMIT s)" ||
		notok "--quick, $1, stays within its budget" "took $((ms / 1000)) s, allowed $LIMIT s"
}

quick "as the machine is"
# Every point disturbed (issue 14: the budget holds "also when every point is disturbed"): a busy loop on
# each CPU the run uses, so that every repetition shares its core. On the development VM two such runs took
# 59.2 and 60 s, 185 of 224 points noisy.
busy=()
trap 'main_shell && { kill "${busy[@]}" 2>/dev/null; rm -rf "$TMP"; }' EXIT
for ((c = 0; c < $(nproc); c++)); do
	taskset -c "$c" yes >/dev/null &
	busy+=($!)
done
quick "a busy loop on every CPU"
