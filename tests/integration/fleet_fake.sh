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
# the job "runs" at once: SHARED/<node>-<UTC time>/events.json, unless the node is in FAKE_FAIL; a node in
# FAKE_REJECT is refused by Slurm itself (sbatch fails)
for a; do case $a in --nodelist=*) node=${a#--nodelist=} ;; --output=*) echo "${a#--output=}" >>"$FAKE_DIR/sbatch.outputs" ;; esac; done
case " $FAKE_REJECT " in *" $node "*) echo "sbatch: error: Invalid node name specified" >&2; exit 1 ;; esac
shared=$(for a; do case $a in -*) ;; *) echo "$a" ;; esac; done | sed -n 2p)
for a; do case $a in -*) ;; *) echo "$a" >>"$FAKE_DIR/sbatch.scripts"; break ;; esac; done
case " $FAKE_FAIL " in *" $node "*) ;; *)
	d=$shared/$node-$(date -u +%Y%m%dT%H%M%SZ) # one reading: two could fall in two seconds
	mkdir -p "$d" && echo '{}' >"$d/events.json" ;;
esac
echo $((RANDOM + 1))
SH
printf '#!/bin/bash\n' >"$BIN/squeue"
chmod +x "$BIN"/*
touch "$TMP/job.sbatch"
fleet() { env PATH="$BIN:$PATH" FAKE_DIR="$TMP" "$@" "$PMUCHECK" fleet -s "$SH" -N list --script "$TMP/job.sbatch" --wait; }
# fleet_with ENV... -- FLEET OPTIONS
fleet_with() {
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	env PATH="$BIN:$PATH" FAKE_DIR="$TMP" "${env[@]}" "$PMUCHECK" fleet --script "$TMP/job.sbatch" "$@"
}

# n1's job left nothing; n1-b (a name n1 is the start of) left its directory, which is not n1's.
expect_status "a node whose job left no results fails --wait" 1 fleet FAKE_NODES="n1 n1-b" FAKE_FAIL=n1
cp "$TMP/check.out" "$TMP/prefix.out"
check "... naming that node" grep -q "^n1: no results" "$TMP/prefix.out"
check "... and crediting n1-b with its own directory" grep -q "^n1-b: $SH/n1-b-2" "$TMP/prefix.out"

# Without --script, the job script of the source tree is found from the binary in build/ as from ./pmucheck
rm -rf "$SH"/* "$TMP/sbatch.scripts"
check "build/pmucheck fleet finds the source tree's scripts/pmucheck-fleet.sbatch" env PATH="$BIN:$PATH" \
	FAKE_DIR="$TMP" FAKE_NODES=n1 "$TOP/${BUILD:-build}/pmucheck" fleet -s "$SH" -N n1
check "... and submits it" grep -q "/${BUILD:-build}/../scripts/pmucheck-fleet.sbatch$" "$TMP/sbatch.scripts"

# Slurm answers the node list once, then no more (slurmctld restarting while the jobs ran): the nodes
# submitted are still each named, and the one without results still fails --wait.
rm -rf "$SH"/* "$TMP/scontrol.calls"
expect_status "a node list Slurm no longer gives after the jobs still fails --wait" 1 \
	fleet FAKE_NODES="n1 n2 n3" FAKE_FAIL=n2 FAKE_SCONTROL_OK=1
cp "$TMP/check.out" "$TMP/relist.out"
check "... naming the node without results" grep -q "^n2: no results" "$TMP/relist.out"
check "... and each other node submitted" test "$(grep -c "^n[13]: $SH/n[13]-2" "$TMP/relist.out")" -eq 2

# Run options a node would refuse whatever its machine are refused here, exit 2, before any job is
# submitted; ones only a node can judge (its CPUs and NUMA nodes) go to the nodes.
rm -rf "$SH"/* "$TMP/scontrol.calls" "$TMP/sbatch.outputs"
for opts in "-- --reps -5" "-- --cpus 0-3,3" "-- --placement node:x" "-k load,load" "-- --sizes 16k,16k" \
	"-- --bogus" "-- --out $TMP/x" "-- --results $TMP/x" "-- --resume $TMP/x" "-- --dry-run" "-k bogus" \
	"-k load.avx1024" "-- --sizes 0" "-- --prefetch bogus" "-- --prefetch off:l2-stream+" "--preset bogus"; do
	# shellcheck disable=SC2086 # the options are words
	expect_status "fleet $opts: refused before submitting" 2 fleet_with FAKE_NODES=n1 -- -s "$SH" -N list $opts
	grep -q "^pmucheck fleet: run options: " "$TMP/check.out" ||
		notok "fleet $opts: the message names the run options" "$(cat "$TMP/check.out")"
done
check "... and no job was submitted" test ! -e "$TMP/sbatch.outputs"
expect_status "fleet with CPUs and NUMA nodes this host lacks: submitted, the nodes judge them" 0 \
	fleet_with FAKE_NODES=n1 -- -s "$SH" -N list -- --cpus 0-63 --placement node:7 --threads 4

# A '%' in the shared path: sbatch's --output is a pattern (%N, %j), so the path's '%' goes as %%.
mkdir -p "$TMP/100%"
rm -f "$TMP/sbatch.outputs"
expect_status "fleet into a directory with '%' in its name" 0 fleet_with FAKE_NODES=n1 -- -s "$TMP/100%" -N list
check "... its job log pattern escapes the '%'" grep -qxF "$TMP/100%%/slurm-pmucheck-%N-%j.out" "$TMP/sbatch.outputs"

# An empty --nodes or --partition would go to Slurm as given ("scontrol show hostnames ''"): refused here
# as the empty value it is, exit 2, before Slurm is asked or a job submitted.
for o in -N --nodes; do
	rm -f "$TMP/scontrol.calls" "$TMP/sbatch.outputs"
	expect_status "fleet $o '': refused" 2 fleet_with FAKE_NODES=n1 -- -s "$SH" "$o" ''
	cp "$TMP/check.out" "$TMP/empty.out"
	check "... naming --nodes and the empty list" grep -q "^pmucheck fleet: --nodes: the node list is empty" \
		"$TMP/empty.out"
	check "... before Slurm is asked" test ! -e "$TMP/scontrol.calls" -a ! -e "$TMP/sbatch.outputs"
done
expect_status "fleet -P '': refused" 2 fleet_with FAKE_NODES=n1 -- -s "$SH" -P ''
cp "$TMP/check.out" "$TMP/empty.out"
check "... naming --partition" grep -q "^pmucheck fleet: --partition: the partition name is empty" "$TMP/empty.out"
# A node list given twice is refused as run refuses its lists (README); a --script that is a directory and an
# empty --sbatch went to sbatch as given.
rm -f "$TMP/scontrol.calls" "$TMP/sbatch.outputs"
for b in "--nodes given twice: give one list (n1,n2)|-N n1 -N n2" "--script $SH: not a file|-N n1 --script $SH" \
	"--sbatch: an empty option|-N n1 --sbatch="; do
	# shellcheck disable=SC2086 # the options split at their spaces
	expect_status "fleet ${b#*|}: refused" 2 fleet_with FAKE_NODES=n1 -- -s "$SH" ${b#*|}
	cp "$TMP/check.out" "$TMP/twice.out"
	check "... saying '${b%%|*}'" grep -qF -- "pmucheck fleet: ${b%%|*}" "$TMP/twice.out"
done
check "... each before Slurm is asked" test ! -e "$TMP/scontrol.calls" -a ! -e "$TMP/sbatch.outputs"

# sbatch refusing a node's job (a node name Slurm does not know): fleet stops, exit 1, naming the node and
# what sbatch said; the job submitted before it is still named with its id, the nodes after it as not
# submitted.
rm -rf "$SH"/* "$TMP/scontrol.calls"
expect_status "a job sbatch refuses fails fleet" 1 fleet_with FAKE_NODES="n1 n2 n3" FAKE_REJECT=n2 -- -s "$SH" -N list
cp "$TMP/check.out" "$TMP/reject.out"
check "... naming the node and sbatch's message" \
	grep -q "^pmucheck fleet: node n2: sbatch failed (exit 1): sbatch: error: Invalid node name specified" \
	"$TMP/reject.out"
check "... and the node submitted before it" grep -Eq "^n1: job [0-9]+" "$TMP/reject.out"
check "... and the node after it, not submitted" grep -q "; not submitted after it (1 node): n3$" "$TMP/reject.out"
# of many nodes after it, as many named as the message holds, and how many more (it was cut at about 50
# names without a word of the others)
rm -rf "$SH"/* "$TMP/scontrol.calls"
expect_status "a job sbatch refuses among 200 nodes fails fleet" 1 \
	fleet_with FAKE_NODES="$(seq -f 'n%g' 1 200 | tr '\n' ' ')" FAKE_REJECT=n2 -- -s "$SH" -N list
cp "$TMP/check.out" "$TMP/reject200.out"
check "... counting the 198 not submitted, naming the first, saying how many more" \
	grep -Eq "; not submitted after it \(198 nodes\): n3 n4 .* and [0-9]+ more$" "$TMP/reject200.out"

# fleet's own required options: each refused, exit 2, naming the option, before Slurm is asked
rm -f "$TMP/scontrol.calls" "$TMP/sbatch.outputs"
refused() { # refused NAME WHY OPTION...: fleet with the options exits 2, saying WHY
	local name=$1 why=$2
	shift 2
	expect_status "fleet with $name: refused" 2 fleet_with FAKE_NODES=n1 -- "$@"
	grep -qF "pmucheck fleet: $why" "$TMP/check.out" || notok "fleet with $name: the message" "$(cat "$TMP/check.out")"
}
refused "no --shared" "--shared DIR is required" -N list
refused "--shared a file" "--shared $TMP/job.sbatch: not a directory" -s "$TMP/job.sbatch" -N list
refused "no nodes" "which nodes? give --nodes LIST or --partition NAME" -s "$SH"
check "... before Slurm is asked" test ! -e "$TMP/scontrol.calls" -a ! -e "$TMP/sbatch.outputs"
