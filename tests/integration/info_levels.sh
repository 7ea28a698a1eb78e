#!/bin/bash
# info_levels.sh — `info --levels` says which level sizes a run would take from its probe: a level is taken
# as measured exactly where a disagreement ends it short, at that size (the last level at the median of the
# probe's sweeps where it names one), and never longer than hwloc reports. Real probes on this machine (about
# 6 s each): which levels end short depends on it, the agreement between the sizes taken and the reasons
# given does not. The probes share this file's history (lib.sh: PMUCHECK_HISTORY_DIR), the first
# starting it; the last runs beside a history of earlier probes made up here.
. "$(dirname "$0")/../lib.sh"

# The probes read steal time and CPU pressure from a quiet fake /proc (PMUCHECK_PROC_DIR): a probe of a busy
# machine is not added to the history (unit/test_levels_history), and make test's parallel suites often make
# these busy: the checks of the history below would then have no history to check.
mkdir -p "$TMP/proc/pressure"
{
	printf 'cpu  1000 0 1000 100000 0 0 0 0 0 0\n'
	for c in $(seq 0 255); do printf 'cpu%d 10 0 10 1000 0 0 0 0 0 0\n' "$c"; done # the probe's CPU's line
	printf 'procs_running 1\n'
} >"$TMP/proc/stat"
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' >"$TMP/proc/pressure/cpu"
export PMUCHECK_PROC_DIR=$TMP/proc

# The sizes the probe's disagreements end a level at, {level: bytes} (harness/run/levels.c's wording).
expected_py='
import re
def expected(disagreements):
    out = {}
    for d in disagreements:
        m = re.match(r"L(\d+): hwloc reports \d+ KiB, but latency is L\d+-like only up to (\d+) KiB", d) or \
            re.search(r"so L(\d+) is taken to end at (\d+) KiB", d) or \
            re.search(r"ended L(\d+) at .*; the run takes (?:their median|the median of the \d+ that found "
                  r"one|the smallest), (\d+) KiB", d) or \
            re.search(r"ended L(\d+) at .*; the run takes (\d+) KiB, (?:the last run\x27s, )?which all but", d)
        if m:
            out[int(m.group(1))] = int(m.group(2)) * 1024
    return out
'

if ! "$PMUCHECK" info --levels --quick --json >"$TMP/l.json" 2>"$TMP/err"; then
	notok "info --levels --quick --json" "$(tail -3 "$TMP/err")"
else
	# docs/results-format.md names every member: machine.json's section those machine.json has (the clock
	# too: info's is machine.json's), the --json section info's own top-level members.
	check "docs/results-format.md names every member of info --levels --json (as machine.json)" \
		python3 "$TOP/tests/tools/doc_fields.py" "$TMP/l.json" "$TOP/docs/results-format.md" machine.json
	check "docs/results-format.md names every member of info --levels --json (info's own)" \
		python3 "$TOP/tests/tools/doc_fields.py" "$TMP/l.json" "$TOP/docs/results-format.md" \
		'JSON on stdout (`--json`)' cpu os topology clock counters cpu_limit levels
	check "info --levels --json: levels.measured holds the levels its disagreements end short, at their sizes, each shorter than reported" \
		python3 -c "$expected_py"'
import json, sys
d = json.load(open(sys.argv[1]))
reported = {c["level"]: c["size"] for c in d["topology"]["caches"]}
got = {int(k[1:]): v for k, v in d["levels"]["measured"].items()}
want = expected(d["levels"]["disagreements"])
print("# measured %s, reported %s" % (got, reported))
assert got == want, "measured %s, the disagreements say %s" % (got, want)
assert all(v < reported[l] for l, v in got.items()), "a level measured longer than reported"
' "$TMP/l.json"
fi

if ! "$PMUCHECK" info --levels --quick >"$TMP/l.txt" 2>"$TMP/err"; then
	notok "info --levels --quick" "$(tail -3 "$TMP/err")"
else
	check "info --levels: 'a run takes' names L1 to the last level, measured exactly where a disagreement ends one short, at its size" \
		python3 -c "$expected_py"'
import re, sys
text = open(sys.argv[1]).read()
line = next(l for l in text.splitlines() if l.startswith("a run takes"))
taken = re.findall(r"L(\d+) ([\d.]+) KiB \((measured|reported)\)", line)
levels = [int(l) for l, _, _ in taken]
assert levels == list(range(1, len(levels) + 1)) and levels, "levels %s in: %s" % (levels, line)
got = {int(l): round(float(kib) * 1024) for l, kib, how in taken if how == "measured"}
want = expected(re.findall(r"^disagreement +(.*)$", text, re.M))
assert got == want, "taken as measured %s, the disagreements say %s" % (got, want)
' "$TMP/l.txt"
fi

# A history with a probe of this machine that found L2 ending at L1's reported size (less than any probe
# finds: L2's plateau starts past L1's), one of two days ago that found half that, and another machine's: the
# run takes L1's size for L2, says so, keeps the other machine's probe and drops the old one.
# The test's own history, but no state directory of lib.sh's: that follows PMUCHECK_MSR_DIR, and a test that
# unsets it for the real MSRs (lib.sh: real_msr) meets the node's own again, whose lock keeps it off the MSRs
# while another pmucheck has them switched.
# (A caller's own PMUCHECK_STATE_DIR, which a user without root must set, is kept: lib.sh puts none in $TMP.)
check "lib.sh moves the level probe's history, not the prefetcher's state directory" \
	test "${PMUCHECK_HISTORY_DIR-}" = "$TMP/state" -a "${PMUCHECK_STATE_DIR#"$TMP"}" = "${PMUCHECK_STATE_DIR-}"
hist=$PMUCHECK_HISTORY_DIR/levels.json
if [ ! -s "$TMP/l.json" ]; then
	notok "info --levels --quick --json wrote its levels" "$(tail -3 "$TMP/err")"
elif [ ! -s "$hist" ]; then
	notok "the probes of a quiet machine kept a history in \$PMUCHECK_HISTORY_DIR/levels.json" \
		"$(ls -l "$PMUCHECK_HISTORY_DIR" 2>&1; grep -h "not added" "$TMP/l.txt" "$TMP/l.json")"
else
	check "docs/results-format.md names every member of levels.json" \
		python3 "$TOP/tests/tools/doc_fields.py" "$hist" "$TOP/docs/results-format.md" \
		"levels.json (the level probe's history)"
	python3 - "$TMP/l.json" "$hist" <<'PY'
import json, sys, time
d = json.load(open(sys.argv[1]))
key = d["levels"]["history"]["machine"]
reported = [c["size"] for c in sorted(d["topology"]["caches"], key=lambda c: c["level"])]
half, quarter = list(reported), list(reported)
half[1] = reported[0]
quarter[1] = reported[0] // 2
now = int(time.time())
probes = [{"machine": "boot another, CPU 0", "time": now - 60, "sizes": [1, 2]},
          {"machine": key, "time": now - 2 * 86400, "sizes": quarter},
          {"machine": key, "time": now - 30, "sizes": half}]
json.dump({"probes": probes}, open(sys.argv[2], "w"))
PY
	# a dry run probes nothing: it plans on what the history gives a run before its own probe is added
	cp "$hist" "$TMP/hist.before"
	if ! "$PMUCHECK" run --quick --dry-run --json >"$TMP/plan.json" 2>"$TMP/plan.err"; then
		notok "run --quick --dry-run --json beside a history" "$(tail -3 "$TMP/plan.err")"
	else
		check "run --dry-run beside a history: plans on its L2, says so (stderr, level_history), adds nothing to it" \
			python3 -c '
import json, sys
d, plan = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
l1 = next(c["size"] for c in d["topology"]["caches"] if c["level"] == 1)
h = plan["level_history"]
assert plan["level_probe"] is True and h["probes"] == 1 and h["measured"] == {"L2": l1}, h
err = open(sys.argv[3]).read()
assert "planned on the level sizes this machine\x27s last 1 level probe give (L2 %d KiB; history " % (l1 // 1024) in err, err
assert open(sys.argv[4]).read() == open(sys.argv[5]).read()
' "$TMP/l.json" "$TMP/plan.json" "$TMP/plan.err" "$hist" "$TMP/hist.before"
	fi
	if ! "$PMUCHECK" info --levels --quick --json >"$TMP/h.json" 2>"$TMP/err"; then
		notok "info --levels --quick --json beside a history" "$(tail -3 "$TMP/err")"
	else
		check "info --levels beside a history: L2 taken at the smallest size of this machine's probes in the last day, said so, in levels.history" \
			python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
l1 = next(c["size"] for c in d["topology"]["caches"] if c["level"] == 1)
lv = d["levels"]
assert lv["measured"].get("L2") == l1, "L2 taken: %s, want %d" % (lv["measured"].get("L2"), l1)
said = [t for t in lv["disagreements"] if "the last 2 level probes on this machine" in t and
        "ended L2 at " in t and " %d KiB (1)" % (l1 // 1024) in t and
        "the run takes the smallest, %d KiB" % (l1 // 1024) in t]
assert said, lv["disagreements"]
sizes = [p["sizes"][1] for p in lv["history"]["probes"]]
assert len(sizes) == 2 and sizes[0] == l1, lv["history"]
' "$TMP/h.json"
		check "the history file keeps the other machine's probe, drops the one older than a day, adds this one" \
			python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["probes"]
h = json.load(open(sys.argv[2]))["levels"]["history"]
assert [x["machine"] for x in p].count("boot another, CPU 0") == 1, p
assert "not_added" not in h, h
assert len(p) == 3 and all(x["time"] > p[-1]["time"] - 86400 for x in p), p
' "$hist" "$TMP/h.json"
	fi
fi

# The chain is meant to be on huge pages, so that a TLB's reach does not show as a level (levels.c): the
# probe says what share of its largest size was, a disagreement says so where that is below 0.9, and a
# prctl(PR_SET_THP_DISABLE), which the command it execs inherits, takes them from it (its history apart,
# so the probes above keep theirs).
if [ -s "$TMP/l.json" ]; then
	check "the probe gives its chain's share on huge pages, and a disagreement exactly where it is below 0.9" \
		python3 -c '
import json, sys
lv = json.load(open(sys.argv[1]))["levels"]
s, said = lv["thp_share"], [d for d in lv["disagreements"] if "on huge pages" in d]
assert 0 <= s <= 1 and len(said) == (s < 0.9), (s, said)
' "$TMP/l.json"
fi
PMUCHECK_HISTORY_DIR=$TMP/nothp python3 - "$PMUCHECK" "$TMP/nothp.json" 2>"$TMP/nothp.err" <<'PY'
import ctypes, os, sys
if ctypes.CDLL(None, use_errno=True).prctl(41, 1, 0, 0, 0):  # PR_SET_THP_DISABLE, linux/prctl.h
    sys.exit(77)
os.dup2(os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
os.execv(sys.argv[1], [sys.argv[1], "info", "--levels", "--quick", "--json"])
PY
case $? in
77) skip "a probe without huge pages says so" "prctl(PR_SET_THP_DISABLE) refused" ;;
0)
	check "a probe without huge pages says so: a TLB's reach may show as a level" python3 -c '
import json, sys
lv = json.load(open(sys.argv[1]))["levels"]
said = [d for d in lv["disagreements"] if "on huge pages" in d and "a TLB" in d]
assert lv["thp_share"] < 0.9 and len(said) == 1, (lv["thp_share"], lv["disagreements"])
' "$TMP/nothp.json"
	;;
*) notok "info --levels --quick --json without huge pages" "$(tail -3 "$TMP/nothp.err")" ;;
esac
