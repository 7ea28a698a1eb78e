#!/bin/bash
# merge_noisy.sh — `pmucheck merge` of nodes made from one synthetic analysed run (tests/tools/rawgen),
# fast enough to pin down the statistics: a figure that peaks.csv calls noisy (a disturbed point's) is
# shown as such but neither moves its type's median nor makes its node an outlier; an event's verdict
# that as many nodes give as another is not the stronger one.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/merge_fake.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen
if [ ! -x "$RAWGEN" ]; then
	skip "merge of synthetic nodes" "needs $RAWGEN (make unit-tests)"
	exit 0
fi
R=$TMP/run
mkdir -p "$R" && "$RAWGEN" "$R" 4 3 >/dev/null && "$PMUCHECK" analyze --quiet "$R"
check "a synthetic run is analysed" test -s "$R/peaks.csv" -a -s "$R/events.json"
for n in a b c d; do node $n; done
# d's L2 read row rests on a disturbed point: a twentieth of the others' one-core bandwidth
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$1 == "L2" && $2 == "read" { $c["gbps_1_core"] /= 20; $c["quality"] = "noisy (1 of 1 points disturbed)" } 1' \
	"$R/peaks.csv" >"$TMP/d/peaks.csv"

O=$TMP/noisy
expect_status "merge of four nodes, one with a noisy figure" 0 "$PMUCHECK" merge -o "$O" "$TMP"/[abcd]
check "the noisy figure makes no outlier" test ! -s "$(grep -v '^type,' "$O/outliers.csv" >"$TMP/o"; echo "$TMP/o")"
check "... nor moves the type's median (that of a, b, c)" \
	grep -q '^1,a,.*,L2 read GB/s 1 core,50,50,0,0.0000,ok$' "$O/nodes.csv"
check "nodes.csv says the figure is noisy" grep -q '^1,d,.*,L2 read GB/s 1 core,2.5,50,0,-0.9500,noisy$' "$O/nodes.csv"
check "merge.md marks it" grep -q '| d |.* 2.5 (noisy) |' "$O/merge.md"
# a row from before the quality said which of its figures is the disturbed point's: both bandwidths are noisy
check "merge.json lists the row's figures as noisy" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["types"][0]
d = [n for n in t["nodes"] if n["node"] == "d"][0]
assert d["noisy"] == ["L2 read GB/s 1 core", "L2 read GB/s 2 cores"], d["noisy"]
assert [f["nodes"] for f in t["figures"] if f["figure"] == "L2 read GB/s 1 core"] == [3]' "$O/merge.json"

# A row that says which figure is the disturbed point's: only that one is noisy. d's L2 read row says its
# all-cores figure, so its one-core figure counts in the type as a clean one.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$1 == "L2" && $2 == "read" { $c["quality"] = "noisy (all-cores figure; 1 of 4 points disturbed)" } 1' \
	"$R/peaks.csv" >"$TMP/d/peaks.csv"
expect_status "merge of four nodes, one with a noisy all-cores figure" 0 "$PMUCHECK" merge -o "$TMP/which" "$TMP"/[abcd]
check "merge.json lists only the all-cores figure as noisy" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["types"][0]
d = [n for n in t["nodes"] if n["node"] == "d"][0]
assert d["noisy"] == ["L2 read GB/s 2 cores"], d["noisy"]
assert [f["nodes"] for f in t["figures"] if f["figure"] == "L2 read GB/s 1 core"] == [4]' "$TMP/which/merge.json"

# page-faults: exact on a and b, not measured on c and d. No verdict holds on most nodes; the event must
# not read as exact.
for n in c d; do set_class $n page-faults "not measured"; done
expect_status "merge of nodes split two against two on a verdict" 0 "$PMUCHECK" merge -o "$TMP/tie" "$TMP"/[abcd]
check "events.csv gives the weaker verdict of a tie" grep -q '^.*,page-faults,not measured,2,4,a=exact;b=exact$' "$TMP/tie/events.csv"
check "... as merge.md does" grep -q '| `page-faults` | not measured | 2 of 4 | a: exact, b: exact |' "$TMP/tie/merge.md"

# Five nodes, three at the median of L3 read and one ten times below and one ten times above: the
# median absolute deviation is 0, so both are outliers, and neither reason may claim that every other
# node is at the median.
for n in e f g; do node $n; done
for p in e:0.1 f:10; do
	awk -F, -v OFS=, -v x="${p#*:}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$1 == "L3" && $2 == "read" { $c["gbps_1_core"] *= x } 1' "$R/peaks.csv" >"$TMP/${p%%:*}/peaks.csv"
done
expect_status "merge of five nodes, two far from the median" 0 "$PMUCHECK" merge -o "$TMP/mad0" "$TMP"/[aefgb]
check "both are outliers" test "$(grep -c '^1,[ef],.*L3 read GB/s 1 core' "$TMP/mad0/outliers.csv")" -eq 2
check "... their reasons say what a zero spread means" \
	test "$(grep -c 'at least half the type.s nodes at the median' "$TMP/mad0/outliers.csv")" -eq 2
check "... and no reason claims every other node is at it" test -z "$(grep 'every other node' "$TMP/mad0/outliers.csv")"
