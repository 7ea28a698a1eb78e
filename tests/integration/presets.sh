#!/bin/bash
# presets.sh — each seed-paper preset runs end to end here (hardware events "not measured"), and its
# report puts the paper's figures beside the measured ones. Shortened with --quick, 2 repetitions and
# 1 ms calls so the suite stays fast; the full presets are the same code with more points.
. "$(dirname "$0")/../lib.sh"

for preset in molka2017 helm2020 larysch2016; do
	d="$TMP/$preset"
	start=$(date +%s)
	# a preset sets its own prefetcher states (on and off for some): no MSR file for it to switch (lib.sh's
	# PMUCHECK_MSR_DIR)
	if ! "$PMUCHECK" --preset "$preset" --quick --reps 2 --min-time 1 --no-progress \
		--out "$d" >"$TMP/$preset.out" 2>&1; then
		notok "preset $preset runs, is analysed and reported" "$(tail -3 "$TMP/$preset.out")"
		continue
	fi
	ok "preset $preset runs, is analysed and reported ($(($(date +%s) - start)) s)"
	check "$preset: machine.json names the preset and its paper tables, copied along" python3 - "$d" "$preset" <<'PY'
import json, os, sys
m = json.load(open(sys.argv[1] + "/machine.json"))
p = m["preset"]
assert p["name"] == sys.argv[2], p
assert p["reference"], p
for ref in p["reference"]:
    assert os.path.exists(os.path.join(sys.argv[1], ref)), ref
PY
	check "$preset: the report shows the paper's table" grep -q "^## Seed paper reference: preset $preset" "$d/report.md"
	# Whether the run itself could count hardware events (it opened 'instructions'): a machine with a PMU
	# judges them, and the check is skipped with that reason, not left out without a word.
	name="$preset: without a PMU every hardware event is 'not measured', never judged"
	hw=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["counters"]["availability"]["hardware"])' \
		"$d/machine.json" 2>&1)
	if [ "$hw" = True ]; then
		skip "$name" "this machine counts hardware events (machine.json: counters.availability.hardware)"
	elif [ "$hw" = False ]; then
		check "$name" python3 - "$d/events.json" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1]))["events"]:
    if e["event"] not in ("page-faults", "minor-faults"):
        assert e["class"] == "not measured" and e["note"], e
PY
	else
		notok "$name" "machine.json has no counters.availability.hardware: $hw"
	fi
done
check "molka2017: Table 2 columns beside the measured ones" grep -q "GB/s paper | GB/s here" "$TMP/molka2017/report.md"
