#!/bin/bash
# arch_pmu.sh — the config's [arch] pmu against libpfm4's core PMU on the machine (issue 15 item 11): a
# config chosen by CPUID (PMUCHECK_FAKE_CPUID: Skylake-SP, skx.ini, pmu = skx) on a machine whose libpfm4
# core PMU is another (LIBPFM_FORCE_PMU=hsw_ep) is said in `info`, as a run warning and in machine.json;
# with the same PMU there is no warning. Nothing here needs a PMU: the run counts a software event.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$TMP/no-msr"
as() { PMUCHECK_MSR_DIR="$TMP/no-msr" PMUCHECK_FAKE_CPUID=GenuineIntel:6:0x55 LIBPFM_FORCE_PMU=$1 "${@:2}"; }
RUN=(run --kernels touch --sizes 32k --threads 1 --reported-levels --min-time 1 --reps 3 --events page-faults
	"${ONE_STATE[@]}")

as hsw_ep "$PMUCHECK" info >"$TMP/info" 2>&1
check "info: skx.ini is chosen" grep -Eq "^config +.*/skx\.ini:" "$TMP/info"
check "info: libpfm4's hsw_ep is not the config's skx, said as a warning" \
	grep -Eq "^libpfm4 PMU +warning: libpfm4's core PMU here is hsw_ep, the config's is skx: [1-9][0-9]* of its events are PAPI names without a pmu:: prefix" "$TMP/info"
as skx "$PMUCHECK" info >"$TMP/info-same" 2>&1
check "info: the same PMU is no warning" grep -Eq "^libpfm4 PMU +libpfm4's core PMU is the config's$" "$TMP/info-same"

as hsw_ep "$PMUCHECK" "${RUN[@]}" --out "$TMP/other" >"$TMP/other.log" 2>&1
check "run with another PMU ends well" test -s "$TMP/other/machine.json"
check "run: the warning on stderr" grep -q "^pmucheck run: warning: libpfm4's core PMU here is hsw_ep, the config's is skx" "$TMP/other.log"
check "machine.json: config.pmu says both PMUs and that they disagree" python3 - "$TMP/other/machine.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["config"]["pmu"]
assert p["config"] == "skx" and p["libpfm4"] == "hsw_ep" and p["agrees"] is False and "hsw_ep" in p["note"], p
PY
as skx "$PMUCHECK" "${RUN[@]}" --out "$TMP/same" >"$TMP/same.log" 2>&1
check "run with the config's PMU: no warning" bash -c "! grep -q 'warning: libpfm4' '$TMP/same.log'"
check "machine.json: config.pmu agrees" python3 - "$TMP/same/machine.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["config"]["pmu"]
assert p == {"config": "skx", "libpfm4": "skx", "agrees": True, "note": "libpfm4's core PMU is the config's"}, p
PY

# A Zen 1 (this machine's CPUID, or a guest's "AMD EPYC"): libpfm4 4.13 detects its deprecated alias
# amd64_fam17h beside amd64_fam17h_zen1, the same table, and resolves names without pmu:: against the
# latter, zen1.ini's pmu. The core PMU is the one names resolve to: no warning.
unset LIBPFM_FORCE_PMU
PMUCHECK_MSR_DIR="$TMP/no-msr" "$PMUCHECK" info >"$TMP/info-here" 2>&1
if grep -Eq "^config +.*/zen1\.ini:" "$TMP/info-here" &&
	grep -q "detected PMUs:.* amd64_fam17h_zen1" "$TMP/info-here"; then
	check "Zen 1: libpfm4's core PMU is amd64_fam17h_zen1, not its deprecated alias amd64_fam17h" \
		grep -Eq "^libpfm4 PMU +libpfm4's core PMU is the config's$" "$TMP/info-here"
else
	skip "Zen 1: libpfm4's core PMU is amd64_fam17h_zen1" \
		"not a Zen 1 with libpfm4's amd64_fam17h_zen1 here"
fi
