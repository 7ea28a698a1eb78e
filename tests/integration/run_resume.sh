#!/bin/bash
# run_resume.sh — a run killed at a random moment leaves a valid partial results directory (whole points,
# a PARTIAL marker, an analysable raw.csv) and `run --resume` completes it to exactly the points of an
# uninterrupted run. 20 kills, by SIGINT, SIGTERM and SIGKILL in turn.
. "$(dirname "$0")/../lib.sh"
set -m # background jobs in their own process group, so SIGINT is not ignored in them

ARGS=(--kernels load.gpr,store.gpr,chase.plain --sizes 16k,64k,256k,1M --threads 1 --reps 2 --min-time 1
	--reported-levels --no-progress "${ONE_STATE[@]}")
# The set of (point, variant, size, argument, event) a run measured. Repetitions are left out: --reps is a
# maximum, and a point stops early once its time is stable, so two runs may repeat a point differently.
points() { python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["point"], r["variant"], r["bytes"], r["arg"], r["event"])' "$1/raw.csv" | sort -u; }
# Every row has the header's fields and every repetition of every point has the same number of rows (its
# events): no point is cut inside a repetition. raw.csv's first two columns are point and rep. The last
# point may be cut, its last row torn: the kernel may end a write() of several pages early when the
# process is killed, so no writer can keep that point whole; analyze and --resume leave it out. SIGINT
# and SIGTERM kill it as SIGKILL does: pmucheck's only handler, the prefetcher guard (pf_signal.h),
# re-raises them with their default action (kill 4, a SIGTERM, tore one in a CI run on the Zen 3 guest).
# The points before it must be whole all the same.
whole_points() { python3 -c '
import csv, collections, sys
text = open(sys.argv[1]).read()
if not text.endswith("\n"):
    text = text[:text.rindex("\n") + 1]
    last = text.splitlines()[-1].split(",")[0]
    if last != "point":
        text = "".join(l for l in text.splitlines(True) if l.split(",")[0] != last)
rows = list(csv.reader(text.splitlines()))
assert rows[0][:2] == ["point", "rep"], rows[0][:2]
assert all(len(r) == len(rows[0]) for r in rows), "torn row"
n = collections.Counter((r[0], r[1]) for r in rows[1:])
assert len(set(n.values())) <= 1, n' "$1/raw.csv"; }

start=$(date +%s%N)
if ! "$PMUCHECK" run "${ARGS[@]}" --out "$TMP/full" >/dev/null 2>&1; then
	notok "uninterrupted reference run" "failed"
	exit 0
fi
full_ms=$((($(date +%s%N) - start) / 1000000))
points "$TMP/full" >"$TMP/full.points"
# raw.csv's lines before the uninterrupted run's last point: a run whose raw.csv has reached one of them
# still has a point to measure.
before_last=$(python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print(sum(1 for r in rows if r[0] != rows[-1][0]))' "$TMP/full/raw.csv")
lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }
signals=(INT TERM KILL)
bad=0 partial=0 why=""
for i in $(seq 1 20); do
	d="$TMP/cut$i" sig=${signals[$((i % 3))]}
	"$PMUCHECK" run "${ARGS[@]}" --out "$d" >/dev/null 2>&1 &
	pid=$!
	if ((i % 2)); then
		# at 5 to 90 % of what the uninterrupted run took: any moment, before the directory exists too
		ms=$((full_ms * (RANDOM % 86 + 5) / 100))
		sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
	else
		# once raw.csv holds a random number of its lines short of the last point's: mid-run however fast
		# or busy the machine is now against when the uninterrupted run took its time (placed by time
		# alone, a kill lands mid-run only where the run goes as fast as that one went)
		want=$((RANDOM % (before_last - 1) + 2))
		while kill -0 "$pid" 2>/dev/null && [ "$(lines "$d/raw.csv")" -lt "$want" ]; do sleep 0.005; done
	fi
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ -d "$d" ] || continue # killed before the directory existed: nothing to resume
	if [ -f "$d/raw.csv" ] && [ -e "$d/PARTIAL" ]; then
		partial=$((partial + 1))
		whole_points "$d" || { bad=1; why="$why; kill $i ($sig): raw.csv is not whole points"; }
		"$PMUCHECK" analyze --quiet "$d" >"$TMP/an.out" 2>&1 ||
			{ bad=1; why="$why; kill $i ($sig): partial raw.csv not analysable: $(tail -3 "$TMP/an.out" | tr '\n' ' ')"; }
	fi
	if [ ! -e "$d/machine.json" ]; then
		# stopped between creating the directory and recording its arguments: nothing was measured,
		# and --resume must say so rather than guess the arguments
		[ ! -e "$d/raw.csv" ] || { bad=1; why="$why; kill $i ($sig): raw.csv without machine.json"; }
		if [ -e "$d/PARTIAL" ]; then
			"$PMUCHECK" run --resume "$d" >"$TMP/res.out" 2>&1
			[ $? -eq 2 ] && grep -q "measured nothing; start it again" "$TMP/res.out" ||
				{ bad=1; why="$why; kill $i ($sig): resume before machine.json: $(tail -2 "$TMP/res.out" | tr '\n' ' ')"; }
		fi
		continue
	fi
	if [ -e "$d/PARTIAL" ]; then
		"$PMUCHECK" run --resume "$d" >"$TMP/res.out" 2>&1 ||
			{ bad=1; why="$why; kill $i ($sig): resume failed: $(tail -3 "$TMP/res.out" | tr '\n' ' ')"; continue; }
	fi
	[ ! -e "$d/PARTIAL" ] || { bad=1; why="$why; kill $i ($sig): still PARTIAL after resume"; }
	points "$d" | cmp -s - "$TMP/full.points" || { bad=1; why="$why; kill $i ($sig): points differ from the uninterrupted run"; }
done
echo "# the uninterrupted run took $full_ms ms"
if [ "$bad" -eq 0 ]; then ok "20 random kills: whole points, analysable, resumed to the uninterrupted set ($partial left a partial raw.csv)"; else notok "20 random kills" "${why#; }"; fi
[ "$partial" -ge 5 ] && ok "at least 5 of the kills landed mid-run ($partial)" ||
	notok "kills landed mid-run" "only $partial of 20 left a partial raw.csv"

expect_status "resume of a finished run is refused" 2 "$PMUCHECK" run --resume "$TMP/full"
expect_status "resume of a directory that is no run is refused" 2 "$PMUCHECK" run --resume "$TMP"
mkdir "$TMP/early" && touch "$TMP/early/PARTIAL"
expect_status "resume of a run stopped before it wrote machine.json is refused" 2 "$PMUCHECK" run --resume "$TMP/early"
cp "$TMP/check.out" "$TMP/early.out"
check "... saying it measured nothing and must start again" grep -q "measured nothing; start it again" "$TMP/early.out"
expect_status "resume with other options is refused" 2 "$PMUCHECK" run --resume "$TMP/full" --quick

# unfinished DIR: the finished reference run copied to DIR and marked as interrupted (PARTIAL, no end time).
unfinished() {
	cp -r "$TMP/full" "$1" && touch "$1/PARTIAL" && python3 -c '
import json, sys
p = sys.argv[1] + "/machine.json"
m = json.load(open(p))
m["finished_utc"] = None
json.dump(m, open(p, "w"))
' "$1"
}
# The same, its machine.json edited by the Python statements $2 (on m).
unfinished_edited() {
	unfinished "$1" && python3 -c "
import json, sys
p = sys.argv[1] + '/machine.json'
m = json.load(open(p))
$2
json.dump(m, open(p, 'w'))" "$1"
}

# Recorded arguments no run records, or that this machine cannot take, are the file's: refused naming it.
# A dry run would print a plan, resume nothing and leave the run interrupted. (expect_status sets $name.)
for edit in "dry-run|m['argv'].append('--dry-run')|its arguments hold --dry-run, which no run records" \
	"kernel this CPU lacks|m['argv'][m['argv'].index('--kernels') + 1] = 'load.avx'|the arguments in $TMP/recorded-kernel this CPU lacks/machine.json: --kernels: this CPU lacks"; do
	IFS='|' read -r what change msg <<<"$edit"
	unfinished_edited "$TMP/recorded-$what" "$change"
	expect_status "resume of a run whose recorded arguments hold a $what is refused" 2 \
		env PMUCHECK_ISA_DISABLE=avx "$PMUCHECK" run --resume "$TMP/recorded-$what"
	grep -qF -- "$msg" "$TMP/check.out" && [ -e "$TMP/recorded-$what/PARTIAL" ] &&
		ok "... naming machine.json, the run left interrupted" ||
		notok "... naming machine.json, the run left interrupted" "$(cat "$TMP/check.out")"
done

# A resumed run goes on by point number, so it must plan the points it was interrupted in: where the same
# arguments plan another number here (fewer CPUs to use, no MSR access, a width this CPU lacks; here the
# recorded number edited), it is refused, naming both numbers, and nothing is measured or cut.
unfinished_edited "$TMP/replanned" 'assert isinstance(m.get("points"), int), "machine.json records no points"
m["points"] += 8' || notok "machine.json records the points planned"
cp "$TMP/replanned/raw.csv" "$TMP/replanned.raw"
cp "$TMP/replanned/machine.json" "$TMP/replanned.json"
expect_status "resume where the arguments plan another number of points is refused" 2 \
	"$PMUCHECK" run --resume "$TMP/replanned"
n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1] + "/machine.json"))["points"])' "$TMP/full")
grep -q "planned $((n + 8)) points, and its arguments plan $n here" "$TMP/check.out" && cmp -s "$TMP/replanned/raw.csv" "$TMP/replanned.raw" && [ -e "$TMP/replanned/PARTIAL" ] &&
	cmp -s "$TMP/replanned/machine.json" "$TMP/replanned.json" &&
	ok "... naming both numbers, raw.csv and machine.json untouched" ||
	notok "... naming both numbers, raw.csv and machine.json untouched" "$(cat "$TMP/check.out")"

# A resumed run measures its points left on the CPUs its first ones ran on: machine.json records its plan's
# CPUs (the ones raw.csv's rows name), and --resume refuses another list here. The default CPUs come from the
# affinity the run was started with (taskset, a batch system's binding), and the point count (above) agreed
# where --threads 1 left it alike or the other affinity had as many CPUs: the points left were measured on
# other CPUs into one machine.json. Here resumed under taskset on a CPU that is not the run's first: the
# reference run as it was, and edited to record one CPU (the count this resume plans); nothing measured or
# cut. A machine.json from before the member resumes unchecked, as one without "points" does.
check "machine.json records the CPUs its plan ran on, each row's the first of them" python3 -c '
import csv, json, sys
cpus = json.load(open(sys.argv[1] + "/machine.json"))["plan_cpus"]
rows = list(csv.DictReader(open(sys.argv[1] + "/raw.csv")))
bad = [r["cpus"] for r in rows if r["cpus"].split(";") != [str(c) for c in cpus[: int(r["threads"])]]]
sys.exit("plan_cpus %s, rows on %s" % (cpus, sorted(set(bad))) if bad or not rows else 0)' "$TMP/full"
first=$(python3 -c 'import csv, sys; print(next(csv.DictReader(open(sys.argv[1] + "/raw.csv")))["cpus"].split(";")[0])' "$TMP/full")
other=$(python3 -c 'import os, sys; print(min(os.sched_getaffinity(0) - {int(sys.argv[1])}, default=""))' "$first")
if [ -n "$other" ]; then
	recorded=$(python3 -c 'import json, sys; print(",".join(map(str, json.load(open(sys.argv[1] + "/machine.json")).get("plan_cpus", []))))' "$TMP/full")
	for what in "own|its own CPUs|pass|$recorded" "one|one CPU|m['plan_cpus'] = [$first]|$first"; do
		IFS='|' read -r key label edit was <<<"$what"
		d=$TMP/cpus-$key
		unfinished_edited "$d" "$edit"
		cp "$d/raw.csv" "$TMP/cpus.raw"
		cp "$d/machine.json" "$TMP/cpus.json"
		expect_status "resume on CPU $other of a run that recorded $label ($was) is refused" 2 \
			taskset -c "$other" "$PMUCHECK" run --resume "$d"
		grep -qF -- "--resume: $d measured its points on CPUs $was, and its arguments plan them on CPUs $other here" "$TMP/check.out" &&
			cmp -s "$d/raw.csv" "$TMP/cpus.raw" && cmp -s "$d/machine.json" "$TMP/cpus.json" &&
			[ -e "$d/PARTIAL" ] && ok "... naming both CPU lists, raw.csv and machine.json untouched" ||
			notok "... naming both CPU lists, raw.csv and machine.json untouched" "$(cat "$TMP/check.out")"
	done
	unfinished_edited "$TMP/cpus-unrecorded" 'del m["plan_cpus"]'
	expect_status "resume on CPU $other of a run from before plan_cpus goes on unchecked" 0 \
		taskset -c "$other" "$PMUCHECK" run --resume "$TMP/cpus-unrecorded"
else
	skip "resume under another CPU affinity is refused" "one usable CPU here: no other to resume on"
fi

# A run is resumed on the machine it was measured on: elsewhere (another node that the job was requeued on,
# a directory copied), its points and that machine's would share one machine.json, which describes one. Here
# the recorded host edited, then the CPU; nothing is measured or cut.
for what in "host|m['host'] = 'another-node'|measured on host 'another-node', this is '$(hostname)'" \
	"CPU|m['cpu']['model'] += 1|was measured on CPU '"; do
	IFS='|' read -r label edit phrase <<<"$what"
	unfinished_edited "$TMP/moved-$label" "$edit"
	cp "$TMP/moved-$label/raw.csv" "$TMP/moved.raw"
	expect_status "resume of a run measured on another $label is refused" 2 "$PMUCHECK" run --resume "$TMP/moved-$label"
	grep -qF "$phrase" "$TMP/check.out" && cmp -s "$TMP/moved-$label/raw.csv" "$TMP/moved.raw" &&
		ok "... naming both, raw.csv untouched" || notok "... naming both, raw.csv untouched" "$(cat "$TMP/check.out")"
done

# A run whose level probe measured where L3 ends (a guest's share of it) resumes on those sizes, and its
# machine.json keeps them: the run read its first CPU's caches afresh after resume had taken them, and they
# were lost ("levels.measured": {}), the points left planned on the reported L3.
if python3 -c 'import json, sys; sys.exit("L3" not in json.load(open(sys.argv[1]))["levels"]["reported"])' \
	"$TMP/full/machine.json"; then
	unfinished_edited "$TMP/measured" 'm["argv"].remove("--reported-levels")
m["levels"]["measured"] = {"L3": 8388608}'
	"$PMUCHECK" run --resume "$TMP/measured" >"$TMP/measured.out" 2>&1
	check "resume of a run with a measured L3 keeps it in machine.json" python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/machine.json"))
assert m["finished_utc"] and m["levels"]["measured"] == {"L3": 8388608}, m["levels"].get("measured")' "$TMP/measured"
else
	skip "resume of a run with a measured L3 keeps it in machine.json" "hwloc reports no L3 here"
fi

# A run that switched the prefetchers, resumed where they cannot be (no msr driver, not root): one state
# planned either way has the same points, and the rest would be measured "uncontrolled" under its "off"
# rows. Refused, raw.csv untouched. (The recorded run is edited to have had control; lib.sh's MSR directory
# without MSR files takes it away here on any machine.)
unfinished_edited "$TMP/pfgone" 'm["prefetch"] = {"control": True, "before": "0=0x0", "after": "0=0x0"}'
cp "$TMP/pfgone/raw.csv" "$TMP/pfgone.raw"
expect_status "resume of a run that switched the prefetchers, where they cannot be, is refused" 2 \
	"$PMUCHECK" run --resume "$TMP/pfgone"
grep -q "switched the prefetchers as it measured, and here they cannot be" "$TMP/check.out" &&
	cmp -s "$TMP/pfgone/raw.csv" "$TMP/pfgone.raw" && ok "... saying why, raw.csv untouched" ||
	notok "... saying why, raw.csv untouched" "$(cat "$TMP/check.out")"

# ... and refused before anything is measured: a run with no point in raw.csv yet probes its levels again
# as it resumes (without --reported-levels), and was refused only after that probe (13 s on the Zen 3 guest,
# its lines on stderr). Here the same run without its raw.csv and --reported-levels: refused without a word
# of the probe, nothing written.
unfinished_edited "$TMP/pfprobe" 'm["prefetch"] = {"control": True, "before": "0=0x0", "after": "0=0x0"}
m["argv"].remove("--reported-levels")'
rm "$TMP/pfprobe/raw.csv"
start=$(date +%s%N)
expect_status "resume of a run with no point yet that switched the prefetchers, where they cannot be, is refused" 2 \
	"$PMUCHECK" run --resume "$TMP/pfprobe"
ms=$((($(date +%s%N) - start) / 1000000))
grep -q "switched the prefetchers as it measured, and here they cannot be" "$TMP/check.out" &&
	! grep -q "measuring where each cache level ends" "$TMP/check.out" && [ ! -e "$TMP/pfprobe/raw.csv" ] &&
	ok "... before its level probe ($ms ms), nothing written" ||
	notok "... before its level probe, nothing written" "$ms ms: $(cat "$TMP/check.out")"

# ... and the other way: a run measured with the prefetchers as they ran (no control: lib.sh's MSR directory
# holds no MSR files), resumed where they would be switched (fake MSR files of a CPU the tables know): its
# points left would be measured switched under rows measured unswitched. Refused, raw.csv untouched, no MSR
# written. (The fake CPUID is not this machine's CPU, which the resume's CPU check would refuse: the
# recorded CPU is removed, as in a machine.json from before it was recorded.)
unfinished_edited "$TMP/pfnew" 'del m["cpu"]'
cp "$TMP/pfnew/raw.csv" "$TMP/pfnew.raw"
(
	. "$TOP/tests/pf_fake.sh"
	make_fake "$TMP/msr-now" AuthenticAMD:0x19:0x01 0xc0000108 "$FAKE_NCPU" 0000000000000000
	expect_status "resume of a run measured without prefetcher control, where it would have it, is refused" 2 \
		"$PMUCHECK" run --resume "$TMP/pfnew"
	grep -q "measured the prefetchers as they ran (no control), and here they would be switched" \
		"$TMP/check.out" && cmp -s "$TMP/pfnew/raw.csv" "$TMP/pfnew.raw" && at_original &&
		ok "... saying why, raw.csv and the MSRs untouched" ||
		notok "... saying why, raw.csv and the MSRs untouched" "$(cat "$TMP/check.out")"
)

# A run still running is not resumed: its raw.csv would be cut back and appended to by two processes at
# once (points written twice, rows out of order). The run holds its directory; --resume is refused by name.
# Calls of a second at least keep it running for many seconds, however fast its points confirm; it is
# killed once the resume has been refused.
"$PMUCHECK" run --kernels load.gpr --sizes 16k,32k,64k,128k --threads 1 --min-time 1000 \
	--reported-levels --no-progress "${ONE_STATE[@]}" --out "$TMP/live" >"$TMP/live.out" 2>&1 &
live=$!
for _ in $(seq 3000); do [ -s "$TMP/live/raw.csv" ] && break; sleep 0.01; done
expect_status "resume of a run still running is refused" 2 "$PMUCHECK" run --resume "$TMP/live"
grep -q "another pmucheck is running into it" "$TMP/check.out" && kill -0 "$live" 2>/dev/null &&
	ok "... naming the directory, the run going on" ||
	notok "... naming the directory, the run going on" "$(cat "$TMP/check.out")"
kill -TERM "$live" 2>/dev/null
wait "$live" 2>/dev/null

# A SIGKILL within a point's write, made certain: the reference run cut in the middle of its last row.
# analyze leaves that point out and says so; --resume measures it again.
unfinished "$TMP/torn"
python3 -c 'import sys
p = sys.argv[1]; b = open(p, "rb").read().rstrip(b"\n")
start = b.rindex(b"\n") + 1
open(p, "wb").write(b[: start + (len(b) - start) // 2])' "$TMP/torn/raw.csv"
"$PMUCHECK" analyze "$TMP/full" >"$TMP/full.an" 2>&1
"$PMUCHECK" analyze "$TMP/torn" >"$TMP/torn.an" 2>&1
rc=$?
full_n=$(grep -o '[0-9]* points' "$TMP/full.an") torn_n=$(grep -o '[0-9]* points' "$TMP/torn.an")
if [ "$rc" -eq 0 ] && [ "${torn_n% points}" -eq $((${full_n% points} - 1)) ] &&
	grep -q "raw.csv ends in a row its interruption cut: its last point is left out" "$TMP/torn.an"; then
	ok "a torn last row: analyze leaves its point out and says so"
	check "a torn last row: report reads it too" "$PMUCHECK" report "$TMP/torn"
else
	notok "a torn last row: analyze leaves its point out and says so" "exit $rc, $torn_n of $full_n: $(head -c 400 "$TMP/torn.an")"
fi
"$PMUCHECK" run --resume "$TMP/torn" >"$TMP/torn.res" 2>&1 && [ ! -e "$TMP/torn/PARTIAL" ] &&
	points "$TMP/torn" | cmp -s - "$TMP/full.points" && ok "a torn last row: --resume measures its point again" ||
	notok "a torn last row: --resume measures its point again" "$(tail -3 "$TMP/torn.res")"

# Resumed for its last point only, it gets the share of --time-budget (300 s by default) that point had:
# the budget is shared by the points' threads, one each here.
check "a resumed run gets the share of --time-budget its points left had" python3 - "$TMP/full" \
	"$TMP/torn.res" <<'PY'
import csv, re, sys
total = len({r["point"] for r in csv.DictReader(open(sys.argv[1] + "/raw.csv"))})
m = re.search(r"resuming .*: (\d+) of (\d+) points left, given (\d+) s of its --time-budget (\d+) s",
              open(sys.argv[2]).read())
print("# %s; the full run had %d points" % (m and m.group(0), total))
left, n, given, budget = map(int, m.groups())
sys.exit(0 if (n, left, budget, given) == (total, 1, 300, round(300 / total)) else 1)
PY

# A run whose level probe ran (here: the reference run's arguments without --reported-levels, stopped after
# its first point) resumes with the sizes it had, not a new probe's, and its summary says whose they are.
unfinished "$TMP/probed"
python3 - "$TMP/probed" <<'PY'
import json, sys
d = sys.argv[1]
m = json.load(open(d + "/machine.json"))
m["argv"] = [a for a in m["argv"] if a != "--reported-levels"]
json.dump(m, open(d + "/machine.json", "w"))
rows = open(d + "/raw.csv").read().splitlines(True)
open(d + "/raw.csv", "w").writelines(r for r in rows if r.split(",")[0] in ("point", "0"))
PY
"$PMUCHECK" run --resume "$TMP/probed" >"$TMP/probed.out" 2>&1
check "a resumed run that had probed takes its own sizes and says so" sh -c \
	"grep -q 'levels as the run in $TMP/probed had them' '$TMP/probed.out' && ! grep -q 'latency probe' '$TMP/probed.out'"

# Its level probe's curve stands for its latency points in the resumed run's summary as in its analysis
# (machine.json keeps the interrupted run's levels): here a curve, set by hand, 1 ns at the 256 KiB chase
# point's size, faster than any cache, so both must take it for that point where its buffer was on huge pages
# (the probe's state; common/level.h level_probe_stands_for), and neither where it was not.
unfinished "$TMP/curve"
python3 - "$TMP/curve" <<'PY'
import json, sys
d = sys.argv[1]
m = json.load(open(d + "/machine.json"))
m["levels"]["latency_curve"] = [[262144, 1.0]]
json.dump(m, open(d + "/machine.json", "w"))
rows = open(d + "/raw.csv").read().splitlines(True)
open(d + "/raw.csv", "w").writelines(r for r in rows if r.split(",")[0] in ("point", "0"))
PY
"$PMUCHECK" run --resume "$TMP/curve" >"$TMP/curve.out" 2>&1
"$PMUCHECK" analyze --quiet "$TMP/curve" >"$TMP/curve.an" 2>&1
check "a resumed run's summary takes its level probe's times as its peaks do" python3 - "$TMP/curve" \
	"$TMP/curve.out" <<'PY'
import csv, re, sys
d, out = sys.argv[1], open(sys.argv[2]).read()
rows = [r for r in csv.DictReader(open(d + "/raw.csv")) if r["variant"] == "chase.plain" and r["bytes"] == "262144"]
thp, level = min(float(r["thp_share"]) for r in rows), rows[0]["level"]  # L2 where it holds 256 KiB
peak = [r for r in csv.DictReader(open(d + "/peaks.csv")) if r["level"] == level and r["access"] == "latency"][0]
cells = re.search(r"^latency +(.*)$", out, re.M).group(1)
cell = re.findall(r"-|DRAM-like|[\d.]+ ns \S+ cyc\S*", cells)[["L1", "L2", "L3", "DRAM"].index(level)]
probed = thp >= 0.9
print("# thp_share %.2f; summary %s %r; peaks %s ns, %r" % (thp, level, cell, peak["latency_ns"], peak["quality"]))
ok = (cell.endswith("^") == probed and ("level probe's time" in peak["quality"]) == probed and
      abs(float(cell.split()[0]) - float(peak["latency_ns"])) < 0.006)
sys.exit(0 if ok else 1)
PY

# An interrupted run of a version whose raw.csv had other columns (here: before `span`): appending this
# version's rows would leave a file no reader can split, so it is refused and left as it was.
unfinished "$TMP/older"
python3 - "$TMP/older" <<'PY'
import sys
d = sys.argv[1]
rows = open(d + "/raw.csv").read().split("\n", 1)
assert ",span," in rows[0]
open(d + "/raw.csv", "w").write(rows[0].replace(",span,", ",", 1) + "\n" + rows[1])
PY
cp "$TMP/older/raw.csv" "$TMP/older.raw"
expect_status "resume of a run whose raw.csv has other columns is refused" 2 "$PMUCHECK" run --resume "$TMP/older"
cp "$TMP/check.out" "$TMP/older.out"
check "... saying so, and its raw.csv is left as it was" sh -c \
	"grep -q 'other columns than this pmucheck writes' '$TMP/older.out' && cmp -s '$TMP/older/raw.csv' '$TMP/older.raw'"

# OMP_THREAD_LIMIT below the widest point's threads is refused before anything is written (run_cli.sh), but
# of a resumed run only the points it measures count: from the last one raw.csv holds, which it measures
# again. Here a preset (a config directory of its own) whose step of two threads comes before its step of
# one: stopped in the second step it resumes under OMP_THREAD_LIMIT=1 and finishes; stopped in the first, it
# is still refused. Each step asks for prefetch on and off, and without MSR files (lib.sh) off is skipped:
# raw.csv numbers the points measured, which the check must count in (it counted in the plan before the
# skipped states were dropped, where point 1 was the first step's second, of two threads).
if [ "$(two_threads)" = 1,2 ]; then
	mkdir -p "$TMP/omp-cfg" && cp -r "$TOP"/configs/* "$TMP/omp-cfg/" && cat >>"$TMP/omp-cfg/presets.ini" <<'INI'

[preset widefirst]
title = a step of two threads before a step of one

[run widefirst.wide]
kernels = load.gpr
sizes = 16k
threads = 2
prefetch = on off

[run widefirst.narrow]
kernels = load.gpr
sizes = 16k 32k
threads = 1
prefetch = on off
INI
	omp() { env PMUCHECK_CONFIG_DIR="$TMP/omp-cfg" "$@"; }
	if omp "$PMUCHECK" run --preset widefirst --reported-levels --reps 2 --min-time 1 --no-progress \
		--out "$TMP/omp-full" >"$TMP/omp.out" 2>&1; then
		# its points with their threads, "0:2 1:1 2:1"; DIR keeping the points up to $2 of the full run's
		threads() { python3 -c 'import csv, sys
print(" ".join(sorted({"%s:%s" % (r["point"], r["threads"]) for r in csv.DictReader(open(sys.argv[1] + "/raw.csv"))})))' "$1"; }
		stopped_at() {
			cp -r "$TMP/omp-full" "$1" && touch "$1/PARTIAL" && python3 - "$1" "$2" <<'PY'
import json, sys
d, last = sys.argv[1], int(sys.argv[2])
m = json.load(open(d + "/machine.json"))
m["finished_utc"] = None
json.dump(m, open(d + "/machine.json", "w"))
rows = open(d + "/raw.csv").read().splitlines(True)
open(d + "/raw.csv", "w").writelines(r for r in rows[:1] + [r for r in rows[1:] if int(r.split(",")[0]) <= last])
PY
		}
		stopped_at "$TMP/omp-narrow" 1
		omp env OMP_THREAD_LIMIT=1 "$PMUCHECK" run --resume "$TMP/omp-narrow" >"$TMP/omp-narrow.out" 2>&1
		rc=$?
		[ "$rc" -eq 0 ] && [ ! -e "$TMP/omp-narrow/PARTIAL" ] && [ "$(threads "$TMP/omp-narrow")" = "$(threads "$TMP/omp-full")" ] &&
			ok "resumed past its two-thread points, a run goes on under OMP_THREAD_LIMIT=1 ($(threads "$TMP/omp-full"))" ||
			notok "resumed past its two-thread points, a run goes on under OMP_THREAD_LIMIT=1" "exit $rc: $(tail -3 "$TMP/omp-narrow.out")"
		stopped_at "$TMP/omp-wide" 0
		cp "$TMP/omp-wide/raw.csv" "$TMP/omp-wide.raw"
		expect_status "resumed at its two-thread point, it is refused under OMP_THREAD_LIMIT=1" 2 \
			omp env OMP_THREAD_LIMIT=1 "$PMUCHECK" run --resume "$TMP/omp-wide"
		grep -q "OpenMP may run 1 threads (OMP_THREAD_LIMIT), and the widest point has 2" "$TMP/check.out" &&
			cmp -s "$TMP/omp-wide/raw.csv" "$TMP/omp-wide.raw" && ok "... saying so, raw.csv untouched" ||
			notok "... saying so, raw.csv untouched" "$(cat "$TMP/check.out")"
	else
		notok "a preset of a two-thread step before a one-thread step runs" "$(tail -3 "$TMP/omp.out")"
	fi
else
	skip "a resume past its two-thread points under OMP_THREAD_LIMIT=1" "no two threads here (one core)"
fi
