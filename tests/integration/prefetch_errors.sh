#!/bin/bash
# What a user meets when prefetcher control cannot work: an unknown CPU model, a bad name or CPU
# list, no msr driver, no permission, a short read. Each gives a clear message and its exit status,
# and writes nothing: no MSR changes, no state file. Then, where the caller asks for it
# (PMUCHECK_TEST_REAL_MSR=1, lib.sh: real_msr), this machine's real /dev/cpu, read only.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pf_fake.sh"

# nothing_written NAME: the MSRs are at their start values and no state was saved.
nothing_written() {
	if at_original && [ ! -e "$PMUCHECK_MSR_DIR/prefetch.state" ] &&
		[ ! -e "$PMUCHECK_MSR_DIR/prefetch.held" ]; then ok "$1: nothing written"
	else notok "$1: nothing written" "$(msr_values | tr '\n' ' '; ls "$PMUCHECK_MSR_DIR")"; fi
}

# says NAME TEXT: the last expect_status output contains TEXT.
says() {
	grep -qF -- "$2" "$TMP/check.out" && ok "$1" || notok "$1" "no '$2' in: $(cat "$TMP/check.out")"
}

make_fake "$TMP/msr" GenuineIntel:6:0x97 0x1a4 2 # Alder Lake: hybrid, no verified table
expect_status "unknown CPU model: off exits 2" 2 "$PMUCHECK" prefetch off
says "unknown CPU model is named" "GenuineIntel family 0x6 model 0x97"
expect_status "unknown CPU model: status exits 2" 2 "$PMUCHECK" prefetch status
nothing_written "unknown CPU model"
# A Zen 2: zen2.ini matches it and says prefetch = none, its note saying why; the refusal names that config
# rather than say that none matches.
make_fake "$TMP/zen2" AuthenticAMD:0x17:0x31 0xc0000108 2
expect_status "Zen 2 (zen2.ini: prefetch = none): status exits 2" 2 "$PMUCHECK" prefetch status
says "... naming the config that matches it" "the config that matches this CPU, AMD Zen 2"
says "... and what it says" "zen2.ini: prefetch = none), names no layout of its vendor's MSR"
nothing_written "Zen 2"
# A Zen 1 (a KVM guest's "AMD EPYC" is family 0x17 model 0x1): zen1.ini, also prefetch = none.
make_fake "$TMP/zen1" AuthenticAMD:0x17:0x1 0xc0000108 2
expect_status "Zen 1 (zen1.ini: prefetch = none): status exits 2" 2 "$PMUCHECK" prefetch status
says "... naming the config that matches it" "the config that matches this CPU, AMD Zen and Zen+"
says "... and what it says" "zen1.ini: prefetch = none), names no layout of its vendor's MSR"
nothing_written "Zen 1"

make_fake "$TMP/msr2" GenuineIntel:6:0x55 0x1a4 2
expect_status "unknown prefetcher name exits 2" 2 "$PMUCHECK" prefetch off l1-ip,l3-magic
says "unknown prefetcher is named with the valid ones" \
	"unknown prefetcher 'l3-magic' for Intel Core/Xeon (valid: l2-stream, l2-adjacent, l1-next, l1-ip, all)"
expect_status "bad --cpus exits 2" 2 "$PMUCHECK" prefetch off --cpus 3-1
# A list that ends in its separator names an empty prefetcher, as one that begins with it does; so does
# run's off:NAME+NAME (refused as written, before its names are looked up).
expect_status "a trailing comma in the names exits 2" 2 "$PMUCHECK" prefetch off l2-stream,
says "... naming the empty name" "unknown prefetcher '' for Intel Core/Xeon"
expect_status "'all' inside a list exits 2" 2 "$PMUCHECK" prefetch off all,l1-ip
says "... saying it stands alone" "prefetcher 'all' stands alone, not in a list ('all,l1-ip')"
# A name listed twice is refused as run refuses its list items twice (prefetch off wrote the MSR); so is
# run's off:NAME+NAME, and one longer than any list of names, which was cut and refused by a fragment.
expect_status "a prefetcher listed twice exits 2" 2 "$PMUCHECK" prefetch off l2-stream,l1-ip,l2-stream
says "... naming it" "prefetcher 'l2-stream' is listed twice ('l2-stream,l1-ip,l2-stream')"
expect_status "run --prefetch off:NAME+NAME with a name twice exits 2" 2 "$PMUCHECK" run --dry-run --quick \
	--kernels touch --prefetch off:l1-ip+l1-ip
says "... naming it" "--prefetch: prefetcher 'l1-ip' is listed twice"
expect_status "run --prefetch with names past any length exits 2" 2 "$PMUCHECK" run --dry-run --quick \
	--kernels touch --prefetch "off:$(printf 'l1-ip+%.0s' {1..50})l1-ip"
says "... saying so" "names more than 255 characters of prefetchers"
expect_status "a word after the names exits 2" 2 "$PMUCHECK" prefetch off l2-stream extra
says "... naming that word" "unexpected 'extra'"
expect_status "--cpus given twice exits 2" 2 "$PMUCHECK" prefetch --cpus 0 --cpus 1 status
says "... saying so, as run does" "--cpus: given twice"
expect_status "run --prefetch off:NAME+ exits 2" 2 "$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k \
	--threads 1 --prefetch 'off:l2-stream+'
says "... naming the empty name" "--prefetch: 'off:l2-stream+' names an empty prefetcher"
expect_status "unknown action exits 2" 2 "$PMUCHECK" prefetch of
nothing_written "bad input"

expect_status "a CPU not in the machine exits 2" 2 "$PMUCHECK" prefetch off --cpus 0,4095
says "a CPU not in the machine is named, as run names it" "--cpus: CPU 4095 is not in this machine"
# CPU 5 exists in an 8-PU synthetic topology but has no (fake) MSR file.
expect_status "missing MSR device exits 1" 1 env HWLOC_SYNTHETIC="package:1 core:8 pu:1" \
	"$PMUCHECK" prefetch off --cpus 0,5
says "missing MSR device says modprobe msr" "5/msr: No such file or directory (the msr driver is not loaded"
nothing_written "missing MSR device"

# A state file's recorded layout stands only for a model no list knows: on a Xeon Phi (its table: bits 0
# and 1) a file that says intel-1a4 and names bits 0-3 is not this CPU's, whatever it says.
make_fake "$TMP/knl" GenuineIntel:6:0x57 0x1a4 2 000000000000000f
printf 'kind held\npid 1\nmsr 0x1a4\nmask 0xf\nlayout intel-1a4\ncpu 0 0x0\n' >"$PMUCHECK_MSR_DIR/prefetch.held"
expect_status "a file's layout does not override a known model's table: restore refused" 1 "$PMUCHECK" prefetch restore
says "... naming the file and the table" "prefetch.held: MSR 0x1a4 bits 0xf are not the Knights Landing prefetcher bits"
at_original && ok "... and nothing written" || notok "... and nothing written" "$(msr_values | tr '\n' ' ')"
# A value line is read whole, as pmucheck writes it: sscanf alone read -1 and a 17-digit hex as all ones
# (restore then turned every Zen 3 prefetcher off), 0xzz as 0, 0x8garbage as 8, and CPU 4294967295 as -1.
make_fake "$TMP/zen3" AuthenticAMD:0x19:0x1 0xc0000108 2
for bad in 'cpu 0 -1' 'cpu 1 0xzz' 'cpu 0 0x8garbage' 'pid -5x' 'mask 0x2f junk' 'kind held now' \
	'cpu 1 0x10000000000000000' 'cpu 4294967295 0x0' 'pid 99999999999' 'cpu 0 0x'; do
	printf 'kind held\npid 1\nmsr 0xc0000108\nmask 0x2f\ncpu 0 0x0\n%s\n' "$bad" >"$PMUCHECK_MSR_DIR/prefetch.held"
	expect_status "a state file's line '$bad' is refused" 1 "$PMUCHECK" prefetch restore
	says "... naming its line" "prefetch.held line 6: cannot parse '$bad'"
	at_original && ok "... and no MSR written" || notok "... and no MSR written" "$(msr_values | tr '\n' ' ')"
done
rm -f "$PMUCHECK_MSR_DIR/prefetch.held"
# A state file is tied to the MSR files it was saved from: a test's held change, saved into a state directory
# that another tree (here standing for /dev/cpu) shares, is refused there, never written onto it.
make_fake "$TMP/tree-b" GenuineIntel:6:0x55 0x1a4 2
make_fake "$TMP/tree-a" GenuineIntel:6:0x55 0x1a4 2
PMUCHECK_STATE_DIR=$TMP/shared-state "$PMUCHECK" prefetch off >/dev/null 2>&1
export PMUCHECK_MSR_DIR=$TMP/tree-b
expect_status "a state file saved from other MSR files is not restored here (exit 1)" 1 \
	env PMUCHECK_STATE_DIR="$TMP/shared-state" "$PMUCHECK" prefetch restore
says "... naming both trees and how to restore it" \
	"saved from the MSR files under $TMP/tree-a, not $TMP/tree-b; not restoring it here (PMUCHECK_MSR_DIR=$TMP/tree-a"
at_original && ok "... and these MSR files are untouched" || notok "... and these MSR files are untouched" "$(msr_values)"
export PMUCHECK_MSR_DIR=$TMP/tree-a
expect_status "with its own MSR files named, it is restored" 0 \
	env PMUCHECK_STATE_DIR="$TMP/shared-state" "$PMUCHECK" prefetch restore
at_original && ok "... every MSR at its original" || notok "... every MSR at its original" "$(msr_values)"
make_fake "$TMP/msr2b" GenuineIntel:6:0x55 0x1a4 2

truncate -s $((0x1a4 + 3)) "$PMUCHECK_MSR_DIR/1/msr"
expect_status "short read exits 1" 1 "$PMUCHECK" prefetch off
says "short read is named" "read MSR 0x1a4 on CPU 1: short read (3 of 8 bytes)"
expect_status "short read in status exits 1" 1 "$PMUCHECK" prefetch status
[ "$(msr_of 0)" = "$(orig_of 0)" ] && [ ! -e "$PMUCHECK_MSR_DIR/prefetch.held" ] &&
	ok "short read: nothing written" ||
	notok "short read: nothing written" "$(msr_values | tr '\n' ' ')"

# Root ignores file modes: run as nobody against root's 0600 files, as on a real /dev/cpu.
make_fake "$TMP/msr3" AuthenticAMD:0x19:0x11 0xc0000108 2
chmod 755 "$TMP"
as_user=(none)
# The checks below read the MSR files, which a user without root made unreadable (chmod 000) to be refused
# by them: readable again while a check reads them.
with_read() {
	local rc
	[ "$(id -u)" -ne 0 ] && chmod 600 "$PMUCHECK_MSR_DIR"/*/msr
	"$@"
	rc=$?
	[ "$(id -u)" -ne 0 ] && chmod 000 "$PMUCHECK_MSR_DIR"/*/msr
	return $rc
}
if [ "$(id -u)" -ne 0 ]; then
	chmod 000 "$PMUCHECK_MSR_DIR"/*/msr
	as_user=()
elif setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
if [ "${as_user[*]}" = none ]; then
	skip "permission denied" "running as root, and setpriv cannot switch to user nobody"
else
	expect_status "permission denied exits 1" 1 "${as_user[@]}" "$PMUCHECK" prefetch off
	says "permission denied says to run as root" "Permission denied (MSR access needs root"
	with_read nothing_written "permission denied"
	# A killed root run's state cannot be restored by this user: the start warns, keeps the file.
	printf 'kind session\npid 1\nmsr 0xc0000108\nmask 0x2f\ncpu 0 0x0\n' >"$PMUCHECK_MSR_DIR/prefetch.state"
	expect_status "stale state without permission: the command still runs (and fails alone)" 1 \
		"${as_user[@]}" "$PMUCHECK" prefetch status
	says "stale state without permission: the start says to restore as root" \
		"could not be restored; run 'pmucheck prefetch restore' as root"
	[ -e "$PMUCHECK_MSR_DIR/prefetch.state" ] && with_read at_original &&
		ok "stale state without permission: kept, nothing written" ||
		notok "stale state without permission: kept, nothing written"
	rm -f "$PMUCHECK_MSR_DIR/prefetch.state"
	chmod 600 "$PMUCHECK_MSR_DIR"/*/msr
fi

# This machine, no fakes: either it works, or the reason matches what is missing. `prefetch status` only
# reads the MSRs, but it reads the real ones: asked for, never by default.
if ! real_msr; then
	skip "this machine's real MSRs: prefetch status" "reads /dev/cpu/N/msr; PMUCHECK_TEST_REAL_MSR=1 runs it"
	exit 0
fi
unset PMUCHECK_MSR_DIR PMUCHECK_FAKE_CPUID PMUCHECK_STATE_DIR
"$PMUCHECK" prefetch status >"$TMP/real" 2>&1
rc=$?
if [ ! -e /dev/cpu/0/msr ]; then
	# A CPU without a verified table (Zen 1/2, hybrid Intel, Hygon) is refused for that first (exit 2).
	{ { [ $rc -eq 1 ] && grep -q "modprobe msr" "$TMP/real"; } ||
		{ [ $rc -eq 2 ] && grep -q "no verified prefetcher MSR table" "$TMP/real"; }; } &&
		ok "no /dev/cpu/0/msr here: status exits 1 and says modprobe msr (or 2: no table for this CPU)" ||
		notok "no /dev/cpu/0/msr here: status exits 1 and says modprobe msr (or 2: no table for this CPU)" \
			"exit $rc: $(cat "$TMP/real")"
elif [ $rc -eq 0 ]; then
	grep -q "^0 *0x[0-9a-f]\{16\} " "$TMP/real" && ok "this machine: status shows CPU 0's MSR" ||
		notok "this machine: status shows CPU 0's MSR" "$(cat "$TMP/real")"
else
	grep -Eq "no verified prefetcher MSR table|run pmucheck as root|faulted" "$TMP/real" &&
		ok "this machine: status fails with its reason (exit $rc)" ||
		notok "this machine: status fails with its reason (exit $rc)" "$(cat "$TMP/real")"
fi
