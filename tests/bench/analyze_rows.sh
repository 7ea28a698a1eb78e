#!/bin/bash
# analyze_rows.sh — `pmucheck analyze` of a million raw rows (tests/tools/rawgen, the worst case of
# tests/unit/test_raw_perf.c) within 2 s of CPU time (issue 16's target). A speed on a shared machine, so a
# benchmark; the CPU time (user + sys) is judged, the wall time printed beside it: on the 2-vCPU
# development VM with neighbours the wall time of the same run varied 2.2-3.5 s while its CPU time stayed
# 1.5-1.7 s. The unit test keeps what no neighbour can change: the row count, the verdicts and the peak
# memory.
. "$(dirname "$0")/../lib.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen
LIMIT_MS=2000

if [ ! -x "$RAWGEN" ]; then
	skip "analyze of 10^6 rows" "$RAWGEN not built (make bench builds it)"
	exit 0
fi
D=$TMP/rows
mkdir -p "$D"
rows=$("$RAWGEN" "$D" 120 5) # 28 point shapes x (4 x 120 + 1) sizes x 5 repetitions x 15 events
TIMEFORMAT='%R %U %S' # bash's own `time`: wall, user and sys of the command
if ! { time "$PMUCHECK" analyze --quiet "$D" >"$TMP/out" 2>&1; } 2>"$TMP/time"; then
	notok "analyze of $rows rows" "$(tail -3 "$TMP/out")"
	exit 0
fi
read -r wall user sys <"$TMP/time"
cpu_ms=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
echo "# $rows rows analysed: wall $wall s, CPU $user s user + $sys s sys"
name="$rows rows analysed in under $((LIMIT_MS / 1000)) s of CPU time"
if [ "$cpu_ms" -lt $LIMIT_MS ]; then ok "$name"; else notok "$name" "took $cpu_ms ms of CPU"; fi
