# lib.sh — sourced by every shell test suite. Prints TAP lines that tests/run.sh counts.
#   ok NAME / notok NAME WHY / skip NAME WHY
#   check NAME CMD...           passes when CMD exits 0; its '#' lines (a benchmark's figures) are passed on
#   expect_status NAME N CMD... passes when CMD exits with N
# $PMUCHECK is the binary under test, $TOP the project, $TMP a scratch directory removed at exit.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PMUCHECK=${PMUCHECK:-$TOP/pmucheck}
# The tests' own arithmetic (awk, printf) reads and writes numbers with a decimal point: under a locale with
# a decimal comma mawk read 1.5 as 1 and printed 0,0001475 (pmucheck itself sets no locale).
export LC_ALL=C
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pmucheck-test.XXXXXX")
# main_shell: true in the script itself, false in a fork of it. A fork that a signal reaches before it has
# exec'd (a background command a test kills at once) runs the EXIT trap too, and took $TMP from under the
# rest of its suite (prefetch_signals.sh under load: 6, then 12 of its 19 failed, every later redirection
# failing; most likely also a CI run's 17 failures, which its log did not name).
# The pid is the kernel's, from /proc/self: in such a fork bash 5.2.15's $BASHPID, expanded in the trap,
# gave the parent's pid in 6 of 6 tries where the script had run another bash script before (none where
# it had not); it stands in only where /proc cannot be read. A suite that sets its own EXIT trap starts it
# with main_shell too.
main_shell() {
	local self _
	read -r self _ 2>/dev/null </proc/self/stat || self=$BASHPID
	[ "$self" = $$ ]
}
trap 'main_shell && rm -rf "$TMP"' EXIT
# The level and speed probes' histories (levels_history.h, speed_history.h) of this file's runs alone: no test's levels come from the
# probes of the machine's own runs or of another test, and none is left in the machine's state directory. Its
# own directory, since the state directory follows PMUCHECK_MSR_DIR (below), which the prefetcher tests move.
export PMUCHECK_HISTORY_DIR=$TMP/state

# No test reaches this machine's real MSRs unless it says so. As root where the msr driver is loaded, a run
# opens /dev/cpu/N/msr for its prefetcher states and writes them: --prefetch on writes "all on" for the run
# (restored at its end), the default on,off switches the prefetchers off; info and --dry-run open them too.
# Every pmucheck a test starts looks for its MSR files here instead, a directory of this file's own that holds
# none: its prefetchers are uncontrolled, every state but 'on' skipped with the reason, and its prefetcher lock
# and state files (state_dir.h) stay in here. The prefetcher tests point it at their fake MSR files (pf_fake.sh);
# the few checks of the real MSRs run only where the caller asks for them (real_msr).
export PMUCHECK_MSR_DIR=$TMP/no-msr-files
mkdir -p "$PMUCHECK_MSR_DIR"

# real_msr: true where the caller asked for the checks of this machine's real MSRs (PMUCHECK_TEST_REAL_MSR=1):
# they read them as root (prefetch status), or try to write them as another user, who may not.
real_msr() { [ "${PMUCHECK_TEST_REAL_MSR:-}" = 1 ]; }

# The first CPU this shell may run on: a suite started under taskset, numactl or a batch system's binding
# has no CPU 0, and a run pinned outside that binding is refused.
FIRST_CPU=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))' 2>/dev/null || echo 0)

# "1,2" where a run may have two threads here, else "1": a run takes one CPU per core, so a VM of one core's
# two hyperthreads has two CPUs (nproc) but refuses --threads 2; pmucheck's own plan says which.
two_threads() {
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1,2 >/dev/null 2>&1 && echo 1,2 || echo 1
}

# True where pmucheck counts 'instructions' here, a core PMU; these guests have none. pmucheck's own word (the
# probe behind machine.json's counters.availability.hardware), not perf's: with perf not installed, or refused,
# `perf stat` printed no "not supported", and a machine without a PMU was taken for one with (counters.sh and
# discover.sh skipped their no-PMU checks "because this machine counts instructions"). Where pmucheck gives no
# answer this is false, so the no-PMU checks run and fail rather than being skipped.
counts_instructions() {
	"$PMUCHECK" list events --json instructions 2>/dev/null | python3 -c 'import json, sys
sys.exit(json.load(sys.stdin)["events"][0]["status"] != "ok")' 2>/dev/null
}

# "STATUS REASON" of EVENT's first row in a raw.csv (empty where it has none): not_measured with its reason
# where this machine cannot count it, ok where it can.
raw_status() {
	python3 -c 'import csv, sys
r = next((r for r in csv.DictReader(open(sys.argv[1])) if r["event"] == sys.argv[2]), {})
print(r.get("status", ""), r.get("reason", ""))' "$1" "$2"
}

# One prefetcher state, for every real run of a test that is not about prefetchers: 'on', measured as
# uncontrolled without MSR files (PMUCHECK_MSR_DIR above), and nothing reported skipped; with the fake MSR
# files of a prefetcher test, one state and not the default two, which would double the points.
ONE_STATE=(--prefetch on)

# A size every machine's plan calls DRAM: past all the caches hwloc reports, together, and 200 MB at least (a
# CI run on the Zen 3 VM, whose hwloc reports 508 MiB of L3 per vCPU, once labelled its 200 MB points L3).
dram_size() {
	"$PMUCHECK" info --json 2>/dev/null | python3 -c 'import json, sys
caches = json.load(sys.stdin)["topology"]["caches"]
print("%dM" % max(200, 1.25 * sum(c["size"] for c in caches) / 1e6 + 1))'
}

ok() { echo "ok - $1"; }
notok() { echo "not ok - $1${2:+: $2}"; }
skip() { echo "ok - $1 # SKIP $2"; }

check() {
	name=$1; shift
	if "$@" >"$TMP/check.out" 2>&1; then ok "$name"; sed -n '/^#/p' "$TMP/check.out"; else
		notok "$name" "'$*' failed"; sed 's/^/#   /' "$TMP/check.out" | head -20; fi
}

expect_status() {
	name=$1; want=$2; shift 2
	"$@" >"$TMP/check.out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$name"; else
		notok "$name" "exit $got, expected $want: $*"; sed 's/^/#   /' "$TMP/check.out" | head -20; fi
}
