#!/bin/bash
# fleet_fake.sh — what `pmucheck fleet --wait` makes of its nodes' results, through stand-ins for the
# Slurm clients (sbatch writes a node's results directory at once, or none for a node in FAKE_FAIL;
# squeue lists no job): a node is credited with its own directory only, and every node submitted is
# named in the end, whatever Slurm answers afterwards. fleet_slurm.sh runs the real thing.
. "$(dirname "$0")/../lib.sh"

BIN=$TMP/bin SH=$TMP/shared
mkdir -p "$BIN" "$SH"
cat >"$BIN/scontrol" <<'SH'
#!/bin/bash
# "scontrol show hostnames LIST": the nodes of FAKE_NODES; fails from its FAKE_SCONTROL_OK+1-th call on
n=$(($(cat "$FAKE_DIR/scontrol.calls" 2>/dev/null || echo 0) + 1))
echo $n >"$FAKE_DIR/scontrol.calls"
[ "$n" -le "${FAKE_SCONTROL_OK:-99}" ] || { echo "scontrol: slurmctld not responding" >&2; exit 1; }
printf '%s\n' $FAKE_NODES
SH
cat >"$BIN/sbatch" <<'SH'
#!/bin/bash
# the job "runs" at once: SHARED/<node>-<UTC time>/events.json, unless the node is in FAKE_FAIL
for a; do case $a in --nodelist=*) node=${a#--nodelist=} ;; esac; done
shared=$(for a; do case $a in -*) ;; *) echo "$a" ;; esac; done | sed -n 2p)
case " $FAKE_FAIL " in *" $node "*) ;; *)
	mkdir -p "$shared/$node-$(date -u +%Y%m%dT%H%M%SZ)" && echo '{}' >"$shared/$node-$(date -u +%Y%m%dT%H%M%SZ)/events.json" ;;
esac
echo $((RANDOM + 1))
SH
printf '#!/bin/bash\n' >"$BIN/squeue"
chmod +x "$BIN"/*
touch "$TMP/job.sbatch"
fleet() { env PATH="$BIN:$PATH" FAKE_DIR="$TMP" "$@" "$PMUCHECK" fleet -s "$SH" -N list --script "$TMP/job.sbatch" --wait; }

# n1's job left nothing; n1-b (a name n1 is the start of) left its directory, which is not n1's.
expect_status "a node whose job left no results fails --wait" 1 fleet FAKE_NODES="n1 n1-b" FAKE_FAIL=n1
cp "$TMP/check.out" "$TMP/prefix.out"
check "... naming that node" grep -q "^n1: no results" "$TMP/prefix.out"
check "... and crediting n1-b with its own directory" grep -q "^n1-b: $SH/n1-b-2" "$TMP/prefix.out"

# Slurm answers the node list once, then no more (slurmctld restarting while the jobs ran): the nodes
# submitted are still each named, and the one without results still fails --wait.
rm -rf "$SH"/* "$TMP/scontrol.calls"
expect_status "a node list Slurm no longer gives after the jobs still fails --wait" 1 \
	fleet FAKE_NODES="n1 n2 n3" FAKE_FAIL=n2 FAKE_SCONTROL_OK=1
cp "$TMP/check.out" "$TMP/relist.out"
check "... naming the node without results" grep -q "^n2: no results" "$TMP/relist.out"
check "... and each other node submitted" test "$(grep -c "^n[13]: $SH/n[13]-2" "$TMP/relist.out")" -eq 2
