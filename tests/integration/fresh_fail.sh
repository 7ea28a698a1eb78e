#!/bin/bash
# fresh_fail.sh — a two-thread touch point whose fresh memory one thread cannot get ends the run with that
# failure said and exit 1, never a hang. The threads decide to leave the repetitions together, on the
# failure flag read after the barrier that follows the allocations (harness/run/run.c: measure_reps); read
# in the loop conditions (before 9869239), a thread that left a barrier after the other had already failed
# its allocation saw that failure one barrier early, left, and both waited at barriers the other never
# reached. The failure is injected (PMUCHECK_TEST_FAIL_ALLOC, harness/run/fresh_fail.h) at every place it
# can fall: calibration's allocation (1) and the first three repetitions' (2-4, all that --reps 3 makes
# sure of), on either thread. `timeout` turns a hang into a failure.
# The old hang was a race: the failing thread had to leave the barrier before the allocation first and
# fail before the other read the flag; then one thread waited at a barrier of the repetitions, the other at
# the end of the parallel region (gdb, 2026-12-02). OMP_WAIT_POLICY=passive makes a waiting thread sleep
# at barriers, so the other wakes later, and each repetition's failure is tried five times: with 9869239
# reverted, on the 2-vCPU Zen 3 guest, 10 of 60 single runs at places 2-4 hung (1 to 4 of 10 at each), so
# 30 runs all miss it about 0.4 % of the time; this file failed in each of its 3 runs there (2 to 5 of the
# 6 places timed out). Fixed, it takes 15 s.
. "$(dirname "$0")/../lib.sh"

if [ "$(two_threads)" != 1,2 ]; then
	skip "a touch point whose fresh memory one of two threads cannot get" "this machine runs one thread a point"
	exit 0
fi

# fresh_run SPEC OUT: the two-thread touch point with PMUCHECK_TEST_FAIL_ALLOC=SPEC into OUT; its output in
# $TMP/out, its exit status returned (124 or 137: it hung until timeout ended it; it takes under a second)
fresh_run() {
	PMUCHECK_TEST_FAIL_ALLOC=$1 OMP_WAIT_POLICY=passive timeout -k 10 30 "$PMUCHECK" run --kernels touch \
		--sizes 1m --threads 2 --reps 3 --reported-levels --no-progress "${ONE_STATE[@]}" --out "$2" \
		>"$TMP/out" 2>&1
}

# fails_at SPEC TRIES: every one of TRIES runs with the failure at SPEC ends with exit 1 and the message
fails_at() {
	local spec=$1 tries=$2 rc why='' want
	want="pmucheck run: thread ${spec%%:*}: fresh memory refused by PMUCHECK_TEST_FAIL_ALLOC=$spec"
	for i in $(seq "$tries"); do
		fresh_run "$spec" "$TMP/fail-$spec-$i"
		rc=$?
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then why="run $i hung until timeout ended it (exit $rc)"
		elif [ "$rc" -ne 1 ]; then why="run $i: exit $rc, expected 1: $(tail -3 "$TMP/out")"
		elif ! grep -qF "$want" "$TMP/out"; then why="run $i: no '$want' in: $(tail -3 "$TMP/out")"
		else continue; fi
		break
	done
	if [ -n "$why" ]; then
		notok "fresh memory refused at $spec (thread:allocation) ends the run" "$why"
	else
		ok "fresh memory refused at $spec (thread:allocation) ends the run with exit 1 and says so ($tries runs)"
	fi
}

for spec in 0:1 1:1; do fails_at "$spec" 1; done
for spec in 0:2 1:2 0:3 1:3 0:4 1:4; do fails_at "$spec" 5; done

# The same point measures where the setting asks for nothing: a value that is not THREAD:N, a thread the
# point does not have, an allocation past its last.
for spec in x 0:0 2:1 0:1000; do
	if fresh_run "$spec" "$TMP/run-$spec"; then
		ok "PMUCHECK_TEST_FAIL_ALLOC=$spec fails no allocation: the point is measured"
	else
		notok "PMUCHECK_TEST_FAIL_ALLOC=$spec fails no allocation" "exit $?: $(tail -3 "$TMP/out")"
	fi
done
