#!/bin/bash
# run_revisits.sh — `run --revisits N` (harness/run/revisit.h): after the plan, each bandwidth row's best
# point and every one-thread latency point measured again, N rounds, as points of raw.csv past the plan's with
# the parameters of the point each measures again and no events; machine.json and the run's output say how
# many; the analysis takes them as points of their rows. No round where the budget has no room for it, none
# in a resumed run, bad values refused, and 16 rounds by default only where the sizes come from the caches; no
# memory probe before a revisit.
. "$(dirname "$0")/../lib.sh"

ARGS=(--kernels "load.gpr,store.gpr,chase.plain" --sizes "8k,16k" --threads 1 --cpus "$FIRST_CPU" --reps 3
	--reported-levels --no-progress "${ONE_STATE[@]}")
# Per raw.csv point: variant, bytes, threads, event names and the rows' R, as "point variant bytes threads
# events reps" lines.
points() { python3 -c '
import csv, sys
seen = {}
for r in csv.DictReader(open(sys.argv[1])):
    p = seen.setdefault(int(r["point"]), [r["variant"], r["bytes"], r["threads"], set(), r["reps"]])
    p[3].add(r["event"])
for k in sorted(seen):
    v = seen[k]
    print(k, v[0], v[1], v[2], ";".join(sorted(v[3])) or "-", v[4])' "$1/raw.csv"; }

# run NAME OPTION...: a run into $TMP/NAME, its output in $TMP/NAME.out and .err
run() { local d=$1; shift; "$PMUCHECK" run "$@" --out "$TMP/$d" >"$TMP/$d.out" 2>"$TMP/$d.err"; }

expect_status "a run with --revisits 2 succeeds" 0 run rv "${ARGS[@]}" --revisits 2 --events task-clock
points "$TMP/rv" >"$TMP/rv.points"
# the plan: load.gpr, store.gpr, chase.plain at 8 and 16 KiB (points 0-5); two bandwidth rows (L1 read,
# L1 write) and the latency row, whose median is of its sizes: two rounds of four points, 6-13
check "the plan's points come first, then two rounds of one point per bandwidth row and each chase size" python3 -c '
import sys
rows = [l.split() for l in open(sys.argv[1])]
assert [int(r[0]) for r in rows] == list(range(14)), rows
plan, rev = rows[:6], rows[6:]
assert [r[1] for r in rev] == ["load.gpr", "store.gpr", "chase.plain", "chase.plain"] * 2, rev
assert [r[2] for r in rev if r[1] == "chase.plain"] == ["8192", "16384"] * 2, rev
for r in rev:
    # the parameters of a plan point of its variant, no events
    assert any(p[1:4] == r[1:4] for p in plan), r
    assert r[4] == "-", r
assert all(r[4] == "task-clock" for r in plan), plan' "$TMP/rv.points"
check "machine.json counts the rounds and points" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["disturbance"]["revisits"]
assert (r["asked"], r["rounds"], r["points"], r["why_fewer"]) == (2, 2, 8, ""), r
# one variant a row: no rivals to leave out (revisit.h: revisit_first_fits)
assert (r["rival"], r["rivals_left_out"]) == (0.25, ""), r
assert r["seconds"] > 0 and len(r["rounds_began_s"]) == 2, r' "$TMP/rv/machine.json"
check "the run says so" grep -q "^revisits: 2 of 2 rounds, 8 points in" "$TMP/rv.out"
check "the second round began 4 s or more after the first (a slow phase of the host lasts seconds)" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["disturbance"]["revisits"]
a, b = r["rounds_began_s"]
assert r["apart_s"] == 4 and 0 < a and b - a >= 4, r' "$TMP/rv/machine.json"
expect_status "analyze takes the revisits as points of their rows" 0 "$PMUCHECK" analyze -q "$TMP/rv"
# (a latency size whose every visit stayed noisy, likely at --reps 3, is left out beside a clean one: one
# size or two, never the six visits)
check "peaks.csv's L1 read rests on the plan's two points and the two revisits, its latency on its sizes" python3 -c '
import csv, sys
rows = {(r["level"], r["access"]): r for r in csv.DictReader(open(sys.argv[1]))}
assert rows[("L1", "read")]["points"] == "4", rows[("L1", "read")]
assert rows[("L1", "latency")]["points"] in ("1", "2"), rows[("L1", "latency")]' "$TMP/rv/peaks.csv"
expect_status "report succeeds" 0 "$PMUCHECK" report "$TMP/rv"
check "its Run quality says what the revisits measured" grep -q \
	"^- \*\*Revisits\*\*: 2 of 2 rounds (\`--revisits\`), 8 points in [0-9.]* s: each bandwidth row's best point (in the first round also each variant's best within 25 % of it) and each one-thread latency point" \
	"$TMP/rv/report.md"
# a run before the first round had rivals wrote no "rival": its report does not say it had them
cp -r "$TMP/rv" "$TMP/rv_old"
python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
del m["disturbance"]["revisits"]["rival"]
json.dump(m, open(sys.argv[1], "w"))' "$TMP/rv_old/machine.json"
expect_status "report of a run that wrote no rival succeeds" 0 "$PMUCHECK" report "$TMP/rv_old"
check "its Run quality says the rows' best points alone were revisited" grep -q \
	"^- \*\*Revisits\*\*: 2 of 2 rounds (\`--revisits\`), 8 points in [0-9.]* s: each bandwidth row's best point and each one-thread latency point" \
	"$TMP/rv_old/report.md"
# a run whose first round had room for the rows' best alone (rival 0) says why it left the rivals out
cp -r "$TMP/rv" "$TMP/rv_bare"
python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
m["disturbance"]["revisits"].update(rival=0, rivals_left_out="the first round left out each variant'"'"'s best "
    "within 25 % of its row'"'"'s: only the rows'"'"' best fitted (6.8 s left; 4.1 s reckoned, 7.7 s with them)")
json.dump(m, open(sys.argv[1], "w"))' "$TMP/rv_bare/machine.json"
expect_status "report of a run whose first round left its rivals out succeeds" 0 "$PMUCHECK" report "$TMP/rv_bare"
check "its Run quality names the rows' best points alone, and why" grep -q \
	"^- \*\*Revisits\*\*: 2 of 2 rounds (\`--revisits\`), 8 points in [0-9.]* s: each bandwidth row's best point and each one-thread latency point .*; the first round left out each variant's best within 25 % of its row's: only the rows' best fitted (6.8 s left; 4.1 s reckoned, 7.7 s with them)\.$" \
	"$TMP/rv_bare/report.md"

# A DRAM point's revisit has no memory probe before it (revisit.c: it judges no point): machine.json's probe
# counts the plan's DRAM point alone.
expect_status "a run with a DRAM point and --revisits 1 succeeds" 0 run dram --kernels load.gpr \
	--sizes "$(dram_size)" --threads 1 --cpus "$FIRST_CPU" --reps 3 --reported-levels --no-progress "${ONE_STATE[@]}" --revisits 1
check "its memory probe read before the plan's DRAM point, not before its revisit" python3 -c '
import csv, json, sys
levels = {r["point"]: r["level"] for r in csv.DictReader(open(sys.argv[2]))}
assert sorted(levels.items()) == [("0", "DRAM"), ("1", "DRAM")], levels
assert json.load(open(sys.argv[1]))["disturbance"]["memory_probe"]["points"] == 1' "$TMP/dram/machine.json" \
	"$TMP/dram/raw.csv"

expect_status "a run whose budget has no room for every round succeeds" 0 run tight "${ARGS[@]}" \
	--revisits 3 --time-budget 1
check "it measures fewer rounds, of four points each, and says why in machine.json" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["disturbance"]["revisits"]
assert r["asked"] == 3 and r["rounds"] < 3 and r["points"] == 4 * r["rounds"], r
assert r["why_fewer"].startswith("the time budget had no room for round %d (" % (r["rounds"] + 1)), r
n = max(int(l.split()[0]) for l in open(sys.argv[2]))
assert n == 5 + r["points"], n' "$TMP/tight/machine.json" <(points "$TMP/tight")
check "and in its output" grep -q "^revisits: [0-2] of 3 rounds, .*; the time budget had no room for round" \
	"$TMP/tight.out"

# a run cut after its first point, resumed: the points measured before it stopped are not known to the
# resumed run, so it revisits none
python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines(True)
open(sys.argv[1], "w").write("".join(l for l in lines if l.split(",")[0] in ("point", "0")))
m = json.load(open(sys.argv[2]))
m["finished_utc"] = None
json.dump(m, open(sys.argv[2], "w"))' "$TMP/tight/raw.csv" "$TMP/tight/machine.json"
: >"$TMP/tight/PARTIAL"
expect_status "the cut run resumes" 0 "$PMUCHECK" run --resume "$TMP/tight"
cp "$TMP/check.out" "$TMP/resume.log" # check writes its own there
check "the resumed run revisits no point, and says why" grep -q "a resumed run does not revisit" \
	"$TMP/resume.log"
check "its raw.csv holds the plan's points only" python3 -c '
import sys
assert [int(l.split()[0]) for l in open(sys.argv[1])] == list(range(6))' <(points "$TMP/tight")

expect_status "--revisits 17 is refused" 2 "$PMUCHECK" run "${ARGS[@]}" --revisits 17 --dry-run
cp "$TMP/check.out" "$TMP/range.log"
check "naming the option and the range" grep -q "revisits: 17 is out of range (0..16)" "$TMP/range.log"
expect_status "--revisits with --preset is refused" 2 "$PMUCHECK" run --preset molka2017 --revisits 1 \
	--dry-run
cp "$TMP/check.out" "$TMP/preset.log"
check "saying why" grep -q "revisits: not with --preset" "$TMP/preset.log"

# the default: 16 rounds (as many as fit) where the sizes come from the caches, none with --sizes or --preset
defaults() { "$PMUCHECK" run --dry-run --json "$@" 2>/dev/null |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["revisits"])'; }
check "a sweep of the levels revisits 16 rounds by default" test "$(defaults --quick --reported-levels)" = 16
check "a run of chosen sizes revisits none by default" test "$(defaults --quick --kernels load.gpr --sizes 16k --reported-levels)" = 0
check "a preset revisits none" test "$(defaults --preset molka2017 --reported-levels)" = 0
check "--revisits sets the rounds" test "$(defaults --quick --kernels load.gpr --sizes 16k --reported-levels --revisits 3)" = 3
check "the plan says what the rounds measure, the rivals where the budget holds them" bash -c '
"$1" run --dry-run --quick --reported-levels 2>/dev/null | grep -q "^then up to 16 rounds of each bandwidth row.s best point (in the first round also each variant.s best within 25 % of it, where the budget holds them) and each one-thread latency point again"' _ "$PMUCHECK"
