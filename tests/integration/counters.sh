#!/bin/bash
# counters.sh — `pmucheck list events|kernels` end to end: what this machine can count, and event specs
# that are malformed or unknown stopping with exit 2 and a message naming the event.
. "$(dirname "$0")/../lib.sh"

check "list events runs" "$PMUCHECK" list events
"$PMUCHECK" list events >"$TMP/list" 2>&1
if grep -Eq '^  page-faults +ok$' "$TMP/list"; then ok "list events: page-faults countable"; else
	notok "list events: page-faults countable" "$(grep page-faults "$TMP/list")"; fi
if grep -q '^papi: ' "$TMP/list" && grep -q '^perf: PMUs in /sys/bus/event_source/devices' "$TMP/list"; then
	ok "list events: both backends listed"; else notok "list events: both backends listed"; fi
check "list kernels runs" "$PMUCHECK" list kernels
expect_status "list without what: usage" 2 "$PMUCHECK" list

expect_status "good specs resolve" 0 "$PMUCHECK" list events page-faults minor-faults task-clock \
	'software/config=2/'
"$PMUCHECK" list events 'software/config=2/' >"$TMP/enc" 2>&1
if grep -q 'pmu=software,type=1,config=0x2' "$TMP/enc"; then ok "encoding shown as resolved"; else
	notok "encoding shown as resolved" "$(cat "$TMP/enc")"; fi

# A config's or a vendor file's worth of names at once: 10000 resolve (they once overflowed the stack).
expect_status "10000 events at once resolve" 0 "$PMUCHECK" list events $(yes page-faults | head -10000)
check "... each on its line" test "$(grep -c '^page-faults  *perf ' "$TMP/check.out")" -eq 10000

# Each bad spec: exit 2, and stderr names the event and what is wrong with it.
bad() {
	name=$1 spec=$2 why=$3
	"$PMUCHECK" list events page-faults "$spec" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF "'$spec'" "$TMP/err" && grep -qF "$why" "$TMP/err"; then ok "$name"
	else notok "$name" "exit $rc: $(cat "$TMP/err")"; fi
}
bad "bad number" 'cpu/event=zz/' "needs a number"
bad "missing closing slash" 'cpu/event=0x3c' "closing '/'"
bad "unknown PMU" 'nosuchpmu/event=1/' "unknown PMU 'nosuchpmu'"
bad "unknown term of a sysfs PMU" 'software/bogus=1/' "no term or event 'bogus'"
# Where the kernel exposes the core PMU in sysfs, its terms are sysfs's and the message says so.
if [ -d /sys/bus/event_source/devices/cpu ]; then
	bad "unknown term of a core PMU" 'cpu/bogus=1/' "PMU 'cpu' has no term or event 'bogus'"
else
	bad "unknown term of a core PMU" 'cpu/bogus=1/' "unknown term 'bogus'"
fi

# Every bad one is named, not only the first.
"$PMUCHECK" list events 'cpu/event=zz/' task-clock 'nosuchpmu/event=1/' >/dev/null 2>"$TMP/err"
if grep -qF "'cpu/event=zz/'" "$TMP/err" && grep -qF "'nosuchpmu/event=1/'" "$TMP/err"; then
	ok "every bad event named"; else notok "every bad event named" "$(cat "$TMP/err")"; fi

# The msr PMU counts every privilege level or none (EINVAL for any exclude bit): a u modifier on its
# tsc is not measured for that reason, not for "the encoding", where the plain event opens.
"$PMUCHECK" list events msr/tsc/ msr/tsc/u >"$TMP/msr" 2>&1
if ! grep -q '^msr/tsc/ .* ok ' "$TMP/msr"; then
	skip "msr/tsc/u: says the msr PMU takes no modifier" "msr/tsc/ does not open here: $(grep '^msr/tsc/ ' "$TMP/msr")"
elif grep -qE "^msr/tsc/u .* not_measured +PMU 'msr' counts every privilege level or none .*it takes no u or k modifier" "$TMP/msr"; then
	ok "msr/tsc/u: says the msr PMU takes no modifier"
else
	notok "msr/tsc/u: says the msr PMU takes no modifier" "$(cat "$TMP/msr")"
fi

# Hardware events: counted where there is a PMU, otherwise not_measured with the reason — never ok.
"$PMUCHECK" list events instructions 'cpu/event=0xc0/' >"$TMP/hw" 2>&1
if counts_instructions; then
	skip "hardware events not measured without a PMU" "this machine counts instructions (a core PMU)"
elif [ "$(grep -c ' not_measured ' "$TMP/hw")" -eq 2 ] && ! grep -q ' ok ' "$TMP/hw"; then
	ok "hardware events not measured without a PMU"
else
	notok "hardware events not measured without a PMU" "$(cat "$TMP/hw")"
fi

# libpfm4's perf:: PMU holds the kernel's software events too, in PAPI's perf_event component: PAPI counts
# perf::PAGE-FAULTS with or without a core PMU (it was not measured "because the kernel counts no hardware
# event here" on a VM without one). Only a disabled component stops it, with PAPI's reason.
"$PMUCHECK" list events perf::PAGE-FAULTS perf::TASK-CLOCK >"$TMP/papi_sw" 2>&1
if grep -q 'PAPI component perf_event is disabled' "$TMP/papi_sw"; then
	skip "PAPI's software perf:: events counted" "PAPI's perf_event component is disabled here"
elif [ "$(grep -cE '^perf::(PAGE-FAULTS|TASK-CLOCK) +papi .* ok ' "$TMP/papi_sw")" -eq 2 ]; then
	ok "PAPI's software perf:: events counted"
else
	notok "PAPI's software perf:: events counted" "$(cat "$TMP/papi_sw")"
fi
