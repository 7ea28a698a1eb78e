#!/bin/bash
# architecture.sh — the layers of docs/architecture.md hold in the source: commands on top, harness and
# analysis below (never including each other), kernels and common at the bottom, no cycle between
# folders, and the includes between harness's parts those the document names. The Makefile gives each
# layer only the include folders it may see, so a violation would not compile either; this names it in
# words, and checks that the check itself can fail.
. "$(dirname "$0")/../lib.sh"

check "the include graph follows the layers (tests/tools/layers.py)" python3 "$TOP/tests/tools/layers.py" "$TOP"

# The checker must see a violation: a copy of the tree where harness includes an analysis header.
mkdir -p "$TMP/tree"
(cd "$TOP" && cp -r commands common kernels harness analysis docs "$TMP/tree/")
f=$(ls "$TMP"/tree/harness/run/*.c | head -1)
sed -i '1i #include "verdict.h"' "$f"
if python3 "$TOP/tests/tools/layers.py" "$TMP/tree" >"$TMP/out" 2>&1; then
	notok "a harness file including an analysis header is refused" "layers.py passed it"
else
	check "a harness file including an analysis header is refused, by name" grep -q "harness includes verdict.h" "$TMP/out"
fi

# And a cycle between two of harness's parts.
rm -rf "$TMP/tree" && mkdir -p "$TMP/tree"
(cd "$TOP" && cp -r commands common kernels harness analysis docs "$TMP/tree/")
sed -i '1i #include "run.h"' "$TMP/tree/harness/plan/plan.c"
if python3 "$TOP/tests/tools/layers.py" "$TMP/tree" >"$TMP/out" 2>&1; then
	notok "a cycle between harness/plan and harness/run is refused" "layers.py passed it"
else
	check "a cycle between harness/plan and harness/run is refused" grep -q "cycle: .*harness/plan" "$TMP/out"
fi

# And the document's edges between harness's parts: one it names that no source has.
rm -rf "$TMP/tree" && mkdir -p "$TMP/tree"
(cd "$TOP" && cp -r commands common kernels harness analysis docs "$TMP/tree/")
sed -i 's/plan, results and prefetch → machine/plan, results, counters and prefetch → machine/' "$TMP/tree/docs/architecture.md"
if python3 "$TOP/tests/tools/layers.py" "$TMP/tree" >"$TMP/out" 2>&1; then
	notok "an include between harness's parts that docs/architecture.md names but no source has is refused" "layers.py passed it"
else
	check "an include between harness's parts that docs/architecture.md names but no source has is refused" \
		grep -q "says that harness/counters includes harness/machine" "$TMP/out"
fi
