#!/bin/bash
# discover.sh — `pmucheck discover`: candidates from libpfm4's tables of other CPUs (forced), from a vendor
# JSON file (same encodings as libpfm4's), from a fake sysfs tree with aliases and scales; groups and the
# time estimate; bad vendor files refused with nothing written; end to end with software events, every
# hardware candidate recorded as not measured with its reason, and the written config reloading.
. "$(dirname "$0")/../lib.sh"
JSON="$TOP/tests/discover/skylakex_sample.json"
DRY=(discover --dry-run --reported-levels --no-sysfs --list)
forced() { LIBPFM_FORCE_PMU=$1 LIBPFM_ENCODE_INACTIVE=1 "${@:2}"; }
export PYTHONPATH=$TOP/tests/tools${PYTHONPATH:+:$PYTHONPATH} # discover_list.py

# Per forced PMU: the candidates are that PMU's and, where its config's [arch] pmu_uncore names them,
# its uncore PMUs' (libpfm4 forgets those when forced: read by forcing each in turn), every group fits its
# counters, the groups are at least the events over the counters, one known encoding is libpfm4's (checked
# against the kernel's perf JSON: L2_RQSTS.ALL_DEMAND_DATA_RD 0x24/0xe1 in skylakex, haswellx,
# sapphirerapids cache.json; ls_dmnd_fills_from_sys.local_l2 0x43/0x01 in amdzen3 and amdzen4 cache.json;
# UNC_M_CAS_COUNT.RD 0x04/0x03 in skylakex and haswellx uncore-memory.json), and the time is stated.
for spec in 'hsw_ep:L2_RQSTS.ALL_DEMAND_DATA_RD:0xe124:hswep_unc_imc*:UNC_M_CAS_COUNT.RD:0x304' \
	'skx:L2_RQSTS.ALL_DEMAND_DATA_RD:0xe124:skx_unc_imc*:UNC_M_CAS_COUNT.RD:0x304' \
	'spr:L2_RQSTS.ALL_DEMAND_DATA_RD:0xe124:::' \
	'amd64_fam19h_zen3:DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM.LCL_L2:0x143:amd64_fam19h_zen3_l3:UNC_L3_MISSES.ALL:' \
	'amd64_fam19h_zen4:DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM.LCL_L2:0x143:::'; do
	IFS=: read -r pmu name config upmu uname uconfig <<<"$spec"
	forced "$pmu" "$PMUCHECK" "${DRY[@]}" --out "$TMP/none-$pmu" >"$TMP/$pmu.out" 2>&1
	check "$pmu: candidates, groups within the counters, $name = $config, ${uname:-no uncore}, a time estimate" \
		python3 - "$TMP/$pmu.out" "$pmu" "$name" "$config" "$upmu" "$uname" "$uconfig" <<'PY'
import math, re, sys
from discover_list import candidates
out, pmu, name, config, upmu, uname, uconfig = open(sys.argv[1]).read(), *sys.argv[2:]
rows = candidates(out)
n = int(re.search(r"^candidates: (\d+) \(sysfs 0, libpfm4 (\d+)", out, re.M).group(1))
assert n == len(rows) and n >= 50, (n, len(rows))
core = [r for r in rows if r[2] == pmu]
unc = [r for r in rows if r[2] != pmu]
assert all(r[3] == "libpfm4" for r in rows), {r[3] for r in rows}
assert {r[1]: r[4] for r in core}[f"{pmu}::{name.replace('.', ':', 1)}"] == config
groups_all = 0
for p in sorted({r[2] for r in rows}):
    m = re.search(rf"{re.escape(p)}: (\d+) events? in (\d+) groups? of at most (\d+)", out)
    events, groups, counters = map(int, m.groups())
    k = sum(r[2] == p for r in rows)
    assert events == k and math.ceil(k / counters) <= groups <= k, (p, events, groups, counters)
    groups_all += groups
if upmu:
    # the uncore PMUs: box kinds as one wildcard each ("skx_unc_imc*"), or the PMU itself; counted per socket
    kinds = {r[2] for r in unc}
    assert upmu in kinds, kinds
    assert all(r[1].startswith(r[2] + "::") for r in unc)
    spec = f"{upmu}::{uname.replace('.', ':', 1)}"
    got = {r[1]: r[4] for r in unc}
    assert spec in got, (spec, sorted(got)[:5])
    assert not uconfig or got[spec] == uconfig, (spec, got[spec], uconfig)
    assert re.search(rf"^candidates: .*; {len(unc)} uncore\)", out, re.M)
else:
    assert not unc, {r[2] for r in unc}
# offcore-response events (config1) of one MSR never share a group: at least as many groups as those
offcore = {}
for r in core:
    if r[5] not in ("", "0x0"):
        offcore[int(r[4], 16) & 0xff] = offcore.get(int(r[4], 16) & 0xff, 0) + 1
assert groups_all >= max(offcore.values(), default=0), (groups_all, offcore)
t = re.search(r"time on the candidates' CPU: at least (\d+) s .*about (\d+) s", out)
assert 0 < int(t.group(1)) < int(t.group(2)), t.group(0)
assert "dry run: nothing measured, nothing written" in out
print(f"# {pmu}: {n} candidates ({len(unc)} uncore), {groups_all} groups, {t.group(1)}-{t.group(2)} s")
PY
	check "$pmu: a dry run writes nothing" test ! -e "$TMP/none-$pmu"
done

# Umask unions: every union candidate ("EVENT:U1:U2:...") encodes as the bitwise OR of its umasks alone,
# which differ only in the umask field (bits 8-15) and config1, and is no single umask's or the default's
# encoding; Zen 3's DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM has the union of its six sources (0x43, umasks
# 0x01|0x02|0x04|0x08|0x10|0x40 = 0x5f: amdzen3 cache.json ls_dmnd_fills_from_sys.* umasks).
for pmu in amd64_fam19h_zen3 skx; do
	forced "$pmu" "$PMUCHECK" "${DRY[@]}" --all --pmu "$pmu" >"$TMP/u-$pmu.out" 2>&1
done
check "umask unions are ORs of single umasks, in the umask field only; Zen 3's fills from all sources" \
	python3 - "$TMP/u-amd64_fam19h_zen3.out" "$TMP/u-skx.out" <<'PY'
import sys
from discover_list import candidates
for path in sys.argv[1:]:
    rows = candidates(open(path).read())
    enc = {r[1]: (int(r[4], 16), int(r[5], 16)) for r in rows}
    unions = [r for r in rows if "OR-ed" in r[9]]
    assert unions, path
    for r in unions:
        pmu, rest = r[1].split("::")
        event, *umasks = rest.split(":")
        assert len(umasks) >= 2, r[1]
        parts = [enc[f"{pmu}::{event}:{u}"] for u in umasks]
        c = c1 = 0
        for p, p1 in parts:
            assert p & ~0xff00 == parts[0][0] & ~0xff00, (r[1], hex(p))
            c, c1 = c | p, c1 | p1
        assert enc[r[1]] == (c, c1), (r[1], enc[r[1]], (c, c1))
        assert (c, c1) not in [enc[k] for k in enc if k.startswith(f"{pmu}::{event}") and k != r[1] and k.count(":") <= 3], r[1]
    print(f"# {path.split('u-')[-1][:-4]}: {len(unions)} umask unions")
zen3 = {r[1]: r for r in candidates(open(sys.argv[1]).read())}
u = "amd64_fam19h_zen3::DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT"
assert zen3[u][4] == "0x5f43", zen3.get(u)
PY

# The vendor file: metrics and fixed-counter events skipped, the rest with the encodings libpfm4 gives
# the same names in its skx table; the offcore event's MSR value in config1, the uncore event on every box
# of uncore_imc (the wildcard whose sum the run judges) with its scale, the counter restriction kept.
forced skx "$PMUCHECK" "${DRY[@]}" --vendor "$JSON" --all --pmu 'skx,cpu,uncore_imc_*' >"$TMP/vendor.out" 2>&1
check "vendor JSON: candidates with libpfm4's encodings" python3 - "$TMP/vendor.out" "$JSON" <<'PY'
import re, sys
from discover_list import candidates
out = open(sys.argv[1]).read()
rows = candidates(out)
vendor = {r[0]: r for r in rows if r[3] == "vendor"}
pfm = {r[0]: r for r in rows if r[3] == "libpfm4"}
assert sorted(vendor) == sorted(["L1D.REPLACEMENT", "L1D_PEND_MISS.PENDING_CYCLES", "L2_RQSTS.ALL_DEMAND_DATA_RD",
    "L2_LINES_IN.ALL", "LONGEST_LAT_CACHE.MISS", "OCR.ALL_DATA_RD.L3_MISS", "UNC_M_CAS_COUNT.RD"]), sorted(vendor)
assert all(sys.argv[2] in r[9] for r in vendor.values())
for name in ["L1D.REPLACEMENT", "L1D_PEND_MISS.PENDING_CYCLES", "L2_RQSTS.ALL_DEMAND_DATA_RD", "L2_LINES_IN.ALL",
             "LONGEST_LAT_CACHE.MISS"]:
    assert vendor[name][4] == pfm[name][4], (name, vendor[name][4], pfm[name][4])
ocr = vendor["OCR.ALL_DATA_RD.L3_MISS"]
assert ocr[1] == "cpu/event=0xb7,umask=0x1,offcore_rsp=0x3fbc000491/" and ocr[5] == "0x3fbc000491", ocr
cas = vendor["UNC_M_CAS_COUNT.RD"]
assert cas[1] == "uncore_imc_*/event=0x4,umask=0x3/" and cas[7] == "64" and cas[8] == "Bytes", cas
assert re.search(r"^candidates: \d+ \(sysfs 0, libpfm4 \d+, vendor 7, given 0; 1 uncore\); ([2-9]|\d\d+) entries", out, re.M)
PY

# Per-counter constraints: three CHA events allowed only on counter 0 (Intel's "Counter": "0") land in three
# groups, each with at most one of them; the two unrestricted events fill the first. The same file with the
# restriction lifted packs the five into two groups of four counters (the check can fail).
C0="$TOP/tests/discover/counter0_sample.json"
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$C0" --all >"$TMP/c0.out" 2>&1
sed 's/"Counter": "0"/"Counter": "0,1,2,3"/' "$C0" >"$TMP/c0-free.json"
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$TMP/c0-free.json" --all >"$TMP/c0-free.out" 2>&1
check "vendor Counter \"0\": three counter-0 events in three groups; unrestricted, two groups" \
	python3 - "$TMP/c0.out" "$TMP/c0-free.out" <<'PY'
import sys
from discover_list import candidates
def groups(path):
    rows = candidates(open(path).read())
    return {r[0]: int(r[10]) for r in rows}
g, free = groups(sys.argv[1]), groups(sys.argv[2])
c0 = ["UNC_CHA_RxC_OCCUPANCY.IRQ", "TEST_CHA_OCCUPANCY.TWO", "TEST_CHA_OCCUPANCY.THREE"]
assert len(g) == 5 and sorted(g[n] for n in c0) == [1, 2, 3], g
assert max(g.values()) == 3 and max(free.values()) == 2, (g, free)
assert "uncore_cha_*: 5 events in 3 groups of at most 4" in open(sys.argv[1]).read()
PY

# The modifier fields (Invert, EdgeDetect, AnyThread, with CounterMask): their bits (perf's cpu format: edge
# 18, any 21, inv 23, cmask 24-31) as libpfm4's skx table encodes the same events. Entries written for the test.
cat >"$TMP/mods.json" <<'JSON'
[{"EventName": "UOPS_ISSUED.STALL_CYCLES", "EventCode": "0x0E", "UMask": "0x1", "CounterMask": "1", "Invert": "1", "Counter": "0,1,2,3"},
 {"EventName": "UOPS_ISSUED.CORE_STALL_CYCLES", "EventCode": "0x0E", "UMask": "0x1", "CounterMask": "1", "Invert": "1", "AnyThread": "1", "Counter": "0,1,2,3"},
 {"EventName": "MACHINE_CLEARS.COUNT", "EventCode": "0xC3", "UMask": "0x1", "CounterMask": "1", "EdgeDetect": "1", "Counter": "0,1,2,3"}]
JSON
forced skx "$PMUCHECK" "${DRY[@]}" --vendor "$TMP/mods.json" --all --pmu skx,cpu >"$TMP/mods.out" 2>&1
check "vendor Invert, EdgeDetect and AnyThread: the encodings libpfm4 gives the same events" \
	python3 - "$TMP/mods.out" <<'PY'
import sys
from discover_list import candidates
rows = candidates(open(sys.argv[1]).read())
vendor = {r[0]: r for r in rows if r[3] == "vendor"}
pfm = {r[0]: r for r in rows if r[3] == "libpfm4"}
assert sorted(vendor) == ["MACHINE_CLEARS.COUNT", "UOPS_ISSUED.CORE_STALL_CYCLES", "UOPS_ISSUED.STALL_CYCLES"], vendor
for name, spec in vendor.items():
    assert spec[4] == pfm[name][4], (name, spec[4], pfm[name][4])
PY

# Events that program a register the counters share: two frontend events (MSR 0x3f7, MSR_PEBS_FRONTEND) and
# two load-latency events (MSR 0x3f6) of different values. The value is config1 (the cpu PMU's frontend and
# ldlat formats, config1:0-23 and 0-15, as offcore_rsp), so no two of one register share a group, which the
# kernel could not schedule; a frontend and a load-latency event may.
cat >"$TMP/msr.json" <<'JSON'
[{"EventName": "FRONTEND_RETIRED.L1I_MISS", "EventCode": "0xC6", "UMask": "0x01", "MSRIndex": "0x3F7", "MSRValue": "0x12", "Counter": "0,1,2,3"},
 {"EventName": "FRONTEND_RETIRED.L2_MISS", "EventCode": "0xC6", "UMask": "0x01", "MSRIndex": "0x3F7", "MSRValue": "0x13", "Counter": "0,1,2,3"},
 {"EventName": "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "EventCode": "0xCD", "UMask": "0x01", "MSRIndex": "0x3F6", "MSRValue": "0x4", "Counter": "0,1,2,3"},
 {"EventName": "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_8", "EventCode": "0xCD", "UMask": "0x01", "MSRIndex": "0x3F6", "MSRValue": "0x8", "Counter": "0,1,2,3"}]
JSON
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$TMP/msr.json" --all >"$TMP/msr.out" 2>&1
check "vendor ldlat and frontend values in config1; two events of one such register never in one group" \
	python3 - "$TMP/msr.out" <<'PY'
import sys
from discover_list import candidates
rows = {r[0]: r for r in candidates(open(sys.argv[1]).read())}
assert len(rows) == 4, rows
want = {"FRONTEND_RETIRED.L1I_MISS": "0x12", "FRONTEND_RETIRED.L2_MISS": "0x13",
        "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4": "0x4", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_8": "0x8"}
assert all(rows[n][5] == v for n, v in want.items()), {n: rows[n][5] for n in rows}
g = {n: int(r[10]) for n, r in rows.items()}
assert g["FRONTEND_RETIRED.L1I_MISS"] != g["FRONTEND_RETIRED.L2_MISS"], g
assert g["MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4"] != g["MEM_TRANS_RETIRED.LOAD_LATENCY_GT_8"], g
assert max(g.values()) == 2, g
PY

# The uncore's extra selection, in both formats. UNC_CHA_TOR_INSERTS.IA_MISS as the kernel's
# tools/perf/pmu-events/arch/x86/sapphirerapids/uncore-cache.json writes it (UMask 0xC001FE01, the extension
# merged, with UMaskExt 0xC001FE beside it) and an event in Intel perfmon's form (UMask 0x01, UMaskExt apart):
# both the full umask, in config bits 8-15 and 32 up, not a file refused (UMask over 0xff) or the extension
# dropped (another event under the name); perf's Filter terms kept in the spec (config1= as config1), Intel's
# filter register names skipped, "na" no filter; the IIO's PortMask and FCMask as ch_mask= and fc_mask= (no
# config: the cpu layout has no place for them).
cat >"$TMP/unc.json" <<'JSON'
{"Header": {"Info": "test"}, "Events": [
 {"EventName": "UNC_CHA_TOR_INSERTS.IA_MISS", "EventCode": "0x35", "UMask": "0xC001FE01", "UMaskExt": "0xC001FE", "Unit": "CHA", "Counter": "0,1,2,3"},
 {"EventName": "TEST_CHA_TOR.PERFMON_EXT", "EventCode": "0x35", "UMask": "0x01", "UMaskExt": "0x00C817FE", "Unit": "CHA", "Counter": "0,1,2,3"},
 {"EventName": "TEST_CHA_TOR.PERF_FILTER", "EventCode": "0x35", "UMask": "0x21", "Filter": "config1=0x40e33", "Unit": "CHA", "Counter": "0,1,2,3"},
 {"EventName": "TEST_CHA_TOR.REGISTER_FILTER", "EventCode": "0x36", "UMask": "0x21", "Filter": "Filter1", "Unit": "CHA", "Counter": "0"},
 {"EventName": "TEST_CHA_TOR.NO_FILTER", "EventCode": "0x36", "UMask": "0x11", "Filter": "na", "Unit": "CHA", "Counter": "0,1,2,3"},
 {"EventName": "TEST_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0", "EventCode": "0x83", "UMask": "0x04", "PortMask": "0x01", "FCMask": "0x07", "Unit": "IIO", "Counter": "0,1"}]}
JSON
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$TMP/unc.json" --all >"$TMP/unc.out" 2>&1
check "vendor uncore: UMaskExt in the umask, perf Filter terms kept, filter registers skipped, PortMask/FCMask" \
	python3 - "$TMP/unc.out" <<'PY'
import sys
from discover_list import candidates
out = open(sys.argv[1]).read()
rows = {r[0]: r for r in candidates(out)}
got = {n: (r[1], r[4], r[5]) for n, r in rows.items()}
assert got == {
    "UNC_CHA_TOR_INSERTS.IA_MISS": ("uncore_cha_*/event=0x35,umask=0xc001fe01/", "0xc001fe00000135", "0x0"),
    "TEST_CHA_TOR.PERFMON_EXT": ("uncore_cha_*/event=0x35,umask=0xc817fe01/", "0xc817fe00000135", "0x0"),
    "TEST_CHA_TOR.PERF_FILTER": ("uncore_cha_*/event=0x35,umask=0x21,config1=0x40e33/", "0x2135", "0x40e33"),
    "TEST_CHA_TOR.NO_FILTER": ("uncore_cha_*/event=0x36,umask=0x11/", "0x1136", "0x0"),
    "TEST_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0": ("uncore_iio_*/event=0x83,umask=0x4,ch_mask=0x1,fc_mask=0x7/", "", ""),
}, got
assert "candidates: 5 (sysfs 0, libpfm4 0, vendor 5, given 0; 5 uncore); 1 entries" in out, out
PY

# --max cuts the events found, never those given with --add-events (they come last in the list, and were cut
# first).
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$TMP/unc.json" --all --max 3 --add-events page-faults,task-clock \
	>"$TMP/max.out" 2>&1
check "--max 3 keeps the events given with --add-events" grep -q \
	"^candidates: 5 (sysfs 0, libpfm4 0, vendor 3, given 2; 3 uncore)" "$TMP/max.out"

# AMD's UMC events that differ by RdWrMask alone (umc_act_cmd.all, .rd, .wr: the kernel's
# tools/perf/pmu-events/arch/x86/amdzen4 memory-controller.json) are three candidates with jevents.py's
# rdwrmask= term, not one spec under the first name with the others dropped as its duplicates; the L3's
# EnAllCores, EnAllSlices, SliceId and ThreadMask (amdzen4 cache.json l3_xi_sampled_latency.dram_near)
# likewise; their config is not claimed (the cpu layout has no place for those terms).
cat >"$TMP/amd.json" <<'JSON'
[{"EventName": "umc_act_cmd.all", "EventCode": "0x05", "PerPkg": "1", "Unit": "UMCPMC"},
 {"EventName": "umc_act_cmd.rd", "EventCode": "0x05", "RdWrMask": "0x1", "PerPkg": "1", "Unit": "UMCPMC"},
 {"EventName": "umc_act_cmd.wr", "EventCode": "0x05", "RdWrMask": "0x2", "PerPkg": "1", "Unit": "UMCPMC"},
 {"EventName": "l3_xi_sampled_latency.dram_near", "EventCode": "0xac", "UMask": "0x01", "EnAllCores": "0x1",
  "EnAllSlices": "0x1", "SliceId": "0x3", "ThreadMask": "0x3", "Unit": "L3PMC"}]
JSON
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$TMP/amd.json" --all >"$TMP/amd.out" 2>&1
check "vendor AMD UMC rdwrmask and L3 slice/thread terms kept: three UMC candidates, not one" \
	python3 - "$TMP/amd.out" <<'PY'
import sys
from discover_list import candidates
rows = {r[0]: r for r in candidates(open(sys.argv[1]).read())}
got = {n: (r[1], r[4]) for n, r in rows.items()}
assert got == {
    "umc_act_cmd.all": ("amd_umc_*/event=0x5/", "0x5"),
    "umc_act_cmd.rd": ("amd_umc_*/event=0x5,rdwrmask=0x1/", ""),
    "umc_act_cmd.wr": ("amd_umc_*/event=0x5,rdwrmask=0x2/", ""),
    "l3_xi_sampled_latency.dram_near":
        ("amd_l3/event=0xac,umask=0x1,enallcores=0x1,enallslices=0x1,sliceid=0x3,threadmask=0x3/", ""),
}, got
PY

# An uncore unit has the counters its events say it has: Skylake-SP's UBOX 2 ("Counter": "0,1" in the kernel's
# skylakex uncore-interconnect.json; the kernel's skx_uncore_ubox), its CHA 4. A UBOX event without a Counter
# field (written for the test) then shares a group with one other, not with two: planned with 4 counters, the
# box could not have held that group of 3.
cat >"$TMP/ubox.json" <<'JSON'
[{"EventName": "UNC_U_EVENT_MSG.DOORBELL_RCVD", "EventCode": "0x42", "UMask": "0x8", "Unit": "UBOX", "Counter": "0,1"},
 {"EventName": "UNC_U_PHOLD_CYCLES.ASSERT_TO_ACK", "EventCode": "0x45", "UMask": "0x1", "Unit": "UBOX", "Counter": "0,1"},
 {"EventName": "TEST_U_NO_COUNTER_FIELD", "EventCode": "0x44", "Unit": "UBOX"},
 {"EventName": "UNC_CHA_CLOCKTICKS", "EventCode": "0x00", "Unit": "CHA", "Counter": "0,1,2,3"}]
JSON
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$TMP/ubox.json" --all >"$TMP/ubox.out" 2>&1
check "vendor uncore unit: the counters its events name (UBOX 2, CHA 4), its groups of at most 2" \
	python3 - "$TMP/ubox.out" <<'PY'
import sys
from discover_list import candidates
out = open(sys.argv[1]).read()
rows = {r[0]: r for r in candidates(out)}
assert {n: r[6] for n, r in rows.items()} == {"UNC_U_EVENT_MSG.DOORBELL_RCVD": "2",
    "UNC_U_PHOLD_CYCLES.ASSERT_TO_ACK": "2", "TEST_U_NO_COUNTER_FIELD": "2", "UNC_CHA_CLOCKTICKS": "4"}, rows
assert "uncore_ubox_*: 3 events in 2 groups of at most 2" in out, out
PY

# A hybrid CPU's core PMUs have the counters their own events say, as uncore units do: Alder Lake's cpu_core 8,
# its cpu_atom 6 ("Counter" fields as in the kernel's tools/perf/pmu-events/arch/x86/alderlake/ JSON; the
# encodings are its pipeline.json's, BR_INST_RETIRED.COND on both PMUs). An atom event without a Counter field
# (written for the test) then joins a group of 6, not of 7: sharing the core's 8, the atom PMU was planned with
# 8 counters, and a group of the six restricted to counters 0-5 and it could not have been scheduled.
A='"Unit": "cpu_atom", "Counter": "0,1,2,3,4,5"'
cat >"$TMP/adl.json" <<JSON
[{"EventName": "BR_INST_RETIRED.COND", "EventCode": "0xc4", "UMask": "0x7e", $A},
 {"EventName": "BR_INST_RETIRED.COND_TAKEN", "EventCode": "0xc4", "UMask": "0xfe", $A},
 {"EventName": "BR_INST_RETIRED.FAR_BRANCH", "EventCode": "0xc4", "UMask": "0xbf", $A},
 {"EventName": "BR_INST_RETIRED.INDIRECT", "EventCode": "0xc4", "UMask": "0xeb", $A},
 {"EventName": "BR_INST_RETIRED.INDIRECT_CALL", "EventCode": "0xc4", "UMask": "0xfb", $A},
 {"EventName": "BR_INST_RETIRED.NEAR_CALL", "EventCode": "0xc4", "UMask": "0xf9", $A},
 {"EventName": "BR_INST_RETIRED.NEAR_RETURN", "EventCode": "0xc4", "UMask": "0xf7", $A},
 {"EventName": "TEST_ATOM_NO_COUNTER_FIELD", "EventCode": "0xc4", "UMask": "0xbe", "Unit": "cpu_atom"},
 {"EventName": "BR_INST_RETIRED.COND", "EventCode": "0xc4", "UMask": "0x11", "Unit": "cpu_core", "Counter": "0,1,2,3,4,5,6,7"}]
JSON
"$PMUCHECK" "${DRY[@]}" --no-libpfm --vendor "$TMP/adl.json" --all >"$TMP/adl.out" 2>&1
check "vendor hybrid core PMUs: the counters their events name (cpu_core 8, cpu_atom 6), atom groups of at most 6" \
	python3 - "$TMP/adl.out" <<'PY'
import sys
from discover_list import candidates
out = open(sys.argv[1]).read()
rows = candidates(out)
got = {}
for r in rows:
    got.setdefault(r[2], set()).add(r[6])
assert got == {"cpu_atom": {"6"}, "cpu_core": {"8"}}, got
assert "cpu_atom: 8 events in 2 groups of at most 6" in out, out
sizes = {}
for r in rows:
    if r[2] == "cpu_atom":
        sizes[r[10]] = sizes.get(r[10], 0) + 1
assert max(sizes.values()) <= 6, sizes
PY

# Bad vendor files: refused with the file (and entry) named, exit 2, nothing written.
printf '[{"EventName": "X", "EventCode": "0x24",' >"$TMP/truncated.json"
printf '[{"EventName": "X", "EventCode": 36, "UMask": "0x1"}]' >"$TMP/wrongtype.json"
printf '{"Events": {"EventName": "X"}}' >"$TMP/notarray.json"
printf '[{"EventName": "X", "EventCode": "0x24", "UMask": "0x101"}]' >"$TMP/coreumask.json"
mkdir "$TMP/dir.json" && : >"$TMP/empty.json"
python3 -c 'import json,sys; json.dump([{"EventName": "E%d" % i, "EventCode": "0x24", "UMask": "0x1"} for i in range(100001)], open(sys.argv[1], "w"))' "$TMP/huge.json"
for bad in truncated:"truncated.json:1:" wrongtype:"entry 1 (X): EventCode: a number, not a string" \
	notarray:"neither an array" huge:"100001 entries" \
	coreumask:"entry 1 (X): EventCode, UMask or CounterMask out of range" \
	dir:"dir.json is a directory, not a file" empty:"empty.json: empty file"; do
	IFS=: read -r f msg <<<"$bad"
	expect_status "bad vendor file ($f) exits 2" 2 "$PMUCHECK" discover --no-libpfm --no-sysfs --vendor "$TMP/$f.json" \
		--out "$TMP/bad-$f"
	cp "$TMP/check.out" "$TMP/bad.out"
	check "bad vendor file ($f) says why and names the file" grep -qF -- "$TMP/$f.json" "$TMP/bad.out"
	check "bad vendor file ($f): $msg" grep -qF -- "$msg" "$TMP/bad.out"
	check "bad vendor file ($f) writes nothing" test ! -e "$TMP/bad-$f"
done

# A device or pipe of no bytes is empty too, as a plain file of none (not jansson's "'[' or '{' expected").
expect_status "--vendor /dev/null exits 2" 2 "$PMUCHECK" discover --no-libpfm --no-sysfs --vendor /dev/null \
	--out "$TMP/bad-devnull"
cp "$TMP/check.out" "$TMP/bad.out"
check "... as an empty file" grep -qF "vendor file: /dev/null: empty file" "$TMP/bad.out"

# A vendor file that parses and holds no event pmucheck can program (an empty array, Intel's empty "Events",
# a metrics file): refused by name, exit 2, nothing written; one whose events the filters all drop: no
# candidate, exit 1, and the message lists the sources that were read, the vendor file among them, and none
# that --no-sysfs and --no-libpfm left out.
printf '[]' >"$TMP/none.json" && printf '{"Events": []}' >"$TMP/none-intel.json"
printf '[{"MetricName": "bw", "MetricExpr": "a + b"}]' >"$TMP/none-metrics.json"
for f in none none-intel none-metrics; do
	expect_status "a vendor file of no event ($f) exits 2" 2 "$PMUCHECK" discover --no-libpfm --no-sysfs \
		--vendor "$TMP/$f.json" --out "$TMP/bad-$f"
	cp "$TMP/check.out" "$TMP/bad.out"
	check "... and names it" grep -qF "vendor file $TMP/$f.json: no event pmucheck can program" "$TMP/bad.out"
	check "... nothing written" test ! -e "$TMP/bad-$f"
done
expect_status "a vendor file of no event beside libpfm4: exit 2" 2 "$PMUCHECK" discover --no-sysfs \
	--vendor "$TMP/none.json" --out "$TMP/bad-none-pfm"
cp "$TMP/check.out" "$TMP/bad.out"
check "... its error alone, no line of the sources read before it" python3 - "$TMP/bad.out" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
assert "no event pmucheck can program" in lines[0] and not [x for x in lines if "libpfm4" in x], lines
PY
expect_status "--no-sysfs --no-libpfm and no other source: exit 2" 2 "$PMUCHECK" discover --no-libpfm --no-sysfs \
	--out "$TMP/bad-nosource"
cp "$TMP/check.out" "$TMP/bad.out"
check "... naming what to give" grep -qF -- "--no-sysfs and --no-libpfm leave no source of candidates: give --vendor FILE" \
	"$TMP/bad.out"
check "... nothing written" test ! -e "$TMP/bad-nosource"
# a budget that holds not one group: refused before anything is written (the run stopped at "an empty name")
expect_status "a --time-budget no group fits in: exit 2" 2 "$PMUCHECK" discover --no-libpfm --no-sysfs \
	--add-events page-faults --time-budget 1 --reported-levels --out "$TMP/bad-budget"
cp "$TMP/check.out" "$TMP/budget.out"
check "... saying so, nothing written" sh -c "grep -qF -- '--time-budget 1 s: not one group of candidates fits' \
	'$TMP/budget.out' && test ! -e '$TMP/bad-budget'"
expect_status "a vendor file whose events --only drops: no candidate" 1 "$PMUCHECK" discover --no-libpfm \
	--no-sysfs --vendor "$C0" --only 'NO_SUCH_EVENT*' --out "$TMP/bad-only"
cp "$TMP/check.out" "$TMP/bad.out"
check "... the sources named are the vendor file alone" \
	grep -qF "the sources (vendor file $C0) named none" "$TMP/bad.out"
check "... nothing written" test ! -e "$TMP/bad-only"

# A fake sysfs tree: core aliases with their terms, an uncore PMU (cpumask: counted per socket) with a scale
# and unit, and the files beside aliases that are none.
fs="$TMP/sysfs"
mkdir -p "$fs/cpu/format" "$fs/cpu/events"
echo 4 >"$fs/cpu/type"
echo config:0-7 >"$fs/cpu/format/event"; echo config:8-15 >"$fs/cpu/format/umask"
echo event=0x24,umask=0xe1 >"$fs/cpu/events/l2_rqsts.all_demand_data_rd"
for b in 0 1 2; do # three memory channels of one socket: one candidate for all of them
	mkdir -p "$fs/uncore_imc_$b/format" "$fs/uncore_imc_$b/events"
	echo $((17 + b)) >"$fs/uncore_imc_$b/type"; echo 0 >"$fs/uncore_imc_$b/cpumask"
	cp "$fs/cpu/format/"* "$fs/uncore_imc_$b/format/"
	echo event=0x04,umask=0x03 >"$fs/uncore_imc_$b/events/cas_count_read"
	echo 6.103515625e-5 >"$fs/uncore_imc_$b/events/cas_count_read.scale"
	echo MiB >"$fs/uncore_imc_$b/events/cas_count_read.unit"
	echo 1 >"$fs/uncore_imc_$b/events/cas_count_read.per-pkg"
done
"$PMUCHECK" discover --dry-run --reported-levels --no-libpfm --sysfs "$fs" --list >"$TMP/sysfs.out" 2>&1
check "fake sysfs: aliases with their encodings, scale and unit; three boxes one wildcard candidate" python3 - "$TMP/sysfs.out" "$fs" <<'PY'
import sys
from discover_list import candidates
out, fs = open(sys.argv[1]).read(), sys.argv[2]
rows = {r[1]: r for r in candidates(out)}
assert sorted(rows) == ["cpu/l2_rqsts.all_demand_data_rd/", "uncore_imc_*/cas_count_read/"], sorted(rows)
cpu, imc = rows["cpu/l2_rqsts.all_demand_data_rd/"], rows["uncore_imc_*/cas_count_read/"]
assert cpu[4] == "0xe124" and cpu[3] == "sysfs" and cpu[9] == f"sysfs {fs}/cpu/events/l2_rqsts.all_demand_data_rd", cpu
assert imc[4] == "0x304" and imc[7] == "6.10352e-05" and imc[8] == "MiB", imc
assert "1 uncore" in out
PY
# An alias given with --add-events too stays, whatever --only says, as given events do: the sources are
# read first, and the given one was dropped as a repeat of the sysfs one, which --only then removed.
"$PMUCHECK" discover --dry-run --reported-levels --no-libpfm --sysfs "$fs" --list --only 'NO_SUCH*' \
	--add-events cpu/l2_rqsts.all_demand_data_rd/ >"$TMP/given.out" 2>&1
check "an alias also given with --add-events is kept past --only, as given" \
	grep -qP '^l2_rqsts.all_demand_data_rd\tcpu/l2_rqsts.all_demand_data_rd/\tcpu\tgiven\t' "$TMP/given.out"

# Its plan counts the prefetcher states the run will measure: on and off where the MSRs can be switched
# (fake ones here), twice the points of a machine where they cannot; a bad --prefetch is refused first.
"$PMUCHECK" discover --dry-run --reported-levels --no-libpfm --no-sysfs --add-events page-faults >"$TMP/pf0.out" 2>&1
(
	. "$(dirname "$0")/../pf_fake.sh"
	make_fake "$TMP/pf-msr" GenuineIntel:6:0x55 0x1a4 "$FAKE_NCPU"
	"$PMUCHECK" discover --dry-run --reported-levels --no-libpfm --no-sysfs --add-events page-faults \
		>"$TMP/pf2.out" 2>&1
	at_original || echo "an MSR changed" >>"$TMP/pf2.out"
)
check "discover --dry-run plans both prefetcher states where they can be switched" python3 - "$TMP/pf0.out" \
	"$TMP/pf2.out" <<'PY'
import re, sys
n = [int(re.search(r"^plan: (\d+) points .*prefetchers (.*)\)$", open(f).read(), re.M).group(1)) for f in sys.argv[1:]]
two = open(sys.argv[2]).read()
assert n[1] == 2 * n[0] and "prefetchers on and off)" in two and "MSR changed" not in two, (n, two)
PY
expect_status "discover --dry-run with a bad --prefetch exits 2" 2 "$PMUCHECK" discover --dry-run \
	--reported-levels --no-libpfm --no-sysfs --add-events page-faults --prefetch bogus

# A free-running PMU (msr: the TSC) has no counter limit; its group says so rather than "at most 0".
mkdir -p "$fs/msr/format" "$fs/msr/events"
echo 12 >"$fs/msr/type"; echo config:0-63 >"$fs/msr/format/event"; echo event=0x00 >"$fs/msr/events/tsc"
"$PMUCHECK" discover --dry-run --reported-levels --no-libpfm --sysfs "$fs" --all --pmu msr \
	>"$TMP/msr-free.out" 2>&1
check "a free-running PMU's group: no counter limit" grep -q "msr: 1 event in 1 group, no counter limit$" \
	"$TMP/msr-free.out"

# A client CPU's memory controller is one box, which the kernel names without a number: --pmu's box wildcard
# takes it, as a config's does.
fs1="$TMP/sysfs1"
mkdir -p "$fs1/uncore_imc/format" "$fs1/uncore_imc/events"
echo 17 >"$fs1/uncore_imc/type"; echo 0 >"$fs1/uncore_imc/cpumask"
cp "$fs/cpu/format/"* "$fs1/uncore_imc/format/"
echo event=0xff,umask=0x00 >"$fs1/uncore_imc/events/data_reads"
"$PMUCHECK" discover --dry-run --reported-levels --no-libpfm --sysfs "$fs1" --list --pmu 'uncore_imc_*' \
	>"$TMP/sysfs1.out" 2>&1
check "--pmu 'uncore_imc_*' takes a client CPU's one unnumbered uncore_imc" \
	grep -q "	uncore_imc/data_reads/	uncore_imc	" "$TMP/sysfs1.out"

# End to end with software events standing in for hardware ones, plus a forced Zen 3 table whose events
# this machine cannot count (a machine without a PMU): page faults found exact per page, the hardware
# events not measured with the reason, the config written, reloaded, and copied with --write. --pre is
# --prefetch to discover, and goes to the run by that name (to run it would be --prefetch or --preset).
d="$TMP/e2e"
forced amd64_fam19h_zen3 "$PMUCHECK" discover --no-sysfs --only 'DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM.*' \
	--add-events page-faults,minor-faults --kernels touch --sizes 32k,256k,1M --reported-levels --min-time 2 \
	--reps 5 --pre on --no-progress --out "$d" --write "$TMP/found.ini" >"$TMP/e2e.out" 2>&1
rc=$?
check "discover ends well" test "$rc" -eq 0
check "page-faults is discovered: pages x 1, with its source" python3 - "$d/discovered.ini" <<'PY'
import sys
ini = open(sys.argv[1]).read()
sec = ini.split("[event page-faults]")[1].split("\n\n")[0]
assert "expect = pages * 1\n" in sec and "source = given with --add-events" in sec, sec
PY
if ! counts_instructions; then
	check "hardware candidates are not measured, with the reason" python3 - "$d" <<'PY'
import csv, json, sys
cands = json.load(open(sys.argv[1] + "/candidates.json"))["candidates"]
hw = [c for c in cands if c["origin"] == "libpfm4"]
assert hw and all(c["status_here"] == "not_measured" and c["reason_here"] for c in hw), hw[:2]
ev = {r["event"]: r for r in csv.DictReader(open(sys.argv[1] + "/events.csv"))}
assert all(ev[c["spec"]]["class"] == "not measured" and ev[c["spec"]]["note"] for c in hw)
PY
else
	skip "hardware candidates are not measured, with the reason" "this machine counts hardware events"
fi
check "docs/results-format.md names every member of candidates.json" python3 "$TOP/tests/tools/doc_fields.py" \
	"$d/candidates.json" "$TOP/docs/results-format.md" 'candidates.json (pmucheck discover)'
check "the report has the Discovered section" grep -q "^## Discovered" "$d/report.md"
check "the written config reloads" "$PMUCHECK" run --config "$TMP/found.ini" --kernels touch --sizes 32k \
	--reported-levels --dry-run
check "--write copied it" cmp "$d/discovered.ini" "$TMP/found.ini"
expect_status "--write to an existing file is refused before anything runs" 2 "$PMUCHECK" discover --no-libpfm \
	--no-sysfs --add-events page-faults --write "$TMP/found.ini" --out "$TMP/again"
check "... and writes nothing" test ! -e "$TMP/again"

# The default filter's word lists, as disc_filter.c holds them, are the ones docs/discover.md names (a word
# added to the code alone keeps or drops events the reader cannot foresee).
check "docs/discover.md names every word of the default filter (disc_filter.c)" python3 - \
	"$TOP/harness/discover/disc_filter.c" "$TOP/docs/discover.md" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
doc = open(sys.argv[2]).read().split("\n## Which candidates\n")[1].split("\n## ")[0].lower()
lists = re.findall(r"static const char \*const (\w+)\[\] = \{(.*?)\};", src, re.S)
assert len(lists) >= 5, [n for n, _ in lists]
missing = ["%s: %s" % (n, w) for n, body in lists for w in re.findall(r'"([^"]+)"', body)
           if not re.search(r"(^|[^a-z0-9_])" + re.escape(w), doc)]
assert not missing, missing
PY
