#!/bin/bash
# validate_software.sh — the whole pipeline on the counters every Linux has: a run counting page faults
# while `touch` first-writes N pages sees exactly one fault per page (perf's, and PAPI's perf::PAGE-FAULTS
# where PAPI's perf_event component is enabled), task-clock is counted, the analysis
# calls page-faults exact (1 per page) and a hardware event "not measured" with the reason (this machine
# has no PMU) — or, on a PMU machine, gives it a verdict from real counts — and the peaks hold every
# level the loads and stores were measured in.
. "$(dirname "$0")/../lib.sh"
d="$TMP/sw"

# The sizes sit inside the levels of every x86 CPU in use (L1d >= 32 KiB, L2 >= 256 KiB per core): a point
# within 25 % below or 50 % above a cache limit belongs to no level, and a 32k load point on a 32 KiB L1d
# (Zen 3, Zen 4) left the peaks without an L1 row. touch works in 32 KiB blocks, so it has 32k as its
# smallest size: where that lies on the L1 boundary only its page faults count, which need no level.
if ! "$PMUCHECK" run --kernels touch --sizes 32k,256k,4M --threads 1 --reps 5 --min-time 5 \
	--reported-levels --events page-faults,minor-faults,task-clock,cycles,perf::PAGE-FAULTS --keep-going \
	--no-progress "${ONE_STATE[@]}" --out "$d" >"$TMP/run.out" 2>&1 ||
	! "$PMUCHECK" run --kernels load.gpr,store.gpr --sizes 16k,128k,4M --threads 1 --reps 5 --min-time 5 \
		--reported-levels --events page-faults,minor-faults,task-clock,cycles --keep-going --no-progress \
		"${ONE_STATE[@]}" --out "$d-bw" >>"$TMP/run.out" 2>&1; then
	notok "run with software events" "$(tail -3 "$TMP/run.out")"
	exit 0
fi
ok "run with software events"

check "page-faults and minor-faults are exactly one per first-touched page on every touch row" python3 - "$d/raw.csv" <<'PY'
import collections, csv, sys
reps = collections.defaultdict(set)
for r in csv.DictReader(open(sys.argv[1])):
    if r["kernel"] == "touch" and r["event"] in ("page-faults", "minor-faults"):
        assert r["status"] == "ok", r
        assert int(r["count"]) == int(r["v_pages"]), (r["event"], r["count"], r["v_pages"])
        reps[(r["bytes"], r["event"])].add(r["rep"])
# --reps 5 is a maximum: a point stops early once its time is stable or its budget share is spent
assert len(reps) == 2 * 3, sorted(reps)  # 2 events x 3 sizes
by_size = collections.defaultdict(set)
for (size, event), rs in reps.items():
    assert 1 <= len(rs) <= 5, (size, event, sorted(rs))
    by_size[size].add(frozenset(rs))
assert all(len(v) == 1 for v in by_size.values()), by_size  # both events on every repetition
PY

# PAPI counts the kernel's software events too, by libpfm4's perf:: names, with or without a core PMU (on a
# VM without one perf::PAGE-FAULTS was not measured "because the kernel counts no hardware event here",
# and once resolved, failed in PAPI_set_opt(PAPI_DOMAIN)); only a disabled perf_event component stops it.
check "PAPI's perf::PAGE-FAULTS is one per first-touched page, unless PAPI's perf_event is disabled" \
	python3 - "$d" <<'PY'
import csv, json, sys
papi = json.load(open(sys.argv[1] + "/machine.json"))["counters"]["availability"]["papi"]
enabled = any(c["name"] == "perf_event" and c["enabled"] for c in papi.get("components", []))
rows = [r for r in csv.DictReader(open(sys.argv[1] + "/raw.csv"))
        if r["kernel"] == "touch" and r["event"] == "perf::PAGE-FAULTS"]
assert rows
for r in rows:
    if not enabled:
        assert r["status"] == "not_measured" and "disabled" in r["reason"], r
    else:
        assert r["status"] == "ok" and int(r["count"]) == int(r["v_pages"]), r
PY

# How closely task-clock agrees with the TSC-timed kernel time depends on preemption, and is a benchmark
# (tests/bench/task_clock.sh); counted it must be, on every row, and more than 0 in some repetition of each
# point (a difference of the 2R and R calls' CPU times, which steal time can make negative now and then).
check "task-clock is counted on every row, positive in some repetition of each point" python3 - "$d" "$d-bw" <<'PY'
import csv, collections, sys
positive = collections.defaultdict(bool)
for run in sys.argv[1:]:
    for r in csv.DictReader(open(run + "/raw.csv")):
        if r["event"] == "task-clock":
            assert r["status"] == "ok", r
            positive[(run, r["point"])] |= int(r["count"]) > 0
assert positive and all(positive.values()), dict(positive)
PY

if ! "$PMUCHECK" analyze "$d" >"$TMP/an.out" 2>&1 || ! "$PMUCHECK" analyze "$d-bw" >>"$TMP/an.out" 2>&1; then
	notok "analyze the run" "$(tail -3 "$TMP/an.out")"
	exit 0
fi
ok "analyze the run"
check "page-faults is exact, one per page" grep -q '^page-faults,perf,thread,user[+a-z]*,,exact,pages,1,' "$d/events.csv"
check "minor-faults is exact, one per page" grep -q '^minor-faults,perf,thread,user[+a-z]*,,exact,pages,1,' "$d/events.csv"
# Whether this machine counts hardware events as the run found it (it opened 'instructions'), not perf's word
# for it: without linux-perf installed, or without a perf for this kernel, that word never came.
hw=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["counters"]["availability"]["hardware"])' \
	"$d/machine.json")
if [ "$hw" = False ]; then
	check "cycles is not measured, with the reason" python3 - "$d/events.json" <<'PY'
import json, sys
ev = {e["event"]: e for e in json.load(open(sys.argv[1]))["events"]}
c = ev["cycles"]
assert c["class"] == "not measured", c
assert c["note"] and "PMU" in c["note"] or "support" in c["note"], c["note"]
PY
else
	check "cycles gets a verdict from real counts" python3 - "$d/events.json" <<'PY'
import json, sys
ev = {e["event"]: e for e in json.load(open(sys.argv[1]))["events"]}
assert ev["cycles"]["class"] != "not measured", ev["cycles"]
PY
fi
check "peaks name every level with read and write bandwidth" python3 - "$d-bw/peaks.csv" <<'PY'
import csv, sys
rows = {(r["level"], r["access"]): r for r in csv.DictReader(open(sys.argv[1]))}
for lv in ("L1", "L2"):
    for acc in ("read", "write"):
        assert (lv, acc) in rows, (lv, acc, sorted(rows))
        assert float(rows[lv, acc]["gbps_1_core"]) > 0, rows[lv, acc]
        assert rows[lv, acc]["quality"].startswith(("ok", "noisy (")), rows[lv, acc]
PY
