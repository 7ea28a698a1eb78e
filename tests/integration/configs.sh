#!/bin/bash
# configs.sh — every config file loads and every event name in it is known to a table: PAPI names to
# libpfm4's table of their PMU, perf specs to the x86 format terms, [export] names to the encodings of the
# file's events (tests/tools/cfg_evcheck). Also shows
# that the checker does fail on an unknown name, and accepts it once the config says why.
. "$(dirname "$0")/../lib.sh"
CHECK=$TOP/${BUILD:-build}/tests/tools/cfg_evcheck

if [ ! -x "$CHECK" ]; then
	notok "cfg_evcheck is built" "$CHECK missing (make unit-tests builds it)"
	exit 0
fi

# One TAP line per file from the checker itself, the failures as comments.
"$CHECK" "$TOP"/configs/*.ini
n=$(ls "$TOP"/configs/*.ini | wc -l)
[ "$n" -ge 12 ] && ok "12 or more config files ($n)" || notok "12 or more config files" "found $n"

arch='[arch]
name = t
title = T
vendor = GenuineIntel
match = 6:0x3f
pmu = hsw_ep
prefetch = none
'
# $1 file, $2... events as "NAME|spec|expect" (scope core)
config() {
	local f=$TMP/$1
	shift
	printf '%s' "$arch" >"$f"
	for ev in "$@"; do
		IFS='|' read -r name spec expect <<<"$ev"
		printf '[event %s]\nspec = %s\nexpect = %s\n' "$name" "$spec" "$expect" >>"$f"
	done
}

config unknown.ini "A|L1D:REPLACEMENT|lines_read" "B|L1D:NO_SUCH_UMASK|loads"
expect_status "checker fails on an unknown libpfm4 name" 1 "$CHECK" "$TMP/unknown.ini"
if grep -q "unknown.ini:11: event B: 'L1D:NO_SUCH_UMASK'" "$TMP/check.out"; then
	ok "checker names the file, line and event"
else
	notok "checker names the file, line and event" "$(head -3 "$TMP/check.out")"
fi

config alias.ini "C|uncore_imc_0/cas_count_read/|lines_read"
expect_status "checker fails on a sysfs alias without a reason" 1 "$CHECK" "$TMP/alias.ini"
printf 'unverified = sysfs alias of the Linux uncore driver\n' >>"$TMP/alias.ini"
expect_status "checker accepts it with 'unverified = reason'" 0 "$CHECK" "$TMP/alias.ini"

config term.ini "D|cpu/event=0x51,umsk=0x01/|lines_read"
expect_status "checker fails on an unknown perf term" 1 "$CHECK" "$TMP/term.ini"

config box.ini "E|hswep_unc_imc*::UNC_M_CAS_COUNT:RD|lines_read"
expect_status "a '*' box number resolves as box 0" 0 "$CHECK" "$TMP/box.ini"

# [export]: a name for an encoding an event of the file counts (L1D.REPLACEMENT is 0x51/0x01 on Haswell), or
# instructions; one for an encoding no event counts is stale.
config export.ini "G|L1D:REPLACEMENT|lines_read"
printf '[export]\ncore 0x51/0x01 = l1d.replacement L1D_REPLACEMENT\ncore 0xc0/0x00 = - INSTR_RETIRED_ANY\n' >>"$TMP/export.ini"
expect_status "checker accepts export names of the file's events and of instructions" 0 "$CHECK" "$TMP/export.ini"
printf 'core 0x51/0x02 = - L1D_M_EVICT\n' >>"$TMP/export.ini"
expect_status "checker fails on an export name no event of the file counts" 1 "$CHECK" "$TMP/export.ini"
grep -q "core 0x51/0x2/0/0x0 (-, L1D_M_EVICT): no event of the file counts it" "$TMP/check.out" &&
	ok "... naming the entry" || notok "... naming the entry" "$(head -3 "$TMP/check.out")"

config bad.ini "F|L1D:REPLACEMENT|lines_read * x"
expect_status "a malformed config fails the check" 1 "$CHECK" "$TMP/bad.ini"
if grep -q "bad.ini:10: expect: scale 'x'" "$TMP/check.out"; then
	ok "its load error names file and line"
else
	notok "its load error names file and line" "$(head -3 "$TMP/check.out")"
fi

# Every preset reference file exists and is the paper's CSV: '#' source lines, then a header row.
for f in "$TOP"/configs/reference/*.csv; do
	b=$(basename "$f")
	if head -1 "$f" | grep -q '^# Source:' && grep -v '^#' "$f" | head -1 | grep -q ,; then
		ok "reference $b has its source and a CSV header"
	else
		notok "reference $b has its source and a CSV header"
	fi
	grep -q "reference/$b" "$TOP/configs/presets.ini" && ok "reference $b is used by a preset" ||
		notok "reference $b is used by a preset"
done
