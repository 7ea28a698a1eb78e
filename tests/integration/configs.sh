#!/bin/bash
# configs.sh — every config file loads and every event name in it is known to a table: PAPI names to
# libpfm4's table of their PMU, perf specs to the x86 format terms (tests/tools/cfg_evcheck). Also shows
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
printf '%s[event A]\nspec = L1D:REPLACEMENT\nexpect = lines_read\n[event B]\nspec = L1D:NO_SUCH_UMASK\nexpect = loads\n' \
	"$arch" >"$TMP/unknown.ini"
expect_status "checker fails on an unknown libpfm4 name" 1 "$CHECK" "$TMP/unknown.ini"
grep -q "unknown.ini:11: event B: 'L1D:NO_SUCH_UMASK'" "$TMP/check.out" &&
	ok "checker names the file, line and event" || notok "checker names the file, line and event" "$(head -3 "$TMP/check.out")"

printf '%s[event C]\nspec = uncore_imc_0/cas_count_read/\nexpect = lines_read\n' "$arch" >"$TMP/alias.ini"
expect_status "checker fails on a sysfs alias without a reason" 1 "$CHECK" "$TMP/alias.ini"
printf 'unverified = sysfs alias of the Linux uncore driver\n' >>"$TMP/alias.ini"
expect_status "checker accepts it with 'unverified = reason'" 0 "$CHECK" "$TMP/alias.ini"

printf '%s[event D]\nspec = cpu/event=0x51,umsk=0x01/\nexpect = lines_read\n' "$arch" >"$TMP/term.ini"
expect_status "checker fails on an unknown perf term" 1 "$CHECK" "$TMP/term.ini"

printf '%s[event E]\nspec = hswep_unc_imc*::UNC_M_CAS_COUNT:RD\nexpect = lines_read\nscope = socket\n' "$arch" >"$TMP/box.ini"
expect_status "a '*' box number resolves as box 0" 0 "$CHECK" "$TMP/box.ini"

printf '%s[event F]\nspec = L1D:REPLACEMENT\nexpect = lines_read * x\n' "$arch" >"$TMP/bad.ini"
expect_status "a malformed config fails the check" 1 "$CHECK" "$TMP/bad.ini"
grep -q "bad.ini:10: expect: scale 'x'" "$TMP/check.out" &&
	ok "its load error names file and line" || notok "its load error names file and line" "$(head -3 "$TMP/check.out")"

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
