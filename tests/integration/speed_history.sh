#!/bin/bash
# speed_history.sh — the speed probe's history across runs (harness/run/speed_history.h): a run adds its
# best to speed.json; a later run whose best is below 0.8 of the machine's says it ran slow for the whole
# run, and it, the analysis and the report mark every point it measured; a speed.json the run cannot read
# is left as it was, the run judging against its own best alone. The machine's best is set by editing the
# file, above what any core's probe reads or far below, so that no machine's speed decides the outcome.
. "$(dirname "$0")/../lib.sh"
H=$PMUCHECK_HISTORY_DIR/speed.json
small() {
	"$PMUCHECK" run --quick --reported-levels --kernels load.gpr,chase.plain --sizes 16k --threads 1 \
		--cpus "$FIRST_CPU" "${ONE_STATE[@]}" --out "$1" >"$1.out" 2>"$1.err"
}
expect_status "a first run succeeds" 0 small "$TMP/first"
check "its history holds no earlier run, and it is judged against its own best" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["disturbance"]
h, s = d["speed_history"], d["speed_probe"]
assert h["runs"] == [] and h["machine_best_gbps"] is None and h["file"] == sys.argv[2], h
assert s["judged_against_gbps"] == s["gbps_best"], s' "$TMP/first/machine.json" "$H"
check "it adds its best to speed.json, as this machine's" python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
d = json.load(open(sys.argv[2]))["disturbance"]
assert len(runs) == 1 and runs[0]["machine"] == d["speed_history"]["machine"], runs
assert abs(runs[0]["gbps"] - d["speed_probe"]["gbps_best"]) < 1e-9 * runs[0]["gbps"], runs' "$H" \
	"$TMP/first/machine.json"

# The machine read 100 bytes per cycle at its highest clock before: the probe, 8-byte loads, reads 32 at
# most (4 loads a cycle), so any run is slow against it, and a core may read 256 (a speed above is refused)
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))["clock"]
d["runs"][0]["gbps"] = 100 * max(c.get("bounds", {}).get("max_ghz") or 0, c.get("core_ghz") or 0)
json.dump(d, open(sys.argv[1], "w"))' "$H" "$TMP/first/machine.json"
best=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["gbps"])' "$H")
expect_status "a run slower than this machine's best succeeds" 0 small "$TMP/slow"
check "it says it ran slow for the whole run" grep -q \
	"of the last day ($H); this run's best is [0-9]* % of it: the machine ran slow for the whole" "$TMP/slow.out"
check "each point it measured is marked slow-machine in its summary" grep -qE \
	"^([0-9]+) of \1 points stayed noisy .*begun while the machine itself ran slow" "$TMP/slow.out"
check "machine.json names the machine's best, and judges against it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["disturbance"]
b = float(sys.argv[2])
assert len(d["speed_history"]["runs"]) == 1 and abs(d["speed_history"]["machine_best_gbps"] - b) < 1e-9 * b, d
assert abs(d["speed_probe"]["judged_against_gbps"] - b) < 1e-9 * b, d["speed_probe"]' \
	"$TMP/slow/machine.json" "$best"
expect_status "analyze and report succeed" 0 sh -c '"$1" analyze -q "$2" && "$1" report "$2"' sh "$PMUCHECK" \
	"$TMP/slow"
check "every peak row is a noisy point's" python3 -c '
import csv, sys
q = [r["quality"] for r in csv.DictReader(open(sys.argv[1]))]
assert q and all(x.startswith("noisy") for x in q), q' "$TMP/slow/peaks.csv"
check "the report's Run quality says so" grep -q \
	"^- \*\*Machine speed over runs\*\*: .*: the machine ran slow for the whole run" "$TMP/slow/report.md"
check "the slow run's best is added too" python3 -c '
import json, sys
assert len(json.load(open(sys.argv[1]))["runs"]) == 2' "$H"

# The machine read far slower before: the run judges against its own best, and its analysis marks no more
# than its own judgement does (the same peaks.csv without the history's member)
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]: r["gbps"] = 0.001
json.dump(d, open(sys.argv[1], "w"))' "$H"
expect_status "a run faster than this machine's best succeeds" 0 small "$TMP/fast"
check "it judges against its own best" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["disturbance"]["speed_probe"]
assert s["judged_against_gbps"] == s["gbps_best"], s' "$TMP/fast/machine.json"
check "and is not said slow throughout" sh -c '! grep -q "ran slow for the whole run" "$1"' sh "$TMP/fast.out"
mkdir -p "$TMP/fast-own" && cp "$TMP/fast/raw.csv" "$TMP/fast-own/"
python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
del m["disturbance"]["speed_probe"]["judged_against_gbps"], m["disturbance"]["speed_history"]
json.dump(m, open(sys.argv[2], "w"))' "$TMP/fast/machine.json" "$TMP/fast-own/machine.json"
expect_status "its analysis, and one of it without the history, succeed" 0 sh -c \
	'"$1" analyze -q "$2" && "$1" analyze -q "$3"' sh "$PMUCHECK" "$TMP/fast" "$TMP/fast-own"
check "its analysis marks no more than its own best does" cmp "$TMP/fast/peaks.csv" "$TMP/fast-own/peaks.csv"

# A history of another form: left as it was, the run goes on, judged against its own best
printf 'not json\n' >"$H"
expect_status "a run beside a damaged speed.json succeeds" 0 small "$TMP/damaged"
check "it says no speed history is kept, naming the file" grep -qF "no speed history kept ($H:" \
	"$TMP/damaged.err"
check "and that it judges against its own best alone" grep -qF \
	"): the points are judged against this run's speed probe alone" "$TMP/damaged.err"
check "machine.json says why" python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["disturbance"]["speed_history"]
assert h["not_kept"].startswith(sys.argv[2] + ":") and "runs" not in h, h' "$TMP/damaged/machine.json" "$H"
check "the file is left as it was" test "$(cat "$H")" = "not json"
expect_status "its report succeeds" 0 sh -c '"$1" analyze -q "$2" && "$1" report "$2"' sh "$PMUCHECK" \
	"$TMP/damaged"
check "the report says no history was read, and why" grep -qF \
	"**Machine speed over runs**: no history of this machine's runs was read ($H:" "$TMP/damaged/report.md"
