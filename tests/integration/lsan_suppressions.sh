#!/bin/bash
# lsan_suppressions.sh — tests/lsan.supp hides other libraries' leaks, never pmucheck's own. A small
# program leaks once through a library named libpapi.so (a stand-in built here, so the check does not
# depend on whether the real PAPI leaks on this machine) and once in its own code; with the suppressions
# only its own leak may be reported, and without them both are (so the suppression is what hides the
# library's); a run whose only leak is the library's passes. Checked the two ways the project runs
# sanitizers:
#   through tests/san.sh, with gcc's AddressSanitizer, as the sanitizer pass of `make test` runs;
#   as a libFuzzer target (clang) with the LSAN_OPTIONS that mk/fuzz.mk's rule passes, as the fuzz runs.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$TMP/lib" "$TMP/corpus"
cat >"$TMP/standin.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
/* As PAPI does: a strdup() whose pointer the library drops. */
void standin_init(void) { if (!strdup("a name the library drops")) abort(); }
EOF
cat >"$TMP/leaky.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
void standin_init(void);
__attribute__((noinline)) void leak_on_purpose(void) { if (!malloc(37)) abort(); }
#ifdef FUZZ
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static int once;
	if (!once++)
		standin_init();
	else if (n == 4 && !memcmp(d, "leak", 4))
		leak_on_purpose();
	return 0;
}
#else
int main(int argc, char **argv)
{
	(void)argv;
	standin_init();
	if (argc > 1)
		leak_on_purpose();
	return 0;
}
#endif
EOF
printf x >"$TMP/corpus/a"
printf leak >"$TMP/corpus/b"

# Linked by its path (no SONAME), so the program needs no rpath and each stack names $TMP/lib/libpapi.so.
gcc -shared -fPIC -o "$TMP/lib/libpapi.so" "$TMP/standin.c" || { notok "build the libpapi.so stand-in"; exit 0; }

# $1: label, $2: the run's output. Own leak reported, the stand-in's not.
expect_own_leak_only() {
	if ! grep -q 'leak_on_purpose' <<<"$2"; then
		notok "$1: pmucheck's own leak is still reported" "no report of leak_on_purpose"
		sed 's/^/#   /' <<<"$2" | head -20
	elif grep -q 'libpapi\.so' <<<"$2"; then
		notok "$1: the library's leak is suppressed" "reported anyway"
		sed 's/^/#   /' <<<"$2" | head -20
	else
		ok "$1: pmucheck's own leak is reported, the libpapi.so one suppressed"
	fi
}

# $1: label, $2: the run's output without suppressions: the stand-in leaks (else the check above is void).
expect_standin_leaks() {
	if grep -q 'libpapi\.so' <<<"$2"; then ok "$1: without suppressions the libpapi.so stand-in leak is reported"
	else notok "$1: without suppressions the libpapi.so stand-in leak is reported" "it is not"
		sed 's/^/#   /' <<<"$2" | head -20; fi
}

label="sanitizer pass (gcc, tests/san.sh)"
if gcc -fsanitize=address -fno-omit-frame-pointer -g -O0 -o "$TMP/leaky" "$TMP/leaky.c" "$TMP/lib/libpapi.so" \
	>"$TMP/gcc.log" 2>&1; then
	expect_own_leak_only "$label" "$(bash "$TOP/tests/san.sh" "$TMP/leaky" own 2>&1)"
	expect_standin_leaks "$label" "$(ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS='' "$TMP/leaky" own 2>&1)"
	# Nothing printed, not even the suppressions used: san.sh takes any log file for a report.
	check "$label: a run whose only leak is the library's passes" \
		bash -c '[ -z "$(bash "$1/tests/san.sh" "$2" 2>&1)" ]' _ "$TOP" "$TMP/leaky"
else
	notok "$label: build the leaky program" "$(head -3 "$TMP/gcc.log")"
fi

label="fuzz runs (clang libFuzzer, mk/fuzz.mk's LSAN_OPTIONS)"
if ! command -v clang >/dev/null; then
	skip "$label" "clang is not installed"
	exit 0
fi
if ! clang -DFUZZ -fsanitize=fuzzer,address -g -O0 -o "$TMP/leaky_fuzz" "$TMP/leaky.c" "$TMP/lib/libpapi.so" \
	>"$TMP/clang.log" 2>&1; then
	skip "$label" "clang has no libFuzzer runtime (libclang-rt-dev): $(head -1 "$TMP/clang.log")"
	exit 0
fi
# The options exactly as the fuzz rule passes them (make -n prints its recipe, runs nothing; the rule
# quotes the value, which the shell would take off).
opts=$(make -s -n -C "$TOP" fuzz-spec FUZZ_TIME=1 | grep -o "LSAN_OPTIONS='[^']*'" | head -1 | tr -d "'")
if [ -z "$opts" ]; then
	notok "$label: the fuzz rule sets LSAN_OPTIONS" "not in 'make -n fuzz-spec'"
	exit 0
fi
fuzz=("$TMP/leaky_fuzz" -runs=0 -artifact_prefix="$TMP/" "$TMP/corpus")
expect_own_leak_only "$label" "$(env "$opts" "${fuzz[@]}" 2>&1)"
expect_standin_leaks "$label" "$(env LSAN_OPTIONS='' "${fuzz[@]}" 2>&1)"
