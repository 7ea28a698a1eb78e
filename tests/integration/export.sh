#!/bin/bash
# export.sh — `pmucheck export`: files each tool's format rules accept, built only from exact and
# approximate events; a clear refusal when nothing is validated or the input is bad.
. "$(dirname "$0")/../lib.sh"
CHECK="python3 $TOP/tests/tools/check_metrics.py"

if ! command -v python3 >/dev/null; then
	skip "export format checks" "python3 not installed (the format validators are Python)"
	exit 0
fi

# --help says which counter a core event validated in user and kernel mode goes on in LIKWID, and what that
# counter needs with LIKWID's perf_event backend
check "export --help names PMC0:KERNEL and the perf_event_paranoid it needs" sh -c \
	"'$PMUCHECK' export --help | tr -s ' \n' ' ' | grep -q 'PMC0:KERNEL .*perf_event backend opens only at perf_event_paranoid <= 1'"

# Bad input: exit 2, nothing written.
expect_status "export without --format is a usage error" 2 "$PMUCHECK" export "$TMP"
expect_status "export of a missing directory is a usage error" 2 "$PMUCHECK" export "$TMP/none" --format perf
mkdir -p "$TMP/raw-only"
expect_status "export before analyze is a usage error" 2 "$PMUCHECK" export "$TMP/raw-only" --format perf
cp "$TMP/check.out" "$TMP/before.out"
check "... and tells the user to run analyze first" grep -q "run 'pmucheck analyze" "$TMP/before.out"
F=$TMP/fixture
mkdir -p "$F" && cp "$TOP/tests/tools/events_every_class.json" "$F/events.json"
cp "$TOP/tests/tools/export_skx/machine.json" "$F/machine.json" # measured with configs/skx.ini
expect_status "an unknown --format is a usage error" 2 "$PMUCHECK" export "$F" --format csv
cp "$TMP/check.out" "$TMP/format.out"
check "... naming the format and the choices" grep -q "unknown format 'csv' (perf, likwid or papi)" "$TMP/format.out"
check "bad input wrote nothing" test ! -e "$F/metrics" -a ! -e "$TMP/raw-only/metrics"
# A verdict class this pmucheck does not know (another version's): refused as merge refuses it, by export and
# report alike (export read it as nothing validated, exit 1; report drew it, exit 0)
K=$TMP/newclass
mkdir -p "$K" && cp "$F/machine.json" "$K/" && python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); d["events"][0]["class"] = "exact since 9"; json.dump(d, open(sys.argv[2], "w"))' \
	"$F/events.json" "$K/events.json"
for cmd in "export --format perf" report; do
	# shellcheck disable=SC2086 # the command and its options
	expect_status "$cmd of an unknown verdict class is refused" 2 "$PMUCHECK" $cmd "$K"
	cp "$TMP/check.out" "$TMP/newclass.out"
	check "... naming the file and the event" grep -q "events.json: malformed: event 1 has no event name or no known class" \
		"$TMP/newclass.out"
done
check "... and wrote nothing" test "$(ls "$K" | tr '\n' ' ')" = "events.json machine.json "
# --out that cannot be a directory is the option's fault: exit 2 naming it (exit 1 once, a temporary file's name)
ln -sfn "$TMP/nowhere/out" "$TMP/dangling-out"
for o in "|--out: an empty directory name" "$TMP/none/x|--out $TMP/none/x: No such file or directory" \
	"$F/events.json|--out $F/events.json: Not a directory" \
	"$TMP/dangling-out|--out $TMP/dangling-out: No such file or directory"; do
	expect_status "--out '${o%%|*}' is a usage error" 2 "$PMUCHECK" export "$F" --format perf --out "${o%%|*}"
	cp "$TMP/check.out" "$TMP/out.out"
	check "... naming the option and why" grep -qxF -- "pmucheck export: ${o#*|}" "$TMP/out.out"
done
check "... and wrote nothing" test ! -e "$F/metrics" -a "$(ls "$F" | tr '\n' ' ')" = "events.json machine.json "
# The names come from the config directory's skx.ini ([export]); a malformed line there is bad input too.
mkdir -p "$TMP/badcfg" && cp "$TOP"/configs/*.ini "$TMP/badcfg/"
printf 'core 0xd0 = x y\n' >>"$TMP/badcfg/skx.ini"
line=$(wc -l <"$TMP/badcfg/skx.ini")
PMUCHECK_CONFIG_DIR=$TMP/badcfg expect_status "a malformed [export] line in the run's config is a usage error" 2 \
	"$PMUCHECK" export "$F" --format perf
cp "$TMP/check.out" "$TMP/badcfg.out"
check "... naming the file and line, and nothing written" \
	sh -c "grep -q 'skx.ini:$line: \[export\] .core 0xd0.: expected core EVENT/UMASK' '$TMP/badcfg.out' && test ! -e '$F/metrics'"
# ... so is a count of LIKWID's boxes that is none (0, a word, more than one)
for units in 0 eight '8 9' 65; do
	cp "$TOP/configs/skx.ini" "$TMP/badcfg/skx.ini"
	printf 'uncore uncore_imc 0x04/0x03 = CAS_COUNT_RD MBOX %s\n' "$units" >>"$TMP/badcfg/skx.ini"
	PMUCHECK_CONFIG_DIR=$TMP/badcfg expect_status "LIKWID's box count '$units' is a usage error" 2 \
		"$PMUCHECK" export "$F" --format perf
	cp "$TMP/check.out" "$TMP/badcfg.out"
	check "... naming the line" grep -q "skx.ini:[0-9]*: \[export\] uncore uncore_imc 0x04/0x03: '.*' is no count of LIKWID's MBOX boxes (1-64)" "$TMP/badcfg.out"
done

# A hand-made events.json with one event of every verdict class.
bad='BAD_PREFETCH_BLIND|BAD_OVERCOUNTS|BAD_UNDERCOUNTS|bad-unrelated|BAD_NOT_MEASURED'
for fmt in perf likwid papi; do
	expect_status "$fmt export of the every-class fixture succeeds" 0 "$PMUCHECK" export "$F" --format $fmt --out "$F/$fmt"
done
check "perf metrics.json follows the pmu-events schema and its expressions parse" $CHECK perf "$F/perf/metrics.json"
check "every LIKWID group follows the group file format" $CHECK likwid "$F"/likwid/skylakeX/*.txt
check "the PAPI user-events file follows the papi_events.csv grammar" $CHECK papi "$F/papi/papi_user_events.csv"
$CHECK perf "$F/perf/metrics.json" --names >"$TMP/perf.names"
$CHECK likwid "$F"/likwid/skylakeX/*.txt --names >"$TMP/likwid.names"
$CHECK papi "$F/papi/papi_user_events.csv" --names >"$TMP/papi.names"
check "no event other than exact/approximate is in any export" \
	sh -c "! grep -qiE '$bad' '$TMP/perf.names' '$TMP/likwid.names' '$TMP/papi.names' $F/perf/* $F/likwid/* $F/papi/*"
check "perf uses all five validated events" test "$(sort -u "$TMP/perf.names" | wc -l)" -eq 5
check "perf spells the UMC event in its own syntax" grep -qx 'amd_umc_0/umc_cas_cmd.rd,umask=0x1/' "$TMP/perf.names"
check "perf names the core events by perf's skylakex table, found by encoding" \
	test "$(grep -c -x -e l1d.replacement -e l2_lines_out.non_silent -e mem_inst_retired.all_loads "$TMP/perf.names")" -eq 3
check "LIKWID gets the core events its skylakeX list has (by event code and umask)" \
	test "$(sort -u "$TMP/likwid.names" | tr '\n' ' ')" = "L1D_REPLACEMENT MEM_INST_RETIRED_ALL_LOADS "
check "PAPI gets every event it can name" test "$(sort -u "$TMP/papi.names" | wc -l)" -eq 4
check "each description carries the evidence" \
	grep -q 'scale 1 events per lines_read (measured 1.004' "$F/perf/metrics.json"

# fixture_with DIR CODE: the fixture in DIR, its events.json changed by the Python CODE, which gets the events
# as d and the L1D:REPLACEMENT verdict as l1d (the other events below are that verdict under other names).
fixture_with() {
	mkdir -p "$1" && cp "$F/machine.json" "$1/"
	python3 - "$F/events.json" "$1/events.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
l1d = next(e for e in d["events"] if e["event"] == "L1D:REPLACEMENT")
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# A validated event whose members are not as the analysis writes them (an edited events.json): refused by
# name, exit 2, nothing written; a scale of 1e-300 was printed "/ 0", levels "L1" and points "many" exported
# as exact, held at nothing.
for c in scale:'l1d["scale"] = 1e-300' error:'l1d["error"] = "huge"' levels:'l1d["levels"] = "L1"' \
	points:'l1d["points"] = "many"'; do
	fixture_with "$TMP/bad-${c%%:*}" "${c#*:}"
	expect_status "export of an event whose ${c%%:*} is not the analysis's is refused" 2 \
		"$PMUCHECK" export "$TMP/bad-${c%%:*}" --format perf --out "$TMP/bad-${c%%:*}/perf"
	cp "$TMP/check.out" "$TMP/bad.out"
	check "... naming the member, writing nothing" \
		bash -c "grep -q \"(L1D:REPLACEMENT): member '${c%%:*}'\" '$TMP/bad.out' && [ ! -e '$TMP/bad-${c%%:*}/perf' ]"
done

# Exported again after the analysis no longer validates an event: its LIKWID group, one file per metric,
# went on standing in the folder LIKWID reads as validated (perf's and PAPI's files are rewritten whole);
# it goes. What is not this results directory's stays: a group of the user's, a user's copy of an exported
# group under a name of its own (its SHORT and LONG kept), and the groups another results directory's
# export wrote into the same folder, which that directory still validates (an export of another run into
# it removed them, as it removed the copy).
O=$TMP/stale
fixture_with "$O" ''
# given relative to the working directory: the groups name the real path, which a later export from
# elsewhere compares
(cd "$TMP" && "$PMUCHECK" export stale --format likwid --out stale/likwid >/dev/null 2>&1)
printf 'SHORT my own group\n\nEVENTSET\nPMC0  L1D_REPLACEMENT\n' >"$O/likwid/skylakeX/MINE.txt"
cp "$O/likwid/skylakeX/READ_BW_L2_L3_DRAM.txt" "$O/likwid/skylakeX/MY_READ_BW.txt"
fixture_with "$O-other" 'l1d["class"] = "overcounts"'
expect_status "LIKWID export of another results directory into the same folder succeeds" 0 \
	"$PMUCHECK" export "$O-other" --format likwid --out "$O/likwid"
check "... the first directory's groups stay, and the user's" \
	test "$(ls "$O/likwid/skylakeX" | tr '\n' ' ')" = "LOADS_PLUS_STORES_RATE.txt MINE.txt MY_READ_BW.txt READ_BW_L2_L3_DRAM.txt "
# the first directory again, its analysis no longer validating L1D:REPLACEMENT, named through a link: its
# groups name its real path
fixture_with "$O" 'l1d["class"] = "overcounts"'
ln -sfn "$O" "$TMP/stale-link"
expect_status "LIKWID export after the analysis dropped an event succeeds" 0 \
	"$PMUCHECK" export "$TMP/stale-link" --format likwid --out "$O/likwid"
check "... the dropped event's group is gone, the other export's and the user's stay" \
	test "$(ls "$O/likwid/skylakeX" | tr '\n' ' ')" = "LOADS_PLUS_STORES_RATE.txt MINE.txt MY_READ_BW.txt "

# Three validated events for one quantity and the same levels whose names differ only where a metric name
# cannot (perf's '.', libpfm4's ':', '/'): each metric has a name of its own.
D=$TMP/dup
fixture_with "$D" 'd["events"] += [dict(l1d, event=n, backend="perf", encoding="pmu=cpu,type=4,config=0x151")
                for n in ("L1D.REPLACEMENT", "L1D/REPLACEMENT")]'
expect_status "perf export of events whose names differ only in punctuation succeeds" 0 \
	"$PMUCHECK" export "$D" --format perf --out "$D/perf"
check "... each has its own MetricName" $CHECK perf "$D/perf/metrics.json"
$CHECK perf "$D/perf/metrics.json" --names >"$TMP/dup.names"
check "... and all three are exported" test "$(grep -ic -x 'l1d.replacement' "$TMP/dup.names")" -eq 3

# Names that differ only in case (perf takes l1d.replacement and L1D.REPLACEMENT alike): LIKWID's group files
# and PAPI's presets are the names in capitals, so each must differ in more than case (two once became one
# file, the second truncating the first, and the export failed half written).
C=$TMP/case
fixture_with "$C" 'd["events"] += [dict(l1d, event=n, backend="perf", encoding="pmu=cpu,type=4,config=0x151")
                for n in ("l1d.replacement", "L1D.REPLACEMENT")]'
for fmt in likwid papi; do
	expect_status "$fmt export of events whose names differ only in case succeeds" 0 \
		"$PMUCHECK" export "$C" --format $fmt --out "$C/$fmt"
done
check "... LIKWID: a group file each, no two alike in any case" python3 - "$C/likwid" <<'PY'
import os, sys
files = [f for _, _, fs in os.walk(sys.argv[1]) for f in fs if f.endswith(".txt")]
assert len(files) == len({f.upper() for f in files}) and sum("L1D_REPLACEMENT" in f.upper() for f in files) >= 2, files
PY
check "... PAPI: perf's alias names left out, naming them as such" grep -q \
	"^#   l1d.replacement: a perf alias or modified name, which PAPI does not take as perf::NAME" \
	"$C/papi/papi_user_events.csv"

# A sysfs alias with a .scale: perf stat prints its count times the scale, in the alias's unit (MiB), and the
# event was validated on the count itself, so perf-stat.txt's formula divides the scale out again (it once
# read 16384x too low).
S=$TMP/scaled
fixture_with "$S" 'd["events"] = [dict(l1d, event="uncore_imc_0/cas_count_read/", backend="perf", scope="socket",
                    levels=["DRAM"], encoding="pmu=uncore_imc_0,type=17,config=0x304,scale=6.103515625e-05,unit=MiB")]'
expect_status "perf export of a scaled sysfs alias succeeds" 0 "$PMUCHECK" export "$S" --format perf --out "$S/perf"
check "... perf-stat.txt's formula divides perf's scale out of the count it prints" grep -qF \
	"# read_bw_DRAM [GB/s] = (count / 6.103515625e-05) / 1 * 64 / 1000000000 / seconds" "$S/perf/perf-stat.txt"
# ... and summed over its boxes, with the scale the run records on the summed row (boxes_sum_encoding)
fixture_with "$S-sum" 'd["events"] = [dict(l1d, event="uncore_imc_*/cas_count_read/", backend="perf", scope="socket",
                    levels=["DRAM"], encoding="sum of 4 boxes,domain=all,scale=6.103515625e-05,unit=MiB")]'
expect_status "perf export of a scaled alias summed over its boxes succeeds" 0 "$PMUCHECK" export "$S-sum" --format perf --out "$S-sum/perf"
check "... its formula divides the scale out too" grep -qF \
	"# read_bw_DRAM [GB/s] = (count / 6.103515625e-05) / 1 * 64 / 1000000000 / seconds" "$S-sum/perf/perf-stat.txt"

# An event validated in user mode alone: its scale holds there, so perf's command line keeps the modifier and
# every description says so (the modifier was dropped: perf then counted the kernel's lines too).
U=$TMP/user
fixture_with "$U" 'd["events"] = [dict(l1d, event="cpu/event=0x51,umask=0x1/u", backend="perf",
                    encoding="pmu=cpu,type=4,config=0x151,domain=user")]'
for fmt in perf likwid; do
	expect_status "$fmt export of an event counted in user mode only succeeds" 0 \
		"$PMUCHECK" export "$U" --format $fmt --out "$U/$fmt"
	check "... its description says so" grep -rq "counted in user mode only" "$U/$fmt"
done
check "... perf stat counts it with :u" grep -qx "perf stat -e 'l1d.replacement:u' -- ./app" "$U/perf/perf-stat.txt"
check "... and so does metrics.json's expression, which parses" sh -c \
	"grep -q '\"MetricExpr\": \"l1d.replacement:u / ' '$U/perf/metrics.json' && $CHECK perf '$U/perf/metrics.json'"
# ... and one of a hybrid's core PMU, kept in the syntax it was counted in with its modifier: the modifier
# is the domain already (perf stat read 'cpu_core/.../u:u', an event syntax error to perf).
fixture_with "$U-hybrid" 'd["events"] = [dict(l1d, event="cpu_core/event=0x51,umask=0x1/u", backend="perf",
                    encoding="pmu=cpu_core,type=4,config=0x151,domain=user")]'
expect_status "perf export of a hybrid core PMU's event counted with :u succeeds" 0 \
	"$PMUCHECK" export "$U-hybrid" --format perf --out "$U-hybrid/perf"
check "... perf stat counts it with its one modifier" \
	grep -qx "perf stat -e 'cpu_core/event=0x51,umask=0x1/u' -- ./app" "$U-hybrid/perf/perf-stat.txt"
check "... and so does metrics.json's expression" \
	grep -qF '"MetricExpr": "cpu_core@event\\=0x51\\,umask\\=0x1@u / ' "$U-hybrid/perf/metrics.json"
# ... and perf names kept as counted with modifiers of their own: a u is the domain already, other
# modifiers take its letter among them (perf-stat.txt read 'page-faults:u:u', an event syntax error to perf).
fixture_with "$U-mods" 'd["events"] = [dict(l1d, event=n, backend="perf", encoding="type=1,config=0x2,domain=user")
                    for n in ("page-faults:u", "page-faults:S")]'
expect_status "perf export of perf names counted with modifiers succeeds" 0 \
	"$PMUCHECK" export "$U-mods" --format perf --out "$U-mods/perf"
mods=$(sed -n "s/^perf stat -e '\([^']*\)' -- .*/\1/p" "$U-mods/perf/perf-stat.txt" | sort | tr '\n' ' ')
check "... perf stat counts each with one modifier list ($mods)" test "$mods" = "page-faults:Su page-faults:u "
if command -v perf >/dev/null && perf version >/dev/null 2>&1; then
	for ev in $mods; do
		perf stat -x, -e "$ev" true >"$TMP/perf-mods.out" 2>&1
		check "... which this machine's perf parses: $ev" sh -c "! grep -q 'event syntax error' '$TMP/perf-mods.out'"
	done
else
	skip "... which this machine's perf parses" "perf not installed (Debian linux-perf)"
fi

# The same events measured on an Ice Lake server (configs/icx.ini), with a memory-controller event summed
# over 4 boxes: LIKWID's icelakeX names by code and umask (L2_LINES_OUT_NON_SILENT is 0xf2/0x02 there,
# not in skylakeX's list), in LIKWID's ICX group folder, the IMC event on MBOX0C0..MBOX3C0 summed.
I=$TMP/icx
mkdir -p "$I"
python3 - "$TOP/tests/tools/export_skx" "$I" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
m = json.load(open(src + "/machine.json"))
m["config"] = {"path": "configs/icx.ini", "arch": "icx"}
json.dump(m, open(dst + "/machine.json", "w"))
d = json.load(open(src + "/events.json"))
imc = dict(d["events"][0], event="uncore_imc_*/event=0x04,umask=0x0f/", backend="perf",
           encoding="sum of 4 boxes,domain=all", scope="socket", levels=["DRAM"])
d["events"] = [e for e in d["events"] if e["backend"] == "papi" and "config=" in e["encoding"]] + [imc]
json.dump(d, open(dst + "/events.json", "w"))
PY
expect_status "LIKWID export of the Ice Lake server fixture succeeds" 0 "$PMUCHECK" export "$I" --format likwid --out "$I/likwid"
check "its groups go to LIKWID's ICX folder and follow the group file format" $CHECK likwid "$I"/likwid/ICX/*.txt
$CHECK likwid "$I"/likwid/ICX/*.txt --names >"$TMP/icx.names" 2>&1
check "LIKWID's icelakeX names, the offcore event left out" \
	test "$(sort -u "$TMP/icx.names" | tr '\n' ' ')" = "CAS_COUNT_RD INST_RETIRED_ANY_P L1D_REPLACEMENT L2_LINES_OUT_NON_SILENT MEM_INST_RETIRED_ALL_LOADS "
check "the memory-controller event is counted on every box the run summed, and summed" \
	sh -c "grep -l CAS_COUNT_RD '$I'/likwid/ICX/*.txt | xargs -d '\n' grep -q '(MBOX0C0+MBOX1C0+MBOX2C0+MBOX3C0)\*'"

# Zen 3's L3 event given by its libpfm4 name and counted through perf (harness ctr_spec.c: an uncore PMU
# in sysfs): perf parses no libpfm4 name, so the export spells it by the PMU and the config libpfm4
# resolved (and PAPI by the libpfm4 name itself); the same name summed over boxes has no one encoding,
# and neither gets it.
Z=$TMP/zen3-pfm
mkdir -p "$Z"
python3 - "$TOP/tests/tools/export_zen3" "$Z" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
d = json.load(open(src + "/events.json"))
l3 = next(e for e in d["events"] if e["event"].startswith("amd64_fam19h_zen3_l3::"))
l3.update(backend="perf", encoding="pmu=amd_l3,type=14,config=0xff04,domain=all,via=libpfm4:amd64_fam19h_zen3_l3")
boxes = dict(l3, event="skx_unc_imc*::UNC_M_CAS_COUNT:RD", encoding="sum of 6 boxes,domain=all",
             quantity="lines_written")
d["events"].append(boxes)
json.dump(d, open(dst + "/events.json", "w"))
PY
cp "$TOP/tests/tools/export_zen3/machine.json" "$Z/"
for fmt in perf papi; do
	expect_status "$fmt export of libpfm4 uncore names succeeds" 0 "$PMUCHECK" export "$Z" --format $fmt --out "$Z/$fmt"
	cp "$TMP/check.out" "$TMP/pfm-$fmt.out"
done
$CHECK perf "$Z/perf/metrics.json" --names >"$TMP/pfm.names"
check "perf gets the libpfm4 uncore event as its PMU and config, valid" \
	sh -c "$CHECK perf '$Z/perf/metrics.json' && grep -qx 'amd_l3/config=0xff04/' '$TMP/pfm.names' && ! grep -q '::' '$TMP/pfm.names' && ! grep '^perf stat' '$Z/perf/perf-stat.txt' | grep -q '::'"
# PAPI takes a user event's native events from its perf_event component alone (papi_preset.c,
# check_native_events), and drops one of perf_event_uncore's without a word: so no uncore event is exported
check "PAPI leaves the uncore event out, saying why" sh -c "! grep -q '^PRESET.*_l3::' '$Z/papi/papi_user_events.csv' && grep -q '^#   amd64_fam19h_zen3_l3::UNC_L3_REQUESTS:ALL: an uncore event' '$Z/papi/papi_user_events.csv'"
check "... the box sum left out of perf, and of PAPI, saying why" \
	sh -c "grep -q 'sum has no one encoding' '$TMP/pfm-perf.out' && grep -q 'PAPI has no one name for it' '$TMP/pfm-papi.out' && ! grep -q '^PRESET.*skx_unc_imc' '$Z/papi/papi_user_events.csv'"

# What PAPI cannot count as exported is left out, saying why: a preset derived from several native events
# (PAPI_LST_INS, loads + stores: PAPI takes its natives without its formula, and a user event naming it
# counts the first alone), and past the 50 user events PAPI keeps (papi.h PAPI_MAX_USER_EVENTS), which it
# refuses from a file ("No room left").
P=$TMP/papi-limits
mkdir -p "$P" && cp "$TOP/tests/tools/export_skx/machine.json" "$P/"
python3 - "$TOP/tests/tools/export_skx" "$P" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
d = json.load(open(src + "/events.json"))
base = d["events"][0]
d["events"] = [dict(base, event="PAPI_LST_INS", encoding="papi=0x8000003c,component=perf_event")] + \
    [dict(base, event="soft-%02d" % i, backend="perf", encoding="type=1,config=%d" % i) for i in range(60)]
json.dump(d, open(dst + "/events.json", "w"))
PY
expect_status "papi export of a derived preset and 60 events succeeds" 0 "$PMUCHECK" export "$P" --format papi --out "$P/papi"
check "... the derived preset left out, saying why" \
	sh -c "grep -q '^#   PAPI_LST_INS: a PAPI preset derived from several native events' '$P/papi/papi_user_events.csv' && ! grep -q '^PRESET.*PAPI_LST_INS' '$P/papi/papi_user_events.csv'"
check "... 50 user events written, the other 10 left out, saying why" \
	sh -c "test \$(grep -c '^PRESET,' '$P/papi/papi_user_events.csv') -eq 50 && test \$(grep -c 'past the 50 user events PAPI keeps' '$P/papi/papi_user_events.csv') -eq 10"

# A results directory with nothing validated: exit 1, a clear message, no empty files.
N=$TMP/none-valid
mkdir -p "$N"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
d["events"] = [e for e in d["events"] if e["class"] not in ("exact", "approximate")]
json.dump(d, open(sys.argv[2], "w"))' "$F/events.json" "$N/events.json"
cp "$F/machine.json" "$N/"
expect_status "export with nothing validated exits 1" 1 "$PMUCHECK" export "$N" --format perf
cp "$TMP/check.out" "$TMP/none.out"
check "... saying nothing was validated" grep -q "nothing validated" "$TMP/none.out"
check "... and writes no file" test ! -e "$N/metrics"
# ... where an earlier export of the directory wrote files, nothing validated any more (exit 1): they go too, in
# each format (they stayed, presented as validated); another results directory's export into the same folder
# and the user's files stay
R=$TMP/revoked
fixture_with "$R" ''
for fmt in perf likwid papi; do
	"$PMUCHECK" export "$R" --format $fmt >/dev/null 2>&1
done
fixture_with "$R-other" 'd["events"] = [dict(l1d, levels=["L3"])]'
"$PMUCHECK" export "$R-other" --format likwid --out "$R/metrics" >/dev/null 2>&1
echo mine >"$R/metrics/notes.txt"
fixture_with "$R" 'd["events"] = [e for e in d["events"] if e["class"] not in ("exact", "approximate")]'
for fmt in perf likwid papi; do
	expect_status "$fmt export of a directory no longer validating anything exits 1" 1 \
		"$PMUCHECK" export "$R" --format $fmt
	cp "$TMP/check.out" "$TMP/revoked-$fmt.out"
	check "... saying what it removed" grep -q "removed what an earlier export of $R wrote, which this one does not write again (where a file could not be, it says why): $R/metrics/" "$TMP/revoked-$fmt.out"
done
check "... every file the earlier export wrote is gone, the other directory's group and the user's file stay" \
	test "$(cd "$R/metrics" && find . -type f | sort | tr '\n' ' ')" = "./notes.txt ./skylakeX/READ_BW_L3.txt "
# ... also of a results directory whose real path is long: the evidence that names it was cut at 768 bytes,
# and its groups, no longer naming it whole, stayed
L=$TMP/$(printf 'x%.0s' {1..200})/$(printf 'y%.0s' {1..200})/$(printf 'z%.0s' {1..200})/long
mkdir -p "${L%/*}"
fixture_with "$L" ''
"$PMUCHECK" export "$L" --format likwid >/dev/null 2>&1
fixture_with "$L" 'd["events"] = [e for e in d["events"] if e["class"] not in ("exact", "approximate")]'
"$PMUCHECK" export "$L" --format likwid >/dev/null 2>&1
check "... the groups of a directory of a ${#L}-byte path go too" \
	test -z "$(find "$L/metrics" -type f -name '*.txt' 2>/dev/null)" -a -d "$L/metrics"
# ... and where the architecture's config no longer loads (so no LIKWID names, no folder of groups to clear),
# still nothing to export: exit 1, where the config's error made it exit 2
mkdir -p "$TMP/badconfig" && echo '[arch' >"$TMP/badconfig/skx.ini"
PMUCHECK_CONFIG_DIR=$TMP/badconfig expect_status \
	"likwid export with nothing validated and a config that does not load exits 1, not as an error" 1 \
	"$PMUCHECK" export "$R" --format likwid
"$PMUCHECK" export "$R-other" --format perf --out "$R/metrics" >/dev/null 2>&1
expect_status "perf export of it again into a folder another directory's perf export wrote to exits 1" 1 \
	"$PMUCHECK" export "$R" --format perf
check "... and leaves that export's files" test -s "$R/metrics/metrics.json" -a -s "$R/metrics/perf-stat.txt"

# This machine: software events from a real run. page-faults comes out exact on every Linux (report.sh and
# validate_software.sh assert it), so a run where it did not is a failure, not a machine to skip: the block
# that exports it runs always, and fails where there is nothing exact to export.
D=$TMP/run
check "a run counting page-faults and cycles succeeds" "$PMUCHECK" run --kernels touch --sizes 64k,256k,1M \
	--threads 1 --reps 3 --min-time 5 --reported-levels --events page-faults,cycles --keep-going --no-progress \
	"${ONE_STATE[@]}" --out "$D"
check "... and is analysed" "$PMUCHECK" analyze "$D"
check "... page-faults exact" python3 -c 'import json, sys
ev = {e["event"]: e for e in json.load(open(sys.argv[1]))["events"]}
assert ev["page-faults"]["class"] == "exact", ev.get("page-faults")' "$D/events.json"
expect_status "perf export of this machine's run succeeds" 0 "$PMUCHECK" export "$D" --format perf
check "... into DIR/metrics, valid" $CHECK perf "$D/metrics/metrics.json"
check "... with page-faults" grep -q 'page\\\\-faults' "$D/metrics/metrics.json"
# 'cycles' has no core PMU to count it on these guests; where one counts it, its verdict decides.
cyc=$(raw_status "$D/raw.csv" cycles)
case ${cyc%% *} in
not_measured) check "... and not the unmeasured cycles" test -z "$(grep cycles "$D/metrics/metrics.json")" ;;
ok) skip "... and not the unmeasured cycles" "this machine counts cycles" ;;
*) notok "raw.csv has 'cycles' counted or not measured" "status and reason: '$cyc'" ;;
esac
expect_status "LIKWID cannot name software events: exit 1" 1 "$PMUCHECK" export "$D" --format likwid
cp "$TMP/check.out" "$TMP/likwid.out"
check "... and says why" grep -q "software and generic events have no LIKWID name" "$TMP/likwid.out"
expect_status "papi export of this machine's run succeeds" 0 "$PMUCHECK" export "$D" --format papi
check "... valid, with perf::PAGE-FAULTS" sh -c "$CHECK papi '$D/metrics/papi_user_events.csv' && grep -q 'perf::PAGE-FAULTS' '$D/metrics/papi_user_events.csv'"
