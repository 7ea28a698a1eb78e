#!/bin/bash
# format.sh — the C sources follow .clang-format (the house style, applied once to the whole tree), so
# that a diff shows what changed, not how it was laid out. Fix with: clang-format -i FILE.
. "$(dirname "$0")/../lib.sh"

if ! command -v clang-format >/dev/null; then
	skip "C sources follow .clang-format" "clang-format is not installed (Debian: clang-format)"
	exit 0
fi
cd "$TOP" || exit 1
files=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -E '^(commands|harness|analysis|kernels|common|tests)/')
[ -n "$files" ] || files=$(find commands harness analysis kernels common tests -name '*.[ch]')
# shellcheck disable=SC2086 # one word per file
if clang-format --dry-run --Werror $files >"$TMP/fmt" 2>&1; then
	ok "C sources follow .clang-format ($(echo "$files" | wc -l) files, $(clang-format --version | grep -o 'version [0-9.]*'))"
else
	notok "C sources follow .clang-format" "$(grep -c 'error:' "$TMP/fmt") places; first: $(grep -m1 'error:' "$TMP/fmt")"
fi
