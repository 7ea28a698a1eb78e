#!/bin/bash
# The test driver (tests/run.sh) on a suite of its own: every failure counted, named again after the
# suites' lines (a CI page that keeps only a log's head and tail showed 17 failures and none of their
# names), and the total the last line.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$TMP/tree/tests/fake"
cp "$TOP/tests/run.sh" "$TMP/tree/tests/"
# a skip as cmocka 1.1 prints it ("not ok N # SKIP") before the failure: not named as the first
printf '%s\n' 'echo "ok - one"' 'echo "not ok 2 # SKIP not here"' 'echo "not ok - two: because"' \
	'echo "ok - three # SKIP not here"' >"$TMP/tree/tests/fake/a.sh"
printf '%s\n' 'echo "ok - four"' 'exit 3' >"$TMP/tree/tests/fake/b.sh"
printf '%s\n' 'echo "ok - five"' >"$TMP/tree/tests/fake/c.sh"

SUITES=fake bash "$TMP/tree/tests/run.sh" >"$TMP/out" 2>&1
rc=$?
# the last lines, the per-file line's padding and seconds left out
cat >"$TMP/want" <<'END'
fake/c.sh 1 passed, 0 failed, 0 skipped
failed: fake/a.sh: 1 failed, first not ok - two: because
failed: fake/b.sh: 1 failed, first not ok - fake/b.sh exited with status 3 without reporting a failure
3 passed, 2 failed, 2 skipped
END
if [ $rc -eq 1 ] && tail -4 "$TMP/out" | sed 's/  */ /g; s/ ([0-9]*s)$//' | cmp -s - "$TMP/want"; then
	ok "failures are counted, named again at the end, and the total is the last line"
else
	notok "failures are counted, named again at the end, and the total is the last line" \
		"status $rc: $(tr '\n' '|' <"$TMP/out")"
fi

rm "$TMP/tree/tests/fake/a.sh" "$TMP/tree/tests/fake/b.sh"
SUITES=fake bash "$TMP/tree/tests/run.sh" >"$TMP/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q '^failed' "$TMP/out" && [ "$(tail -1 "$TMP/out")" = "1 passed, 0 failed, 0 skipped" ]; then
	ok "a suite that passes ends with its total and names no failure"
else
	notok "a suite that passes ends with its total and names no failure" "status $rc: $(tr '\n' '|' <"$TMP/out")"
fi

# lib.sh's scratch directory outlives a background command killed at once: its fork, before the exec,
# runs the EXIT trap, which removed $TMP from under the rest of a suite before lib.sh kept that to the
# script itself. Killed at once, nearly every fork here is still one (without the guard: gone after the
# first; so with bash's $BASHPID for the process's pid, this script having run tests/run.sh above).
for i in $(seq 20); do
	sleep 5 &
	kill -TERM $!
	wait $!
	[ -d "$TMP" ] || break
done 2>/dev/null # (the forks' trap has bash say "wait_for: No record of process")
if [ -d "$TMP" ]; then ok "\$TMP outlives 20 background commands killed as they start"
else notok "\$TMP outlives 20 background commands killed as they start" "gone after $i"; fi
