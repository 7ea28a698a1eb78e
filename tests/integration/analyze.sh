#!/bin/bash
# analyze.sh — `pmucheck analyze DIR` end to end on synthetic results (tests/tools/rawgen): the tables
# it writes, their agreement with the raw data, and its refusal of bad input.
. "$(dirname "$0")/../lib.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen

if [ ! -x "$RAWGEN" ]; then
	skip "analyze end to end" "$RAWGEN not built (make unit-tests builds it)"
	exit 0
fi

expect_status "analyze without a directory is a usage error" 2 "$PMUCHECK" analyze
expect_status "analyze of a missing directory is a usage error" 2 "$PMUCHECK" analyze "$TMP/none"

D=$TMP/good
mkdir -p "$D" && "$RAWGEN" "$D" 4 3 >/dev/null
expect_status "analyze of a good directory succeeds" 0 "$PMUCHECK" analyze "$D"
for f in events.csv events.json events.md peaks.csv peaks.md stalls.md; do
	check "analyze writes $f" test -s "$D/$f"
done
check "no temporary file is left behind" test -z "$(ls -A "$D" | grep '\.tmp$')"

# field N of the events.csv row of event $1 (no quoted commas in these rows)
field() { awk -F, -v e="$1" -v n="$2" '$1 == e { print $n }' "$D/events.csv"; }
row_is() {
	local name=$1 ev=$2 want=$3 got
	got="$(field "$ev" 6),$(field "$ev" 7),$(field "$ev" 8)"
	if [ "$got" = "$want" ]; then ok "$name"; else notok "$name" "got '$got', want '$want'"; fi
}
row_is "page-faults against touch: exact, 1 per page" page-faults "exact,pages,1"
row_is "one event per line: exact, lines_read, 1" LINES_EXACT "exact,lines_read,1"
row_is "half an event per line: scale 1/2" HALF_LINES "exact,lines_read,1/2"
row_is "demand-only DRAM event: prefetch-blind" DRAM_DEMAND "prefetch-blind,lines_read,1"
row_is "loads + stores named as a sum" MEM_INSTR "exact,loads + stores,1"
row_is "demand-load lines told from lines_read by the store points" DEMAND_LINES "exact,lines_demand_read,1"
row_is "hardware event without PMU: not measured, no quantity" HW:NO_PMU "not measured,,"
check "the not-measured row keeps the reason" grep -q 'HW:NO_PMU.*perf_event_open ENOENT' "$D/events.csv"
check "the not-measured row has no figures: empty fields, not zeros (events.json leaves them out)" python3 -c '
import csv, sys
r = next(r for r in csv.DictReader(open(sys.argv[1])) if r["event"] == "HW:NO_PMU")
figs = "scale_measured error spread r2 slope intercept max_events_per_s points noisy_points_excluded \
boundary_points_excluded decomposition_error decomposition_r2 background_per_s outliers_excluded".split()
assert all(r[k] == "" for k in figs), {k: r[k] for k in figs if r[k]}' "$D/events.csv"
check "events.md prints the thresholds under the table" grep -q '^Thresholds (analysis/thresholds.h)' "$D/events.md"
check "events.md says noisy points were excluded" grep -q 'noisy points excluded' "$D/events.md"
# A count is the 2R call's less the R call's: reading.c rejects only one below -THR_NOISE_COUNTS, and the
# thresholds printed under every table said every negative reading was rejected.
check "the thresholds under the table reject negative readings only below the noise floor" python3 -c '
import json, sys
floor = json.load(open(sys.argv[1]))["thresholds"]["noise_counts"]
text = open(sys.argv[2]).read().split("Thresholds (analysis/thresholds.h)")[1]
assert "below -%.0f" % floor in text and "negative or stuck" not in text, text' "$D/events.json" "$D/events.md"

if command -v python3 >/dev/null; then
	check "events.json is JSON with one entry per event" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["event"]: e for e in d["events"]}
assert len(ev) == 20 and d["thresholds"]["exact_error"] == 0.02
assert ev["L2_PLUS_DRAM"]["levels"] == ["L2", "DRAM"]
assert "lines_read@L2" in ev["L2_PLUS_DRAM"]["decomposition"]["terms"]
assert ev["HW:NO_PMU"]["class"] == "not measured" and "quantity" not in ev["HW:NO_PMU"]
' "$D/events.json"
else
	skip "events.json is JSON" "python3 not installed"
fi

# peaks.csv must agree with the raw rows: the best single-thread L1 load bandwidth and the median
# single-thread DRAM chase latency, recomputed here from raw.csv with the documented formulas.
raw_l1_read=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kernel"] == "load" && $c["threads"] == 1 && $c["bytes"] * $c["arrays"] <= 36864 {
		bw = ($c["v_bytes_loaded"] + $c["v_bytes_stored"]) / $c["seconds"] / 1e9; if (bw > m) m = bw }
	END { printf "%.4g", m }' "$D/raw.csv")
peak_l1_read=$(awk -F, '$1 == "L1" && $2 == "read" { print $3 }' "$D/peaks.csv")
expect_eq() { if [ "$2" = "$3" ]; then ok "$1"; else notok "$1" "peaks says '$2', raw.csv gives '$3'"; fi; }
expect_eq "peaks L1 read GB/s (1 core) matches raw.csv" "$peak_l1_read" "$raw_l1_read"
peak_dram_lat=$(awk -F, '$1 == "DRAM" && $2 == "latency" { print $6 }' "$D/peaks.csv")
raw_dram_lat=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["variant"] == "chase.plain" && $c["threads"] == 1 && $c["bytes"] >= 12582912 {
		printf "%.4g\n", $c["seconds"] * 1e9 / $c["v_chase_accesses"] }' "$D/raw.csv" | sort -g | uniq |
	awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
expect_eq "peaks DRAM latency (ns) matches raw.csv" "$peak_dram_lat" "$raw_dram_lat"
check "peaks.md has 1-core and 2-core bandwidth columns" grep -q 'GB/s 1 core | GB/s 2 cores' "$D/peaks.md"
check "stalls.md tells memory-only stalls from execution" \
	grep -q 'STALL_MEM | DRAM .*memory stalls only' "$D/stalls.md"

# A run from before --prefetch off:all was recorded as 'off' (commit 454809a) has its every-prefetcher-off points
# labelled 'off:all', which the analysis took for a subset apart from off: the demand-only DRAM event was then
# called exact, not prefetch-blind.
A=$TMP/off_all
mkdir -p "$A" && cp "$D/machine.json" "$A/"
python3 - "$D/raw.csv" "$A/raw.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r["prefetch"] = "off:all" if r["prefetch"] == "off" else r["prefetch"]
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(
    [list(rows[0])] + [list(r.values()) for r in rows])
PY
"$PMUCHECK" analyze "$A" >/dev/null 2>&1
check "an old run's 'off:all' points are off points: the demand-only DRAM event is prefetch-blind" \
	grep -q '^DRAM_DEMAND,[^,]*,[^,]*,[^,]*,[^,]*,prefetch-blind,lines_read,1,' "$A/events.csv"

# Six of the ten L2 plain-chase points disturbed, twice as slow (their stall events stopped with the vCPU):
# stalls.md once took them with the clean ones, read 18 measured cycles against STALL_MEM's 12 and said
# "differs", where the peaks leave them out (12 cycles). Their clean points give the figures; with none
# clean, the disturbed ones do, marked.
for part in most all; do
	S=$TMP/stalls_$part
	mkdir -p "$S" && cp "$D/machine.json" "$S/"
	python3 - "$D/raw.csv" "$S/raw.csv" "$part" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
pts = sorted({int(r["point"]) for r in rows if r["variant"] == "chase.plain" and r["level"] == "L2"})
sel = set(pts if sys.argv[3] == "all" else pts[:len(pts) // 2 + 1])
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
for r in rows:
    if int(r["point"]) in sel:
        r["seconds"], r["flag"] = "%.9e" % (float(r["seconds"]) * 2), "noisy"
    w.writerow(r)
PY
	"$PMUCHECK" analyze "$S" >/dev/null 2>&1
done
check "stalls.md: disturbed L2 chase points left out beside clean ones, the latency still matches" \
	grep -q '^| STALL_MEM | L2 | 12.0 | 12.0 | 12.0 | 12.0 | 12.0 | 60.0 | memory stalls only | matches |$' \
	"$TMP/stalls_most/stalls.md"
check "stalls.md: with no clean L2 plain chase, its disturbed points give the figures, marked *" \
	grep -q '^| STALL_MEM | L2 | 12.0\* | 12.0 | 12.0 | 24.0\* | 12.0 | 60.0 | .* | differs |$' \
	"$TMP/stalls_all/stalls.md"

# A run with two --args: the L2 dependent-multiply chase also with 32 multiplies per load (3 cycles each, 48
# more than 16's 60). stalls.md once took the median over both (and named the last K in its head); each
# level's figures are now those of its most multiplies, each figure naming its K where the levels differ.
K=$TMP/stalls_k
mkdir -p "$K" && cp "$D/machine.json" "$K/"
python3 - "$D/raw.csv" "$K/raw.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
w.writerows(rows)
base, renum = max(int(r["point"]) for r in rows) + 1, {}
for r in rows:
    if r["variant"] != "chase.dep" or r["level"] != "L2":
        continue
    r = dict(r)
    acc, ghz = float(r["v_chase_accesses"]) / int(r["threads"]), float(r["core_ghz"])
    r["point"] = str(renum.setdefault(r["point"], base + len(renum)))
    r["arg"], r["v_multiplies"] = "32", "%d" % (2 * float(r["v_multiplies"]))
    r["seconds"] = "%.9e" % (float(r["seconds"]) + 48 * acc / (ghz * 1e9))
    if r["event"] == "STALL_ALL":
        r["count"] = "%d" % (float(r["count"]) + 48 * float(r["v_chase_accesses"]))
    w.writerow(r)
PY
"$PMUCHECK" analyze "$K" >/dev/null 2>&1
check "stalls.md: two K of dependent multiplies, the L2 figures are the most's (K=32), named in each figure" \
	sh -c "grep -q '^| STALL_ALL | L2 | 12.0 | 12.0 | 108.0 (K=32) | 12.0 | 12.0 | 108.0 | counts execution' '$K/stalls.md' &&
		grep -q '^| STALL_MEM | L2 | 12.0 | 12.0 | 12.0 (K=32) | 12.0 | 12.0 | 108.0 | memory stalls only' '$K/stalls.md' &&
		grep -q '^| STALL_MEM | L1 | 3.9 | 3.9 | 3.9 (K=16) | ' '$K/stalls.md' &&
		grep -q '| indep (K=16) | dep | measured plain' '$K/stalls.md'"
# STALL_MEM without a count at the K=32 points (its group failed there): its L2 figures are K=16's, where it
# has one, with the cycles measured there; the most of all once left it no dependent-multiply figure, read
# "undecided (no dependent-multiply chase)", beside the K=32 chase's 108 cycles.
N=$TMP/stalls_k_missing
mkdir -p "$N" && cp "$D/machine.json" "$N/" &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		!($c["event"] == "STALL_MEM" && $c["arg"] == 32 && $c["variant"] == "chase.dep")' \
		"$K/raw.csv" >"$N/raw.csv"
"$PMUCHECK" analyze "$N" >/dev/null 2>&1
check "stalls.md: an event without counts at the most K takes the K where it has them, with its cycles" \
	sh -c "grep -q '^| STALL_MEM | L2 | 12.0 | 12.0 | 12.0 (K=16) | 12.0 | 12.0 | 60.0 | memory stalls only' '$N/stalls.md' &&
		grep -q '^| STALL_ALL | L2 | 12.0 | 12.0 | 108.0 (K=32) | 12.0 | 12.0 | 108.0 | counts execution' '$N/stalls.md'"

# A raw.csv from before v_lines_demand_read: it still analyses, and no verdict takes the volume it lacks.
O=$TMP/old
mkdir -p "$O" && cp "$D/machine.json" "$O/" &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "v_lines_demand_read") c = i }
		{ s = ""; for (i = 1; i <= NF; i++) if (i != c) s = s (s == "" ? "" : ",") $i; print s }' \
		"$D/raw.csv" >"$O/raw.csv"
check "the old file lacks the column" test -z "$(head -1 "$O/raw.csv" | grep v_lines_demand_read)"
expect_status "analyze of a raw.csv without v_lines_demand_read succeeds" 0 "$PMUCHECK" analyze "$O"
# field $2 (by header name) of event $1's row in the old file's events.csv
old_field() {
	awk -F, -v e="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == e { print $c[f] }' "$O/events.csv"
}
check "without the column, lines_read events keep their verdict" \
	test "$(old_field LINES_EXACT class),$(old_field LINES_EXACT quantity)" = "exact,lines_read"
check "without the column, no verdict names lines_demand_read" \
	test -z "$(grep lines_demand_read "$O/events.csv")"

# An event counted at two points only is not measured (too few points), yet has readings: events.md shows no
# Max Mevents/s for it, as events.csv and events.json have none, where it showed the two points' rate.
F=$TMP/few
mkdir -p "$F" && cp "$D/machine.json" "$F/" &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["event"] != "LINES_EXACT" || $c["point"] < 2' "$D/raw.csv" >"$F/raw.csv"
"$PMUCHECK" analyze -q "$F" >/dev/null 2>&1
check "an event of two points is not measured, without a rate in events.csv" \
	test "$(awk -F, -v f=max_events_per_s 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "LINES_EXACT" { print $c["class"] "/" $c[f] }' "$F/events.csv")" = "not measured/"
check "... nor in events.md" python3 - "$F/events.md" <<'PY'
import sys
text = open(sys.argv[1]).read().split("The configuration's hypothesis")[1]
head = next(l for l in text.splitlines() if l.startswith("| Event |"))
row = next(l for l in text.splitlines() if l.startswith("| LINES_EXACT |"))
cells = dict(zip([c.strip() for c in head.split("|")], [c.strip() for c in row.split("|")]))
assert cells["Max Mevents/s"] == "" and cells["Points"] == "", cells
PY
"$PMUCHECK" report "$F" >"$TMP/few-report.out" 2>&1
check "... and report.md lists it under what was not measured, with the analysis' reason, and counts it" \
	bash -c 'grep -q "^- \*\*Not measured, as the analysis judged its readings\*\*: \`LINES_EXACT\`. Reason: ." "$1" &&
		grep -q "([1-9][0-9]* events\? not measured or failed" "$2"' _ "$F/report.md" "$TMP/few-report.out"

# A machine without hardware counters: the tables say why, hardware events stay "not measured".
H=$TMP/nohw
mkdir -p "$H" && cp "$D/raw.csv" "$H/" &&
	sed 's/"hardware": true, "reason": ""/"hardware": false, "reason": "libpfm4 no default PMU found"/' \
		"$D/machine.json" >"$H/machine.json"
"$PMUCHECK" analyze -q "$H" >/dev/null 2>&1
check "events.md says why hardware counters were unavailable" \
	grep -q 'Hardware counters were not available: libpfm4 no default PMU found' "$H/events.md"

# Bad input: exit 2, the file and line in the message, nothing written.
B=$TMP/bad
mkdir -p "$B" && cp "$D/machine.json" "$B/" && head -c -30 "$D/raw.csv" >"$B/raw.csv"
lines=$(wc -l <"$B/raw.csv")
expect_status "truncated raw.csv: exit 2" 2 "$PMUCHECK" analyze "$B"
"$PMUCHECK" analyze "$B" 2>"$TMP/err"
check "truncated raw.csv: message names raw.csv and the line" grep -q "raw.csv:$((lines + 1)): truncated" "$TMP/err"
check "truncated raw.csv: nothing written" test "$(ls "$B" | tr '\n' ' ')" = "machine.json raw.csv "
cp "$D/raw.csv" "$B/raw.csv" && printf '{ "format": 1,\n "levels": [\n' >"$B/machine.json"
expect_status "truncated machine.json: exit 2" 2 "$PMUCHECK" analyze "$B"
"$PMUCHECK" analyze "$B" 2>"$TMP/err"
check "truncated machine.json: message names the file and line" grep -q 'machine.json:3:' "$TMP/err"
check "truncated machine.json: nothing written" test "$(ls "$B" | tr '\n' ' ')" = "machine.json raw.csv "

# A discovery's summary counts what its table and discovered.ini hold: every candidate of rawgen's events. An
# exact event that holds only as a sum (MEM_INSTR, loads + stores) is not in the config; it was once counted
# among the "8 exact" that "went into discovered.ini", where 12 of 13 so counted did.
C=$TMP/discovery
mkdir -p "$C" && cp "$D/machine.json" "$D/raw.csv" "$C/"
python3 - "$C" <<'PY'
import csv, json, sys
evs = sorted({r["event"] for r in csv.DictReader(open(sys.argv[1] + "/raw.csv"))})
json.dump({"candidates": [{"spec": e, "name": e, "source": "test", "origin": "sysfs"} for e in evs]},
          open(sys.argv[1] + "/candidates.json", "w"))
PY
"$PMUCHECK" analyze "$C" >/dev/null 2>&1
check "discovered.md: its summary's counts are those of its table and of discovered.ini" python3 - "$C" <<'PY'
import re, sys
d = sys.argv[1]
md = open(d + "/discovered.md").read()
sections = len(re.findall(r"^\[event ", open(d + "/discovered.ini").read(), re.M))
m = re.search(r"(\d+) track one known quantity and went into discovered.ini: (\d+) exact, (\d+) approximate, "
              r"(\d+) prefetch-blind .*?, (\d+) overcount, (\d+) undercount\. (\d+) count nothing the kernels do", md)
assert m, md[:600]
n = [int(x) for x in m.groups()]
rows = [l.split(" | ") for l in md.splitlines() if l.startswith("| `")]
sums = sum("counts a sum of quantities" in r[-1] for r in rows)
written = [r for r in rows if r[2] in ("exact", "approximate", "prefetch-blind", "overcounts", "undercounts")
           and r[-1].strip(" |") == ""]
assert n[0] == sections == sum(n[1:6]) == len(written), (n, sections, len(written))
assert n[1] == sum(r[2] == "exact" for r in written), (n[1], [r[0] for r in written])
assert n[6] == sum(r[2] == "unrelated" for r in rows), n
m = re.search(r"; (\d+) hold as a sum no single hypothesis states", md)
assert m and int(m.group(1)) == sums > 0, (m and m.group(0), sums)
# each section's prefetch line is events.json's states: none for both (the loader's default), "on" or "off"
# for one (every event held both on and off was once written "prefetch = on")
ev = {e["event"]: e for e in __import__("json").load(open(d + "/events.json"))["events"]}
ini = open(d + "/discovered.ini").read()
for sec in re.findall(r"^\[event [^\]]+\]\n(?:.+\n?)*", ini, re.M):
    spec = re.search(r"^spec = (.+)$", sec, re.M).group(1)
    line = re.search(r"^prefetch = (\w+)$", sec, re.M)
    pf = ev[spec]["prefetch"]
    assert (line.group(1) if line else "both") == ("both" if pf in ("both", "uncontrolled") else pf), (spec, pf, sec)
PY
# discovered.ini loads back from a results directory of any path: its header names the directory on a line
# of its own, its end where it is longer than the loader's 198 characters (a path of 115 made the first
# line longer, and the config did not load), and in ASCII.
L=$TMP/$(printf 'a-long-results-directory-name-%.0s' 1 2 3 4 5 6 7)
cp -r "$C" "$L" && "$PMUCHECK" analyze "$L" >/dev/null 2>&1
check "discovered.ini from a directory of $(echo -n "$L" | wc -c) characters: every line within 198 and ASCII" \
	python3 -c 'import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
assert all(len(l) <= 198 and l.isascii() for l in lines), max(lines, key=len)
assert b";   ..." in lines[1], lines[1]' "$L/discovered.ini"
# A discovery's config loads also from an Intel or AMD machine.json without the CPU's family: it was written with
# the vendor and match = any, a pair chosen for no CPU, which the loader refuses (cfg_event.c arch_close).
F=$TMP/no-family
cp -r "$C" "$F" && python3 - "$F/machine.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["cpu"]["vendor"] = "GenuineIntel"
del m["cpu"]["family"]
json.dump(m, open(sys.argv[1], "w"))
PY
"$PMUCHECK" analyze "$F" >/dev/null 2>&1
check "discovered.ini of an Intel machine.json without its CPU family loads (vendor = any, match = any)" \
	"$PMUCHECK" run --dry-run --config "$F/discovered.ini" --kernels load.gpr --sizes 16k --threads 1 --reported-levels
