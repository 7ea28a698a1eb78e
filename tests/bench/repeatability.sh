#!/bin/bash
# repeatability.sh — two identical --quick runs of the bandwidth kernels: do their L1 and L2 figures agree
# within 2 % (median over the points of each point's difference)? Once a test, now a benchmark (make bench,
# make repeatability): another tenant on the cores moves the figures without a bug.
#
# Bytes per core cycle are compared, each repetition's time turned into cycles with the core clock
# sampled around that repetition (raw.csv's core_ghz). GB/s are reported beside them but not asserted:
# on the development VM the host moves the core clock between 3.8 and 4.4 GHz within seconds, so two
# runs' GB/s differ as much as their clocks do, whatever the tool does.
. "$(dirname "$0")/../lib.sh"
# --reported-levels: the latency probe may place the L2/L3 boundary a size step apart from run to run,
# which would change the plan; compared here is the measurement of one plan.
ARGS=(--quick --kernels load,store,triad --reported-levels --no-progress)
LIMIT=0.02

compare() {
	python3 - "$1/raw.csv" "$2/raw.csv" "$LIMIT" <<'PY'
import csv, statistics, sys
def points(path):
    pts = {}
    for r in csv.DictReader(open(path)):
        if r["group"] != "0" or r["level"] not in ("L1", "L2") or r["variant"].endswith(".nt"):
            continue
        if not r["core_ghz"]:
            continue  # no clock sample of this repetition held up: it has no cycles figure
        s, ghz = float(r["seconds"]), float(r["core_ghz"])
        assert 0.5 < ghz < 10, "row %s: core_ghz %s" % (r["point"], r["core_ghz"])
        if s <= 0:
            continue
        bw = (int(r["v_bytes_loaded"]) + int(r["v_bytes_stored"])) / s
        key = (r["variant"], r["level"], r["threads"], r["bytes"])
        pts.setdefault(key, {})[r["rep"]] = (bw / 1e9, bw / (ghz * 1e9), ghz)
    return {k: [statistics.median(x[i] for x in v.values()) for i in range(3)] for k, v in pts.items()}
a, b = points(sys.argv[1]), points(sys.argv[2])
assert a.keys() == b.keys() and len(a) >= 8, "the runs measured different or too few points"
rel = lambda i: sorted(abs(b[k][i] - a[k][i]) / a[k][i] for k in a)
gbs, bpc, clk = rel(0), rel(1), rel(2)
for name, d in (("GB/s", gbs), ("bytes/cycle", bpc), ("core clock", clk)):
    print("# %-11s median difference %.2f %%, worst %.2f %% (%d L1/L2 points)" %
          (name, 100 * statistics.median(d), 100 * d[-1], len(d)))
sys.exit(0 if statistics.median(bpc) <= float(sys.argv[3]) else 3)
PY
}

# Up to three pairs: another process can take a core for a while; exit 3 = measured, but apart.
for try in 1 2 3; do
	for i in 1 2; do
		rm -rf "$TMP/r$i"
		if ! "$PMUCHECK" run "${ARGS[@]}" --out "$TMP/r$i" >"$TMP/out" 2>&1; then
			notok "run $i of ${ARGS[*]}" "$(tail -3 "$TMP/out")"
			exit 0
		fi
	done
	compare "$TMP/r1" "$TMP/r2" >"$TMP/cmp" 2>&1
	status=$?
	[ "$status" -ne 3 ] && break
done
name="L1/L2 bytes per cycle of two identical --quick runs agree within 2 % (median of points)"
case $status in
0) ok "$name, pair $try" ;;
3) notok "$name" "three pairs differed" ;;
*) notok "$name" "the comparison failed" ;;
esac
sed 's/^#*/#/' "$TMP/cmp"
