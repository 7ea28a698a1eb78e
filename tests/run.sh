#!/bin/bash
# run.sh — the test driver: every suite, one summary line per suite, then the total.
#   unit         cmocka binaries in build/tests/unit (TAP output)
#   kernels      tests/kernels/*.sh: descriptor volumes against valgrind and disassembly
#   integration  tests/integration/*.sh: the pmucheck binary end to end
#   san          with SAN_BUILD=build-san (make test sets it): the unit tests and the quick integration
#                suites again against the ASan + UBSan build; any sanitizer report fails (tests/san.sh)
#   bench        only when SUITES names it (make bench): the speed, latency and clock checks of
#                tests/bench/, which a shared machine can fail without a bug (README, Benchmarks)
# A suite is its cmocka binaries in $BUILD/tests/SUITE/ and its scripts tests/SUITE/*.sh.
# Usage: [SUITES="unit ..."] [VERBOSE=1] tests/run.sh [PATTERN]
#   PATTERN   runs only test files whose path contains it
#   VERBOSE=1 prints every TAP line and note, not only those of failures (a benchmark's figures)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
SUITES=${SUITES:-unit kernels integration}
VERBOSE=${VERBOSE:-0}
export TOP PMUCHECK="${PMUCHECK:-$TOP/pmucheck}"
filter=${1:-}
pass=0 fail=0 skipped=0

# Counts the TAP lines of one test program; a program that dies without reporting is one failure.
run_one() {
	local label=$1; shift
	local out start rc p=0 f=0 s=0
	start=$(date +%s)
	out=$("$@" 2>&1); rc=$?
	while IFS= read -r line; do
		case "$line" in
		ok*"# SKIP"* | "not ok"*"# SKIP"*) s=$((s + 1)); echo "  $line" ;; # cmocka 1.1: "not ok N # SKIP"
		"not ok"*) f=$((f + 1)); echo "  $line" ;;
		ok*) p=$((p + 1)); [ "$VERBOSE" = 1 ] && echo "  $line" ;;
		"#"*) [ "$f" -gt 0 ] || [ "$VERBOSE" = 1 ] && echo "  $line" ;;
		esac
	done <<<"$out"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "  not ok - $label exited with status $rc without reporting a failure"
		echo "$out" | tail -20 | sed 's/^/  #   /'
	fi
	printf '%-48s %3d passed, %d failed, %d skipped (%ds)\n' "$label" "$p" "$f" "$s" $(($(date +%s) - start))
	pass=$((pass + p)) fail=$((fail + f)) skipped=$((skipped + s))
}

for suite in $SUITES; do
	for t in "$TOP/$BUILD/tests/$suite"/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue # not a binary (or no such folder: the glob itself)
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		run_one "$suite/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
	for t in "$TOP"/tests/$suite/*.sh; do
		[ -f "$t" ] || continue
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		run_one "$suite/$(basename "$t")" bash "$t"
	done
done
if [ -n "${SAN_BUILD:-}" ]; then
	for t in "$TOP/$SAN_BUILD"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		run_one "san/unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP bash "$TOP/tests/san.sh" "$t"
	done
	for s in run_cli counters analyze configs prefetch_cli prefetch_errors prefetch_signals \
		prefetch_killpoints bad_inputs unprivileged; do
		t=$TOP/tests/integration/$s.sh
		[ -f "$t" ] || continue
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		run_one "san/integration/$s.sh" env BUILD="$SAN_BUILD" PMUCHECK="$TOP/$SAN_BUILD/pmucheck" \
			bash "$TOP/tests/san.sh" bash "$t"
	done
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
