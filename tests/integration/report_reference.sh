#!/bin/bash
# report_reference.sh — a preset run's paper tables beside the measured ones: a Molka-style table
# (level, access, achievable_GBps, ...) joined with peaks.csv row by row; any other table shown as
# published; a missing one named. Synthetic results (tests/tools/rawgen) give known peaks.
. "$(dirname "$0")/../lib.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen

if [ ! -x "$RAWGEN" ] || ! command -v python3 >/dev/null; then
	skip "paper tables beside the measured ones" "needs $RAWGEN (make unit-tests) and python3"
	exit 0
fi
D=$TMP/syn
mkdir -p "$D" && "$RAWGEN" "$D" 4 3 >/dev/null
"$PMUCHECK" analyze "$D" >/dev/null 2>&1
cat >"$TMP/table2.csv" <<'CSV'
# Source: a paper's Table 2 (test copy)
level,access,achievable_GBps,million_transfers_per_s,bytes_per_transfer,indicator,max_million_events_per_s
L1D,read,159.8,4993,32,perf::L1-DCACHE-LOADS,4993
L2,read,75.0,1171,64,"L2_TRANS:DEMAND_DATA_RD + L2_TRANS:RFO",1546
L3,read,29.9,467,64,OFFCORE_RESPONSE_{0|1}:ANY_DATA:L3_HIT,467
remote_DRAM,read,8.0,125,64,OCR_L3_MISS_REMOTE,63
CSV
cat >"$TMP/table3.csv" <<'CSV'
# Source: a paper's Table 3 (test copy): all 12 cores of one socket
resource,access,peak_GBps,million_transfers_per_s,bytes_per_transfer,indicator,max_million_events_per_s
L3,read,342,5343,64,UNC_C_TOR_INSERTS:OPCODE:OPC_DRD,5279
CSV
printf '# Source: findings (test copy)\nexperiment,finding\nsplit,"counts once, not twice"\n' >"$TMP/findings.csv"
python3 - "$D/machine.json" "$TMP" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["preset"] = {"name": "molka2017", "reference": [sys.argv[2] + "/table2.csv", sys.argv[2] + "/table3.csv",
                                                   sys.argv[2] + "/findings.csv",
                                                   "configs/reference/no_such_table.csv"]}
json.dump(m, open(sys.argv[1], "w"))
PY
want_l2=$(awk -F, '$1 == "L2" && $2 == "read" { print $3 }' "$D/peaks.csv")
expect_status "report of a preset run" 0 "$PMUCHECK" report --quiet "$D"
check "the preset's section is there" grep -q '^## Seed paper reference: preset molka2017' "$D/report.md"
check "paper L2 read beside the measured one (peaks.csv: $want_l2 GB/s)" \
	grep -q "^| L2 | read | 75.0 | $want_l2 | 1171 | " "$D/report.md"
check "the paper's L1D row is matched to L1" \
	grep -q "^| L1D | read | 159.8 | $(awk -F, '$1 == "L1" && $2 == "read" { print $3 }' "$D/peaks.csv") |" "$D/report.md"
check "a level not measured here shows a dash" grep -q '^| remote_DRAM | read | 8.0 | – |' "$D/report.md"
# the paper's event names hold '|' (OFFCORE_RESPONSE_{0|1}), which split a joined row's cells
check "an indicator with a '|' keeps the joined row's ten cells" python3 - "$D/report.md" <<'PY'
import sys
row = next(l for l in open(sys.argv[1]) if l.startswith("| L3 | read | 29.9 |"))
assert row.count("|") == 11 and "OFFCORE_RESPONSE_{0/1}:ANY_DATA:L3_HIT" in row, row
PY
check "a quoted field with a comma stays one cell" grep -q '^|split |counts once, not twice |' "$D/report.md"
check "the source comment is quoted" grep -q 'Source: a paper.s Table 2 (test copy)' "$D/report.md"
check "a missing reference table is named" grep -q 'no_such_table.csv`: not found' "$D/report.md"
# A per-socket table (the paper's 12 cores) beside the run's widest figures, which are 2 threads here: the
# header says how many, where it once said "GB/s here" as if the run had used the whole socket too.
want_l3=$(awk -F, '$1 == "L3" && $2 == "read" { print $4 }' "$D/peaks.csv")
check "the per-socket table names the threads of the measured figures (peaks.csv: 2)" \
	grep -q '^| Level | Access | GB/s paper | GB/s here (2 threads) |' "$D/report.md"
check "... beside the paper's L3 read ($want_l3 GB/s here)" grep -q "^| L3 | read | 342 | $want_l3 | 5343 | " "$D/report.md"
# The per-core table's rate is one core's, as its GB/s: L2 read's 781 M lines/s beside the paper's 1546, where
# the 2-thread point's 1562 stood; the per-socket table's is the 2 threads' (peaks.csv).
want_r1=$(python3 -c 'import csv, sys; print("%.4g" % (float(next(r for r in csv.DictReader(open(sys.argv[1])) if r["level"] == "L2" and r["access"] == "read")["indicator_max_events_per_s_1_core"]) / 1e6))' "$D/peaks.csv")
check "the per-core table's L2 read rate is one core's ($want_r1 M/s)" \
	grep -Eq "^\| L2 \| read \| 75.0 \| .*\| 1546 \| $want_r1 \|$" "$D/report.md"
# A per-socket table whose rows were measured with different threads: DRAM read with 4, L3 read with 2. The
# header says 4 and the L3 row its own 2, where its figures stood under "(4 threads)" unmarked.
F=$TMP/four
mkdir -p "$F"
python3 - "$D" "$F" <<'PY'
import csv, json, sys
src, dst = sys.argv[1:3]
m = json.load(open(src + "/machine.json"))
m["topology"]["cores"] = m["topology"]["pus"] = 4
json.dump(m, open(dst + "/machine.json", "w"))
with open(src + "/raw.csv", newline="") as f, open(dst + "/raw.csv", "w", newline="") as g:
    rd = csv.DictReader(f)
    w = csv.DictWriter(g, rd.fieldnames, lineterminator="\n")
    w.writeheader()
    for r in rd:
        if r["level"] == "DRAM" and r["kernel"] == "load" and r["threads"] == "2":
            r["threads"] = "4"
        w.writerow(r)
PY
"$PMUCHECK" analyze "$F" >/dev/null 2>&1
expect_status "report of a preset run with rows of 2 and 4 threads" 0 "$PMUCHECK" report --quiet "$F"
check "the per-socket table's header says 4 threads" \
	grep -q '^| Level | Access | GB/s paper | GB/s here (4 threads) |' "$F/report.md"
check "... and its L3 read row its own 2 ($want_l3 GB/s)" \
	grep -q "^| L3 | read | 342 | $want_l3 (2) | 5343 | [0-9.]* (2) | " "$F/report.md"
check "... and says what (N) is" grep -q '^(N): a measured figure of N threads' "$F/report.md"
# A peaks.csv written before the one-core and all-core rates were split (e83ce2e) has one rate, the higher of
# the two: both tables show it, as the export takes it (8d4ccc0), where they showed a dash, and say what it is.
O=$TMP/old
cp -r "$D" "$O"
python3 - "$O/peaks.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
cols = [c for c in rows[0] if not c.startswith("indicator_max_events_per_s_")]
cols.insert(cols.index("indicator") + 1, "indicator_max_events_per_s")
with open(sys.argv[1], "w", newline="") as f:
    w = csv.DictWriter(f, cols, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        rates = [float(r[k]) for k in ("indicator_max_events_per_s_1_core",
                                       "indicator_max_events_per_s_all_cores") if r[k]]
        r["indicator_max_events_per_s"] = max(rates) if rates else ""
        w.writerow(r)
PY
rate() { python3 -c 'import csv, sys; print("%.4g" % (float(next(r for r in csv.DictReader(open(sys.argv[1])) if r["level"] == sys.argv[2] and r["access"] == "read")["indicator_max_events_per_s"]) / 1e6))' "$O/peaks.csv" "$1"; }
old_l2=$(rate L2) old_l3=$(rate L3)
expect_status "report of a preset run whose peaks.csv has one indicator rate" 0 "$PMUCHECK" report --quiet "$O"
check "the per-core table's L2 read rate is peaks.csv's one rate ($old_l2 M/s)" \
	grep -Eq "^\| L2 \| read \| 75.0 \| .*\| 1546 \| $old_l2 \|$" "$O/report.md"
check "... and the per-socket table's L3 read rate too ($old_l3 M/s)" \
	grep -Eq "^\| L3 \| read \| 342 \| .*\| 5279 \| $old_l3 \|$" "$O/report.md"
check "... which the report says is the higher of the two" \
	grep -q '^Max Mevents/s here: peaks.csv has one rate, written before' "$O/report.md"
