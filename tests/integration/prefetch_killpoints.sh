#!/bin/bash
# Every named point of a prefetcher change (harness/prefetch/pf_stop.h), hit exactly: the process
# stops itself there (PMUCHECK_TEST_STOP), the test checks the MSRs and state files at that point,
# then ends it by SIGKILL (and, in a session, by SIGTERM). Whatever the point, once the next start
# (or 'pmucheck prefetch restore' for a held change) has run, every MSR is at its original value,
# no state file is left, and the restore was reported exactly when a state file had been committed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pf_fake.sh"

if [ ! -x "$SESSION" ]; then
	skip "prefetch kill points" "$SESSION not built (make unit-tests builds it)"
	exit 0
fi
# Zen 4, 3 CPUs, every prefetcher bit (0x2f) clear at the start.
fresh() {
	rm -rf "$TMP/msr" "$TMP/msr.orig"
	make_fake "$TMP/msr" AuthenticAMD:0x19:0x11 0xc0000108 3 5a5a5a5a5a5a5a40
}

# One letter per CPU: o at its original value, c with every prefetcher off, x anything else.
pattern() {
	local cpu v o out=""
	while read -r cpu v; do
		o=$(orig_of "$cpu")
		if [ $((0x$v)) -eq "$o" ]; then out+=o
		elif [ $((0x$v)) -eq $((o | 0x2f)) ]; then out+=c
		else out+=x; fi
	done < <(msr_values)
	echo "$out"
}
files() { (cd "$PMUCHECK_MSR_DIR" && ls prefetch.state* prefetch.held* 2>/dev/null | paste -sd ' '); }
where() { echo "MSRs $(pattern), files: $(files)"; }

# until_stopped: waits up to 60 s for $pid to stop itself; fails when it ends or does not stop. The
# bounds here are generous: a sanitizer build under a parallel make test (load 14 on 2 CPUs) took more
# than the 10 s they once were, and a passing run never waits them out.
until_stopped() {
	local st _
	for _ in $(seq 6000); do
		st=Z
		read -r _ _ st _ 2>/dev/null <"/proc/$pid/stat"
		[ "$st" = T ] && return 0
		[ "$st" = Z ] && return 1
		sleep 0.01
	done
	return 1
}

# stop_at POINT CMD...: runs CMD in the background with a stop at POINT ($pid). Succeeds once it
# has stopped there; otherwise it is ended and waited for ($status).
stop_at() {
	local point=$1
	shift
	PMUCHECK_TEST_STOP=$point env --default-signal "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	until_stopped && return 0
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null # (no "Killed" notice)
	status=$?
	return 1
}

# hold_session [POINT]: a session ($pid) that has turned every prefetcher off and waits.
hold_session() {
	: >"$TMP/out" # the last session's "set" must not count as this one's
	PMUCHECK_TEST_STOP=${1:-} "$SESSION" hold >"$TMP/out" 2>&1 &
	pid=$!
	for _ in $(seq 6000); do grep -q '^set$' "$TMP/out" && break; sleep 0.01; done
}

# end_with SIG: sends SIG to the stopped $pid, then SIGCONT so that a catchable one is handled
# right there, and waits for it ($status).
end_with() {
	kill -s "$1" "$pid"
	kill -CONT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	status=$?
}

# at_stop NAME WANT: the MSRs and state files at the stop are WANT (as where prints them); sets
# committed when a state file had been committed there.
at_stop() {
	committed=0
	[ -e "$PMUCHECK_MSR_DIR/prefetch.state" ] || [ -e "$PMUCHECK_MSR_DIR/prefetch.held" ] && committed=1
	[ "$(where)" = "$2" ] && ok "$1: at the stop, $2" || notok "$1: at the stop" "$(where), want $2"
}

# after NAME CMD...: runs CMD (the next start, or prefetch restore); it must report a restore
# exactly when a state file had been committed ($committed), and leave every MSR at its original
# and no state file (a temporary never renamed may stay: nothing reads it, the next write replaces it).
after() {
	local name=$1 said=0
	shift
	"$@" >"$TMP/next" 2>&1
	grep -q 'did not finish\|^restored MSR' "$TMP/next" && said=1
	name="$name: then ${1##*/} ${*:2} reports $([ "$committed" = 1 ] && echo a restore || echo nothing)"
	if [ "$said" -eq "$committed" ] && [ "$(pattern)" = ooo ] &&
		[ ! -e "$PMUCHECK_MSR_DIR/prefetch.state" ] && [ ! -e "$PMUCHECK_MSR_DIR/prefetch.held" ]; then
		ok "$name, every MSR original"
	else
		notok "$name, every MSR original" "$(where): $(head -c 300 "$TMP/next")"
	fi
}

# session POINT MODE WANT SIG: a pf_session (MODE) stopped at POINT, where it shows WANT, ended by
# SIG; then the next start, and a new session.
session() {
	local name="session ($2) stopped at $1, then SIG$4"
	fresh
	if ! stop_at "$1" "$SESSION" "$2"; then
		notok "$name" "never stopped (status $status): $(cat "$TMP/err")"
		return
	fi
	at_stop "$name" "$3"
	end_with "$4"
	if [ "$4" = TERM ]; then
		# the handler, armed once the state file is committed, restores; before, nothing changed
		local what="$name: dies of it, every MSR original, no state file"
		[ "$status" -eq 143 ] && [ "$(pattern)" = ooo ] && [ ! -e "$PMUCHECK_MSR_DIR/prefetch.state" ] &&
			ok "$what" || notok "$what" "status $status, $(where)"
		committed=0
	fi
	after "$name" "$PMUCHECK" prefetch status
	expect_status "$name: a new session runs and ends" 0 "$SESSION" close
}

for sig in KILL TERM; do
	session state-tmp close "MSRs ooo, files: prefetch.state.tmp" $sig
	session state-saved close "MSRs ooo, files: prefetch.state" $sig
	session first-write close "MSRs coo, files: prefetch.state" $sig
	session restore-first close "MSRs occ, files: prefetch.state" $sig
	session close-restored close "MSRs ooo, files: prefetch.state" $sig
done
session guard-first exit "MSRs occ, files: prefetch.state" KILL

# The handler itself, stopped half-way through a SIGTERM's restore, then killed.
fresh
name="session's SIGTERM handler stopped at guard-first, then SIGKILL"
hold_session guard-first
kill -TERM "$pid"
if until_stopped; then
	at_stop "$name" "MSRs occ, files: prefetch.state"
	end_with KILL
	after "$name" "$PMUCHECK" prefetch status
else
	notok "$name" "never stopped"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
fi

# A restore from a state file killed half-way (a session's at the next start; a held change's by
# prefetch restore): the next one restores the rest. A file is restored newest entry first (SMT siblings
# share an MSR: pf_saved.c restore_file), so the last CPU is the one put back at the stop.
for cmd in status restore; do
	fresh
	if [ $cmd = status ]; then
		hold_session
		kill -KILL "$pid"
		wait "$pid" 2>/dev/null
		file=prefetch.state
	else
		"$PMUCHECK" prefetch off >/dev/null
		file=prefetch.held
	fi
	name="prefetch $cmd stopped at recover-first, then SIGKILL"
	if stop_at recover-first "$PMUCHECK" prefetch $cmd; then
		at_stop "$name" "MSRs cco, files: $file"
		end_with KILL
		after "$name" "$PMUCHECK" prefetch $cmd
	else notok "$name" "never stopped (status $status): $(cat "$TMP/err")"; fi
done

# Held changes (prefetch off) killed at each point before they are complete.
for stop in "state-tmp ooo prefetch.held.tmp" "state-saved ooo prefetch.held" \
	"first-write coo prefetch.held"; do
	read -r point msrs file <<<"$stop"
	fresh
	name="prefetch off stopped at $point, then SIGKILL"
	if stop_at "$point" "$PMUCHECK" prefetch off; then
		at_stop "$name" "MSRs $msrs, files: $file"
		end_with KILL
		after "$name" "$PMUCHECK" prefetch restore
	else notok "$name" "never stopped (status $status): $(cat "$TMP/err")"; fi
done

# Never where an MSR file is a device: there the stop point is ignored and the run goes on.
fresh
rm "$PMUCHECK_MSR_DIR/1/msr" && ln -s /dev/zero "$PMUCHECK_MSR_DIR/1/msr"
name="a stop point is ignored where an MSR file is a device"
if stop_at state-saved "$SESSION" close; then
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	notok "$name" "it stopped"
else
	# the suite fakes the CPU model, and a faked model never opens a device (msr_open)
	[ "$status" -eq 1 ] && grep -q 'not an ordinary file' "$TMP/err" && ok "$name" ||
		notok "$name" "status $status: $(cat "$TMP/err")"
fi
