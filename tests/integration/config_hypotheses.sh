#!/bin/bash
# config_hypotheses.sh — a config's hypotheses travel with the run and are judged by the analysis: with a
# config whose page-faults hypothesis is right (one per first-touched page) and whose minor-faults one is
# deliberately wrong (two per page), machine.json records both by their raw.csv names, the event tables say
# "as configured" for the first and "contradicts the config" naming the scale for the second, the report
# lists the contradiction, and [arch] prefetch = none is why the prefetchers were not touched.
. "$(dirname "$0")/../lib.sh"
d="$TMP/hyp"
cat >"$TMP/hyp.ini" <<'INI'
[arch]
name = hyp
title = hypothesis test
vendor = any
match = any
prefetch = none

[event faults.right]
spec = page-faults
expect = pages * 1

[event faults.wrong]
spec = minor-faults
expect = pages * 2
INI
if ! "$PMUCHECK" run --config "$TMP/hyp.ini" --kernels touch --sizes 32k,256k,4M --threads 1 --reps 3 \
	--min-time 5 --reported-levels --no-progress --out "$d" >"$TMP/run.out" 2>&1 ||
	! "$PMUCHECK" analyze "$d" >>"$TMP/run.out" 2>&1 || ! "$PMUCHECK" report "$d" >>"$TMP/run.out" 2>&1; then
	notok "run, analyze and report with a config of hypotheses" "$(tail -3 "$TMP/run.out")"
	exit 0
fi
ok "run, analyze and report with a config of hypotheses"

check "machine.json records each hypothesis by its raw.csv name, and why the prefetchers were not touched" \
	python3 - "$d/machine.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
h = m["counters"]["experiments"][0]["hypotheses"]
assert sorted(h) == ["minor-faults", "page-faults"], h
assert h["page-faults"]["name"] == "faults.right" and h["page-faults"]["quantity"] == "pages", h
assert h["minor-faults"]["scale"] == 2 and h["minor-faults"]["levels"] == ["L1", "L2", "L3", "DRAM"], h
assert m["prefetch"]["control"] is False and "prefetch = none" in m["prefetch"]["reason"], m["prefetch"]
PY
check "the software events are counted once, as the config's" python3 - "$d/events.json" <<'PY'
import json, sys
names = [e["event"] for e in json.load(open(sys.argv[1]))["events"]]
assert sorted(names) == ["minor-faults", "page-faults"], names
PY
check "events.json: the right hypothesis as configured, the wrong one contradicts it by its scale" \
	python3 - "$d/events.json" <<'PY'
import json, sys
ev = {e["event"]: e for e in json.load(open(sys.argv[1]))["events"]}
r, w = ev["page-faults"], ev["minor-faults"]
assert r["class"] == "exact" and r["config_agreement"] == "as configured", r
assert w["class"] == "exact" and w["config_agreement"] == "contradicts the config", w
assert w["config_check"] == "contradicts the config: scale: configured 2, measured 1", w["config_check"]
assert w["hypothesis"].startswith("pages * 2"), w["hypothesis"]
PY
check "events.csv carries the hypothesis and the check" grep -q \
	'^minor-faults,.*,pages \* 2 (all levels; prefetch on or off),"contradicts the config: scale' "$d/events.csv"
check "report.md lists the contradiction" grep -q \
	'^- \*\*minor-faults\*\* contradicts the config: scale: configured 2, measured 1' "$d/report.md"
check "report.md's event table says as configured for page-faults" grep -q \
	'^| page-faults | user[+a-z]* | pages \* 1 (all levels; prefetch on or off) | as configured' "$d/report.md"

# A machine.json whose hypothesis this pmucheck cannot read (another version's quantity, a negative scale,
# levels not a list or of an unknown word, an unknown scope): analyze refuses it, exit 2, naming the file,
# the event and the member, and writes nothing.
for c in 'quantity|"joules"|'"'quantity' is not a volume or cycles" 'scale|-1|'"'scale' is not a number >= 0" \
	'levels|"L1"|'"member 'levels' is not a list of words" 'levels|["L9"]|'"'levels' holds an unknown word" \
	'scope|"die"|'"'scope' is not core or socket"; do
	key=${c%%|*} rest=${c#*|} val=${rest%%|*} why=${rest#*|}
	rm -rf "$TMP/bad" && mkdir "$TMP/bad" && cp "$d/raw.csv" "$TMP/bad/"
	python3 - "$d/machine.json" "$TMP/bad/machine.json" "$key" "$val" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["counters"]["experiments"][0]["hypotheses"]["page-faults"][sys.argv[3]] = json.loads(sys.argv[4])
json.dump(m, open(sys.argv[2], "w"))
PY
	expect_status "analyze of a hypothesis whose $key is $val: refused" 2 "$PMUCHECK" analyze "$TMP/bad"
	grep -qF "$TMP/bad/machine.json: hypothesis 'page-faults': $why" "$TMP/check.out" ||
		notok "... the message for $key $val" "$(cat "$TMP/check.out")"
	[ "$(ls "$TMP/bad" | tr '\n' ' ')" = "machine.json raw.csv " ] || notok "... $key $val: wrote $(ls "$TMP/bad")"
done

# [arch] prefetch = none: a run asked for both prefetcher states on a CPU whose MSRs it could switch (fake
# MSR files of an Ice Lake server) writes nothing; the same config naming the CPU's table does switch them,
# so the first check could fail.
. "$(dirname "$0")/../pf_fake.sh"
make_fake "$TMP/msr" GenuineIntel:6:0x6a 0x1a4 "$FAKE_NCPU"
pf_run() {
	"$PMUCHECK" run --config "$1" --cpus "$FIRST_CPU" --kernels touch --sizes 32k,256k,4M --threads 1 --reps 1 \
		--min-time 1 --reported-levels --prefetch on,off --no-progress --out "$2" >>"$TMP/pf.out" 2>&1
}
check "prefetch = none: the prefetcher MSRs are not written, and the run says why" \
	eval 'pf_run "$TMP/hyp.ini" "$TMP/none" && at_original &&
	grep -q "prefetchers not controlled.*prefetch = none" "$TMP/pf.out"'
sed 's/^prefetch = none/prefetch = intel-1a4/' "$TMP/hyp.ini" >"$TMP/hyp-1a4.ini"
check "prefetch = intel-1a4 on the same CPU: the off state is written" \
	eval 'pf_run "$TMP/hyp-1a4.ini" "$TMP/1a4" && grep -q ",off," "$TMP/1a4/raw.csv"'

# The same config on a Knights Landing: its table (intel-knl) is MSR 0x1a4 too, with other bits than the
# intel-1a4 the config vouches for; the config describes another machine, so nothing is written, as for a
# table of another MSR, and the run says which two layouts differ (the CPU's table was used before).
make_fake "$TMP/msr-knl" GenuineIntel:6:0x57 0x1a4 "$FAKE_NCPU"
check "prefetch = intel-1a4 on a Knights Landing (intel-knl): the MSRs are not written, and the run says why" \
	eval 'pf_run "$TMP/hyp-1a4.ini" "$TMP/knl" && at_original && ! grep -q ",off," "$TMP/knl/raw.csv" &&
	python3 -c "import json, sys; r = json.load(open(sys.argv[1]))[\"prefetch\"][\"reason\"]
assert \"intel-1a4\" in r and \"intel-knl\" in r, r" "$TMP/knl/machine.json"'
