#!/bin/bash
# json_cli.sh — `list --json` and `run --dry-run --json` give the facts the text gives, as JSON: each
# JSON document is parsed and compared with the text output of the same command, field by field, so a
# JSON writer that drifts from the text (or the text from the plan) fails here.
. "$(dirname "$0")/../lib.sh"

# list kernels: families, summaries and variants as the text lists them.
"$PMUCHECK" list kernels >"$TMP/k.txt"
"$PMUCHECK" list --json kernels >"$TMP/k.json"
check "list --json kernels: every family and its variants as the text lists them" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["kernels"]
lines = [l for l in open(sys.argv[2]).read().splitlines() if not l.startswith("not on this CPU")]
text = [(lines[i].split()[0], lines[i + 1].split()) for i in range(0, len(lines), 2)]
js = [(k["family"], k["variants"]) for k in d]
assert js == text, (js, text)
lacking = [l.split(":")[1].split() for l in open(sys.argv[2]) if l.startswith("not on this CPU")]
assert [v for k in d for v in k["unavailable"]] == (lacking[0] if lacking else []), (d, lacking)
assert all(k["summary"] and k["summary"] in open(sys.argv[2]).read() for k in d)
' "$TMP/k.json" "$TMP/k.txt"
check "list --json kernels: nopread's argument is the delay, load takes none" python3 -c '
import json, sys
k = {f["family"]: f for f in json.load(open(sys.argv[1]))["kernels"]}
assert k["nopread"]["arg_name"] == "delay" and k["nopread"]["arg_max"] >= 1024, k["nopread"]
assert k["load"]["arg_name"] is None and k["load"]["arg_max"] is None, k["load"]
' "$TMP/k.json"

# list events: the same named events (status and reason), PMUs and PAPI components as the text.
"$PMUCHECK" list events >"$TMP/e.txt" 2>&1
"$PMUCHECK" list events --json >"$TMP/e.json"
check "list --json events: perf's named events with the text's status, in order" python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
named = [(e["name"], e["status"]) for e in d["perf"]["named"]]
txt = open(sys.argv[2]).read().split("perf: PMUs")[0].splitlines()[1:]
text = [tuple(re.match(r"\s+(\S+)\s+([a-z_]+)", l).groups()) for l in txt]
assert named == text, (named, text)
assert ("page-faults", "ok") in named
assert all((e["reason"] is None) == (e["status"] == "ok") for e in d["perf"]["named"])
' "$TMP/e.json" "$TMP/e.txt"
check "list --json events: the sysfs PMUs and their aliases, as the text lists them" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read().split("perf: PMUs")[1].split("\npapi")[0]
for p in d["perf"]["pmus"]:
    assert "\n  " + p["name"] + "\n" in txt + "\n" or "\n  " + p["name"] + "\n    " in txt, p["name"]
    for a in p["aliases"]:
        assert "%s/%s/" % (p["name"], a) in txt, (p["name"], a)
assert "software" in [p["name"] for p in d["perf"]["pmus"]]
' "$TMP/e.json" "$TMP/e.txt"
check "list --json events: PAPI components as the text gives them (disabled ones with the reason)" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["papi"]
txt = open(sys.argv[2]).read().split("\npapi")[1]
if not p["available"]:
    assert "unavailable: " + p["reason"] in txt
for c in p["components"]:
    if c["disabled"]:
        assert "  %s: disabled: %s" % (c["name"], c["reason"]) in txt, c
        assert c["events"] == []
    else:
        assert "  %s:" % c["name"] in txt and all("\n    " + e in txt for e in c["events"]), c["name"]
' "$TMP/e.json" "$TMP/e.txt"

# list events EVENT...: the resolution, and the same exit status as the text (2 for a malformed one).
"$PMUCHECK" list --json events page-faults task-clock >"$TMP/r.json"
check "list --json events EVENT: page-faults resolves to perf's software type with its encoding" python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
assert [e["event"] for e in ev] == ["page-faults", "task-clock"], ev
pf = ev[0]
assert (pf["backend"], pf["scope"], pf["pool"], pf["status"]) == ("perf", "thread", "software", "ok"), pf
assert pf["encoding"].startswith("type=1,config=0x2"), pf
assert pf["reason"] is None
' "$TMP/r.json"
expect_status "list --json events with a malformed event: exit 2, as the text" 2 \
	"$PMUCHECK" list --json events page-faults cpu/event=0xzz/
"$PMUCHECK" list --json events page-faults cpu/event=0xzz/ >"$TMP/bad.json" 2>"$TMP/bad.err"
check "list --json events with a malformed event: still one JSON object, the error on stderr" \
	bash -c "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$TMP/bad.json' && grep -q '0xzz' '$TMP/bad.err'"

# run --dry-run --json: every point of the text plan with the same fields.
plan_args=(--quick --kernels load.gpr,nopread,chase.plain --threads 1)
"$PMUCHECK" run --dry-run "${plan_args[@]}" >"$TMP/p.txt" 2>"$TMP/p.err"
"$PMUCHECK" run --dry-run --json "${plan_args[@]}" >"$TMP/p.json" 2>"$TMP/pj.err"
check "run --dry-run --json: the text plan's points, field by field" python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
pts = [p for x in d["experiments"] for p in x["points"]]
rows = [l.split() for l in open(sys.argv[2]) if re.match(r"\s+\d+\s", l)]
assert len(pts) == len(rows) == d["points_total"] > 3, (len(pts), len(rows), d["points_total"])
for p, r in zip(pts, rows):
    want = [str(p["index"]), p["kernel"], "%s=%d" % (p["arg_name"] or "arg", p["arg"]), str(p["threads"]),
            "thr", str(p["bytes_per_array"]), "B/array", p["level"], p["prefetch"], p["placement"]]
    assert r == want, (r, want)
x = d["experiments"][0]
tail = "%d points, %d events (%d groups), at most %d repetitions each" % (len(x["points"]), len(x["events"]),
                                                                          x["groups"], x["most_reps"])
assert tail in open(sys.argv[2]).read(), tail
assert any(p["kernel"] == "nopread.gpr" and p["arg"] > 0 for p in pts)
' "$TMP/p.json" "$TMP/p.txt"
check "run --dry-run --json: stderr says the same as without --json" cmp "$TMP/p.err" "$TMP/pj.err"

# Without a level history (this file's is empty) the plan is on the reported sizes; a run probes the levels
# first and plans again, which both forms say; --reported-levels and --levels-from plan on the sizes the run
# takes, and say nothing. A plan on the history's sizes: info_levels.sh.
check "run --dry-run: says a run plans again after its level probe" \
	grep -qF "planned on the cache sizes hwloc reports (no level probe of this machine in the last day in $PMUCHECK_HISTORY_DIR/levels.json); a run first measures where each level ends" "$TMP/p.err"
"$PMUCHECK" run --dry-run --json --reported-levels "${plan_args[@]}" >"$TMP/pr.json" 2>"$TMP/pr.err"
check "run --dry-run --json: level_probe true without, false with --reported-levels" python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["level_probe"] is True
assert json.load(open(sys.argv[2]))["level_probe"] is False
assert json.load(open(sys.argv[1]))["level_history"] is None
assert json.load(open(sys.argv[2]))["level_history"] is None
' "$TMP/p.json" "$TMP/pr.json"
check "run --dry-run --reported-levels: no such line" \
	bash -c "! grep -q 'planned on the cache sizes' '$TMP/pr.err'"

# The prefetch prediction (fake MSR files as in fake_machines.sh).
. "$(dirname "$0")/../pf_fake.sh"
(
	export PMUCHECK_MSR_DIR=$TMP/no-msr PMUCHECK_FAKE_CPUID=AuthenticAMD:0x19:0x01
	mkdir -p "$PMUCHECK_MSR_DIR"
	"$PMUCHECK" run --dry-run --json --kernels load.gpr --sizes 16k --threads 1 >"$TMP/nomsr.json" 2>/dev/null
)
check "run --dry-run --json without MSR access: no control, 'off' skipped with the reason, no off point" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
pf = d["prefetch"]
assert pf["control"] is False and pf["skipped"] == "off" and "msr" in pf["reason"], pf
assert [p["prefetch"] for x in d["experiments"] for p in x["points"]] == ["uncontrolled"]
' "$TMP/nomsr.json"
(
	make_fake "$TMP/msr" AuthenticAMD:0x19:0x01 0xc0000108 "$(nproc --all)"
	"$PMUCHECK" run --dry-run --json --kernels load.gpr --sizes 16k --threads 1 >"$TMP/msr.json" 2>/dev/null
)
check "run --dry-run --json with MSR access: control, nothing skipped, an on and an off point" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["prefetch"] == {"control": True, "skipped": None, "reason": None}, d["prefetch"]
assert sorted(p["prefetch"] for x in d["experiments"] for p in x["points"]) == ["off", "on"]
' "$TMP/msr.json"

# Two sockets (hwloc's synthetic topology): remote placement, and a preset's steps as experiments.
HWLOC_SYNTHETIC="package:2 numa:1 l3:1 l2:4 l1d:1 core:1 pu:2" "$PMUCHECK" run --dry-run --json \
	--kernels load.sse --sizes 16k --threads 1 --placement remote,local --prefetch on >"$TMP/sock.json" 2>/dev/null
check "run --dry-run --json, 2 sockets: a remote and a local point" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(p["placement"] for p in d["experiments"][0]["points"]) == ["local", "remote"], d
' "$TMP/sock.json"
"$PMUCHECK" run --dry-run --json --quick --preset helm2020 >"$TMP/preset.json" 2>/dev/null
check "run --dry-run --json --preset: one experiment per step, indices running on over the steps" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
xs = d["experiments"]
assert len(xs) > 1 and all(x["name"].startswith("helm2020.") for x in xs), [x["name"] for x in xs]
idx = [p["index"] for x in xs for p in x["points"]]
assert idx == list(range(len(idx))) and d["points_total"] == len(idx), idx
' "$TMP/preset.json"

expect_status "run --json without --dry-run is refused (exit 2)" 2 "$PMUCHECK" run --json --kernels load.gpr \
	--results "$TMP/res"
check "run --json without --dry-run writes nothing" test ! -e "$TMP/res"

# docs/results-format.md names every member these JSON outputs have (tests/tools/doc_fields.py).
"$PMUCHECK" run --dry-run --json --quick --reported-levels >"$TMP/plan.json" 2>/dev/null
for f in k.json e.json r.json plan.json; do
	check "docs/results-format.md names every member of $f" \
		python3 "$TOP/tests/tools/doc_fields.py" "$TMP/$f" "$TOP/docs/results-format.md" 'JSON on stdout (`--json`)'
done
