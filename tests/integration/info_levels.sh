#!/bin/bash
# info_levels.sh — `info --levels` says which level sizes a run would take from its probe: a level is taken
# as measured exactly where a disagreement ends it short, at that size (the last level at the median of the
# probe's sweeps where it names one), and never longer than hwloc reports. Real probes on this machine (about
# 6 s each): which levels end short depends on it, the agreement between the sizes taken and the reasons
# given does not.
. "$(dirname "$0")/../lib.sh"

# The sizes the probe's disagreements end a level at, {level: bytes} (harness/run/levels.c's wording).
expected_py='
import re
def expected(disagreements):
    out = {}
    for d in disagreements:
        m = re.match(r"L(\d+): hwloc reports \d+ KiB, but latency is L\d+-like only up to (\d+) KiB", d) or \
            re.search(r"so L(\d+) is taken to end at (\d+) KiB", d) or \
            re.search(r"ended L(\d+) at .*; the run takes (?:their median|the median of the \d+ that found "
                  r"one), (\d+) KiB", d)
        if m:
            out[int(m.group(1))] = int(m.group(2)) * 1024
    return out
'

if ! "$PMUCHECK" info --levels --quick --json >"$TMP/l.json" 2>"$TMP/err"; then
	notok "info --levels --quick --json" "$(tail -3 "$TMP/err")"
else
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
