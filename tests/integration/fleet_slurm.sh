#!/bin/bash
# fleet_slurm.sh — `pmucheck fleet` through a real Slurm (Debian's munge, slurmctld, slurmd), started by
# this test in its own network and UTS namespaces with three nodes (tests/tools/slurm_cluster.sh), then
# `pmucheck merge` of what the nodes wrote with one node's figures perturbed on purpose (it must come
# out as the outlier), and malformed and foreign directories among them (each refused by name, the
# others merged). The runs are short (two sizes of two kernels, one thread): the test checks the
# plumbing, not the machine.
. "$(dirname "$0")/../lib.sh"
NODES="n1 n2 n3"

if [ -z "${FLEET_IN_NS:-}" ]; then
	why=""
	[ "$(id -u)" -eq 0 ] || why="not root: slurmd, munged and network namespaces need root"
	for c in munged slurmctld slurmd sbatch squeue sinfo scontrol unshare ip; do
		[ -n "$why" ] || command -v $c >/dev/null || why="$c not installed (scripts/deps.sh test installs munge, slurmctld, slurmd, slurm-client, iproute2; unshare is util-linux's)"
	done
	if [ -z "$why" ] && ! unshare --net --uts true 2>"$TMP/unshare.err"; then
		why="unshare --net --uts failed: $(head -1 "$TMP/unshare.err")"
	fi
	if [ -n "$why" ]; then
		skip "pmucheck fleet through Slurm" "$why"
		exit 0
	fi
	FLEET_IN_NS=1 TMPDIR=$TMP TOP=$TOP PMUCHECK=$PMUCHECK unshare --net --uts bash "$0"
	exit $?
fi

# inside the namespaces: the cluster lives and dies with this shell
. "$TOP/tests/tools/slurm_cluster.sh"
C=$TMP/cluster
trap 'main_shell && { slurm_stop "$C"; rm -rf "$TMP"; }' EXIT
if ! slurm_start "$C" $NODES 2>"$TMP/start.err"; then
	notok "a Slurm cluster of three nodes starts" "$(cat "$TMP/start.err")"
	exit 0
fi
ok "a Slurm cluster of three nodes starts"

SH=$TMP/shared
mkdir -p "$SH"
expect_status "fleet without --shared is a usage error" 2 "$PMUCHECK" fleet -N n1
expect_status "fleet with an unknown node fails before submitting" 1 "$PMUCHECK" fleet -s "$SH" -N nosuch
"$PMUCHECK" fleet -s "$SH" -N "n[1-3]" --wait --quick -k load.sse,chase.plain --time-budget 5 \
	-- --sizes 16k,256k --threads 1 --reported-levels "${ONE_STATE[@]}" >"$TMP/fleet.out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "fleet --wait: every node left an analysed results directory"; else
	notok "fleet --wait: every node left an analysed results directory" "exit $rc: $(tail -3 "$TMP/fleet.out" | tr '\n' ' ')"
	cat "$SH"/slurm-*.out 2>/dev/null | sed 's/^/#   /' | tail -20
fi
check "one job id per node" test "$(grep -c ': job [0-9]' "$TMP/fleet.out")" -eq 3
for n in $NODES; do
	d=$(ls -d "$SH/$n"-2* 2>/dev/null | head -1)
	check "node $n wrote $n-<UTC time>/ with its own host name" grep -q "\"host\": \"$n\"" "$d/machine.json"
	check "... run with the options passed through" grep -q '"--time-budget",' "$d/machine.json"
done

# The three nodes ran at the same time on this machine's few CPUs, so their own figures may differ by any
# factor; the outlier rule is judged on figures set here instead: n3 has n1's figures 5 % higher, n2 a
# twentieth of n1's bandwidth and twenty times its latency. Each node keeps its own machine.json. The
# figures are clean (a noisy one, of nodes sharing CPUs, is left out of the rule).
n1=$(ls -d "$SH"/n1-2* | head -1)
perturb() { # <bandwidth factor> <latency factor> <node directory>
	awk -F, -v OFS=, -v b="$1" -v l="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ if ($c["gbps_1_core"] != "") $c["gbps_1_core"] *= b
	  if ($c["latency_ns"] != "") $c["latency_ns"] *= l; $c["quality"] = "ok"; print }' "$n1/peaks.csv" >"$TMP/p" && mv "$TMP/p" "$3/peaks.csv"
}
perturb 1 1 "$n1"
perturb 0.05 20 "$(ls -d "$SH"/n2-2* | head -1)"
perturb 1.05 1.05 "$(ls -d "$SH"/n3-2* | head -1)"
mkdir -p "$SH/malformed" "$SH/foreign"
head -c 200 "$(ls -d "$SH"/n1-2* | head -1)/machine.json" >"$SH/malformed/machine.json"
echo "hostname,bandwidth" >"$SH/foreign/results.csv"
"$PMUCHECK" merge -o "$TMP/merged" "$SH"/n*-2* "$SH/malformed" "$SH/foreign" >"$TMP/merge.out" 2>&1
check "merge of three nodes among two unreadable directories succeeds" grep -q "merged 3 nodes (2 refused)" "$TMP/merge.out"
check "the malformed directory is refused by name" grep -q "refused $SH/malformed/machine.json" "$TMP/merge.out"
check "the foreign directory is refused by name" grep -q "refused $SH/foreign: no machine.json" "$TMP/merge.out"
check "the perturbed node n2 is an outlier in bandwidth or latency" \
	grep -Eq '^1,n2,.*(GB/s|ns)( [0-9]+ cores?| all cores)? [0-9.e+-]+, [0-9]+ % (below|above)' "$TMP/merged/outliers.csv"
cut -c1-200 "$TMP/merged/outliers.csv" | sed "s/^/# /"
check "the merged event table lists each event on 3 nodes" grep -q ',page-faults,[a-z ]*,3,3,' "$TMP/merged/events.csv"
