#!/bin/bash
# pmucheck prefetch status/off/on/restore on fake MSR files for every vendor table: exactly the
# named bits change, every other bit keeps its random start value, and restore brings back the
# values from before the first change. Then the lock: a second pmucheck is refused while a session
# runs, and neither the session's MSRs nor its state file change.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pf_fake.sh"

# The state a status line shows for prefetcher $2 of CPU $1 (on/off).
status_of() {
	"$PMUCHECK" prefetch status | awk -v cpu="$1" -v name="$2" '
		$1 == "cpu" { for (i = 1; i <= NF; i++) col[$i] = i }
		$1 == cpu && col[name] { print $col[name] }'
}

# vendor_case NAME CPUID MSR MASK FIRST_NAME FIRST_BIT
vendor_case() {
	local label=$1 cpuid=$2 msr=$3 mask=$4 name=$5 bit=$6 o0 o1 o2 bad=""
	make_fake "$TMP/$label" "$cpuid" "$msr" 3
	o0=$(msr_of 0) o1=$(msr_of 1) o2=$(msr_of 2)

	"$PMUCHECK" prefetch status >"$TMP/status" 2>&1 || bad="status failed: $(cat "$TMP/status")"
	[ -z "$bad" ] && ! grep -q "^1 *$(printf '0x%016x' "$o1") " "$TMP/status" && bad="status does not show CPU 1's value"
	"$PMUCHECK" prefetch off "$name" >/dev/null 2>&1 || bad="off $name failed"
	[ -z "$bad" ] && [ "$(msr_of 0)" != $((o0 | bit)) ] && bad="off $name: $(msr_values | tr '\n' ' ')"
	[ -z "$bad" ] && [ "$(status_of 2 "$name")" != off ] && bad="status does not show $name off"
	"$PMUCHECK" prefetch on >/dev/null 2>&1 || bad="on failed"
	[ -z "$bad" ] && [ "$(msr_of 2)" != $((o2 & ~mask)) ] && bad="on: $(msr_values | tr '\n' ' ')"
	[ -z "$bad" ] && [ "$(status_of 2 "$name")" != on ] && bad="status does not show $name on"
	"$PMUCHECK" prefetch off --cpus 1 >/dev/null 2>&1 || bad="off --cpus 1 failed"
	[ -z "$bad" ] && { [ "$(msr_of 1)" != $((o1 | mask)) ] || [ "$(msr_of 0)" != $((o0 & ~mask)) ]; } &&
		bad="off --cpus 1: $(msr_values | tr '\n' ' ')"
	"$PMUCHECK" prefetch restore >"$TMP/restore" 2>&1 || bad="restore failed: $(cat "$TMP/restore")"
	[ -z "$bad" ] && ! at_original && bad="restore: $(msr_values | tr '\n' ' ')"
	[ -z "$bad" ] && [ -e "$PMUCHECK_MSR_DIR/prefetch.held" ] && bad="restore left the held file"
	if [ -z "$bad" ]; then ok "$label: off/on/restore change exactly mask $mask of MSR $msr"
	else notok "$label: off/on/restore change exactly mask $mask of MSR $msr" "$bad"; fi
}

vendor_case intel-client GenuineIntel:6:0x9e 0x1a4 0xf l1-next 0x4
vendor_case intel-server GenuineIntel:6:0x6a 0x1a4 0xf l2-adjacent 0x2
vendor_case intel-spr GenuineIntel:6:0x8f 0x1a4 0xf l1-ip 0x8
vendor_case xeon-phi-knl GenuineIntel:6:0x57 0x1a4 0x3 l2-hw 0x2
vendor_case zen3 AuthenticAMD:0x19:0x21 0xc0000108 0x2f l1-region 0x4
vendor_case zen4 AuthenticAMD:0x19:0x61 0xc0000108 0x2f l2-stream 0x8
vendor_case zen5 AuthenticAMD:0x1a:0x02 0xc0000108 0x2f l2-updown 0x20

make_fake "$TMP/restore-none" AuthenticAMD:0x1a:0x02 0xc0000108 2
"$PMUCHECK" prefetch restore >"$TMP/out" 2>&1
if [ $? -eq 0 ] && grep -q 'nothing to restore' "$TMP/out" && at_original; then
	ok "restore without saved values says so and writes nothing"
else notok "restore without saved values says so and writes nothing" "$(cat "$TMP/out")"; fi

# --- the lock ---
if [ ! -x "$SESSION" ]; then
	skip "second pmucheck refused while a session runs" "$SESSION not built (make unit-tests)"
	exit 0
fi
make_fake "$TMP/lock" GenuineIntel:6:0x55 0x1a4 2
"$SESSION" hold >"$TMP/session" 2>&1 &
pid=$!
for _ in $(seq 1000); do grep -q '^set$' "$TMP/session" && break; sleep 0.01; done
cp "$PMUCHECK_MSR_DIR/prefetch.state" "$TMP/state.before"
msr_values >"$TMP/msr.before"
expect_status "prefetch off while a session runs exits 1" 1 "$PMUCHECK" prefetch off
grep -q "another pmucheck (pid $pid)" "$TMP/check.out" && ok "the refusal names the session's pid" ||
	notok "the refusal names the session's pid" "$(cat "$TMP/check.out")"
expect_status "prefetch restore while a session runs exits 1" 1 "$PMUCHECK" prefetch restore
expect_status "a second session is refused" 1 "$SESSION" close
"$PMUCHECK" prefetch status >/dev/null 2>"$TMP/err"
if ! grep -q 'did not finish' "$TMP/err" && msr_values | cmp -s - "$TMP/msr.before" &&
	cmp -s "$PMUCHECK_MSR_DIR/prefetch.state" "$TMP/state.before"; then
	ok "a live session's MSRs and state file are left alone by other starts"
else
	notok "a live session's MSRs and state file are left alone by other starts" "$(cat "$TMP/err")"
fi
kill -TERM "$pid"; wait "$pid" 2>/dev/null
at_original && ok "the session, ended by SIGTERM, restored the originals" ||
	notok "the session, ended by SIGTERM, restored the originals" "$(msr_values | tr '\n' ' ')"

# Two sessions started at the same moment, 10 times: exactly one wins, the other is refused, and
# when the winner ends every MSR is back at its original value.
bad=""
for ((i = 0; i < 10; i++)); do
	"$SESSION" hold >"$TMP/a" 2>&1 & a=$!
	"$SESSION" hold >"$TMP/b" 2>&1 & b=$!
	for _ in $(seq 1000); do
		{ grep -q '^set$' "$TMP/a" || grep -q '^set$' "$TMP/b"; } &&
			{ ! kill -0 $a 2>/dev/null || ! kill -0 $b 2>/dev/null; } && break
		sleep 0.01
	done
	winners=$(cat "$TMP/a" "$TMP/b" | grep -c '^set$')
	refused=$(cat "$TMP/a" "$TMP/b" | grep -c 'another pmucheck')
	kill -TERM $a $b 2>/dev/null; wait $a $b 2>/dev/null
	if [ "$winners" -ne 1 ] || [ "$refused" -ne 1 ]; then bad="race $i: $winners won, $refused refused"; break; fi
	at_original || { bad="race $i: $(msr_values | tr '\n' ' ')"; break; }
done
[ -z "$bad" ] && ok "two sessions racing x10: one wins, one is refused, originals restored" ||
	notok "two sessions racing x10: one wins, one is refused, originals restored" "$bad"
