#!/bin/bash
# fuzz.sh — every libFuzzer target of mk/fuzz.mk (ASan + UBSan) for FUZZ_SECONDS each (default 20, so
# that `make test` fits 10 minutes on 2 cores): the config loader, the event-spec parser, the raw.csv and
# machine.json readers. Each starts from its seed corpus (real configs, their event specs, a real raw.csv
# and machine.json); any crash, leak of pmucheck's own (other libraries' leaks are suppressed by
# tests/lsan.supp), sanitizer report or broken invariant fails the suite with the reproducer's name.
# `make fuzz` runs the same targets for longer (FUZZ_TIME, 600 s each).
. "$(dirname "$0")/../lib.sh"
secs=${FUZZ_SECONDS:-20}
targets="cfg spec raw"

skip_all() {
	for t in $targets; do skip "fuzz_$t" "$1"; done
	exit 0
}

command -v clang >/dev/null || skip_all "clang is not installed"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$TMP/probe.c"
if ! clang -fsanitize=fuzzer -o "$TMP/probe" "$TMP/probe.c" >"$TMP/probe.log" 2>&1; then
	skip_all "clang has no libFuzzer runtime (libclang-rt-dev): $(head -1 "$TMP/probe.log")"
fi
if ! make -s -j"$(nproc)" -C "$TOP" fuzz-bins >"$TMP/build.log" 2>&1; then
	notok "fuzz targets build" "$(tail -5 "$TMP/build.log")"
	exit 0
fi
ok "fuzz targets build"

what_cfg="config loader"
what_spec="event-spec parser"
what_raw="raw.csv and machine.json readers"
# The targets run side by side (the time each gets is wall time, as `make fuzz`'s; on 2 CPUs each of the
# three gets about two thirds of one).
for t in $targets; do
	make -s -C "$TOP" "fuzz-$t" FUZZ_TIME="$secs" FUZZ_CORPUS="$TMP" >"$TMP/fuzz-$t.log" 2>&1 &&
		touch "$TMP/fuzz-$t.passed" &
done
wait
for t in $targets; do
	what=what_$t
	name="fuzz_$t, the ${!what}: no crash, leak or sanitizer report in ${secs} s"
	if [ -e "$TMP/fuzz-$t.passed" ]; then
		ok "$name ($(grep -o 'Done [0-9]* runs' "$TMP/fuzz-$t.log"))"
	else
		notok "$name" "crash; reproducer and trace:"
		grep -E 'ERROR|SUMMARY|runtime error|Test unit written|#[0-9]+ 0x' "$TMP/fuzz-$t.log" |
			head -20 | sed 's/^/#   /'
	fi
done
