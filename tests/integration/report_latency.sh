#!/bin/bash
# report_latency.sh — the loaded-latency figure (Helm & Taura, Fig. 8-11) on synthetic results: a
# miss-occupancy event (STALL_MEM matches the pointer-chase latency in tests/tools/rawgen's data)
# counted with nopread points whose bandwidth and latency are set by construction; the figure must
# put each point at (bandwidth, latency) exactly.
. "$(dirname "$0")/../lib.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen

if [ ! -x "$RAWGEN" ] || ! command -v python3 >/dev/null; then
	skip "latency vs bandwidth figure" "needs $RAWGEN (make unit-tests) and python3"
	exit 0
fi
D=$TMP/syn
mkdir -p "$D" && "$RAWGEN" "$D" 4 3 >/dev/null

# nopread at a DRAM footprint: delays 0, 64, 256 give 20, 10, 4 GB/s at 150, 100, 90 ns per line.
python3 - "$D/raw.csv" <<'PY'
import csv, sys
path = sys.argv[1]
rows = list(csv.DictReader(open(path)))
fields = list(rows[0].keys())
point = max(int(r["point"]) for r in rows) + 1
ghz, lines = 3.0, 1 << 20
out = csv.DictWriter(open(path, "a", newline=""), fieldnames=fields, lineterminator="\n")
for delay, gbps, ns in ((0, 20, 150), (64, 10, 100), (256, 4, 90)):
    seconds = lines * 64 / (gbps * 1e9)
    for rep in range(3):
        r = {k: "" for k in fields}
        r.update(point=point, rep=rep, group=0, kernel="nopread", variant="nopread.gpr", access="",
                 plots="bw-delay", traits="", width=8,
                 arg_name="delay", arg=delay, bytes=lines * 64, arrays=1, reps=1, diff="reps",
                 threads=1, cpus="0", placement="local", mem_nodes="0", prefetch="on", level="DRAM",
                 thp_share=0, seconds=f"{seconds:.9e}", tsc=int(seconds * 2.5e9), core_ghz=ghz,
                 v_instructions=lines * (7 + delay) // 4, v_loads=lines, v_stores=0,
                 v_bytes_loaded=lines * 8, v_bytes_stored=0, v_lines_read=lines, v_lines_demand_read=lines,
                 v_lines_written=0,
                 v_split_loads=0, v_chase_accesses=0, v_multiplies=0, v_nops=lines // 4 * delay,
                 v_pages=0, event="STALL_MEM", backend="perf", encoding="type=4", scope="thread",
                 count=round(ns * ghz * lines), time_enabled=1000, time_running=1000, status="ok")
        out.writerow(r)
    point += 1
PY
"$PMUCHECK" analyze "$D" >/dev/null 2>&1
expect_status "report of synthetic results with nopread and a latency event" 0 "$PMUCHECK" report "$D"
G=$D/plots/nopread_latency_STALL_MEM.gp
check "the latency vs bandwidth figure is drawn" test -s "${G%.gp}.png" -a -s "${G%.gp}.svg"
pts=$(sed -n '/^\$d0 << EOD$/,/^EOD$/p' "$G" | grep -v EOD | awk '{ printf "%.4g:%.4g ", $1, $2 }')
check "each point sits at its bandwidth (GB/s) and latency per line (ns)" test "$pts" = "4:90 10:100 20:150 "
check "it is not listed as 'not drawn'" sh -c "! grep -q 'Figure not drawn\*\*: Latency vs bandwidth' '$D/report.md'"
check "the figures are valid" python3 "$TOP/tests/tools/check_report.py" "$D"

# The chase figures' series by placement and threads: the plain chase's DRAM points once more on node 1,
# 1.6x slower, and once more with 2 threads. Each is a line of its own, where local and node 1 drew one
# line zig-zagging between 90 and 144 ns, and the events' figure (which takes every thread count) joined one
# thread's points with two threads'.
C=$TMP/placed
mkdir -p "$C" && "$RAWGEN" "$C" 4 3 1 >/dev/null
python3 - "$C/raw.csv" <<'PY'
import csv, sys
path = sys.argv[1]
rows = list(csv.DictReader(open(path)))
point = max(int(r["point"]) for r in rows) + 1
base = [r for r in rows if r["variant"] == "chase.plain" and r["level"] == "DRAM" and r["prefetch"] == "on"]
out = csv.DictWriter(open(path, "a", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
for change in ({"placement": "node:1", "slower": 1.6}, {"threads": "2", "slower": 1}):
    ids = {}
    for r in base:
        r = dict(r, **{k: v for k, v in change.items() if k != "slower"})
        r["seconds"] = "%.9g" % (float(r["seconds"]) * change["slower"])
        r["point"] = ids.setdefault(r["point"], point + len(ids))
        out.writerow(r)
    point += len(ids)
PY
"$PMUCHECK" analyze "$C" >/dev/null 2>&1
expect_status "report of chases on local memory, node 1 and 2 threads" 0 "$PMUCHECK" report --quiet "$C"
titles() { grep -o "title '[^']*'" "$1" | sort | tr '\n' ';'; }
check "the latency figure has local and node 1's plain chase apart: $(titles "$C/plots/chase_latency.gp")" \
	sh -c "grep -q \"title 'plain, 1 thread, prefetch on'\" '$C/plots/chase_latency.gp' &&
		grep -q \"title 'plain, 1 thread, prefetch on, node:1'\" '$C/plots/chase_latency.gp'"
E=$(ls "$C"/plots/chase_ev_*.gp | head -1)
check "the events' chase figure has 1 and 2 threads apart: $(titles "$E")" \
	sh -c "grep -q \"title 'plain, 1 thread, prefetch on'\" '$E' && grep -q \"title 'plain, 2 threads, prefetch on'\" '$E'"
