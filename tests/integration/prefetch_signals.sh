#!/bin/bash
# A prefetcher session killed by each catchable fatal signal at random moments (before the session
# starts, between and during its MSR writes) leaves every MSR at its original value; one killed by
# SIGKILL is restored by the next pmucheck start. tests/pf_session is the session: it opens all fake
# CPUs, disables every prefetcher, prints "set", then toggles all off / all on without pause.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pf_fake.sh"
RUNS=20
# The sanitizer pass (tests/run.sh's san/, BUILD=build-san) looks for memory errors on the same paths:
# 12 runs per signal still kill 6 sessions after "set" and 6 before.
[ "${BUILD:-build}" = build ] || RUNS=12

if [ ! -x "$SESSION" ]; then
	skip "prefetch signal tests" "$SESSION not built (make unit-tests builds it)"
	exit 0
fi
ulimit -c 0 # SIGQUIT, SIGSEGV, SIGBUS and SIGABRT dump core by default
# In a sanitizer build (make SAN=1) ASan would take SIGSEGV/SIGBUS itself; the test is about ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0:allow_user_segv_handler=1
make_fake "$TMP/msr" AuthenticAMD:0x1a:0x02 0xc0000108 4

# Starts a session and kills it with $1: with $2 "now" after 1 us, before it can change anything;
# "early" at a random moment of its first 20 ms; "later" once it has printed "set" (it then toggles
# all off / all on without pause) and a random 0-2 ms more, so the kill lands during its MSR writes
# however slow or busy the machine is (a delay calibrated once did not: under load the sanitizer
# build's sessions often had not started yet).
# Sets killed_in (1 when the session had already changed the MSRs) and status (999 when the signal
# did not end it within ten seconds: a bound on a hung handler, not a speed). env undoes the
# SIGINT/SIGQUIT ignore that a script's background children inherit. The test waits for the session itself to exit: a session killed by SIGKILL must
# be gone, its lock with it, before the next start judges that lock (a timeout that returned early
# once made the next start take the session for alive).
kill_randomly() {
	local pid watchdog n=0 delay=0.000001
	if [ "$2" != later ]; then
		# early: 1 us to 20 ms after the start, wherever that falls (opening, saving, the first writes)
		[ "$2" = early ] && delay=$(printf '0.%06d' $((RANDOM % 20000 + 1)))
		timeout --foreground -k 1 -s "$1" --preserve-status "$delay" env --default-signal "$SESSION" \
			${3:-spin} >"$TMP/out" 2>"$TMP/err"
		status=$?
	else
		# emptied here, not by the session's own redirection: the loop below may look before the
		# fork has opened them, and a "set" left by the last run sent the kill before the exec
		: >"$TMP/out" >"$TMP/err"
		env --default-signal "$SESSION" ${3:-spin} >"$TMP/out" 2>"$TMP/err" &
		pid=$!
		until grep -q '^set$' "$TMP/out" || [ -s "$TMP/err" ] || [ $n -ge 6000 ]; do
			sleep 0.005
			n=$((n + 1))
		done
		sleep "$(printf '0.%06d' $((RANDOM % 2000)))"
		kill -s "$1" "$pid"
		sh -c 'sleep 10 && kill -KILL "$0"' "$pid" 2>/dev/null &
		watchdog=$!
		wait "$pid"
		status=$?
		# by SIGKILL, which a watchdog not yet exec'd, still a fork of this shell, cannot catch and run
		# the shell's traps on
		kill -KILL "$watchdog" 2>/dev/null
		wait "$watchdog" 2>/dev/null
	fi
	[ "$status" -eq 137 ] && [ "$1" != KILL ] && status=999
	killed_in=0
	grep -q '^set$' "$TMP/out" && killed_in=1
}

# The session must have changed something that the handler then undid: prove the toggle runs.
"$SESSION" hold >"$TMP/out" 2>&1 &
pid=$!
for _ in $(seq 6000); do grep -q '^set$' "$TMP/out" && break; sleep 0.01; done
if ! at_original && [ -e "$PMUCHECK_MSR_DIR/prefetch.state" ]; then
	ok "a live session has changed the MSRs and saved the originals"
else
	notok "a live session has changed the MSRs and saved the originals" "$(cat "$TMP/out")"
fi
kill -TERM "$pid"; wait "$pid"

# threads: the session writes on one thread while the handler runs on another.
# PIPE, USR1, XCPU and ALRM stand for the signals whose default action ends a process and that a user or
# a batch system sends besides those (pf_signal.c guards them all).
for sig in INT TERM HUP QUIT SEGV BUS ABRT PIPE USR1 XCPU ALRM TERM:threads; do
	mode=${sig#*:}; [ "$mode" = "$sig" ] && mode=spin
	sig=${sig%:*}
	num=$(kill -l "$sig")
	in=0 before=0 bad="" missed=""
	# RUNS kills, and more (up to 3 x RUNS) until at least 5 landed in the session and 1 before it: on a
	# busy machine (make test under taskset -c 0 beside a build) a "later" kill once found no "set" in
	# time, and 12 kills landed 3 in the session
	for ((i = 0; i < RUNS || ((in < 5 || before < 1) && i < 3 * RUNS); i++)); do
		when=later; ((i % 4)) || when=now; ((i % 4 == 1)) && when=early
		kill_randomly "$sig" $when $mode
		if [ $killed_in = 1 ]; then in=$((in + 1)); else before=$((before + 1)); fi
		[ $when = later ] && [ $killed_in = 0 ] &&
			missed="a later kill (run $i) came before 'set': $(head -c 200 "$TMP/err" | tr '\n' ' ')"
		if [ "$status" -ne $((128 + num)) ]; then
			bad="run $i: exit status $status, not death by SIG$sig ($(cat "$TMP/err"))"; break
		fi
		if ! at_original; then
			bad="run $i (in session: $killed_in): $(msr_values | tr '\n' ' ')"; break
		fi
		if [ $killed_in = 1 ] && [ -e "$PMUCHECK_MSR_DIR/prefetch.state" ]; then
			bad="run $i: the handler restored but left the state file"; break
		fi
	done
	name="SIG$sig x$i ($in during the session, $before before$([ $mode = spin ] || echo ", $mode")): every MSR at its original"
	if [ -n "$bad" ]; then notok "$name" "$bad"
	elif [ "$in" -lt 5 ] || [ "$before" -lt 1 ]; then notok "$name" "too few kills before or in the session${missed:+; $missed}"
	else ok "$name"; fi
done

# SIGKILL cannot be caught: the state file stays, and whatever pmucheck runs next restores.
in=0 restored=0 bad=""
for ((i = 0; i < RUNS || (in < 5 && i < 3 * RUNS); i++)); do # more kills on a busy machine, as above
	when=later; ((i % 4)) || when=now; ((i % 4 == 1)) && when=early
	kill_randomly KILL $when
	[ $killed_in = 1 ] && in=$((in + 1))
	if [ $killed_in = 1 ] && [ ! -e "$PMUCHECK_MSR_DIR/prefetch.state" ]; then
		bad="run $i: no state file after SIGKILL in a session"; break
	fi
	stale=0
	[ -e "$PMUCHECK_MSR_DIR/prefetch.state" ] && stale=1
	"$PMUCHECK" prefetch status >/dev/null 2>"$TMP/next"
	if [ $stale = 1 ]; then
		grep -q 'did not finish' "$TMP/next" || { bad="run $i: next start did not say it restored: $(head -c 300 "$TMP/next")"; break; }
		restored=$((restored + 1))
	fi
	at_original || { bad="run $i: $(msr_values | tr '\n' ' ')"; break; }
	[ -e "$PMUCHECK_MSR_DIR/prefetch.state" ] && { bad="run $i: state file left"; break; }
done
name="SIGKILL x$i ($in during the session): the next pmucheck start restores ($restored times)"
if [ -n "$bad" ]; then notok "$name" "$bad"
elif [ "$in" -lt 5 ]; then notok "$name" "too few kills landed in the session"
else ok "$name"; fi

# Real faults and exits, not sent signals: the same handler and the atexit path.
for mode in segv abort exit close; do
	"$SESSION" $mode >"$TMP/out" 2>&1
	status=$?
	case $mode in segv) want=139 ;; abort) want=134 ;; exit) want=3 ;; close) want=0 ;; esac
	if [ "$status" -eq $want ] && grep -q '^set$' "$TMP/out" && at_original &&
		[ ! -e "$PMUCHECK_MSR_DIR/prefetch.state" ]; then
		ok "session ending by $mode (status $status) restores every MSR"
	else
		notok "session ending by $mode restores every MSR" "status $status, $(msr_values | tr '\n' ' ')"
	fi
done

# A CPU whose MSR the handler cannot read back (gone offline: here its file emptied) must keep the
# state file: the handler still restores the others, and the record of the missing one stays for
# the next start, which puts it back once it is there again.
make_fake "$TMP/msr1" AuthenticAMD:0x1a:0x02 0xc0000108 4
: >"$TMP/out" # the last session's "set" must not count as this one's
"$SESSION" hold >"$TMP/out" 2>&1 &
pid=$!
for _ in $(seq 6000); do grep -q '^set$' "$TMP/out" && break; sleep 0.01; done
cp "$PMUCHECK_MSR_DIR/1/msr" "$TMP/cpu1"
truncate -s 0 "$PMUCHECK_MSR_DIR/1/msr"
kill -TERM "$pid"; wait "$pid"
others=1
for c in 0 2 3; do [ "$(msr_of $c)" = "$(orig_of $c)" ] || others=0; done
kept=0
[ -e "$PMUCHECK_MSR_DIR/prefetch.state" ] && kept=1
cp "$TMP/cpu1" "$PMUCHECK_MSR_DIR/1/msr"
"$PMUCHECK" prefetch status >/dev/null 2>"$TMP/next"
if [ $others = 1 ] && [ $kept = 1 ] && at_original && [ ! -e "$PMUCHECK_MSR_DIR/prefetch.state" ]; then
	ok "a CPU the handler cannot read keeps the state file; the others are restored, it at the next start"
else
	notok "a CPU the handler cannot read keeps the state file" \
		"others restored: $others, state kept: $kept; $(msr_values | tr '\n' ' ') $(head -c 300 "$TMP/next")"
fi
