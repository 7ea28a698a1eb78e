#!/bin/bash
# clock_aperf.sh — the repetitions' core clock comes from APERF/MPERF where the perf msr PMU names them, and
# machine.json says which method gave it. A KVM guest's msr PMU has only `tsc`; so the run is also pointed
# (PMUCHECK_CLOCK_PMUS) at a fake tree whose aperf and mperf are that real tsc event: both count TSC ticks,
# so every repetition's clock must be the TSC's rate, from the counters and not from add chains.
. "$(dirname "$0")/../lib.sh"
MSR=/sys/bus/event_source/devices/msr
THREADS=$(two_threads)
ARGS=(run --quick --kernels load --sizes 16384 --threads "$THREADS" --reported-levels --no-progress
	"${ONE_STATE[@]}")

if [ ! -r "$MSR/type" ] || ! command -v python3 >/dev/null; then
	skip "the core clock from APERF/MPERF" "no msr PMU in $MSR, or no python3"
	exit 0
fi

# method and note of machine.json's clock
clock() {
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["clock"]
print(c["repetition_clock_method"].split(" ")[0], "|", c.get("aperf_mperf", ""))' "$1/machine.json"
}

expect_status "a run with this machine's msr PMU" 0 "$PMUCHECK" "${ARGS[@]}" --out "$TMP/real"
got=$(clock "$TMP/real")
if [ -r "$MSR/events/aperf" ] && [ -r "$MSR/events/mperf" ]; then
	check "this msr PMU has aperf and mperf: the run uses them ($got)" test "${got%% |*}" = "APERF/MPERF"
else
	case "$got" in
	"chains | not used: "*aperf*) ok "no aperf here: add chains, and machine.json says why ($got)" ;;
	*) notok "no aperf here: add chains, and machine.json says why" "got '$got'" ;;
	esac
fi

F=$TMP/pmus/msr
mkdir -p "$F/format" "$F/events" && cp "$MSR/type" "$F/" && echo config:0-63 >"$F/format/event"
for e in tsc aperf mperf; do echo event=0x00 >"$F/events/$e"; done # arch/x86/events/msr.c: tsc is 0x00
if ! PMUCHECK_CLOCK_PMUS=$TMP/pmus "$PMUCHECK" "${ARGS[@]}" --out "$TMP/fake" >"$TMP/out" 2>&1; then
	notok "a run with aperf and mperf standing in for tsc" "$(tail -3 "$TMP/out")"
	exit 0
fi
got=$(clock "$TMP/fake")
case "$got" in
"APERF/MPERF | ") ok "machine.json: the repetitions' clock is APERF/MPERF" ;;
"chains | not used: "*) skip "the clock from the counters" "this process (its user and perf_event_paranoid) cannot count the msr PMU's tsc: ${got#*not used: }"
	exit 0 ;;
*) notok "machine.json: the repetitions' clock is APERF/MPERF" "got '$got'" ;;
esac
# Per repetition the two stand-ins agree only as closely as the kernel reads them, one after the other: one
# repetition of a CI run read 1.3 % fast, where busy loops on both CPUs beside this test did not move any
# of 1300-3600 repetitions by more than 0.03 % (the host stopping the vCPU between two reads would do it,
# and nothing in the guest shows that). So every repetition must have a clock from the counters, and their
# median must be the TSC's rate.
check "every repetition, threads $THREADS, has a clock from APERF/MPERF, no rejected sample, and their median is the TSC's rate (dAPERF = dMPERF)" \
	python3 - "$TMP/fake" "$THREADS" <<'PY'
import csv, json, statistics, sys
tsc = json.load(open(sys.argv[1] + "/machine.json"))["clock"]["tsc_hz"] / 1e9
rows = list(csv.DictReader(open(sys.argv[1] + "/raw.csv")))
assert {r["threads"] for r in rows} == set(sys.argv[2].split(",")), "threads"
for r in rows:
    assert r["core_ghz"], (r["point"], "no clock")
    assert not r["clock_note"], r["clock_note"]
ratio = [float(r["core_ghz"]) / tsc for r in rows]
assert abs(statistics.median(ratio) - 1) < 0.01, (statistics.median(ratio), tsc)
print("# %d rows, median %.4f GHz, farthest %+.2f %% (TSC %.4f GHz)" % (
    len(rows), tsc * statistics.median(ratio), 100 * (max(ratio, key=lambda x: abs(x - 1)) - 1), tsc))
PY
