#!/bin/bash
# report.sh — `pmucheck report DIR` on a real results directory of this machine (software events
# counted, hardware events not measured): figures that are real PNG/SVG, a self-contained HTML, a
# report that says what was not measured and why, and its refusal of bad input.
. "$(dirname "$0")/../lib.sh"

D=$TMP/run
"$PMUCHECK" run --kernels touch,load.gpr,splitread --sizes 64k,256k,4M --args 0,60 --threads 1 --reps 3 \
	--min-time 5 --reported-levels --events page-faults,minor-faults,cycles --keep-going \
	--no-progress "${ONE_STATE[@]}" --out "$D" >"$TMP/run.out" 2>&1
check "run with software events writes a results directory" test -s "$D/raw.csv"
# Without the config's L1 ports: the clock checks below recompute each point's clock from raw.csv
# (tests/tools/points_clock.py), which judges no ports, and load.gpr's L2 points run at about a Zen 1 core's
# two loads a cycle (1.9 here), so one whose clock read a few percent low would lose it in the analysis
# (agg.c settle_time; analyze_peaks.sh and run_cli.sh test that), and report.md count a point fewer (CI of
# 3a6195d, where a copy clocked below every point's: 11 points against 12).
python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); m["config"].pop("ports", None); json.dump(m, open(sys.argv[1], "w"))' \
	"$D/machine.json"

# bad input first: nothing may be written into a directory that is not analysed yet
expect_status "report without a directory is a usage error" 2 "$PMUCHECK" report
expect_status "report of a missing directory is a usage error" 2 "$PMUCHECK" report "$TMP/none"
expect_status "report before analyze is a usage error" 2 "$PMUCHECK" report "$D"
cp "$TMP/check.out" "$TMP/before.out"
check "... and tells the user to run analyze first" grep -q "run 'pmucheck analyze" "$TMP/before.out"
check "... and writes nothing" test ! -e "$D/report.md" -a ! -e "$D/report.html" -a ! -e "$D/plots"

"$PMUCHECK" analyze "$D" >/dev/null 2>&1
# raw.csv grown since the analysis (a run resumed after it): the verdicts and peaks are not of its points
cp -r "$D" "$TMP/grown" && echo "0,0" >>"$TMP/grown/raw.csv"
for cmd in report "export --format perf"; do
	expect_status "$cmd of a directory whose raw.csv changed since its analysis is refused" 2 \
		"$PMUCHECK" $cmd "$TMP/grown"
	grep -qF "raw.csv: changed since it was analysed" "$TMP/check.out" &&
		grep -qF "run 'pmucheck analyze $TMP/grown' again" "$TMP/check.out" &&
		[ ! -e "$TMP/grown/report.md" ] && [ ! -e "$TMP/grown/metrics" ] &&
		ok "... saying so, nothing written" || notok "... saying so, nothing written" "$(cat "$TMP/check.out")"
done
# ... but a directory collected without its raw.csv, which export and merge do not read, is no changed one
cp -r "$D" "$TMP/noraw" && rm "$TMP/noraw/raw.csv"
"$PMUCHECK" export --format perf "$TMP/noraw" >"$TMP/noraw.out" 2>&1
check "export of a directory without raw.csv is not refused as changed (exit 0 or 1: $?)" \
	bash -c '[ "$1" -le 1 ] && ! grep -q "changed since" "$2"' _ "$?" "$TMP/noraw.out"
expect_status "report of an analysed directory succeeds" 0 "$PMUCHECK" report "$D"
for f in report.md report.html; do
	check "report writes $f" test -s "$D/$f"
done
check "no temporary file is left behind" test -z "$(ls -A "$D" | grep '\.tmp$')"
# A timing figure needs a point of its kernel whose fastest differenced time is positive (noise on a
# busy machine can make every repetition's difference negative; such a point has nothing to draw).
timed() {
	awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["kernel"] == k { s = $c["seconds"]; if (!($1 in t) || s < t[$1]) t[$1] = s }
		END { n = 0; for (p in t) n += t[p] > 0; print n }' "$D/raw.csv"
}
for kf in load:bw_load splitread:splitread_time; do
	k=${kf%%:*} fig=${kf#*:}
	if [ "$(timed "$k")" -gt 0 ]; then
		check "figure $fig drawn as PNG, SVG and its gnuplot script" \
			test -s "$D/plots/$fig.png" -a -s "$D/plots/$fig.svg" -a -s "$D/plots/$fig.gp"
	else
		check "no $fig figure without a positive $k time" test ! -e "$D/plots/$fig.png"
	fi
done
check "figure ev_page-faults drawn as PNG, SVG and its gnuplot script" \
	test -s "$D/plots/ev_page-faults.png" -a -s "$D/plots/ev_page-faults.svg" -a -s "$D/plots/ev_page-faults.gp"
if command -v python3 >/dev/null; then
	check "every PNG is a real figure, every SVG parses, report.html loads nothing from outside" \
		python3 "$TOP/tests/tools/check_report.py" "$D"
else
	skip "figure and HTML checks" "python3 not installed"
fi

# The report names what was not measured, with the reason raw.csv gives for it: 'cycles' where there is no
# core PMU (these guests); where there is one, it is counted and the report does not call it unmeasured.
cyc=$(raw_status "$D/raw.csv" cycles)
reason=${cyc#* }
if [ "${cyc%% *}" = not_measured ] && [ -n "$reason" ]; then
	check "report.md lists 'cycles' as not measured" grep -q '^- \*\*Not measured\*\*: `cycles`' "$D/report.md"
	check "... with raw.csv's reason" grep -qF "$reason" "$D/report.md"
elif [ "${cyc%% *}" = ok ]; then
	check "a counted 'cycles' is not listed as not measured" \
		test -z "$(grep '^- \*\*Not measured\*\*: `cycles`' "$D/report.md")"
	skip "report.md lists 'cycles' as not measured, with raw.csv's reason" "this machine counts cycles"
else
	notok "raw.csv gives 'cycles' counted, or not measured with a reason" "status and reason: '$cyc'"
fi
check "report.md's 'What was not measured' comes before the figures" \
	test "$(grep -n 'What was not measured' "$D/report.md" | cut -d: -f1)" -lt \
	"$(grep -n '^## Figures' "$D/report.md" | cut -d: -f1)"
# The run quality: machine.json's steal share over the measurements, and the disturbed points counted.
steal=$(python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["disturbance"]["steal_percent"])' "$D/machine.json")
check "machine.json records the steal share of the run (/proc/stat)" test -n "$steal"
check "report.md states it under 'Run quality'" grep -qF "**Steal time**: $steal %" "$D/report.md"
check "... of the one CPU a one-thread run measured on, not of every CPU it could use" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["disturbance"]["steal_cpus"] == 1' "$D/machine.json"
# procs_running counts pmucheck's own threads (the sampling one, OpenMP threads still spinning after the last
# point): the others are recorded apart, and the report states them where the run has them.
others=$(python3 -c '
import json, sys; d = json.load(open(sys.argv[1]))["disturbance"]
for when in ("before", "after"):
    assert 0 <= d["others_runnable_" + when] <= d["runnable_" + when], d
print(d["others_runnable_before"], d["others_runnable_after"])' "$D/machine.json")
check "machine.json records the runnable tasks other than pmucheck's threads, no more than procs_running" \
	test -n "$others"
check "report.md states those, not procs_running" grep -qF \
	"runnable tasks other than pmucheck's threads ${others% *} before and ${others#* } after." "$D/report.md"
check "machine.json records the speed probe: one sample per point, its slow tenth <= median <= best" \
	python3 - "$D/machine.json" "$D/raw.csv" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))["disturbance"]["speed_probe"]
points = len({r["point"] for r in csv.DictReader(open(sys.argv[2]))})
assert s["points"] == points, (s, points)
assert 0 < s["gbps_p10"] <= s["gbps_median"] <= s["gbps_best"], s
# the waits for a slow machine before the points (budget.h: budget_wait), within 5 % of the default
# --time-budget (300 s) and a step
assert s["slow_below"] == 0.8, s
assert 0 <= s["points_recovered"] <= s["points_waited"] <= points, s
assert 0 <= s["waited_seconds"] <= 0.05 * 300 + 0.01 + 0.01, s
assert (s["points_waited"] == 0) == (s["waited_seconds"] == 0), s
PY
speed=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["disturbance"]["speed_probe"]; print("a %s read of L1 timed before each of %d points ran at %.1f GB/s" % (s["kernel"], s["points"], s["gbps_best"]))' "$D/machine.json")
check "report.md states the machine's speed under 'Run quality'" grep -qF "**Machine speed**: $speed" "$D/report.md"
# The memory probes: one sample before each DRAM point, and the same read split over the threads before each
# DRAM point of the most threads, when that is more than one; none without DRAM points (the run above has
# none: its levels are hwloc's). A run whose large points are past every cache has them, with 2 threads where
# a run may have 2 (two_threads): past the caches hwloc reports (dram_size), so that the plan calls them DRAM
# whatever the level probe finds (where its time runs out a run keeps the reported sizes).
M=$TMP/mem
mthreads=$(two_threads)
big=$(dram_size)
"$PMUCHECK" run --kernels load.gpr --sizes "16k,$big" --threads "$mthreads" --reps 3 --min-time 2 --no-progress \
	"${ONE_STATE[@]}" --out "$M" >"$TMP/mem.out" 2>&1 && "$PMUCHECK" analyze -q "$M" >/dev/null 2>&1 &&
	"$PMUCHECK" report "$M" >/dev/null 2>&1
for dir in "$D" "$M"; do
	check "machine.json of $(basename "$dir") records the memory probes once per DRAM point of their threads, or not at all" \
		python3 - "$dir/machine.json" "$dir/raw.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))["disturbance"]
dram = {r["point"]: int(r["threads"]) for r in csv.DictReader(open(sys.argv[2])) if r["level"] == "DRAM"}
most = max(dram.values(), default=0)
for key, threads, points in (("memory_probe", 1, len(dram)),
                             ("memory_probe_threads", most, sum(t == most for t in dram.values()) if most > 1 else 0)):
    m = d.get(key)
    assert (m or {}).get("points", 0) == points, (key, m, dram)
    assert not m or (0 < m["gbps_p10"] <= m["gbps_median"] <= m["gbps_best"] and m["bytes"] == 128 << 20
                     and m["threads"] == threads), (key, m)
PY
done
# The run's own summary puts the threads' median beside their number times one thread's, as machine.json has
# both (where it judged the threads' cores: hwloc calls the CPUs cores of their own).
if grep -q '"points_shared"' "$M/machine.json"; then
	share=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["disturbance"]
a, o = d["speed_probe_threads"], d["speed_probe"]
print("%.0f %% of %d" % (100 * a["gbps_median"] / (a["threads"] * o["gbps_median"]), a["threads"]))' "$M/machine.json")
	check "the run's summary gives the threads' median speed as a share of their number times one thread's" \
		grep -qF "; their median $share times one thread's median" "$TMP/mem.out"
else
	skip "the run's summary of the threads' median speed" "one CPU, or CPUs hwloc calls one core's"
fi
check "machine.json: the level probe's sweeps each end the last level; one measured short ends at their median (where that is short too), the run at its history's smallest with one probe in eight passed over (or the last run's, held), and where they differ it says so" \
	python3 - "$M/machine.json" "$M/report.md" <<'PY'
import collections, json, sys
lv = json.load(open(sys.argv[1]))["levels"]
ends = lv["sweep_ends"]
stopped = any("time limit ran out" in d for d in lv["disagreements"])
assert (3 if not stopped else 1) <= len(ends) <= 12 and all(e is None or e > 0 for e in ends), ends
said = [d for d in lv["disagreements"] if "sweeps, each alone, ended" in d]
last = "L%d" % len(lv["reported"])
found = sorted(e for e in ends if e is not None)
median = found[(len(found) - 1) // 2] if len(found) >= 3 else None
# this probe's own end of each level is its history's last, and the run takes the history's smallest once one
# probe in eight is passed over (the 1 + n/8-th smallest), or the last run's size where larger while no more
# than one probe in four is smaller; the reported size being no level measured short; and keeps it as taken
probes = lv["history"]["probes"]
i = len(lv["reported"]) - 1
own = probes[-1]["sizes"][i]
if last in lv["measured"] and median and median < 0.75 * lv["reported"][last]:
    assert own == median, (own, ends)
sizes = [p["sizes"][i] for p in probes]
taken = sorted(sizes)[len(probes) // 8]
held = probes[-2]["taken"][i] if len(probes) > 1 and "taken" in probes[-2] else 0
if held > taken and sum(s < held for s in sizes) <= len(probes) // 4:
    taken = held
assert lv["measured"].get(last) == (None if taken == lv["reported"][last] else taken), (lv["measured"], probes)
assert probes[-1]["taken"][i] == taken, probes
if len(set(ends)) > 1 and last in lv["measured"]:
    assert len(said) == 1, (ends, said)
if said:
    assert last in lv["measured"], (lv["measured"], said)
    count = collections.Counter(ends)
    keys = sorted(count, key=lambda e: -1 if e is None else e)
    kib = ["%s (%d)" % ("none" if e is None else "%d KiB" % (e >> 10), count[e]) for e in keys]
    kib = kib[0] if len(kib) == 1 else ", ".join(kib[:-1]) + " and " + kib[-1]
    assert "ended %s at %s" % (last, kib) in said[0], (kib, said)
    assert "%d KiB" % (own >> 10) in said[0], (own, said)
    assert said[0] in open(sys.argv[2]).read(), "report.md does not carry it"
PY
check "report.md states no memory speed without DRAM points" bash -c '! grep -q "Memory speed" "$1"' _ "$D/report.md"
if grep -q '"memory_probe"' "$M/machine.json"; then
	mem=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["disturbance"]["memory_probe"]; print("a 128 MiB %s read timed before each of the plan\x27s %d DRAM points ran at %.1f GB/s" % (s["kernel"], s["points"], s["gbps_best"]))' "$M/machine.json")
	check "report.md states the memory's speed under 'Run quality'" grep -qF "**Memory speed**: $mem" "$M/report.md"
	if [ "$mthreads" = 1 ]; then
		skip "the 2-thread memory probe in report.md" "one CPU"
	else
		mem=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["disturbance"]["memory_probe_threads"]; print("**Memory speed, 2 threads**: the same 128 MiB read split over 2 threads, timed before each of the plan\x27s %d DRAM points of as many threads, ran at %.1f GB/s" % (s["points"], s["gbps_best"]))' "$M/machine.json")
		check "report.md states the 2-thread memory speed under 'Run quality'" grep -qF "$mem" "$M/report.md"
	fi
else
	notok "the memory probe in report.md" "no memory_probe in machine.json of a run with $big points"
fi
# The check of the last cache level: a chase before each point of that level (fresh-memory touch points
# aside), none where no point has it (the run of large points above). The run of 4 MiB points with hwloc's
# levels has them where hwloc reports a larger last level, judged at LEVEL_DRAM_NS without a probe.
for dir in "$D" "$M"; do
	check "machine.json of $(basename "$dir") records the last-level check once per point of that level, or not at all" \
		python3 - "$dir/machine.json" "$dir/raw.csv" <<'PY'
import csv, json, sys
m = json.load(open(sys.argv[1]))
last = "L%d" % min(3, max(c["level"] for c in m["topology"]["caches"]))
points = {r["point"] for r in csv.DictReader(open(sys.argv[2])) if r["level"] == last and r["kernel"] != "touch"}
c = m["disturbance"].get("level_check")
assert (c or {}).get("points", 0) == len(points), (c, len(points))
assert not c or (c["level"] == last and 0 <= c["points_past"] + c["points_burst"] <= c["points"] and c["worst_ns"] > 0
                 and 0 < c["past_ns"] <= 60), c
# hwloc's levels, no probe: judged as DRAM-like, at LEVEL_DRAM_NS
assert not c or "--reported-levels" not in m["command"] or (c["past_by"], c["past_ns"]) == ("DRAM-like", 60), c
PY
done
if grep -q '"level_check"' "$D/machine.json"; then
	check "report.md states it under 'Run quality'" grep -qE "\*\*L[23] share\*\*: a chase over each L[23] point's working set" "$D/report.md"
else
	skip "the last-level check in report.md" "hwloc reports a last cache level smaller than 4 MiB: no point of it"
fi
# A copy of the run $1 in $2, analysed and reported again after Python $3 has rewritten m (its
# machine.json) and rows (its raw.csv rows, dicts).
rewritten() {
	rm -rf "$2" && cp -r "$1" "$2"
	python3 - "$2" "$3" <<'PY'
import csv, json, sys
d, code = sys.argv[1:3]
m = json.load(open(d + "/machine.json"))
with open(d + "/raw.csv", newline="") as f:
    rd = csv.DictReader(f)
    fields, rows = rd.fieldnames, list(rd)
exec(code)
json.dump(m, open(d + "/machine.json", "w"))
with open(d + "/raw.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
	"$PMUCHECK" analyze -q "$2" >/dev/null 2>&1 && "$PMUCHECK" report "$2" >/dev/null 2>&1
}
# What the run quality concludes: only the memory probe differs between the two copies (no steal, no noisy
# point, a steady machine speed, threads on cores of their own); a memory a tenth of the time 50 % below
# its best makes the run disturbed.
quiet="
dist = m['disturbance']
dist['steal_percent'] = 0.0
dist['cpu_pressure_percent'] = 0.0
dist.pop('cpu_limit', None)
for k in ('speed_probe', 'speed_probe_threads', 'memory_probe', 'memory_probe_threads'):
    if k in dist:
        dist[k]['gbps_p10'] = dist[k]['gbps_median'] = dist[k]['gbps_best']
if 'speed_probe_threads' in dist:
    t = dist['speed_probe_threads']
    t.update(points_shared=0, shared_below=0.75)
    for k in ('gbps_best', 'gbps_median', 'gbps_p10'):
        t[k] = t['threads'] * dist['speed_probe']['gbps_best']
dist['speed_probe'].update(points_waited=0, points_recovered=0, waited_seconds=0.0)
# a steady speed before every point too: at the best, which no point reads slow against, and no earlier
# run of this file's faster (speed_history.h)
sp = dist['speed_probe']
sp['point_gbps'] = [v and sp['gbps_best'] for v in sp.get('point_gbps', [])]
sp['judged_against_gbps'] = sp['gbps_best']
dist.pop('speed_history', None)
if 'level_check' in dist:
    dist['level_check'].update(points_past=0, points_burst=0)
for r in rows:
    r['flag'] = ''"
for slow in 1.0 0.5; do
	rewritten "$M" "$TMP/quality$slow" "$quiet
dist['memory_probe'] = {'kernel': 'load.gpr', 'bytes': 128 << 20, 'points': 1, 'gbps_best': 30.0,
                        'gbps_median': 30.0 * $slow, 'gbps_p10': 30.0 * $slow}"
done
check "a steady memory leaves a quiet run quiet" grep -q "the machine was not judged disturbed" "$TMP/quality1.0/report.md"
check "a run that never waited for the machine says nothing of waiting" \
	bash -c '! grep -q "waited for the machine" "$1"' _ "$TMP/quality1.0/report.md"
# disturbance.points (run_job.c tally_points): the run counts its points and their repetitions, revisits
# included, and the disturbed ones (record_disturbed); the report states their share, and none from an
# edited file whose part exceeds its whole or from a run before it recorded them.
check "machine.json counts the run's points and repetitions as raw.csv holds them" \
	python3 - "$M/machine.json" "$M/raw.csv" <<'PY'
import csv, json, sys
p = json.load(open(sys.argv[1]))["disturbance"]["points"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert p["measured"] == len({r["point"] for r in rows}), p
assert p["repetitions"] == len({(r["point"], r["rep"]) for r in rows}), p
assert 0 <= p["repetitions_disturbed"] <= p["repetitions"] and 0 <= p["noisy"] <= p["measured"], p
assert p["disturbed_past"] == 0.1, p  # harness/run/run_record.h RECORD_DISTURBED
PY
check "... the repetitions judged, which a run with fresh memory's points (touch) has fewer of than raw.csv" \
	python3 - "$D/machine.json" "$D/raw.csv" <<'PY'
import csv, json, sys
p = json.load(open(sys.argv[1]))["disturbance"]["points"]
rows = list(csv.DictReader(open(sys.argv[2])))
touch = {(r["point"], r["rep"]) for r in rows if r["kernel"] == "touch"}
assert touch, "the run has no touch points"
assert p["measured"] == len({r["point"] for r in rows}), p
assert p["repetitions"] == len({(r["point"], r["rep"]) for r in rows} - touch), (p, len(touch))
PY
check "report.md states the run's disturbed repetitions" \
	grep -qE "^- \*\*Disturbed repetitions\*\*: [0-9]+ of [0-9]+ \([0-9.]+ %\), of the [0-9]+ points" "$M/report.md"
rewritten "$M" "$TMP/reps" "$quiet
dist['points'] = {'measured': 10, 'noisy': 1, 'repetitions': 40, 'repetitions_disturbed': 6, 'disturbed_past': 0.2}"
check "report.md states the share of disturbed repetitions machine.json gives" grep -qF \
	"**Disturbed repetitions**: 6 of 40 (15.0 %), of the 10 points the run measured" "$TMP/reps/report.md"
check "... and how far past the shortest call a disturbed one was" \
	grep -qF "took a call more than 20 % longer than the shortest of its length" "$TMP/reps/report.md"
rewritten "$M" "$TMP/reps_fresh" "$quiet
dist['points'] = {'measured': 3, 'noisy': 0, 'repetitions': 0, 'repetitions_disturbed': 0, 'disturbed_past': 0.1}"
check "... and none judged where every point was fresh memory's (touch)" grep -qF \
	"**Disturbed repetitions**: none judged: the 3 points the run measured were fresh memory's" \
	"$TMP/reps_fresh/report.md"
rewritten "$M" "$TMP/reps_over" "$quiet
dist['points'] = {'measured': 10, 'noisy': 1, 'repetitions': 40, 'repetitions_disturbed': 41, 'disturbed_past': 0.1}"
check "... none where they exceed the repetitions (an edited file)" \
	bash -c '! grep -q "Disturbed repetitions" "$1"' _ "$TMP/reps_over/report.md"
rewritten "$M" "$TMP/reps_old" "$quiet
dist.pop('points', None)"
check "... nor for a run before they were recorded" \
	bash -c '! grep -q "Disturbed repetitions" "$1"' _ "$TMP/reps_old/report.md"
rewritten "$M" "$TMP/waited" "$quiet
dist['speed_probe'].update(points_waited=3, points_recovered=2, waited_seconds=0.12, slow_below=0.8)"
check "report.md states the points before which the run waited for a slow machine" grep -qF \
	"Before 3 points, where it read below 80 % of its best so far or this machine's, or their threads shared a core, the run waited for the machine (0.1 s in all" \
	"$TMP/waited/report.md"
check "... and after how many it read at speed again" grep -qF "after 2 of them it read at speed again" \
	"$TMP/waited/report.md"
rewritten "$M" "$TMP/waited1" "$quiet
dist['speed_probe'].update(points_waited=1, points_recovered=1, waited_seconds=0.05, slow_below=0.8)
m['cpu'].pop('microcode', None)"
check "... one point: 'Before 1 point,' with its threads, and after it" grep -qF \
	"Before 1 point, where it read below 80 % of its best so far or this machine's, or its threads shared a core, the run waited for the machine (0.1 s, capped by the time budget); after it, it read at speed again." \
	"$TMP/waited1/report.md"
check "report.md: a machine.json without microcode says it is unknown" grep -qF "microcode unknown." \
	"$TMP/waited1/report.md"
# The most lines a run's level probe and its history write (harness/run/levels.h: 2 * 4 levels + 3): report.md
# carries each, the last one too.
rewritten "$M" "$TMP/said" "$quiet
m['levels']['disagreements'] = ['level line %d of 11' % (i + 1) for i in range(11)]"
check "report.md lists every one of the 11 lines a level probe and its history may write" \
	bash -c '[ "$(grep -c "Cache level limits in doubt\*\*: level line" "$1")" = 11 ]' _ "$TMP/said/report.md"
# A speed probe without figures (points, but no gbps_*) is no measurement: report.md says nothing of it, never
# "0.0 GB/s at best ... -nan % below the best".
rewritten "$M" "$TMP/nofigures" "$quiet
dist['speed_probe'] = {'kernel': 'load.avx2', 'points': 5}"
check "a speed probe without figures is left out of report.md" \
	bash -c '! grep -q -e "Machine speed\*\*: a" -e "-nan" -e "nan %" "$1"' _ "$TMP/nofigures/report.md"
check "a memory 50 % slower a tenth of the time makes it disturbed" \
	grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/quality0.5/report.md"
# A run whose speed probe's best is below 0.8 of this machine's earlier runs' ran slow throughout: disturbed.
rewritten "$M" "$TMP/slowrun" "$quiet
b = 2 * sp['gbps_best']
dist['speed_history'] = {'file': 'speed.json', 'machine': 'm', 'runs': [{'time': 1, 'gbps': b}],
                         'machine_best_gbps': b}
sp['judged_against_gbps'] = b"
check "a run slower throughout than this machine's earlier runs is disturbed" \
	grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/slowrun/report.md"
check "... and report.md says it ran slow for the whole run, at 50 % of the machine's best" grep -q \
	"^- \*\*Machine speed over runs\*\*: .* this run's best is 50 % of it: the machine ran slow for the whole" \
	"$TMP/slowrun/report.md"
# A last cache level that did not hold one of its points makes a quiet run disturbed.
rewritten "$M" "$TMP/past" "$quiet
dist['level_check'] = {'kernel': 'chase.plain', 'level': 'L3', 'points': 4, 'points_past': 1, 'points_burst': 2, 'past_ns': 48.5,
                       'past_by': 'level probe', 'worst_ns': 124.2, 'worst_bytes': 6 << 20}"
check "a point whose L3 did not hold it makes a quiet run disturbed" \
	grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/past/report.md"
# Runnable tasks that waited for a CPU a fifth of the time, or a CPU quota that stopped the run, make a
# quiet run disturbed; a quota that never stopped it leaves it quiet, and is stated either way.
rewritten "$M" "$TMP/pressure" "$quiet
dist['cpu_pressure_percent'] = 20.0"
check "CPU pressure of 20 % makes a quiet run disturbed" \
	grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/pressure/report.md"
check "the report states the CPU pressure" \
	grep -q "^- \*\*CPU pressure\*\*: in 20.0 % of the time the run measured, at least one runnable task waited" \
	"$TMP/pressure/report.md"
for stopped in 0 3; do
	rewritten "$M" "$TMP/limit$stopped" "$quiet
dist['cpu_limit'] = {'cgroup': '/job', 'version': 2, 'cpus': 1.5, 'period_us': 100000, 'periods': 40,
                     'throttled_periods': $stopped, 'throttled_seconds': 0.1 * $stopped, 'source': 'cpu.max'}"
	check "the report states a CPU quota that stopped the run $stopped times" \
		grep -q "^- \*\*CPU limit\*\*: the run's cgroup (/job) may use 1.5 CPUs' worth of time per 100 ms; the kernel stopped its threads in $stopped of 40 periods" \
		"$TMP/limit$stopped/report.md"
done
check "a CPU quota that never stopped the run leaves it quiet" \
	grep -q "the machine was not judged disturbed" "$TMP/limit0/report.md"
check "a CPU quota that stopped the run makes it disturbed" \
	grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/limit3/report.md"
# A looser parent's quota shared with other jobs (limits[]) that stopped the run while the run's own, the
# tightest, never did: said, with the parent's figures, and the run is disturbed.
rewritten "$M" "$TMP/parentlimit" "$quiet
dist['cpu_limit'] = {'cgroup': '/user/job', 'version': 2, 'cpus': 1.5, 'period_us': 100000, 'periods': 40,
                     'throttled_periods': 0, 'throttled_seconds': 0.0, 'source': 'cpu.max',
                     'limits': [{'cgroup': '/user/job', 'cpus': 1.5, 'period_us': 100000, 'periods': 40,
                                 'throttled_periods': 0, 'throttled_seconds': 0.0},
                                {'cgroup': '/user', 'cpus': 2.0, 'period_us': 100000, 'periods': 44,
                                 'throttled_periods': 5, 'throttled_seconds': 0.4}]}"
check "a looser parent's quota that stopped the run is stated with its figures" \
	grep -q "^- \*\*CPU limit\*\*: the run's cgroup (/user/job) .* in 0 of 40 periods, 0.0 s in all; the quota of /user (2 CPUs' worth, spent by whatever runs under it) stopped them in 5 of its 44 periods, 0.4 s" \
	"$TMP/parentlimit/report.md"
check "... and makes a quiet run disturbed" \
	grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/parentlimit/report.md"
check "... and report.md says before how many" \
	grep -qF "read 48.5 ns or slower (where the level probe ended L3) before and after 1 of 4: the share of L3" "$TMP/past/report.md"
check "... and the slowest, and the points it did not flag" \
	grep -qF "(the slowest 124.2 ns, at 6144 KiB). Before 2 more it read past the level but not after them" "$TMP/past/report.md"
# The speed probe read by every thread of the widest points at once: machine.json has one sample per such
# point, and with CPUs that are cores of their own, how many of them found the threads sharing a core. A
# quiet copy in which one did is disturbed, and says so.
if grep -q '"speed_probe_threads"' "$M/machine.json"; then
	check "machine.json records the speed probe by all threads once per point of the most threads" \
		python3 - "$M/machine.json" "$M/raw.csv" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))["disturbance"]["speed_probe_threads"]
threads = {r["point"]: int(r["threads"]) for r in csv.DictReader(open(sys.argv[2]))}
most = max(threads.values())
assert s["threads"] == most and s["bytes"] == 16384 * most, s
assert s["points"] == sum(t == most for t in threads.values()), (s, threads)
assert 0 < s["gbps_p10"] <= s["gbps_median"] <= s["gbps_best"], s
assert "points_shared" not in s or (s["shared_below"] == 0.75 and 0 <= s["points_shared"] <= s["points"]), s
PY
	check "report.md states it under 'Run quality'" grep -qF "**Machine speed, $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["disturbance"]["speed_probe_threads"]["threads"])' "$M/machine.json") threads**" "$M/report.md"
	if grep -q '"points_shared"' "$M/machine.json"; then
		check "... and whether the threads had cores of their own" grep -qE "none shared a core with another|they shared a core" "$M/report.md"
	else
		skip "whether the threads had cores of their own" "hwloc says the run's CPUs share a core: nothing judged"
	fi
	rewritten "$M" "$TMP/shared" "$quiet
dist['speed_probe_threads']['points_shared'] = 1"
	check "threads that shared a core before a point make a quiet run disturbed" \
		grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/shared/report.md"
	check "... and report.md says so" grep -q "Before 1 of them the threads read together below 75 % of" "$TMP/shared/report.md"
	check "... where the quiet copy says none shared one" grep -q "none shared a core with another; their median is 100 % of" "$TMP/quality1.0/report.md"
	check "... and does not call its threads slowed" \
		bash -c '! grep -q "slowed the points of as many threads" "$1"' _ "$TMP/quality1.0/report.md"
	# Threads on cores of their own that read together at 84 % of their number times one thread (a
	# neighbour on a core's other hyperthread for much of a Zen 5 guest's run): every such point was slowed
	# by about as much, and two runs' figures of them read 8-40 % apart.
	rewritten "$M" "$TMP/slowed" "$quiet
t = dist['speed_probe_threads']
t['gbps_median'] = t['gbps_p10'] = 0.84 * t['gbps_best']"
	check "threads reading together at 84 % of their own cores' speed make a quiet run disturbed" \
		grep -q "on a machine this disturbed, take bandwidths as lower bounds" "$TMP/slowed/report.md"
	check "... and report.md says by how much" \
		grep -q "their median is 84 % of [0-9]* times one thread's median, where threads on cores of their own read 100 %: something on the host" "$TMP/slowed/report.md"
else
	skip "the speed probe by all threads" "one CPU"
fi
# The core clock over the points, recomputed from raw.csv (tests/tools/points_clock.py).
read -r median p10 p90 npoints < <(python3 "$TOP/tests/tools/points_clock.py" "$D/raw.csv")
clock="ran at $median GHz (median of $npoints points), $p10-$p90 GHz"
check "report.md states how far the core clock moved over the points, as raw.csv has it" \
	grep -qF "**Core clock**: the points' repetitions $clock" "$D/report.md"
# How each repetition's clock was taken (machine.json clock): APERF/MPERF where the perf msr PMU counts them,
# else add chains with the reason; nothing from a run before the per-repetition clock said.
check "report.md says how the run clocked each repetition, as machine.json does" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["clock"]
r = open(sys.argv[2]).read()
said = ("comes from chains of N and 2N dependent adds, timed with the TSC (APERF/MPERF %s)" % c["aperf_mperf"]
        if "aperf_mperf" in c else "clock is APERF/MPERF\x27s, counted by the perf msr PMU")
assert said in r, said
' "$D/machine.json" "$D/report.md"
rewritten "$D" "$TMP/aperf" "m['clock'].pop('aperf_mperf', None)"
check "... APERF/MPERF's where the run used them" \
	grep -qF "Each repetition's clock is APERF/MPERF's, counted by the perf msr PMU" "$TMP/aperf/report.md"
check "... and not that APERF/MPERF clocked every repetition where none took add chains" \
	bash -c '! grep -q "came from add chains" "$1"' _ "$TMP/aperf/report.md"
rewritten "$D" "$TMP/aperf-chains" "m['clock'].pop('aperf_mperf', None)
m['disturbance']['points']['repetitions_by_chains'] = 7"
check "... but for the repetitions some thread of which took add chains (its group did not start)" grep -qF \
	"but for 7 repetitions some thread's came from add chains" "$TMP/aperf-chains/report.md"
check "machine.json counts repetitions clocked by add chains where APERF/MPERF was to: none here" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["disturbance"]["points"]["repetitions_by_chains"] == 0
' "$D/machine.json"
# The TSC calibrated again as the measurements ended (a guest moved to a host of another TSC rate): said
# past 0.5 % from the first rate, and not otherwise.
check "machine.json records the TSC's rate as the measurements ended" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["clock"]["tsc_hz_end"] > 0' "$D/machine.json"
rewritten "$D" "$TMP/tsc-moved" "m['clock']['tsc_hz_end'] = m['clock']['tsc_hz'] * 1.02"
check "report.md says the TSC's rate changed by 2 % during the run" grep -qF "(+2.00 %): every time was converted" \
	"$TMP/tsc-moved/report.md"
rewritten "$D" "$TMP/tsc-steady" "m['clock']['tsc_hz_end'] = m['clock']['tsc_hz'] * 1.004"
check "... and nothing of 0.4 %, within a calibration's spread" bash -c '! grep -q "TSC\*\*" "$1"' _ \
	"$TMP/tsc-steady/report.md"
rewritten "$D" "$TMP/oldclock" "m['clock'].pop('repetition_clock_method', None)"
check "... and nothing where the run did not say" \
	bash -c '! grep -q "Each repetition.s clock" "$1"' _ "$TMP/oldclock/report.md"
rewritten "$D" "$TMP/oldrunnable" "m['disturbance'].update(runnable_before=4, runnable_after=6)
for k in ('others_runnable_before', 'others_runnable_after'): m['disturbance'].pop(k)"
check "a run from before the others were recorded: report.md states procs_running, and says what it counts" \
	grep -qF "runnable tasks 4 before and 6 after (pmucheck's sampling thread included" \
	"$TMP/oldrunnable/report.md"
# Points whose every clock sample was rejected (core_ghz empty: a busy machine) take the run's clock,
# machine.json clock.core_ghz: a copy with half the points' clocks blanked and the run's set to three
# quarters of the slowest clock a point read: below every one, and not so low that a point's loads per cycle
# become impossible (at 0.50 GHz load.gpr's L1 points read 12 a cycle, and were left out as too fast).
# (Once in CI, with the test files side by side, one of this run's 8 points had no clock: the report counted
# 8 points, a check that left it out 7.)
C=$TMP/noclock
rewritten "$D" "$C" "
m['clock']['core_ghz'] = round(0.75 * min(float(r['core_ghz']) for r in rows if r['core_ghz']), 2)
open(d + '/run_ghz', 'w').write('%.2f' % m['clock']['core_ghz'])
blank = sorted({r['point'] for r in rows})[::2]
for r in rows:
    if r['point'] in blank:
        r['core_ghz'] = ''"
read -r median p10 p90 nclock < <(python3 "$TOP/tests/tools/points_clock.py" "$C/raw.csv")
check "points without a clock take the run's: every point counted, the slowest at the run's $(cat "$C/run_ghz") GHz" \
	test "$nclock" = "$npoints" -a "$p10" = "$(cat "$C/run_ghz")"
check "... as report.md states it" grep -qF \
	"**Core clock**: the points' repetitions ran at $median GHz (median of $nclock points), $p10-$p90 GHz" "$C/report.md"
# raw.csv's flags, and the points the run judged slow once it ended (machine.json speed_probe)
noisy=$(python3 -c '
import csv, json, sys
r = list(csv.DictReader(open(sys.argv[1])))
s = json.load(open(sys.argv[2]))["disturbance"].get("speed_probe", {})
g = s.get("point_gbps", [])
slow = {str(i) for i, x in enumerate(g) if x is not None and x < 0.8 * s["judged_against_gbps"]}
print(len({x["point"] for x in r if x["flag"] == "noisy" or x["point"] in slow}), len({x["point"] for x in r}))' \
	"$D/raw.csv" "$D/machine.json")
check "... and how many points stayed noisy, as raw.csv flags them and the run judged them once it ended" \
	grep -qF "**Disturbed points**: ${noisy% *} of ${noisy#* }" "$D/report.md"
check "raw.csv: a point is flagged noisy exactly when its noisy_why names a reason" python3 - "$D/raw.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    assert (r["flag"] == "noisy") == (r["noisy_why"] != ""), (r["point"], r["flag"], r["noisy_why"])
PY
for w in reps budget; do
	n=$(python3 -c 'import csv,sys; print(len({x["point"] for x in csv.DictReader(open(sys.argv[1])) if sys.argv[2] in x["noisy_why"].split(";")}))' "$D/raw.csv" "unconfirmed-at-$w")
	case $w in reps) phrase="$n not confirmed within --reps repetitions" ;;
	budget) phrase="$n not confirmed within their share of the time budget" ;; esac
	if [ "$n" -gt 0 ]; then
		check "... and report.md counts its reasons: $phrase" grep -qF "$phrase" "$D/report.md"
	else
		check "... and report.md counts its reasons: none unconfirmed-at-$w, so none said" \
			bash -c '! grep -qF -- "$0" "$1"' "${phrase#0 }" "$D/report.md"
	fi
done
# No run here controls the prefetchers (lib.sh's PMUCHECK_MSR_DIR holds no MSR file).
why=$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["prefetch"]
print("" if p["control"] else p["reason"])' "$D/machine.json" 2>/dev/null)
check "report.md says prefetcher control is absent, with machine.json's reason" \
	bash -c 'test -n "$0" && grep -qF "Prefetcher control absent**: $0" "$1"' "$why" "$D/report.md"
# The states skipped for want of control, on every machine: a run asked for on and off with no MSR file to
# open (lib.sh's PMUCHECK_MSR_DIR). The run above asks for 'on' alone (ONE_STATE) and skips none.
P=$TMP/nopf
if "$PMUCHECK" run --kernels load.gpr --sizes 16k --threads 1 --reps 3 --reported-levels \
	--prefetch on,off --no-progress --out "$P" >"$TMP/nopf.out" 2>&1 && "$PMUCHECK" analyze -q "$P" >>"$TMP/nopf.out" 2>&1 &&
	"$PMUCHECK" report "$P" >>"$TMP/nopf.out" 2>&1; then
	# the reason is this machine's (no MSR file here; no MSR table for a Zen 1 or Zen 2): machine.json's
	why=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["prefetch"]["reason"])' \
		"$P/machine.json" 2>/dev/null)
	check "report.md of a run without prefetcher control says why, and which states were skipped" \
		bash -c 'test -n "$0" &&
			grep -qF "Prefetcher control absent**: $0. Skipped prefetcher states: off." "$1"' \
		"$why" "$P/report.md"
else
	notok "a run asked for prefetchers on and off, without MSR files, is run, analysed and reported" \
		"$(tail -3 "$TMP/nopf.out")"
fi
check "report.md says the level probe did not run (--reported-levels)" \
	grep -q 'Cache level limits not measured' "$D/report.md"
check "report.md includes the validated event table" grep -q '^## Validated events' "$D/report.md"
check "page-faults is exact in the included table" grep -q '^| page-faults | exact |' "$D/report.md"
check "report.html shows the same headings" grep -q '<h2>What was not measured</h2>' "$D/report.html"
check "report.html is one file: no src outside itself" test -z "$(grep -o 'src="[^d][^"]*"' "$D/report.html")"

# A figure's script redraws it without pmucheck.
rm -f "$D/plots/ev_page-faults.png"
check "plots/NAME.gp redraws the figure on its own" \
	sh -c "cd '$D/plots' && gnuplot ev_page-faults.gp && test -s ev_page-faults.png"

# A run of one size: its figures have all points at one x, which gnuplot would widen itself with a warning on
# the report's stderr.
if "$PMUCHECK" run --kernels load.gpr --sizes 16k --threads 1 --reps 3 --reported-levels --no-progress \
	"${ONE_STATE[@]}" --out "$TMP/one" >/dev/null 2>&1 && "$PMUCHECK" analyze -q "$TMP/one" >/dev/null 2>&1; then
	"$PMUCHECK" report "$TMP/one" >/dev/null 2>"$TMP/one.err"
	check "a one-size run's figures are drawn without a gnuplot warning" \
		sh -c "ls '$TMP/one/plots/'*.png >/dev/null && ! grep -i warning '$TMP/one.err'"
else
	notok "a one-size run for its figures" "run or analyze failed"
fi

# A second report replaces the first, figures an earlier report drew included.
touch "$D/plots/ev_gone.png"
# A level the plan had no point in at some thread count (56 threads of a Sapphire Rapids: harness plan.c): the
# run's machine.json lists it, and report.md and peaks.md say so where the peaks lack that figure. This machine's
# run has none, and says none.
check "machine.json of a run with a point in every level has no levels.without_point" \
	python3 -c 'import json, sys; assert "without_point" not in json.load(open(sys.argv[1]))["levels"]' \
	"$D/machine.json"
cp -r "$D" "$TMP/nopoint"
python3 - "$TMP/nopoint/machine.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["levels"]["without_point"] = ["L3 with 56 threads (each thread's part of it, 3968 KiB with the L2's, which it "
                                "does not include, is not clear of the L2's 2048 KiB below)"]
json.dump(m, open(sys.argv[1], "w"))
PY
"$PMUCHECK" analyze --quiet "$TMP/nopoint" >/dev/null 2>&1
"$PMUCHECK" report --quiet "$TMP/nopoint" >/dev/null 2>&1
check "report.md names a level the plan had no point in" grep -qF -- \
	"- **No point in a cache level**: L3 with 56 threads (each thread's part of it, 3968 KiB" "$TMP/nopoint/report.md"
check "... and so does peaks.md, below its table" grep -qF -- \
	"No point in a cache level, so no figure of it: L3 with 56 threads (each thread's part of it" "$TMP/nopoint/peaks.md"
check "... which a run with a point in every level does not say" sh -c "! grep -q 'No point in a cache level' '$D/peaks.md'"
expect_status "report runs again over its own output" 0 "$PMUCHECK" report --quiet "$D"
check "... and removes figures the data no longer supports" test ! -e "$D/plots/ev_gone.png"

# Without gnuplot the report is still written, without figures, and says why.
expect_status "report without gnuplot on PATH still succeeds" 0 env PATH=/nonexistent "$PMUCHECK" report --quiet "$D"
check "... says gnuplot is missing" grep -q 'No figures\*\*: gnuplot could not be started' "$D/report.md"
check "... and shows no figure" sh -c "! grep -q '!\[' '$D/report.md' && test -z \"\$(ls '$D/plots')\""
