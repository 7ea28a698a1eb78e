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
	# CPU 0: the one CPU every machine has (--cpus names CPUs of the machine, whatever the fake files)
	"$PMUCHECK" prefetch off --cpus 0 >/dev/null 2>&1 || bad="off --cpus 0 failed"
	[ -z "$bad" ] && { [ "$(msr_of 0)" != $((o0 | mask)) ] || [ "$(msr_of 1)" != $((o1 & ~mask)) ]; } &&
		bad="off --cpus 0: $(msr_values | tr '\n' ' ')"
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

# A model no built-in list has (family 1Ah model 50h, a Zen 6 in Linux's amd.c) is refused, until a
# config that matches it names its layout: adding an architecture of a known layout is one config, no C
# (harness/run/prefetch_config.c). A layout of the other vendor's MSR is refused as none.
CFG=$TMP/configs
cp -r "$TOP/configs" "$CFG"
export PMUCHECK_CONFIG_DIR=$CFG
make_fake "$TMP/zen6-unknown" AuthenticAMD:0x1a:0x50 0xc0000108 2
expect_status "family 1Ah model 50h without a config naming its layout: prefetch off refused (exit 2)" 2 \
	"$PMUCHECK" prefetch off
cp "$TMP/check.out" "$TMP/refused6"
check "the refusal names the model and what would vouch for it, a config's [arch] prefetch" \
	grep -q "model 0x50.*\[arch\] prefetch" "$TMP/refused6"
at_original && ok "the refused model's MSRs are untouched" || notok "the refused model's MSRs are untouched" "$(msr_values)"
printf '[arch]\nname = zen6\ntitle = Test Zen 6\nvendor = AuthenticAMD\nmatch = 0x1a:0x50-0x5f\nprefetch = %s\n' \
	amd-c0000108 >"$CFG/zen6.ini"
vendor_case zen6-by-config AuthenticAMD:0x1a:0x50 0xc0000108 0x2f l1-stride 0x2
"$PMUCHECK" prefetch status >"$TMP/status6" 2>&1
check "its status names the config that gave the layout" grep -q "Test Zen 6 (.*zen6.ini: prefetch = amd-c0000108)" "$TMP/status6"
# The values such a model's state file holds are put back without that config too (sudo's env_reset
# drops PMUCHECK_CONFIG_DIR): the file records the layout that vouched for its MSR and bits.
make_fake "$TMP/zen6-noconfig" AuthenticAMD:0x1a:0x50 0xc0000108 2
"$PMUCHECK" prefetch off >/dev/null 2>&1
env -u PMUCHECK_CONFIG_DIR "$PMUCHECK" prefetch restore >"$TMP/restore6" 2>&1
if [ $? -eq 0 ] && at_original && [ ! -e "$PMUCHECK_MSR_DIR/prefetch.held" ]; then
	ok "a held change of a model known by its config is restored without the config"
else
	notok "a held change of a model known by its config is restored without the config" \
		"$(cat "$TMP/restore6") $(msr_values | tr '\n' ' ')"
fi
sed -i 's/amd-c0000108/intel-1a4/' "$CFG/zen6.ini"
make_fake "$TMP/zen6-intel" AuthenticAMD:0x1a:0x50 0xc0000108 2
expect_status "a config naming an Intel layout for an AMD model: prefetch off refused (exit 2)" 2 "$PMUCHECK" prefetch off
at_original && ok "and its MSRs are untouched" || notok "and its MSRs are untouched" "$(msr_values)"
unset PMUCHECK_CONFIG_DIR

# The two hardware threads of a core share its MSR (CPU 1's file is CPU 0's here): held changes through
# each, in either order, are restored to the value before the first of them, not the one a sibling saved
# after the other had changed the core. --cpus 1 needs a CPU 1 in the machine (not on a 1-CPU VM).
n=0
for seq in "off --cpus 0;off" "off --cpus 0;on --cpus 1" "off l1-ip --cpus 1;off"; do
	make_fake "$TMP/smt$((++n))" GenuineIntel:6:0x55 0x1a4 2 0000000000000000
	if [[ $seq == *"--cpus 1"* ]] && "$PMUCHECK" prefetch status --cpus 1 2>&1 | grep -q "CPU 1 is not in this machine"; then
		skip "SMT siblings sharing an MSR: prefetch ${seq/;/, then }, then restore: as before" \
			"this machine has no CPU 1"
		continue
	fi
	ln -sf "$TMP/smt$n/0/msr" "$TMP/smt$n/1/msr"
	msr_values >"$TMP/smt.orig"
	IFS=';' read -r first second <<<"$seq"
	# shellcheck disable=SC2086
	"$PMUCHECK" prefetch $first >/dev/null 2>&1 && "$PMUCHECK" prefetch $second >/dev/null 2>&1 &&
		"$PMUCHECK" prefetch restore >"$TMP/smt.out" 2>&1
	if [ $? -eq 0 ] && msr_values | cmp -s - "$TMP/smt.orig" && [ ! -e "$TMP/smt$n/prefetch.held" ]; then
		ok "SMT siblings sharing an MSR: prefetch $first, then $second, then restore: as before"
	else notok "SMT siblings sharing an MSR: prefetch $first, then $second, then restore: as before" \
		"$(msr_values | tr '\n' ' '; cat "$TMP/smt.out")"; fi
done

# Restoring some CPUs puts back the other threads of their cores too (cli_prefetch.c widen_to_cores): CPUs 0
# and 1 one core's two threads (a synthetic topology) sharing its MSR, a restore of CPU 0 alone would drop
# its entry and leave CPU 1's, saved after CPU 0 had changed the core, for a later restore to write.
n=0
for seq in "off --cpus 0;off;restore --cpus 0;restore" "off --cpus 1;on --cpus 0;restore --cpus 0"; do
	make_fake "$TMP/core$((++n))" GenuineIntel:6:0x55 0x1a4 2 0000000000000000
	ln -sf "$TMP/core$n/0/msr" "$TMP/core$n/1/msr"
	msr_values >"$TMP/core.orig"
	: >"$TMP/core.out"
	IFS=';' read -ra steps <<<"$seq"
	failed=""
	for step in "${steps[@]}"; do
		# shellcheck disable=SC2086
		HWLOC_SYNTHETIC="pack:1 core:1 pu:2" "$PMUCHECK" prefetch $step >>"$TMP/core.out" 2>&1 || failed=$step
	done
	label="one core's threads sharing an MSR: prefetch ${seq//;/, then }: as before"
	if [ -z "$failed" ] && msr_values | cmp -s - "$TMP/core.orig" && [ ! -e "$TMP/core$n/prefetch.held" ]; then
		ok "$label"
	else notok "$label" "${failed:+'$failed' failed; }$(msr_values | tr '\n' ' '; cat "$TMP/core.out")"; fi
done

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
for _ in $(seq 6000); do grep -q '^set$' "$TMP/session" && break; sleep 0.01; done
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
	: >"$TMP/a" >"$TMP/b" # the last race's "set" must not count as this one's
	"$SESSION" hold >"$TMP/a" 2>&1 & a=$!
	"$SESSION" hold >"$TMP/b" 2>&1 & b=$!
	for _ in $(seq 6000); do
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
