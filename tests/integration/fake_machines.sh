#!/bin/bash
# fake_machines.sh — the machine-dependent branches, on machines this one is not, whatever the host:
#   2 sockets   hwloc's synthetic topology (HWLOC_SYNTHETIC): topology, default CPUs, remote placement
#   hybrid      an XML topology (HWLOC_XMLFILE) of P- and E-cores: default CPUs, --cpus mixing them
#   CPU models  PMUCHECK_FAKE_CPUID: config and prefetcher table per model (Intel server, hybrid, AMD)
#   no AVX-512  PMUCHECK_ISA_DISABLE: the quick plan and a preset step leave those variants out, naming one
#               with --kernels is refused
# Only planning and reporting run here (--dry-run, info): a synthetic topology has CPUs this machine
# lacks, so nothing is pinned or measured. PAPI states and hybrid sysfs PMUs are faked in the unit
# tests (test_ctr_papi_judge, test_ctr_spec).
. "$(dirname "$0")/../lib.sh"

# Two sockets of 4 cores with 2 PUs each, one NUMA node per socket.
two_sockets="package:2 numa:1 l3:1 l2:4 l1d:1 core:1 pu:2"
sock() { HWLOC_SYNTHETIC="$two_sockets" "$PMUCHECK" "$@"; }

sock info >"$TMP/info" 2>&1
check "2 sockets: info reports 2 sockets, 8 cores, 16 PUs, 2 NUMA nodes" \
	grep -q "2 socket(s), 8 core(s), 16 PU(s), 2 NUMA node(s)" "$TMP/info"
# The plans of these fake machines are of load.sse: every x86-64 runs it, where a CPU without AVX refuses
# load.avx before it plans anything.
sock run --dry-run --kernels load.sse --sizes 16k --prefetch on >"$TMP/plan" 2>&1
check "2 sockets: all threads are the 4 cores of socket 0 (one PU per core)" \
	grep -Eq "^ +1 +load.sse .* 4 thr " "$TMP/plan"
# A Zen 3 socket of eight CCXs (eight cores each sharing a 32 MiB L3): its 64 threads keep 4 MiB of L3 each
# (with the L2, inclusion unknown here: 4 MiB), so its DRAM points need at least 16 MiB each; one L3 four times
# over split among all 64 gave 2 MiB, which ran from L3 and left the plan with no DRAM point at 64 threads.
HWLOC_SYNTHETIC="pack:1 numa:1 l3:8(size=32MiB) l2:8(size=512KiB) l1d:1(size=32KiB) core:1 pu:1" \
	"$PMUCHECK" run --dry-run --kernels load.sse --prefetch on --threads 64 >"$TMP/zen3x8" 2>&1
check "Zen 3 socket of eight L3s: its 64 threads have DRAM points, each past 4x their part of the L3" \
	python3 - "$TMP/zen3x8" <<'PY'
import re, sys
rows = [l.split() for l in open(sys.argv[1]) if re.match(r" +\d+ +load.sse ", l)]
dram = [int(r[5]) for r in rows if r[7] == "DRAM"]
assert len(dram) == 2 and min(dram) >= 16 << 20, dram
PY
# 1024 cores of one socket in 64 L3s of 96 MiB (16 cores each): each of 1024 threads has its DRAM points at
# 4x and 8x its 6 MiB of L3, so the run holds 48 MiB x 1024 at once, which the plan once took whatever the
# memory (a run that swaps or is killed midway, a prefetcher state written). Where /proc/meminfo has less
# available it is refused before the results directory, naming both figures and what lowers them.
big="pack:1 numa:1 l3:64(size=96MiB) l2:16(size=1MiB) l1d:1(size=48KiB) core:1 pu:1"
big_mib=$((8 * 96 / 16 * 1024))
avail_mib=$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)
if [ -n "$avail_mib" ] && [ "$avail_mib" -lt "$big_mib" ]; then
	HWLOC_SYNTHETIC="$big" "$PMUCHECK" run --kernels load.gpr --threads 1024 --prefetch on --reported-levels \
		--results "$TMP/big" >"$TMP/big.out" 2>&1
	echo $? >"$TMP/big.rc"
	check "1024 threads needing more memory than is available: exit 2, the figures named, nothing written" \
		bash -c 'test "$(cat "$1.rc")" = 2 && test ! -e "$2" &&
			grep -q "need [0-9]* MiB at once (1024 threads x 48 MiB, and [0-9]* MiB for its probes), more than the [0-9]* MiB /proc/meminfo has available (MemAvailable): fewer --threads" "$1.out"' \
		_ "$TMP/big" "$TMP/big" "$big_mib"
else
	skip "1024 threads needing more memory than is available are refused" \
		"this machine has $big_mib MiB available (MemAvailable)"
fi
# A Skylake-SP socket (28 cores, 38.5 MiB of L3, 1 MiB of L2 each) whose L3 hwloc does not say is not inclusive
# (a synthetic topology): 28 threads' parts of the L3 (1.375 MiB) are not clear of the L2, so the sweep has no
# L3 point with them, and the plan says so rather than leaving it out.
HWLOC_SYNTHETIC="pack:2 numa:1 l3:1(size=39424KiB) l2:28(size=1MiB) l1d:1(size=32KiB) core:1 pu:2" \
	"$PMUCHECK" run --dry-run --kernels load.sse --prefetch on >"$TMP/skx28" 2>&1
check "Skylake-SP socket: the plan says it has no L3 point with 28 threads, and why" grep -q \
	"no point in L3 with 28 threads (each thread's part of it, 1408 KiB, is not clear of the L2's 1024 KiB" \
	"$TMP/skx28"
check "Skylake-SP socket: one thread still has its L3 points, and is not named" \
	bash -c 'grep -Eq " 1 thr .* L3 " "$1" && ! grep -q "L3 with 1 threads" "$1"' _ "$TMP/skx28"
HWLOC_SYNTHETIC="pack:1 numa:1 l3:1(size=1536KiB) l2:1(size=1MiB) l1d:1(size=32KiB) core:1 pu:1" \
	"$PMUCHECK" run --dry-run --kernels load.gpr --prefetch on >"$TMP/l3one" 2>&1
check "an L3 of 1.5x the L2 has no point with 1 thread, and says so in the singular" \
	grep -q "no point in L3 with 1 thread (each thread's part of it, 1536 KiB" "$TMP/l3one"
HWLOC_SYNTHETIC="pack:2 numa:1 l3:1(size=39424KiB) l2:28(size=1MiB) l1d:1(size=32KiB) core:1 pu:2" \
	"$PMUCHECK" run --dry-run --json --kernels load.sse --prefetch on >"$TMP/skx28.json" 2>/dev/null
check "Skylake-SP socket: --dry-run --json names it too (experiments[].levels_without_point)" \
	python3 -c 'import json, sys; x = json.load(open(sys.argv[1]))["experiments"]
assert [e["levels_without_point"][:19] for e in x] == ["L3 with 28 threads "], x' "$TMP/skx28.json"
# The same socket as hwloc's x86 backend gives it, its L3 saying from CPUID that it is not inclusive
# (tests/tools/inclusive_xml.c): info and the topology of machine.json (info --json's) say so, and a
# synthetic topology, which says nothing of it, has no such member.
skx_synthetic="pack:2 numa:1 l3:1(size=39424KiB) l2:28(size=1MiB) l1d:1(size=32KiB) core:1 pu:2"
if "$TOP/${BUILD:-build}/tests/tools/inclusive_xml" "$skx_synthetic" 0 "$TMP/skx-victim.xml" &&
	"$TOP/${BUILD:-build}/tests/tools/inclusive_xml" "$skx_synthetic" 1 "$TMP/skx-inclusive.xml"; then
	HWLOC_XMLFILE="$TMP/skx-victim.xml" "$PMUCHECK" info >"$TMP/skxv.info" 2>&1
	check "Skylake-SP socket, L3 not inclusive: info says so" \
		grep -q "^cache L3 .*shared by PUs 0-55 (56), not inclusive$" "$TMP/skxv.info"
	HWLOC_XMLFILE="$TMP/skx-victim.xml" "$PMUCHECK" info --json >"$TMP/skxv.json" 2>/dev/null
	check "Skylake-SP socket, L3 not inclusive: machine.json's topology has its L3 inclusive false" \
		python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["topology"]["caches"]
assert [x.get("inclusive") for x in c] == [None, None, False], c' "$TMP/skxv.json"
	HWLOC_SYNTHETIC="$skx_synthetic" "$PMUCHECK" info --json >"$TMP/skxs.json" 2>/dev/null
	check "a synthetic topology: machine.json's caches have no inclusive member" \
		python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["topology"]["caches"]
assert len(c) == 3 and not any("inclusive" in x for x in c), c' "$TMP/skxs.json"
	# each of 28 threads keeps its L2 and its part of an L3 not inclusive together (common/level_capacity.h):
	# the plan has an L3 point with all of them and names no level without a point; an inclusive L3 of that
	# shape has none, and the plan still says so
	HWLOC_XMLFILE="$TMP/skx-victim.xml" "$PMUCHECK" run --dry-run --kernels load.sse --prefetch on \
		>"$TMP/skxv28" 2>&1
	check "Skylake-SP socket, L3 not inclusive: the plan has an L3 point with 28 threads, and no note" \
		bash -c 'grep -Eq " 28 thr .* L3 " "$1" && ! grep -q "no point in" "$1"' _ "$TMP/skxv28"
	HWLOC_XMLFILE="$TMP/skx-inclusive.xml" "$PMUCHECK" run --dry-run --kernels load.sse --prefetch on \
		>"$TMP/skxi28" 2>&1
	check "Skylake-SP socket, L3 inclusive: no L3 point with 28 threads, and the plan says so" \
		bash -c '! grep -Eq " 28 thr .* L3 " "$1" && grep -q "no point in L3 with 28 threads" "$1"' _ \
		"$TMP/skxi28"
else
	notok "Skylake-SP socket: tests/tools/inclusive_xml writes its topology" "see above"
fi
# hwloc reporting no data cache (a VM that hides the CPUID cache leaves): said, and every point is DRAM
HWLOC_SYNTHETIC="pack:1 core:2 pu:1" "$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k,256M \
	--prefetch on >"$TMP/nocache" 2>&1
check "no cache reported: the run says so, and plans both sizes as DRAM" \
	sh -c "grep -q 'warning: hwloc reports no data cache for CPU 0' '$TMP/nocache' &&
		[ \$(grep -Ec ' load.gpr .* DRAM ' '$TMP/nocache') -eq 4 ]"
# ... and a run there is analysed so: machine.json's levels.reported is {}, and its points are DRAM's
HWLOC_SYNTHETIC="pack:1 core:2 pu:1" "$PMUCHECK" run --kernels load.gpr --sizes 16k --threads 1 --reps 3 \
	--min-time 1 "${ONE_STATE[@]}" --reported-levels --no-progress --out "$TMP/nocache-run" >"$TMP/nocache-run.out" 2>&1
check "no cache reported: machine.json's levels.reported is empty" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["levels"]["reported"] == {}' "$TMP/nocache-run/machine.json"
check "no cache reported: analyze reads the run, its 16 KiB point DRAM's" sh -c "
	'$PMUCHECK' analyze -q '$TMP/nocache-run' && grep -q '^DRAM,read,' '$TMP/nocache-run/peaks.csv' &&
		! grep -q '^L1,' '$TMP/nocache-run/peaks.csv'"
# A hybrid CPU (tests/tools/hybrid_xml.c: P-cores 0-3, E-cores 4,6,8,10 with other L2s, two CPU kinds): the
# default CPUs are the P-cores', and --cpus that adds E-cores is warned about, naming them.
if "$TOP/${BUILD:-build}/tests/tools/hybrid_xml" "$TMP/hybrid.xml"; then
	hyb() { HWLOC_XMLFILE="$TMP/hybrid.xml" "$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --prefetch on "$@"; }
	hyb >"$TMP/hyb" 2>&1
	check "hybrid CPU: the default CPUs are the P-cores (2 threads at most), no warning" \
		sh -c "grep -Eq ' 2 thr ' '$TMP/hyb' && ! grep -Eq ' [3-9] thr |warning: --cpus' '$TMP/hyb'"
	hyb --cpus 0,2,4,6 >"$TMP/hyb4" 2>&1
	check "hybrid CPU: --cpus with two E-cores warns, naming them" grep -q \
		"warning: --cpus: CPUs 4,6 are on cores of another kind than CPU 0 or with other cache sizes" "$TMP/hyb4"
	# a point of N threads runs on the list's first N CPUs: E-cores past the widest point's are never used
	hyb --cpus 0,2,4,6 --threads 1,2 >"$TMP/hybt" 2>&1
	check "hybrid CPU: --cpus whose E-cores no point uses (--threads 1,2) is not warned about" \
		bash -c 'grep -Eq " 2 thr " "$1" && ! grep -q "warning: --cpus" "$1"' _ "$TMP/hybt"
	hyb --cpus 0,2,4,6 --threads 3 >"$TMP/hyb3" 2>&1
	check "hybrid CPU: --threads 3 of --cpus 0,2,4,6 warns about CPU 4 alone" grep -q \
		"warning: --cpus: CPU 4 is on a core of another kind than CPU 0 " "$TMP/hyb3"
	hyb --cpus 4,6,8 >"$TMP/hybe" 2>&1
	check "hybrid CPU: --cpus of E-cores alone is not warned about" bash -c '! grep -q "warning: --cpus" "$1"' _ "$TMP/hybe"
	# ... and their points are sized from the E-cores' caches (L2 2 MiB), not hwloc's first PU's (1.25 MiB)
	hyb2() { HWLOC_XMLFILE="$TMP/hybrid.xml" "$PMUCHECK" run --dry-run --kernels load.gpr --sizes 1536k --threads 1 --prefetch on "$@"; }
	hyb2 --cpus 4,6,8 >"$TMP/hybe2" 2>&1
	hyb2 >"$TMP/hybp2" 2>&1
	check "hybrid CPU: 1536 KiB on an E-core is in its L2, on a P-core past its L2" bash -c \
		'grep -Eq " 1 thr +1572864 B/array +L2 " "$1" && grep -Eq " 1 thr +1572864 B/array +L3 " "$2"' _ \
		"$TMP/hybe2" "$TMP/hybp2"
else
	notok "hybrid CPU: tests/tools/hybrid_xml writes its topology" "see above"
fi
# a synthetic machine is not this one: the CPU affinity of this process does not narrow its CPUs
HWLOC_SYNTHETIC="$two_sockets" taskset -c 0 "$PMUCHECK" run --dry-run --kernels load.sse --sizes 16k \
	--prefetch on >"$TMP/plan0" 2>&1
check "2 sockets, started on CPU 0 alone: still the 4 cores of socket 0 (the affinity is this machine's)" \
	grep -Eq "^ +1 +load.sse .* 4 thr " "$TMP/plan0"
sock run --dry-run --kernels load.sse --sizes 16k --threads 1 --placement remote --prefetch on \
	>"$TMP/remote" 2>&1
check "2 sockets: remote placement is planned (memory on the other socket's node)" \
	grep -Eq "^ +0 +load.sse .* remote$" "$TMP/remote"
sock run --dry-run --kernels load.sse --sizes 16k --cpus 0,8 --prefetch on >"$TMP/span" 2>&1
check "2 sockets: --cpus spanning both sockets gives 2 threads" grep -Eq " 2 thr " "$TMP/span"
expect_status "2 sockets: a CPU past the 16 PUs is refused (exit 2)" 2 \
	sock run --dry-run --kernels load.sse --cpus 16 --prefetch on

# model -> the config and prefetcher table it must get (configs/*.ini cpus=, harness/prefetch/pf_table.c)
while read -r cpuid cfg pf; do
	PMUCHECK_MSR_DIR=$TMP/no-msr PMUCHECK_FAKE_CPUID=$cpuid "$PMUCHECK" info >"$TMP/i" 2>&1
	check "$cpuid: config $cfg" grep -Eq "^config +.*/$cfg\.ini:" "$TMP/i"
	check "$cpuid: prefetchers $pf" grep -Eq "^prefetchers +$pf" "$TMP/i"
done <<'EOF'
GenuineIntel:6:0x55 skx Skylake-SP
GenuineIntel:6:0x8f spr Sapphire
GenuineIntel:6:0x3f hsw_ep Haswell
GenuineIntel:6:0x97 generic not.controllable
GenuineIntel:6:0x5e generic Skylake
AuthenticAMD:0x17:0x01 zen1 not.controllable
AuthenticAMD:0x17:0x08 zen1 not.controllable
AuthenticAMD:0x19:0x01 zen3 Zen.3
AuthenticAMD:0x19:0x11 zen4 Zen.4
AuthenticAMD:0x1a:0x02 zen5 Zen.5
EOF

# The no-AVX-512 checks pretend AVX-512 alone away (PMUCHECK_ISA_DISABLE): they need a CPU with AVX and
# AVX2, whose variants they expect to stay. One without them (an Atom-class Pentium or Celeron) misses more.
has_avx2() {
	"$PMUCHECK" list --json kernels 2>/dev/null | python3 -c 'import json, sys
k = {f["family"]: f for f in json.load(sys.stdin)["kernels"]}
sys.exit(any(v != "load.avx512" for v in k["load"]["unavailable"]))'
}
if has_avx2; then
	PMUCHECK_ISA_DISABLE=avx512f "$PMUCHECK" run --dry-run --quick --kernels load,store,triad >"$TMP/noavx" \
		2>"$TMP/noavx.err"
	check "no AVX-512: the quick plan has no avx512 variant" bash -c "! grep -q avx512 '$TMP/noavx'"
	check "no AVX-512: --dry-run says which variants it skips and why" \
		grep -q "skipping load.avx512.*lacks their instructions" "$TMP/noavx.err"
	check "no AVX-512: the quick plan still has the avx variants" grep -q "load.avx " "$TMP/noavx"
	expect_status "no AVX-512: naming load.avx512 is refused (exit 2)" 2 \
		env PMUCHECK_ISA_DISABLE=avx512f "$PMUCHECK" run --dry-run --kernels load.avx512
	# `list kernels` is where a user looks for what to pass to --kernels: it names the variants this CPU cannot
	# run (a Zen 2 or Zen 3 has no AVX-512), text and JSON alike, where it listed them as any other.
	PMUCHECK_ISA_DISABLE=avx512f "$PMUCHECK" list kernels >"$TMP/noavx.list" 2>&1
	check "no AVX-512: list kernels says which variants this CPU lacks the instructions of" grep -qx \
		"not on this CPU (it lacks their instructions): copy.avx512 copy.avx512.nt load.avx512 store.avx512 store.avx512.nt triad.avx512 triad.avx512.nt" \
		"$TMP/noavx.list"
	PMUCHECK_ISA_DISABLE=avx512f "$PMUCHECK" list --json kernels >"$TMP/noavx.json" 2>/dev/null
	check "no AVX-512: list --json kernels has them as unavailable, the others not" python3 -c '
import json, sys
k = {f["family"]: f for f in json.load(open(sys.argv[1]))["kernels"]}
assert k["load"]["unavailable"] == ["load.avx512"] and k["chase"]["unavailable"] == [], k' "$TMP/noavx.json"
	# A preset step that names an AVX-512 variant (a copy of the shipped presets, its molka2017.core step
	# naming load.avx512 and load.avx) is not the user's --kernels: the step runs load.avx and skips
	# load.avx512 with the reason, as it skips a family's widths (experiment.c), not the whole preset refused.
	cp -r "$TOP/configs" "$TMP/cfgdir"
	sed -i '/^\[run molka2017.core\]/,/^kernels/ s/^kernels = .*/kernels = load.avx512 load.avx/' "$TMP/cfgdir/presets.ini"
	PMUCHECK_CONFIG_DIR=$TMP/cfgdir PMUCHECK_ISA_DISABLE=avx512f "$PMUCHECK" run --dry-run --preset molka2017 \
		>"$TMP/prenoavx" 2>"$TMP/prenoavx.err"
	echo "exit $?" >>"$TMP/prenoavx.err"
	check "no AVX-512: a preset step naming load.avx512 still plans (exit 0)" grep -qx "exit 0" "$TMP/prenoavx.err"
	check "no AVX-512: that step measures load.avx and not load.avx512" \
		bash -c "grep -q ' load.avx ' '$TMP/prenoavx' && ! grep -q avx512 '$TMP/prenoavx'"
	check "no AVX-512: the run says it skips load.avx512 and why" \
		grep -q "skipping load.avx512: this CPU lacks their instructions" "$TMP/prenoavx.err"
	PMUCHECK_ISA_DISABLE=avx512f "$PMUCHECK" run --dry-run --preset molka2017 >/dev/null 2>"$TMP/preonce.err"
	check "no AVX-512: the variants molka2017's steps skip are named once, though each step skips them" \
		test "$(grep -c 'skipping load.avx512, .*: this CPU lacks' "$TMP/preonce.err")" = 1
else
	skip "no AVX-512: plans, lists and presets without the avx512 variants" "this CPU lacks AVX or AVX2 too"
fi
# A step that runs in part says what it leaves out, as one skipped whole does.
"$PMUCHECK" run --dry-run --preset helm2020 --cpus "$FIRST_CPU" >/dev/null 2>"$TMP/prepart.err"
check "a preset step that runs in part says what it leaves out" grep -q \
	"skipping part of helm2020.delay here: 2, 4, 8, 16 threads (more than the CPUs in use)" "$TMP/prepart.err"
if has_avx2; then
	# A step whose every kernel needs AVX-512 is skipped whole, with the reason, and the preset's other steps run.
	sed -i 's/^kernels = load.avx512 load.avx$/kernels = load.avx512/' "$TMP/cfgdir/presets.ini"
	PMUCHECK_CONFIG_DIR=$TMP/cfgdir PMUCHECK_ISA_DISABLE=avx512f "$PMUCHECK" run --dry-run --preset molka2017 \
		>"$TMP/preonly" 2>"$TMP/preonly.err"
	echo "exit $?" >>"$TMP/preonly.err"
	check "no AVX-512: a preset step of load.avx512 alone leaves the preset planned (exit 0)" \
		grep -qx "exit 0" "$TMP/preonly.err"
	check "no AVX-512: the run says it skips that step and why" \
		grep -q "skipping molka2017.core here: load.avx512 (this CPU lacks their instructions)" "$TMP/preonly.err"
	check "no AVX-512: the other steps are planned, that one not" \
		bash -c "grep -q '^molka2017.socket:' '$TMP/preonly' && ! grep -q '^molka2017.core:' '$TMP/preonly'"
else
	skip "no AVX-512: a preset step of load.avx512 alone is skipped whole" "this CPU lacks AVX or AVX2 too"
fi

# --dry-run predicts the prefetch states the run measures: without MSR access the off points are skipped
# (and said so, with the reason); with (fake) MSR files for a model with a table they are planned.
. "$(dirname "$0")/../pf_fake.sh"
ncpu=$(nproc --all) # the msr driver has a file for every CPU, whatever this process may use
(
	export PMUCHECK_MSR_DIR=$TMP/no-msr PMUCHECK_FAKE_CPUID=AuthenticAMD:0x19:0x01
	mkdir -p "$PMUCHECK_MSR_DIR"
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 >"$TMP/nomsr" 2>"$TMP/nomsr.err"
)
check "no MSR access: --dry-run plans no off point" bash -c "! grep -q ' off ' '$TMP/nomsr'"
check "no MSR access: --dry-run plans the uncontrolled point" grep -q " uncontrolled " "$TMP/nomsr"
check "no MSR access: --dry-run says the off experiments are skipped and why" \
	grep -q "skipping the 'off' experiments: .*msr" "$TMP/nomsr.err"
# every state skipped is named, also one whose name begins another's (off after off:l2-stream)
(
	export PMUCHECK_MSR_DIR=$TMP/no-msr PMUCHECK_FAKE_CPUID=AuthenticAMD:0x19:0x01
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 --prefetch on,off:l2-stream,off \
		>/dev/null 2>"$TMP/nomsr2.err"
)
check "no MSR access: --dry-run names each skipped state, off after off:l2-stream too" \
	grep -q "skipping the 'off:l2-stream,off' experiments" "$TMP/nomsr2.err"
(
	make_fake "$TMP/msr" AuthenticAMD:0x19:0x01 0xc0000108 "$ncpu"
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 >"$TMP/msr.plan" 2>&1
)
check "MSR access: --dry-run plans the on and the off point" \
	bash -c "grep -q ' on ' '$TMP/msr.plan' && grep -q ' off ' '$TMP/msr.plan'"
check "MSR access: --dry-run writes no prefetch state" test ! -e "$TMP/msr/prefetch.state"
# off:NAMES naming every prefetcher of the table is "off" (the analysis judges "off:..." as a subset, apart
# from off: a demand-only event measured with on,off:all was called exact, not prefetch-blind)
(
	make_fake "$TMP/msr-all" AuthenticAMD:0x19:0x01 0xc0000108 "$ncpu"
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 --prefetch on,off:all >"$TMP/all.plan" 2>&1
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 \
		--prefetch on,off:l1-stream+l1-stride+l1-region+l2-stream+l2-updown >"$TMP/every.plan" 2>&1
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 --prefetch off,off:all >"$TMP/twice.out" 2>&1
	echo $? >"$TMP/twice.rc"
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 \
		--prefetch on,off:l2-stream+l1-stream >"$TMP/order.plan" 2>&1
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 \
		--prefetch off:l1-stream+l2-stream,off:l2-stream+l1-stream >"$TMP/order.out" 2>&1
	echo $? >"$TMP/order.rc"
)
check "MSR access: --prefetch off:all and off:EVERY+NAME are planned as 'off'" \
	bash -c "grep -q ' off ' '$TMP/all.plan' && grep -q ' off ' '$TMP/every.plan' && ! grep -q 'off:' '$TMP/all.plan' '$TMP/every.plan'"
check "MSR access: --prefetch off,off:all lists one state twice (exit 2)" \
	bash -c "test \"\$(cat '$TMP/twice.rc')\" = 2 && grep -q \"'off:all' is 'off', listed twice\" '$TMP/twice.out'"
# one set of prefetchers is one state, named in the table's order, whatever order --prefetch gives them in
check "MSR access: --prefetch off:l2-stream+l1-stream is planned as off:l1-stream+l2-stream" \
	grep -q ' off:l1-stream+l2-stream ' "$TMP/order.plan"
check "MSR access: --prefetch off:l1-stream+l2-stream,off:l2-stream+l1-stream lists one state twice (exit 2)" \
	bash -c "test \"\$(cat '$TMP/order.rc')\" = 2 && grep -q \"'off:l2-stream+l1-stream' is 'off:l1-stream+l2-stream', listed twice\" '$TMP/order.out'"
# A model the lists know that has no config of its own (Skylake desktop) runs with the generic fallback,
# whose prefetch = listed leaves it to the lists: its off points are planned, as `info` calls them accessible.
(
	make_fake "$TMP/msr-skl" GenuineIntel:6:0x5e 0x1a4 "$ncpu"
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 >"$TMP/skl.plan" 2>&1
)
check "Skylake desktop (generic.ini): --dry-run plans the on and the off point" \
	bash -c "grep -q ' on ' '$TMP/skl.plan' && grep -q ' off ' '$TMP/skl.plan'"
# So does the config a discovery writes for a CPU the lists know (a Zen 3's): run --config discovered.ini
D=$TMP/discovery
mkdir -p "$D" && "$TOP/${BUILD:-build}/tests/tools/rawgen" "$D" 4 3 >/dev/null &&
	python3 - "$D" <<'PY'
import csv, json, sys
d = sys.argv[1]
evs = sorted({r["event"] for r in csv.DictReader(open(d + "/raw.csv"))})
json.dump({"candidates": [{"spec": e, "name": e, "source": "test", "origin": "sysfs"} for e in evs]},
          open(d + "/candidates.json", "w"))
m = json.load(open(d + "/machine.json"))
m["cpu"].update(vendor="AuthenticAMD", family=0x19, model=0x01, model_name="AMD EPYC 7763")
json.dump(m, open(d + "/machine.json", "w"))
PY
"$PMUCHECK" analyze -q "$D" >/dev/null 2>&1
(
	make_fake "$TMP/msr-disc" AuthenticAMD:0x19:0x01 0xc0000108 "$ncpu"
	"$PMUCHECK" run --dry-run --config "$D/discovered.ini" --kernels load.gpr --sizes 16k --threads 1 \
		>"$TMP/disc.plan" 2>&1
)
check "Zen 3 (a discovery's discovered.ini): --dry-run plans the on and the off point" \
	bash -c "grep -q ' on ' '$TMP/disc.plan' && grep -q ' off ' '$TMP/disc.plan'"
