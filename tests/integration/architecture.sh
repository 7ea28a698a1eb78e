#!/bin/bash
# architecture.sh — the layers of docs/architecture.md hold in the source: commands on top, harness and
# analysis below (never including each other), kernels and common at the bottom, no cycle between
# folders, and the includes between harness's parts those the document names. The Makefile gives each
# layer only the include folders it may see, so a violation would not compile either; this names it in
# words, and checks that the check itself can fail.
. "$(dirname "$0")/../lib.sh"

check "the include graph follows the layers (tests/tools/layers.py)" python3 "$TOP/tests/tools/layers.py" "$TOP"

# refused NAME PATTERN FILE SED: the checker must see a violation in a copy of the tree where sed's script
# changed FILE, and name it (PATTERN in its output).
refused() {
	rm -rf "$TMP/tree" && mkdir -p "$TMP/tree"
	(cd "$TOP" && cp -r commands common kernels harness analysis docs "$TMP/tree/")
	sed -i "$4" "$TMP/tree/$3"
	if python3 "$TOP/tests/tools/layers.py" "$TMP/tree" >"$TMP/out" 2>&1; then
		notok "$1" "layers.py passed it"
	else
		check "$1" grep -q "$2" "$TMP/out"
	fi
}

refused "a harness file including an analysis header is refused, by name" "harness includes verdict.h" \
	harness/run/run.c '1i #include "verdict.h"'
refused "a cycle between harness/plan and harness/run is refused" "cycle: .*harness/plan" \
	harness/plan/plan.c '1i #include "run.h"'
refused "an include between harness's parts that docs/architecture.md names but no source has is refused" \
	"says that harness/counters includes harness/machine" docs/architecture.md \
	's/plan, results and prefetch → machine/plan, results, counters and prefetch → machine/'

# Every file of common/ is named in the document's list of it (a helper both sides need is found there first).
check "docs/architecture.md names every file of common/" python3 - "$TOP" <<'PY'
import glob, os, re, sys
top = sys.argv[1]
doc = open(os.path.join(top, "docs/architecture.md"), encoding="utf-8").read()
part = doc.split("common/      ", 1)[1].split("\n\n", 1)[0]
names = {os.path.basename(p)[:-2] for p in glob.glob(os.path.join(top, "common/*.c"))}
missing = sorted(n for n in names if not re.search(r"\b%s\b" % re.escape(n), part))
assert names and not missing, missing
PY
