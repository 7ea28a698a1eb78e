#!/bin/bash
# no_real_msr.sh — the suite never reaches this machine's real MSRs unless asked (lib.sh: PMUCHECK_MSR_DIR,
# real_msr). What every test file starts opens no /dev/cpu/N/msr: a run with one prefetcher state
# (ONE_STATE), which as root where the msr driver is loaded would write "all on" to them for the run;
# a --dry-run of the default states (it opens each MSR file for writing, to predict them); info (it reads
# CPU 0's). machine.json says where the run looked for its MSR files; strace, where it can trace, sees
# every file each of them opened, and every program it started (no modprobe).
. "$(dirname "$0")/../lib.sh"

# A CPU without a verified prefetcher table (Zen 1/2, hybrid Intel, Hygon) is uncontrolled for that reason
# first: pmucheck then looks for no MSR file at all, here or in /dev/cpu.
table=1
"$PMUCHECK" prefetch status 2>&1 | grep -q "no verified prefetcher MSR table" && table=
run() {
	"$@" "$PMUCHECK" run "${ONE_STATE[@]}" --kernels load.gpr --sizes 16k --threads 1 --reps 1 --min-time 1 \
		--reported-levels --no-progress --out "$TMP/run"
}

rm -rf "$TMP/run"
if run >"$TMP/run.out" 2>&1; then
	check "a run with one prefetcher state looked for its MSR files in the suite's directory, not /dev/cpu" \
		python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["prefetch"]
assert p["control"] is False and "/dev/cpu" not in p["reason"], p
assert sys.argv[2] + "/" in p["reason"] or not sys.argv[3], p' \
		"$TMP/run/machine.json" "$PMUCHECK_MSR_DIR" "$table"
else
	notok "a run with one prefetcher state succeeds" "$(tail -3 "$TMP/run.out")"
fi

# opened NAME: the MSR files a traced command opened and the modprobe it started, one per line; ours NAME:
# those in this file's scratch directory, where every MSR file of a test lies; others NAME: the rest.
opened() {
	grep -oE '(open|openat|openat2)\([^"]*"[^"]*/[0-9]+/msr"|execve\("[^"]*modprobe"' "$TMP/$1.trace" |
		sed 's/^[a-z0-9]*([^"]*"//; s/"$//' | sort -u
}
ours() { opened "$1" | awk -v d="$TMP/" 'index($0, d) == 1'; }
others() { opened "$1" | awk -v d="$TMP/" 'index($0, d) != 1'; }
if ! strace -f -qq -o /dev/null true 2>/dev/null; then
	skip "strace: no /dev/cpu/N/msr opened, no modprobe started" "strace is missing or may not trace here"
	exit 0
fi
rm -rf "$TMP/run"
run strace -f -qq -e trace=open,openat,openat2,execve -o "$TMP/run.trace" >/dev/null 2>&1
strace -f -qq -e trace=open,openat,openat2,execve -o "$TMP/dry.trace" \
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 >/dev/null 2>&1
strace -f -qq -e trace=open,openat,openat2,execve -o "$TMP/info.trace" "$PMUCHECK" info >/dev/null 2>&1
for t in run dry info; do
	if [ -n "$(others $t)" ]; then
		notok "$t: no /dev/cpu/N/msr opened, no modprobe started" "$(others $t | tr '\n' ' ')"
	elif [ -n "$table" ] && [ -z "$(ours $t)" ]; then
		# it looks for this file's MSR files, so the trace must see them: one that saw no open would
		# pass whatever the command opened
		notok "$t: strace sees it look for this file's MSR files" "$(opened $t)"
	else
		ok "$t: no /dev/cpu/N/msr opened, no modprobe started ($(ours $t | wc -l) of this file's MSR files)"
	fi
done
