#!/bin/bash
# configs_fuzz.sh — the config loader under libFuzzer (ASan + UBSan) for FUZZ_SECONDS (default 20),
# seeded with the real configs and tests/fuzz/seeds. `make fuzz-cfg` runs it for longer.
. "$(dirname "$0")/../lib.sh"
secs=${FUZZ_SECONDS:-20}

if ! command -v clang >/dev/null; then
	skip "config loader fuzzing" "clang is not installed"
	exit 0
fi
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$TMP/probe.c"
if ! clang -fsanitize=fuzzer -o "$TMP/probe" "$TMP/probe.c" >"$TMP/probe.log" 2>&1; then
	skip "config loader fuzzing" \
		"clang has no libFuzzer runtime (libclang-rt-dev): $(head -1 "$TMP/probe.log")"
	exit 0
fi
if ! make -s -C "$TOP" fuzz-cfg-bin >"$TMP/build.log" 2>&1; then
	notok "fuzz_cfg builds" "$(tail -5 "$TMP/build.log")"
	exit 0
fi
ok "fuzz_cfg builds"

mkdir -p "$TMP/corpus"
cd "$TOP" || exit 1
if build/fuzz/fuzz_cfg -max_total_time="$secs" -dict=tests/fuzz/cfg.dict -max_len=16384 \
	"$TMP/corpus" tests/fuzz/seeds configs >"$TMP/fuzz.log" 2>&1; then
	ok "config loader survives ${secs} s of fuzzing ($(grep -o 'Done [0-9]* runs' "$TMP/fuzz.log"))"
else
	notok "config loader survives ${secs} s of fuzzing" "crash; reproducer and trace:"
	grep -E 'ERROR|SUMMARY|Test unit written|#[0-9]+ 0x' "$TMP/fuzz.log" | head -20 | sed 's/^/#   /'
fi
