#!/bin/bash
# path_probe.sh — the run's path probe (harness/run/path_probe.h): timed before each point of the most
# threads that reaches memory (non-temporal stores at any size, DRAM) and before no other; machine.json's
# figures of it, the run's line and report.md's, whose conclusion follows the points where the threads
# shared paths (edited copies: all, some, none).
. "$(dirname "$0")/../lib.sh"

if [ "$(two_threads)" = 1 ]; then
	skip "the path probe" "one CPU a run may use (one per core): no point of two threads"
	exit 0
fi

run() { # DIR KERNELS THREADS [RUN OPTIONS]
	"$PMUCHECK" run --kernels "$2" --sizes 16k --threads "$3" --reps 3 --min-time 2 --reported-levels \
		--no-progress "${ONE_STATE[@]}" "${@:4}" --out "$1" >"$1.out" 2>&1 && "$PMUCHECK" analyze -q "$1" >/dev/null 2>&1 &&
		"$PMUCHECK" report "$1" >/dev/null 2>&1
}

N=$TMP/nt
check "a run of load.gpr and store.sse.nt at 16 KiB with 1 and 2 threads and a revisit, analysed and reported" \
	run "$N" load.gpr,store.sse.nt 1,2 --revisits 1
check "machine.json's path probe: once per 2-thread point that reaches memory (the non-temporal one and its revisit), its figures in order" \
	python3 - "$N/machine.json" "$N/raw.csv" <<'PY'
import csv, json, sys
p = json.load(open(sys.argv[1]))["disturbance"]["path_probe"]
pts = {r["point"]: r for r in csv.DictReader(open(sys.argv[2]))}
reach = [r for r in pts.values() if r["threads"] == "2" and ("nt" in r["traits"].split(";") or r["level"] == "DRAM")]
assert len(pts) == 8 and len(reach) == 2, (len(pts), reach)
assert p["points"] == 2 and p["threads"] == 2 and p["kernel"] == "store.sse.nt" and p["bytes"] == 2 << 20, p
assert 0 < p["ratio_p10"] <= p["ratio_median"] <= p["ratio_best"], p
assert p["shared_below"] == 0.75, p
# two samples: both below 0.75 x 2, neither, or one
assert p["points_shared"] == (2 if p["ratio_best"] < 1.5 else 0 if p["ratio_p10"] >= 1.5 else 1), p
assert 0 < p["gbps_one_best"] and 0 < p["gbps_best"], p
PY
check "machine.json's ratio per raw.csv point: at the two points probed, none elsewhere" python3 - "$N/machine.json" "$N/raw.csv" <<'PY'
import csv, json, sys
p = json.load(open(sys.argv[1]))["disturbance"]["path_probe"]
pts = {int(r["point"]): r for r in csv.DictReader(open(sys.argv[2]))}
assert len(p["point_ratio"]) == len(pts), p
for i, r in pts.items():
    probed = r["threads"] == "2" and "nt" in r["traits"].split(";")
    assert (p["point_ratio"][i] is not None) == probed and (not probed or p["point_ratio"][i] > 0), (i, p)
PY
# peaks.csv: the all-thread figure's point's ratio, and whether its threads shared paths, in its row's
# quality; none in a row no probe was timed before; an edited file whose points read 1.9x had paths of
# their own.
quality_paths() { # DIR
	python3 - "$1/machine.json" "$1/raw.csv" "$1/peaks.csv" <<'PY'
import csv, json, sys
ratio = json.load(open(sys.argv[1]))["disturbance"]["path_probe"]["point_ratio"]
rows = {(r["level"], r["access"]): r for r in csv.DictReader(open(sys.argv[3]))}
nt, rd = rows[("L1", "nt-write")]["quality"], rows[("L1", "read")]["quality"]
said = nt.rsplit("; ", 1)[-1]
x = said[said.index("(") + 1:said.index("x one")]
# the probed points' ratios that print so, judged unrounded as the analysis does
same = [r for r in ratio if r and "%.2f" % r == x]
assert same, (nt, ratio)
shared = [r < 0.75 * 2 for r in same]
assert all(shared) or not any(shared), (nt, same)
assert said == "2 threads' stores %s (%sx one thread's)" % (
    "shared paths to memory" if shared[0] else "had paths of their own", x), nt
assert "stores" not in rd, rd
print("# L1 nt-write: %s" % nt)
PY
}
check "peaks.csv says the all-thread figure's paths in its row's quality, none in a row without the probe" quality_paths "$N"
P=$TMP/own
cp -r "$N" "$P" && python3 - "$P/machine.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["disturbance"]["path_probe"]["point_ratio"] = [1.9 if x else None for x in m["disturbance"]["path_probe"]["point_ratio"]]
json.dump(m, open(sys.argv[1], "w"))
PY
"$PMUCHECK" analyze -q "$P" >/dev/null 2>&1
own_paths() { # PEAKS: the L1 nt-write row's quality (a CSV field, quoted where it has a comma) ends so
	grep "^L1,nt-write," "$1" | grep -q "; 2 threads' stores had paths of their own (1.90x one thread's)\"\?$"
}
check "... and in an edited file whose points read 1.9x, that they had paths of their own" own_paths "$P/peaks.csv"
check "the run says the paths' ratio" grep -q "^paths to memory, 2 threads: store.sse.nt stores of 2 MiB" "$N.out"
check "report.md states the paths to memory under 'Run quality'" \
	grep -q "^- \*\*Paths to memory, 2 threads\*\*: 2 threads' non-temporal stores (store.sse.nt, 2 MiB each), timed together before each of 2 points of as many threads that reach memory" "$N/report.md"

L=$TMP/l1
O=$TMP/one
check "a run of load.gpr at 16 KiB with 1 and 2 threads" run "$L" load.gpr 1,2
check "a run of store.sse.nt at 16 KiB with 1 thread" run "$O" store.sse.nt 1
no_probe() { # DIR
	! grep -q path_probe "$1/machine.json" && ! grep -q "^paths to memory" "$1.out" &&
		! grep -q "Paths to memory" "$1/report.md"
}
for d in "$L" "$O"; do
	check "no path probe where no point of two threads reaches memory ($(basename "$d"))" no_probe "$d"
done

# The report's conclusion from points_shared, on copies of the run: every point, some, none.
concludes() { # SHARED POINTS TEXT
	local c=$TMP/c$1-$2
	rm -rf "$c" && cp -r "$N" "$c" && rm -f "$c/report.md" &&
		python3 - "$c/machine.json" "$1" "$2" <<'PY' && "$PMUCHECK" report "$c" >/dev/null 2>&1 &&
import json, sys
m = json.load(open(sys.argv[1]))
m["disturbance"]["path_probe"].update(points_shared=int(sys.argv[2]), points=int(sys.argv[3]),
                                       ratio_best=1.9, ratio_median=1.5, ratio_p10=1.0)
json.dump(m, open(sys.argv[1], "w"))
PY
		grep "Paths to memory" "$c/report.md" | grep -qF "$3"
}
check "report.md: shared before every point" concludes 4 4 "Before every one of them, below 75 % of 2x, their stores shared paths"
check "report.md: shared before some" concludes 1 4 "Before 1 of them, below 75 % of 2x, their stores shared paths"
check "... and the other 3 had paths of their own" concludes 1 4 "Before the other 3 they had paths of their own: the host moved the vCPUs"
check "report.md: had paths of their own" concludes 0 4 "read 1.90x one thread's at best, 1.50x median and 1.00x or less before a tenth of them (one thread"
check "... and says so" concludes 0 4 "Their stores had paths of their own."
check "report.md: an edited points_shared above the points counts as every point" concludes 9 4 "Before every one of them"
