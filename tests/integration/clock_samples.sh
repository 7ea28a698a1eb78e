#!/bin/bash
# clock_samples.sh — a run counts its clock samples by why they were rejected (machine.json
# disturbance.points.clock_samples), as raw.csv's clock notes give them one pass at a time, and the run's
# summary and report.md say what became of them: where most lay above a config's maximum (a guest told of an
# older CPU than its host's, whose config gives that CPU's clock), that the cores run faster than the config's
# CPU, and how to keep their clock.
. "$(dirname "$0")/../lib.sh"

small() { # small OUT REPS [options...]: two L1 points of REPS repetitions, run, analysed and reported
	local out=$1 reps=$2
	shift 2
	"$PMUCHECK" run --kernels load.gpr,store.gpr --sizes 16k --reported-levels --min-time 1 \
		--reps "$reps" --events page-faults "${ONE_STATE[@]}" --no-progress "$@" --out "$out" \
		>"$out.out" 2>&1 && "$PMUCHECK" analyze -q "$out" >>"$out.out" 2>&1 &&
		"$PMUCHECK" report "$out" >>"$out.out" 2>&1 || { tail -5 "$out.out"; return 1; }
}

# machine.json's counts against raw.csv's: every rejected sample is in its pass's clock note ("k of m clock
# samples rejected"), each pass once (its rows, one per event, repeat the note); a repetition without a clock
# is one whose first group's core_ghz is empty; add chains take two samples a thread and pass (before and
# after its calls), APERF/MPERF one. Then report.md's line, from those counts.
consistent() { # consistent DIR
	python3 - "$1" <<'PY'
import csv, json, re, sys
d = sys.argv[1]
m = json.load(open(d + "/machine.json"))
c = m["disturbance"]["points"]["clock_samples"]
kinds = ("disturbed", "above_max", "below_floor", "unread")
rejected = sum(c[k] for k in kinds)
passes = {}
for r in csv.DictReader(open(d + "/raw.csv")):
    passes[(r["point"], r["rep"], r["group"])] = r
noted = 0
for r in passes.values():
    k = re.search(r"(\d+) of \d+ clock samples rejected", r["clock_note"])
    noted += int(k.group(1)) if k else 0
without = sum(1 for (p, rep, g), r in passes.items() if g == "0" and not r["core_ghz"])
per = 2 if "aperf_mperf" in m["clock"] else 1
taken = sum(per * int(r["threads"]) for r in passes.values())
assert rejected == noted, (c, noted)
assert c["repetitions_without_clock"] == without, (c, without)
assert c["taken"] == taken or m["disturbance"]["points"]["repetitions_by_chains"], (c, taken)
line = [l for l in open(d + "/report.md") if l.startswith("- **Clock samples**")]
assert len(line) == 1, line
if rejected:
    share = 100.0 * rejected / c["taken"]
    want = "%d of the %d the run took (a resumed run's since it resumed; %.1f %%) were rejected" % (
        rejected, c["taken"], share)
else:
    want = "none of the %d the run took (a resumed run's since it resumed) was rejected" % c["taken"]
assert want in line[0], (want, line[0])
# the points none of whose repetitions kept a clock: judged at the run's, or with none where it has none
clocked = {}
for (p, rep, g), r in passes.items():
    if g == "0":
        clocked[p] = clocked.get(p, False) or r["core_ghz"] != ""
of_run = sum(1 for v in clocked.values() if not v)
if of_run:
    run_ghz = m["clock"]["core_ghz"]
    s = "" if of_run == 1 else "s"
    want = ("%d point%s, none of whose repetitions kept one, %s judged at the run's %.2f GHz" % (
        of_run, s, "was" if of_run == 1 else "were", run_ghz) if run_ghz else
        "%d point%s, none of whose repetitions kept one, %s none at all" % (
        of_run, s, "has" if of_run == 1 else "have"))
    assert want in line[0], (want, line[0])
else:
    assert "none of whose repetitions kept one" not in line[0], line[0]
print("# %d of %d samples rejected (%s), %d repetition(s) without a clock" % (
    rejected, c["taken"], ", ".join("%s %d" % (k, c[k]) for k in kinds), without))
PY
}

# one round of revisits: their samples are summed with the plan's (run_job.c tally_points), as raw.csv holds
# both
check "a run of two kernels at one size and their revisits on this machine's config, analysed and reported" \
	small "$TMP/own" 3 --threads "$(two_threads)" --revisits 1
check "... which revisited each of them (one variant a row)" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["disturbance"]["revisits"]["points"] == m["points"] > 0, m["disturbance"]["revisits"]' \
	"$TMP/own/machine.json"
check "a run on its own config counts its clock samples as raw.csv's notes give them, and report.md says so" \
	consistent "$TMP/own"
check "... and where its samples agree with its maximum, neither the summary nor report.md names a copy" \
	bash -c '! grep -q "host.s max_ghz" "$1.out" "$1/report.md"' _ "$TMP/own"

# A config whose CPU runs at most 1 GHz: every sample of this machine's cores whose runs agree lies above it.
# Where cpufreq or CPUID's leaf 0x16 gives the maximum, the config's is not taken (clock_bounds_read).
sed 's/^prefetch = listed$/&\nmax_ghz = 1.0/' "$TOP/configs/generic.ini" >"$TMP/slowcpu.ini"
check "the config's copy gives a maximum of 1 GHz" grep -qx "max_ghz = 1.0" "$TMP/slowcpu.ini"
# Ten repetitions: on this VM 11 of 12 samples of three were rejected as disturbed, so few were left to judge.
check "... and one on a config whose CPU runs at most 1 GHz" \
	small "$TMP/low" 10 --threads 1 --config "$TMP/slowcpu.ini"
from=$(python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["clock"]["bounds"]
print(b.get("max_from", ""), b["max_source"])' "$TMP/low/machine.json")
# what the samples say (clock_words.h clock_config_max_too_low): most of those whose runs agreed above it
judged=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["disturbance"]["points"]["clock_samples"]
agreed = c["taken"] - c["disturbed"] - c["unread"]
print(c["above_max"], "most" if 2 * c["above_max"] > agreed else "few")' "$TMP/low/machine.json")
if [ "${from%% *}" != config ]; then
	skip "a config's maximum below the cores' clock" "the maximum here is not the config's: $from"
elif [ "${judged% *}" = 0 ]; then
	skip "a config's maximum below the cores' clock" "every sample's runs disagreed: none to judge"
else
	check "a config's maximum below the cores' clock: the samples above it counted apart" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["disturbance"]["points"]["clock_samples"]
assert c["above_max"] > 0 and c["below_floor"] == 0 and c["unread"] == 0, c' "$TMP/low/machine.json"
	check "... as raw.csv's notes give them" consistent "$TMP/low"
	check "... and report.md names the maximum and where it came from" \
		grep -q "above the 1 GHz maximum, from slowcpu.ini max_ghz" "$TMP/low/report.md"
	# a sample that a host's time slices slowed evenly through both its runs agrees with itself and may
	# read below 1 GHz: then it is kept, and may outnumber those above
	if [ "${judged#* }" = most ]; then
		check "... the run's summary names the maximum, its file, and says the cores run faster" \
			grep -q "lay above the 1 GHz maximum of slowcpu.ini max_ghz .*cores run faster" \
			"$TMP/low.out"
		check "... and report.md says how to keep the clock" \
			grep -qF "a copy of the config with the host's max_ghz, given to \`run --config\`" \
			"$TMP/low/report.md"
	else
		skip "... the summary and report.md say the cores run faster" \
			"as many samples kept below 1 GHz as above it (${judged% *})"
	fi
fi
