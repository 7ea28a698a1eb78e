#!/bin/bash
# report_layout.sh — a report a performance engineer reads without scrolling sideways, with figures
# whose captions say what is drawn, on synthetic results (tests/tools/rawgen) made awkward on purpose:
# an event with a long vendor-style name, noisy points, nopread delays from 0 to 1024. Checked by
# tests/tools/check_layout.py (tables, captions vs scripts, y ranges, legends) and, where Chromium is
# installed, by rendering report.html at 1280 px (tests/tools/html_width.py).
. "$(dirname "$0")/../lib.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen

if [ ! -x "$RAWGEN" ] || ! command -v python3 >/dev/null; then
	skip "report layout" "needs $RAWGEN (make unit-tests) and python3"
	exit 0
fi
D=$TMP/syn
mkdir -p "$D" && "$RAWGEN" "$D" 4 3 >/dev/null
long=ANY_DATA_CACHE_FILLS_FROM_SYSTEM.LCL_L2_AND_INT_CACHE_AND_EXT_CACHE_LCL_DRAM
sed -i "s/,LINES_EXACT,/,$long,/" "$D/raw.csv"
# nopread at a DRAM footprint, D = 0, 1, 2, 4 .. 1024 (the delays a run sweeps span three decades).
python3 - "$D/raw.csv" <<'PY'
import csv, sys
path = sys.argv[1]
rows = list(csv.DictReader(open(path)))
fields = list(rows[0].keys())
point = max(int(r["point"]) for r in rows) + 1
lines = 1 << 20
out = csv.DictWriter(open(path, "a", newline=""), fieldnames=fields, lineterminator="\n")
for delay in [0] + [1 << k for k in range(11)]:
    seconds = lines * 64 / (20e9 / (1 + delay / 64))
    for rep in range(3):
        r = {k: "" for k in fields}
        r.update(point=point, rep=rep, group=0, kernel="nopread", variant="nopread.gpr", access="",
                 plots="bw-delay", traits="", width=8, arg_name="delay", arg=delay, bytes=lines * 64,
                 arrays=1, reps=1, diff="reps", threads=1, cpus="0", placement="local", mem_nodes="0",
                 prefetch="on", level="DRAM", thp_share=0, seconds=f"{seconds:.9e}",
                 tsc=int(seconds * 2.5e9), core_ghz=3.0, v_instructions=lines * (7 + delay) // 4,
                 v_loads=lines, v_stores=0, v_bytes_loaded=lines * 8, v_bytes_stored=0,
                 v_lines_read=lines, v_lines_demand_read=lines, v_lines_written=0, v_split_loads=0,
                 v_chase_accesses=0,
                 v_multiplies=0, v_nops=lines // 4 * delay, v_pages=0, event="page-faults",
                 backend="perf", encoding="type=1", scope="thread", count=0, time_enabled=1000,
                 time_running=1000, status="ok", flag="noisy" if delay == 16 else "")
        out.writerow(r)
    point += 1
PY
"$PMUCHECK" analyze "$D" >/dev/null 2>&1
expect_status "report of the awkward synthetic results" 0 "$PMUCHECK" report "$D"

check "tables of at most 10 columns; captions name exactly what each script draws; room above the data; sizes in KiB/MiB" \
	python3 "$TOP/tests/tools/check_layout.py" "$D" 10
check "the validated-events table is split: the long name heads a row of both halves" \
	test "$(grep -c "^| $long |" "$D/report.md")" -eq 2

# Noisy points: the bandwidth figure circles exactly the load points raw.csv flags noisy.
check "bw_load circles exactly the load points raw.csv flags noisy (and there are some)" python3 -c '
import csv, re, sys
want = {float(r["bytes"]) * float(r["arrays"]) for r in csv.DictReader(open(sys.argv[1]))
        if r["kernel"] == "load" and r["flag"] == "noisy"}
gp = open(sys.argv[2]).read()
got = {float(l.split()[0]) for l in re.search(r"\$noisy << EOD\n(.*?)EOD", gp, re.S).group(1).splitlines()}
assert want and got == want, (sorted(got), sorted(want))
' "$D/raw.csv" "$D/plots/bw_load.gp"

# NOP delay: a log2 axis, D = 0 at a labelled tick one power of two below D = 1, the noisy D = 16 circled.
G=$D/plots/nopread_bw.gp
check "nopread_bw: log2 x axis" grep -q '^set logscale x 2$' "$G"
check "nopread_bw: D = 0 drawn at x = 0.5, at a tick labelled 0, and every delay is drawn" python3 -c '
import re, sys
gp = open(sys.argv[1]).read()
xs = [float(l.split()[0]) for l in re.search(r"\$d0 << EOD\n(.*?)EOD", gp, re.S).group(1).splitlines()]
assert xs == [0.5] + [2.0 ** k for k in range(11)], xs
assert re.search(r"set xtics \(\"0\" 0\.5, \"1\" 1, ", gp), "no tick 0 at 0.5"
noisy = re.search(r"\$noisy << EOD\n(.*?)EOD", gp, re.S).group(1).split()
assert noisy[0] == "16", noisy
' "$G"
check "nopread_bw: the legend gives the footprint as 64 MiB" grep -q "title 'DRAM, 64 MiB, 1 thread" "$G"
check "nopread_bw: the caption says where D = 0 went" \
	grep -q 'x = 0 is drawn at the tick labelled 0' "$D/report.md"

# Bytes per cycle beside GB/s, cycles beside ns, at machine.json's clock (3 GHz in rawgen's).
check "bw_load: a right axis in bytes per cycle, the left range / 3 GHz" python3 -c '
import re, sys
gp = open(sys.argv[1]).read()
y = [float(v) for v in re.search(r"^set yrange \[(\S+):(\S+)\]$", gp, re.M).groups()]
y2 = [float(v) for v in re.search(r"^set y2range \[(\S+):(\S+)\]$", gp, re.M).groups()]
assert all(abs(b - a / 3.0) <= 1e-6 * max(1, a) for a, b in zip(y, y2)), (y, y2)
assert "bytes per core cycle" in gp
' "$D/plots/bw_load.gp"
check "chase_latency: a right axis in cycles, the left range x 3 GHz" python3 -c '
import re, sys
gp = open(sys.argv[1]).read()
y = [float(v) for v in re.search(r"^set yrange \[(\S+):(\S+)\]$", gp, re.M).groups()]
y2 = [float(v) for v in re.search(r"^set y2range \[(\S+):(\S+)\]$", gp, re.M).groups()]
assert all(abs(b - a * 3.0) <= 1e-5 * b for a, b in zip(y, y2)), (y, y2)
assert "set logscale y2" in gp
' "$D/plots/chase_latency.gp"
# Without a core clock there is no such axis, and the caption says why instead of inventing one.
N=$TMP/noclock
cp -r "$D" "$N"
python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); m["clock"]["core_ghz"] = None; json.dump(m, open(sys.argv[1], "w"))' \
	"$N/machine.json"
"$PMUCHECK" analyze "$N" >/dev/null 2>&1 && "$PMUCHECK" report "$N" >/dev/null 2>&1
check "no core clock: no right axis, and the captions say there is no clock" bash -c \
	"! grep -q y2range '$N/plots/bw_load.gp' && grep -q 'No bytes-per-cycle axis: machine.json records no core clock' '$N/report.md'"
check "no core clock: captions still name only what is drawn" python3 "$TOP/tests/tools/check_layout.py" "$N" 10

# report.html at 1280 px: nothing past the right edge.
if command -v chromium >/dev/null; then
	python3 "$TOP/tests/tools/html_width.py" "$D/report.html" 1280 >"$TMP/width" 2>&1
	check "report.html at 1280 px: page no wider than the window, no element past its right edge" \
		awk 'NF == 2 && $1 <= $2 && $2 <= 1280 && $2 > 1000 { ok = 1 } END { exit !ok }' "$TMP/width"
else
	skip "report.html rendered at 1280 px" "chromium not installed (apt-get install chromium)"
fi

# A point without a time (every differenced time 0 or less: none positive to take a median of) has no
# bandwidth. It is not drawn; it once stood in bw_load at 0 GB/s, a figure nothing measured.
# untimed DIR WHERE: a copy of the run $D in DIR whose raw.csv rows that match the Python test WHERE (on
# row r) have a negative time.
untimed() {
	mkdir -p "$1" && cp "$D/machine.json" "$1/"
	python3 - "$D/raw.csv" "$1/raw.csv" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
for r in rows:
    if eval(sys.argv[3]):
        r["seconds"] = "%.9e" % -abs(float(r["seconds"]))
    w.writerow(r)
PY
}
U=$TMP/untimed
untimed "$U" 'r["point"] == "0"'
"$PMUCHECK" analyze "$U" >/dev/null 2>&1 && "$PMUCHECK" report "$U" >/dev/null 2>&1
check "a point without a time is not drawn at 0 GB/s: every bandwidth bw_load draws is positive" python3 -c '
import re, sys
gp = open(sys.argv[1]).read()
ys = [float(l.split()[1]) for b in re.findall(r"\$d\d+ << EOD\n(.*?)EOD", gp, re.S) for l in b.splitlines()]
assert ys and min(ys) > 0, sorted(ys)[:3]
' "$U/plots/bw_load.gp"

# Two libpfm4 names equal in their first hundred characters: each figure its own file. Cut to the file
# name's length they once made one name, the second figure overwrote the first, and the report showed it
# under both headings. Every figure's script must be the one of its heading.
L=$TMP/longnames
mkdir -p "$L" && cp "$D/machine.json" "$L/"
base=amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:EXT_CACHE_RMT:MEM_IO_LCL
sed -e "s/,$long,/,$base:LCL_DRAM,/" -e "s/,HALF_LINES,/,$base:RMT_DRAM,/" "$D/raw.csv" >"$L/raw.csv"
"$PMUCHECK" analyze "$L" >/dev/null 2>&1 && "$PMUCHECK" report "$L" >/dev/null 2>&1
check "figures of two long names alike to their last characters: each heading shows its own figure" python3 -c '
import re, sys
d = sys.argv[1]
md = open(d + "/report.md").read()
figs = re.findall(r"^### (.*)\n\n!\[.*\]\(plots/(.*)\.png\)$", md, re.M)
names = [n for _, n in figs]
assert sum("RMT_DRAM" in t for t, _ in figs) and sum("LCL_DRAM" in t for t, _ in figs), [t for t, _ in figs]
assert len(set(names)) == len(names), [n for n in names if names.count(n) > 1]
for title, name in figs:
    first = open("%s/plots/%s.gp" % (d, name)).readline().rstrip("\n")
    assert first == "# pmucheck figure: " + title, (name, first, title)
' "$L"

# An event name is text in a figure, whatever it holds: in a double-quoted gnuplot string a backquoted part
# ran as a shell command (EV`touch FILE` made FILE when the report drew it) and a backslash escaped.
Q=$TMP/quoted
mkdir -p "$Q" && cp "$D/machine.json" "$Q/"
odd="EV\`touch $TMP/ran\`'q\"d\\b@m_u"
python3 - "$D/raw.csv" "$Q/raw.csv" "$odd" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
for r in rows:
    if r["event"] == "HALF_LINES":
        r["event"] = sys.argv[3]
    w.writerow(r)
PY
"$PMUCHECK" analyze "$Q" >/dev/null 2>&1 && "$PMUCHECK" report "$Q" >/dev/null 2>&1
check "an event name with a backquoted command runs nothing when its figure is drawn" test ! -e "$TMP/ran"
check "... and every character of it is in the figure's title, as gnuplot drew it" python3 -c '
import glob, html, re, sys
odd = sys.argv[2]
svgs = [html.unescape(open(f).read()) for f in glob.glob(sys.argv[1] + "/plots/ev_EV*.svg")]
assert svgs and all(odd + " per " in s for s in svgs), [re.findall("EV[^<]*", s)[:1] for s in svgs]
' "$Q" "$odd"

# A sweep that ends at a size tick: the tick is labelled. gnuplot lost a tick at the very end of a log axis
# to rounding (a sweep to 64 MiB had no "64 MiB" under its last point; the axis read 16 MiB at most).
T=$TMP/edge
mkdir -p "$T" && cp "$D/machine.json" "$T/"
python3 - "$D/raw.csv" "$T/raw.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
top = max(int(r["bytes"]) for r in rows if r["kernel"] == "load")
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
for r in rows:
    if r["kernel"] == "load" and int(r["bytes"]) == top:
        r["bytes"] = str(64 << 20)
    w.writerow(r)
PY
"$PMUCHECK" analyze "$T" >/dev/null 2>&1 && "$PMUCHECK" report "$T" >/dev/null 2>&1
check "bw_load of a sweep that ends at 64 MiB labels its first and last tick" python3 -c '
import re, sys
gp, svg = open(sys.argv[1] + ".gp").read(), open(sys.argv[1] + ".svg").read()
xs = [float(l.split()[0]) for b in re.findall(r"\$d\d+ << EOD\n(.*?)EOD", gp, re.S) for l in b.splitlines()]
assert max(xs) == 64 << 20, max(xs)
tics = dict((float(v), t) for t, v in re.findall(r"\"([^\"]+)\" ([0-9.e+]+)", re.search(r"^set xtics \((.*)\)$", gp, re.M).group(1)))
for x in (min(xs), max(xs)):
    if x in tics:
        assert ">%s<" % tics[x] in svg, (tics[x], "not drawn")
' "$T/plots/bw_load"

# Every load point without a time: bw_load has nothing to draw, and the report says so and why, where the
# figure once vanished without a word.
N=$TMP/notime
untimed "$N" 'r["kernel"] == "load"'
"$PMUCHECK" analyze "$N" >/dev/null 2>&1 && "$PMUCHECK" report "$N" >/dev/null 2>&1
check "no load point with a time: bw_load is not drawn, and report.md says why" bash -c \
	"test ! -e '$N/plots/bw_load.png' && grep -q '^- \*\*Figure not drawn\*\*: load: bandwidth vs buffer size: none of its [0-9]* points has a figure to draw (no time' '$N/report.md'"
