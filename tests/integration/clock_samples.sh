#!/bin/bash
# clock_samples.sh — a run counts its clock samples by why they were rejected (machine.json
# disturbance.points.clock_samples), as raw.csv's clock notes give them one repetition at a time, and the
# run's summary and report.md say what became of them: where some lay above the CPU's maximum (a config's
# max_ghz below the host's clock, as a guest told of an older CPU than its host's has), that this is no
# disturbance, and the way out.
. "$(dirname "$0")/../lib.sh"

small() { # small OUT [options...]: two L1 points of three repetitions
	local out=$1
	shift
	"$PMUCHECK" run --kernels load.gpr,store.gpr --sizes 16k --threads 1 --reported-levels --min-time 1 \
		--reps 3 --events page-faults "${ONE_STATE[@]}" --no-progress "$@" --out "$out" \
		>"$out.out" 2>&1 &&
		"$PMUCHECK" analyze -q "$out" >/dev/null 2>&1 && "$PMUCHECK" report "$out" >/dev/null 2>&1
}

# machine.json's counts against raw.csv's: every rejected sample is in some pass's clock note ("k of m clock
# samples rejected"), each pass once (its rows, one per event, repeat the note); a repetition without a clock
# is one whose first group's core_ghz is empty. Then report.md's line, from those counts.
consistent() { # consistent DIR
	python3 - "$1" <<'PY'
import csv, json, re, sys
d = sys.argv[1]
c = json.load(open(d + "/machine.json"))["disturbance"]["points"]["clock_samples"]
kinds = ("disturbed", "above_max", "below_floor", "unread")
rejected = sum(c[k] for k in kinds)
passes = {}
for r in csv.DictReader(open(d + "/raw.csv")):
    passes[(r["point"], r["rep"], r["group"])] = r
noted = taken_noted = 0
for r in passes.values():
    m = re.search(r"(\d+) of (\d+) clock samples rejected", r["clock_note"])
    if m:
        noted, taken_noted = noted + int(m.group(1)), taken_noted + int(m.group(2))
without = sum(1 for (p, rep, g), r in passes.items() if g == "0" and not r["core_ghz"])
assert rejected == noted, (c, noted)
assert c["taken"] >= taken_noted and c["taken"] > 0, (c, taken_noted)
assert c["repetitions_without_clock"] == without, (c, without)
line = [l for l in open(d + "/report.md") if l.startswith("- **Clock samples**")]
assert len(line) == 1, line
if rejected:
    share = 100.0 * rejected / c["taken"]
    want = "%d of the run's %d (%.1f %%) were rejected" % (rejected, c["taken"], share)
else:
    want = "none of the run's %d was rejected" % c["taken"]
assert want in line[0], (want, line[0])
print("# %d of %d samples rejected (%s), %d repetitions without a clock" % (
    rejected, c["taken"], ", ".join("%s %d" % (k, c[k]) for k in kinds), without))
PY
}

small "$TMP/own"
check "a run on its own config counts its clock samples as raw.csv's notes give them, and report.md says so" \
	consistent "$TMP/own"
above=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["disturbance"]["points"]["clock_samples"]["above_max"])' \
	"$TMP/own/machine.json")
if [ "$above" = 0 ]; then
	check "... and without a sample above the maximum neither the summary nor report.md names --config" \
		bash -c '! grep -q "architecture.s file takes its bound" "$1.out" "$1/report.md"' _ "$TMP/own"
else
	skip "... and without a sample above the maximum nothing points to --config" \
		"$above samples lay above this machine's maximum"
fi

# A config whose CPU runs at most 1 GHz: every sample of this machine's cores lies above it. Where cpufreq or
# CPUID's leaf 0x16 gives the maximum, the config's is not taken (core_clock.h clock_bounds_read).
sed 's/^prefetch = listed$/&\nmax_ghz = 1.0/' "$TOP/configs/generic.ini" >"$TMP/slowcpu.ini"
small "$TMP/low" --config "$TMP/slowcpu.ini"
source=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["clock"]["bounds"]["max_source"])' "$TMP/low/machine.json")
case $source in
slowcpu.ini\ max_ghz*)
	check "a config's maximum below the cores' clock: the samples above it counted apart" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["disturbance"]["points"]["clock_samples"]
assert c["above_max"] > 0 and c["below_floor"] == 0 and c["unread"] == 0, c' "$TMP/low/machine.json"
	check "... as raw.csv's notes give them" consistent "$TMP/low"
	check "... the run's summary says they are no disturbance and names --config" \
		grep -q "samples lay above the CPU's maximum (machine.json clock.bounds) and were rejected: .*--config" \
		"$TMP/low.out"
	check "... and report.md names the maximum and where it came from" \
		grep -q "above the 1 GHz maximum, from slowcpu.ini max_ghz" "$TMP/low/report.md"
	check "... and the way out" grep -qF "\`run --config\` with the host's architecture's file takes its" \
		"$TMP/low/report.md"
	;;
*) skip "a config's maximum below the cores' clock" "the maximum here is not the config's: $source" ;;
esac
