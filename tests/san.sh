#!/bin/bash
# san.sh CMD... — runs CMD (a test program or suite) so that a sanitizer report fails it even where the
# sanitized program's exit status is expected to be non-zero (bad input exits 2) or is not checked:
#   AddressSanitizer and LeakSanitizer write their reports to files here, each printed afterwards as a
#   failed TAP line;
#   UndefinedBehaviorSanitizer (built with -fno-sanitize-recover) ignores log_path in GCC's runtime and
#   writes to the program's stderr, so it aborts instead: exit 134, a status no test expects.
# Other libraries' own leaks are suppressed by tests/lsan.supp (pmucheck's own still fail); the list of
# suppressions used is not printed, as it would land in a log file and read as a report.
# Exits with CMD's status.
set -u
supp=$(cd "$(dirname "$0")" && pwd)/lsan.supp
logs=$(mktemp -d "${TMPDIR:-/tmp}/pmucheck-san.XXXXXX")
chmod 1777 "$logs" # suites run some programs as user nobody
trap 'rm -rf "$logs"' EXIT
# The paths in double quotes: the sanitizers' option parser ends a value at a space (a checkout path with one)
export ASAN_OPTIONS="detect_leaks=1:log_path=\"$logs/asan\"${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=\"$supp\":print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:abort_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
"$@"
rc=$?
for f in "$logs"/*; do
	[ -e "$f" ] || continue
	echo "not ok - sanitizer report (process $(basename "$f")) while running ${*: -1}"
	sed 's/^/#   /' "$f" | head -40
done
exit $rc
