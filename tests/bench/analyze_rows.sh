#!/bin/bash
# analyze_rows.sh — `pmucheck analyze` of a million raw rows (tests/tools/rawgen, the worst case of
# tests/unit/test_raw_perf.c) in under 10 s. A speed on a shared machine, so a benchmark; the unit test
# keeps what no neighbour can change: the row count, the verdicts and the peak memory.
. "$(dirname "$0")/../lib.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen
LIMIT=10

if [ ! -x "$RAWGEN" ]; then
	skip "analyze of 10^6 rows" "$RAWGEN not built (make bench builds it)"
	exit 0
fi
D=$TMP/rows
mkdir -p "$D"
rows=$("$RAWGEN" "$D" 120 5) # 28 point shapes x (4 x 120 + 1) sizes x 5 repetitions x 15 events
start=$(date +%s%N)
if ! "$PMUCHECK" analyze --quiet "$D" >"$TMP/out" 2>&1; then
	notok "analyze of $rows rows" "$(tail -3 "$TMP/out")"
	exit 0
fi
ms=$((($(date +%s%N) - start) / 1000000))
echo "# $rows rows analysed in $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s"
name="$rows rows analysed in under $LIMIT s"
if [ "$ms" -lt $((LIMIT * 1000)) ]; then ok "$name"; else notok "$name" "took $ms ms"; fi
