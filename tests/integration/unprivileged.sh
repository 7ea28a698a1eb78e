#!/bin/bash
# unprivileged.sh — what needs no privilege works without it, and what does says what it needs:
#   as user nobody, a quick run measures and reports the prefetchers (and, without a PMU, the hardware
#   counters) unavailable with the reason; 'prefetch off' fails naming root / the msr module, writing
#   nothing; the MSR files nobody meets are root's, as /dev/cpu's are, in a stand-in for /dev/cpu (the
#   real one only with PMUCHECK_TEST_REAL_MSR=1, lib.sh: real_msr);
#   pmucheck writes no MSR but the prefetcher MSR, and only its table bits: in the source (one pwrite
#   to an MSR file, msr_write only behind msr_update, msr_update only from pf code with table masks)
#   and in fact (fake MSR files with other MSRs around the prefetcher's, every prefetcher command and a
#   run with prefetchers off, a state file naming a foreign MSR).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pf_fake.sh"

# says NAME FILE REGEX
says() {
	grep -qE -- "$3" "$2" && ok "$1" || notok "$1" "no /$3/ in: $(head -c 600 "$2")"
}

# --- as nobody ---
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	"${as_user[@]}" true 2>/dev/null || as_user=(none)
fi
# its entries (not ..: the stand-in's parent is this file's scratch directory, which changes)
state_list() { ls -lA --time-style=full-iso "$state_dir" 2>&1; }

why=
if [ "${as_user[*]}" = none ]; then
	why="running as root, and setpriv cannot switch to user nobody"
elif ! "${as_user[@]}" test -x "$PMUCHECK" -a -r "$TOP/configs/README.md"; then
	why="user nobody cannot run $PMUCHECK or read $TOP/configs (a private checkout)"
fi
if [ -n "$why" ]; then
	skip "unprivileged run" "$why"
	skip "unprivileged prefetch off" "$why"
else
	chmod 755 "$TMP"
	U=$TMP/nobody
	mkdir -m 1777 "$U"
	# The MSR files: the stand-in's, one per CPU as the msr driver has, which only root opens (0600 as
	# /dev/cpu/N/msr; 000 where the runner is no root and owns them), sparse up to the AMD prefetcher MSR.
	# Its state directory is its own (state_dir.h), as the machine's is the real one's.
	if real_msr; then
		unset PMUCHECK_MSR_DIR
		state_dir=/var/lib/pmucheck
	else
		export PMUCHECK_MSR_DIR=$TMP/dev-cpu
		state_dir=$PMUCHECK_MSR_DIR
		for ((c = 0; c < $(nproc --all); c++)); do
			mkdir -p "$PMUCHECK_MSR_DIR/$c" && truncate -s $((0xc0000110)) "$PMUCHECK_MSR_DIR/$c/msr"
		done
		chmod "$([ "$(id -u)" -eq 0 ] && echo 600 || echo 000)" "$PMUCHECK_MSR_DIR"/*/msr
	fi
	state_list >"$TMP/state.before"
	# A CPU without a verified prefetcher table (Zen 1/2, hybrid Intel, Hygon) is uncontrolled for
	# that reason first, whoever runs: then the reasons below are the table's, and prefetch off exits 2.
	notable=
	"$PMUCHECK" prefetch status 2>&1 | grep -q "no verified prefetcher MSR table" && notable=1
	# One cache size and one DRAM size (whose buffer asks for huge pages as this user): hwloc's L3 of
	# 508 MiB per vCPU on the Zen 5 guest made the quick plan's own sizes take 11 s here.
	expect_status "as $("${as_user[@]}" id -un): a quick run measures (exit 0)" 0 \
		"${as_user[@]}" "$PMUCHECK" run --quick --kernels load.gpr --threads 1 --reported-levels \
		--sizes 16k,64M --no-progress --out "$U/res"
	cp "$TMP/check.out" "$TMP/run.out"
	check "unprivileged run: raw.csv has the load.gpr rows, prefetchers uncontrolled" \
		grep -q ',load,load.gpr,.*,uncontrolled,' "$U/res/raw.csv"
	because="needs root|as root"
	[ -n "$notable" ] && because="prefetch = none|no verified prefetcher MSR table"
	says "unprivileged run: says the prefetchers are not controlled, and why" "$TMP/run.out" \
		"prefetchers not controlled, skipping the 'off' experiments: .*($because)"
	check "unprivileged run: machine.json says prefetch control is off, and why" python3 -c '
import json, re, sys
p = json.load(open(sys.argv[1]))["prefetch"]
assert p["control"] is False and re.search(sys.argv[2], p["reason"]), p' "$U/res/machine.json" "$because"
	if python3 -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1]))["counters"]["availability"]["hardware"])' \
		"$U/res/machine.json"; then
		check "unprivileged run: hardware counters available to this user, some event counted (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid))" python3 -c '
import csv, sys
soft = {"page-faults", "minor-faults", "major-faults", "context-switches", "cpu-migrations", "task-clock",
        "cpu-clock", ""}
assert any(r["status"] == "ok" and r["event"] not in soft for r in csv.DictReader(open(sys.argv[1])))' \
			"$U/res/raw.csv"
	else
		check "unprivileged run: machine.json says hardware counters are unavailable, and why" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["counters"]["availability"]
assert a["hardware"] is False and len(a["reason"]) > 20, a' "$U/res/machine.json"
	fi

	# The msr PMU counts every privilege level or none (EINVAL for any exclude bit): as a user who may
	# not count the kernel, its tsc is not measured for that reason, not for "the encoding".
	if [ -e /sys/bus/event_source/devices/msr/events/tsc ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
		"${as_user[@]}" "$PMUCHECK" list events msr/tsc/ >"$TMP/msr.list" 2>&1
		says "unprivileged msr/tsc/: not measured because the msr PMU counts the kernel too" "$TMP/msr.list" \
			"^msr/tsc/ .* not_measured +PMU 'msr' counts every privilege level or none .*perf_event_paranoid <= 1"
	else
		skip "unprivileged msr/tsc/" "no msr PMU with a tsc event, or perf_event_paranoid < 2"
	fi

	# As root the values can be read before and after (on the real /dev/cpu where the driver is loaded).
	"$PMUCHECK" prefetch status >"$TMP/msr.before" 2>&1
	if [ -n "$notable" ]; then
		expect_status "unprivileged prefetch off: exit 2 (no table for this CPU)" 2 \
			"${as_user[@]}" "$PMUCHECK" prefetch off
		says "unprivileged prefetch off: says this CPU has no verified table" "$TMP/check.out" \
			"no verified prefetcher MSR table"
	else
		expect_status "unprivileged prefetch off: exit 1" 1 "${as_user[@]}" "$PMUCHECK" prefetch off
		says "unprivileged prefetch off: says it needs root or the msr module" "$TMP/check.out" \
			"MSR access needs root|modprobe msr' as root"
	fi
	"$PMUCHECK" prefetch status >"$TMP/msr.after" 2>&1
	state_list >"$TMP/state.after"
	if cmp -s "$TMP/msr.before" "$TMP/msr.after" && cmp -s "$TMP/state.before" "$TMP/state.after"; then
		ok "unprivileged: no prefetcher MSR and nothing in $state_dir changed"
	else
		notok "unprivileged: no prefetcher MSR and nothing in $state_dir changed" \
			"$(diff "$TMP/msr.before" "$TMP/msr.after"; diff "$TMP/state.before" "$TMP/state.after")"
	fi
fi

# --- the source: where MSRs can be written ---
cd "$TOP" || exit 1
src=$(ls commands/*.c common/*.c harness/*/*.c analysis/*.c kernels/*.c)
# pwrite on an MSR file: msr_write itself, and the signal handler's restore (async-signal-safe, so
# no msr_write), which puts back only the guarded mask; pf_state.c writes the lock file's pid.
[ "$(grep -l 'pwrite(' $src | tr '\n' ' ')" = "harness/prefetch/msr.c harness/prefetch/pf_signal.c harness/prefetch/pf_state.c " ] &&
	ok "pwrite appears only in msr.c, pf_signal.c and pf_state.c" ||
	notok "pwrite appears only in msr.c, pf_signal.c and pf_state.c" "$(grep -n 'pwrite(' $src)"
check "msr.c: one pwrite, in msr_write" \
	test "$(awk '/^int msr_write\(/ { f = 1 } f && /pwrite\(/ { n++ } /^}/ { f = 0 } END { print n }' harness/prefetch/msr.c)/$(grep -c 'pwrite(' harness/prefetch/msr.c)" = 1/1
check "pf_signal.c: its one pwrite writes the value with only the guarded mask restored" \
	test "$(grep -c 'pwrite(' harness/prefetch/pf_signal.c)/$(grep -B1 'pwrite(guard.fds' harness/prefetch/pf_signal.c |
		grep -c 'v = (v & ~guard.mask) | (guard.vals\[i\] & guard.mask);')" = 1/1
check "pf_state.c: its pwrite writes the lock file's pid, not an MSR" \
	test "$(grep -c 'pwrite(\*fd, pid,' harness/prefetch/pf_state.c)/$(grep -c 'pwrite(' harness/prefetch/pf_state.c)" = 1/1
[ -z "$(grep -n 'msr_write(' $src | grep -v '^harness/prefetch/msr.c:')" ] &&
	ok "msr_write is called only in msr.c (by msr_update)" ||
	notok "msr_write is called only in msr.c" "$(grep -n 'msr_write(' $src | grep -v '^harness/prefetch/msr.c:')"
calls=$(grep -n 'msr_update(' $src | grep -v '^harness/prefetch/msr.c:')
[ -n "$calls" ] && [ -z "$(echo "$calls" | grep -v '^harness/prefetch/pf[a-z_]*\.c:')" ] &&
	ok "msr_update is called only from the pf code" || notok "msr_update is called only from the pf code" "$calls"
# msr_update(fd, cpu, reg, clear, set, ...): the register is a table's (t->msr, or a state file's that
# pf_state_read checked against the table), and clear and set are limited to a table mask.
bad=$(echo "$calls" | grep -vE 'msr_update\([^,]+, [^,]+, [a-z_>.-]*msr, [^,]*mask[^,]*, [^,]*& [a-z_>.-]*mask,')
[ -z "$bad" ] && ok "every msr_update call writes a table's MSR with table-masked bits ($(echo "$calls" | wc -l) calls)" ||
	notok "every msr_update call writes a table's MSR with table-masked bits" "$bad"

# --- in fact: fake MSR files with neighbours of the prefetcher MSR ---
# Eight bytes apart at least: in a fake file an MSR is the 8 bytes at its address.
others="0x10 0x198 0x1b0 0xc0000100 0xc0000110"
# values CPU: the prefetcher MSR and its neighbours of one fake CPU, "addr=value" each
values() {
	local a
	for a in $FAKE_MSR $others; do
		echo "$a=$(od -A n -t x8 -j $((a)) -N 8 "$PMUCHECK_MSR_DIR/$1/msr" | tr -d ' ')"
	done
}
# only_table_bits NAME MASK: on every CPU the neighbours are as at the start, and the prefetcher
# MSR differs from its start value in table bits only.
only_table_bits() {
	local name=$1 mask=$2 c why=
	for c in 0 1; do
		values $c | grep -v "^$FAKE_MSR=" | cmp -s - "$TMP/others.$c" || why="$why CPU $c: another MSR changed;"
		[ $(((0x$(values $c | sed -n "s/^$FAKE_MSR=//p") ^ $(orig_of $c)) & ~mask)) -eq 0 ] ||
			why="$why CPU $c: bits outside the table changed;"
	done
	[ -z "$why" ] && ok "$name" || notok "$name" "$why"
}

for fake in "AuthenticAMD:0x1a:0x11 0xc0000108 0x2f" "GenuineIntel:6:0x55 0x1a4 0xf"; do
	set -- $fake
	make_fake "$TMP/msr-$1" "$1" "$2" "$FAKE_NCPU"
	for c in 0 1; do
		for a in $others; do
			head -c 8 /dev/urandom | dd of="$PMUCHECK_MSR_DIR/$c/msr" bs=1 seek=$((a)) conv=notrunc status=none
		done
		values $c | grep -v "^$FAKE_MSR=" >"$TMP/others.$c"
	done
	"$PMUCHECK" prefetch off >/dev/null 2>&1
	[ $(( $(msr_of 0) & $3 )) -eq $(($3)) ] && ok "$1: prefetch off sets every table bit" ||
		notok "$1: prefetch off sets every table bit" "$(msr_values | tr '\n' ' ')"
	only_table_bits "$1: prefetch off writes only table bits of MSR $2" "$3"
	"$PMUCHECK" prefetch on >/dev/null 2>&1
	only_table_bits "$1: prefetch on writes only table bits of MSR $2" "$3"
	"$PMUCHECK" prefetch restore >/dev/null 2>&1
	at_original && ok "$1: prefetch restore puts the start values back" ||
		notok "$1: prefetch restore puts the start values back" "$(msr_values | tr '\n' ' ')"
	"$PMUCHECK" run --quick --kernels load.gpr --threads 1 --cpus "$FIRST_CPU" --reported-levels --sizes 64k \
		--prefetch on,off --reps 1 --out "$TMP/run-$1" >"$TMP/run-$1.out" 2>&1
	check "$1: a run with prefetchers off measured them off" grep -q ',off,' "$TMP/run-$1/raw.csv"
	only_table_bits "$1: the run wrote only table bits of MSR $2" "$3"
	at_original && ok "$1: the run left the start values" || notok "$1: the run left the start values"
	# A state file that is not pmucheck's (or is corrupt) names another MSR: never "restored".
	printf 'kind session\npid 999999\nmsr 0x10\nmask 0xffffffffffffffff\ncpu 0 0x0\ncpu 1 0x0\n' \
		>"$PMUCHECK_MSR_DIR/prefetch.state"
	"$PMUCHECK" prefetch status >"$TMP/foreign.out" 2>&1
	only_table_bits "$1: a state file naming MSR 0x10 is refused, not restored" "$3"
	says "$1: the refusal names the MSR and the table" "$TMP/foreign.out" \
		"MSR 0x10 bits 0xffffffffffffffff are not the .* prefetcher bits"
	rm -f "$PMUCHECK_MSR_DIR/prefetch.state"
done
