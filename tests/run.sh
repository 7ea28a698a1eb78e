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
# Usage: [SUITES="unit ..."] [VERBOSE=1] [JOBS=N] tests/run.sh [PATTERN]
#   PATTERN   runs only test files whose path contains it
#   VERBOSE=1 prints every TAP line and note, not only those of failures (a benchmark's figures)
#   JOBS=N    test files run N at a time (default: one per CPU; 1 when SUITES names bench, whose
#             figures another test beside them would disturb). Each file has its own scratch
#             directory and fake roots, and their reports are printed in the order they were started,
#             so the output reads as a serial run's. A test that fails because another test runs beside
#             it is a wrong test (README, Tests), as one that fails on a busy machine.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
SUITES=${SUITES:-unit kernels integration}
VERBOSE=${VERBOSE:-0}
export TOP PMUCHECK="${PMUCHECK:-$TOP/pmucheck}"
filter=${1:-}
case " $SUITES " in *" bench "*) JOBS=${JOBS:-1} ;; *) JOBS=${JOBS:-$(nproc)} ;; esac
pass=0 fail=0 skipped=0
OUTS=$(mktemp -d "${TMPDIR:-/tmp}/pmucheck-run.XXXXXX")
# The suites start python3 hundreds of times. Where python3 is a version manager's shim (pyenv's is a bash
# script that runs pyenv: 0.44 s a start on the development VMs, against 0.05 s for the interpreter), they
# get the interpreter that shim chooses, found once: the same Python (make test on a Zen 5 guest: 8 min 17 s
# before, 7 min 09 s after, with analyze_peaks.sh's smaller input).
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ]; then
	mkdir "$OUTS/bin" && ln -s "$py" "$OUTS/bin/python3" && export PATH="$OUTS/bin:$PATH"
fi
# Each test file runs in a process group of its own (job control), so that an interrupted run stops every
# process of the tests still running, not only their first shell; their stdin is /dev/null (a test in a
# background group that read the terminal would stop there).
set -m
trap 'for g in $(jobs -p); do kill -TERM -- "-$g" 2>/dev/null; done; wait; rm -rf "$OUTS"' EXIT
started=0 printed=0
label=() failures=()

# Counts the TAP lines of one test program; a program that dies without reporting is one failure.
# Prints its report, and leaves "passed failed skipped" in the file $counts.
run_one() {
	local label=$1 counts=$2; shift 2
	local out start rc p=0 f=0 s=0 notes=
	start=$(date +%s)
	out=$("$@" 2>&1 </dev/null); rc=$?
	# A skip is shown with its reason. A shell test gives it on its SKIP line; a cmocka test prints it before
	# (tests/unit/skip_why.h: "# skip: REASON"), and its SKIP line is numbered, "not ok N # SKIP NAME" (cmocka
	# 1.1): the '#' lines since the previous result, not shown yet, are shown before it. A shell test's '#'
	# lines follow its result (lib.sh: check), so they are never a later skip's.
	while IFS= read -r line; do
		case "$line" in
		ok*"# SKIP"* | "not ok"*"# SKIP"*)
			s=$((s + 1))
			case "$line" in "ok "[0-9]* | "not ok "[0-9]*) printf '%s' "$notes" ;; esac
			echo "  $line"; notes= ;;
		"not ok"*) f=$((f + 1)); echo "  $line"; notes= ;;
		ok*) p=$((p + 1)); [ "$VERBOSE" = 1 ] && echo "  $line"; notes= ;;
		"#"*) if [ "$f" -gt 0 ] || [ "$VERBOSE" = 1 ]; then echo "  $line"; else notes+="  $line"$'\n'; fi ;;
		esac
	done <<<"$out"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "  not ok - $label exited with status $rc without reporting a failure"
		echo "$out" | tail -20 | sed 's/^/  #   /'
	fi
	printf '%-48s %3d passed, %d failed, %d skipped (%ds)\n' "$label" "$p" "$f" "$s" $(($(date +%s) - start))
	echo "$p $f $s" >"$counts.part" && mv "$counts.part" "$counts" # complete once it exists
}

# Prints, in the order they were started, the reports of the tests that have finished.
flush() {
	local p f s
	while [ "$printed" -lt "$started" ] && [ -e "$OUTS/$printed.counts" ]; do
		cat "$OUTS/$printed.out"
		read -r p f s <"$OUTS/$printed.counts"
		pass=$((pass + p)) fail=$((fail + f)) skipped=$((skipped + s))
		[ "$f" -eq 0 ] || failures+=("${label[printed]}: $f failed, first $(grep -v '# SKIP' "$OUTS/$printed.out" |
			grep -m1 -o 'not ok.*' | cut -c1-200)")
		printed=$((printed + 1))
	done
}

# Starts one test program once fewer than $JOBS run.
launch() {
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n
		flush
	done
	label[started]=$1
	run_one "$1" "$OUTS/$started.counts" "${@:2}" >"$OUTS/$started.out" &
	started=$((started + 1))
	flush
}

for suite in $SUITES; do
	for t in "$TOP/$BUILD/tests/$suite"/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue # not a binary (or no such folder: the glob itself)
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		launch "$suite/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
	for t in "$TOP"/tests/$suite/*.sh; do
		[ -f "$t" ] || continue
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		launch "$suite/$(basename "$t")" bash "$t"
	done
done
if [ -n "${SAN_BUILD:-}" ]; then
	for t in "$TOP/$SAN_BUILD"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		launch "san/unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP bash "$TOP/tests/san.sh" "$t"
	done
	# the longest first (their seconds in a CI run on 2 CPUs: 48, 30, 29, 20, 16, 16, 12, 8, 9, 9, 4, 2), so
	# that the last to start are short and no CPU waits at the end for one long suite (bad_inputs, last
	# but two, kept one CPU alone for some 20 s)
	for s in bad_inputs prefetch_cli prefetch_signals run_cli prefetch_killpoints unprivileged cpu_limit \
		run_revisits counters analyze prefetch_errors configs; do
		t=$TOP/tests/integration/$s.sh
		[ -f "$t" ] || continue
		case "$t" in *"$filter"*) ;; *) continue ;; esac
		launch "san/integration/$s.sh" env BUILD="$SAN_BUILD" PMUCHECK="$TOP/$SAN_BUILD/pmucheck" \
			bash "$TOP/tests/san.sh" bash "$t"
	done
fi
wait
flush
# A test whose report never completed (its shell killed from outside) is a failure, not a test left out.
while [ "$printed" -lt "$started" ]; do
	cat "$OUTS/$printed.out"
	echo "  not ok - ${label[printed]} ended without a report"
	failures+=("${label[printed]}: ended without a report")
	fail=$((fail + 1)) printed=$((printed + 1))
	flush
done
# The failures once more at the end, where a log kept only by its head and its tail still shows them (a CI
# page once showed 17 failures and none of their names)
[ "$fail" -eq 0 ] || printf 'failed: %s\n' "${failures[@]}"
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
