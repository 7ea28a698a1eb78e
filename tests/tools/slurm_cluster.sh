# slurm_cluster.sh — a throw-away Slurm cluster for the fleet test, sourced inside the test's own network
# and UTS namespaces (unshare --net --uts): munged, slurmctld and one slurmd per node, each node in a UTS
# namespace of its own so that its hostname (and so its results directory and machine.json host) is
# the node's name. Everything lives under one directory; nothing outside it is read or written but the
# namespaces' own interfaces.
#   slurm_start DIR NODE...   starts the cluster (returns non-zero with the reason on stderr)
#   slurm_stop DIR            stops every daemon it started, by the pid files under DIR
# The clients (sbatch, squeue, ...) find the cluster through SLURM_CONF, which slurm_start exports.

# Slurm resolves every address with AI_ADDRCONFIG, which a namespace holding only loopback fails
# ("Unable to resolve"): a veth pair gives it a configured address. The port numbers are free inside the
# namespace whatever runs outside it.
SLURM_ADDR=10.253.0.1

slurm_conf() { # DIR NODE...
	local d=$1 port=17001
	shift
	cat <<EOC
ClusterName=pmucheck-test
SlurmctldHost=$(hostname)($SLURM_ADDR)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$d/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd-%n.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
EOC
	for n in "$@"; do
		echo "NodeName=$n NodeAddr=$SLURM_ADDR Port=$port CPUs=$(nproc)"
		port=$((port + 1))
	done
	echo "PartitionName=all Nodes=$(echo "$@" | tr ' ' ,) Default=YES MaxTime=INFINITE State=UP"
}

slurm_start() { # DIR NODE...
	local d=$1 n i
	shift
	mkdir -p "$d/munge" "$d/state" "$d/spool" || return 1
	ip link set lo up && ip link add pmuv0 type veth peer name pmuv1 &&
		ip addr add "$SLURM_ADDR/24" dev pmuv0 && ip link set pmuv0 up && ip link set pmuv1 up ||
		{ echo "no veth pair in the network namespace" >&2; return 1; }
	hostname pmucheck-ctl
	head -c 1024 /dev/urandom >"$d/munge/munge.key" && chmod 700 "$d/munge" && chmod 400 "$d/munge/munge.key"
	munged --force --key-file="$d/munge/munge.key" --socket="$d/munge/sock" --pid-file="$d/munge/pid" \
		--log-file="$d/munge/log" --seed-file="$d/munge/seed" 2>"$d/munged.err" ||
		{ echo "munged: $(tail -1 "$d/munged.err")" >&2; return 1; }
	slurm_conf "$d" "$@" >"$d/slurm.conf"
	export SLURM_CONF=$d/slurm.conf
	slurmctld -f "$SLURM_CONF" 2>"$d/slurmctld.err" || { echo "slurmctld: $(tail -1 "$d/slurmctld.err")" >&2; return 1; }
	for n in "$@"; do
		mkdir -p "$d/spool/$n"
		unshare --uts sh -c 'hostname "$1" && exec slurmd -f "$2" -N "$1"' sh "$n" "$SLURM_CONF" \
			2>"$d/slurmd-$n.err" || { echo "slurmd $n: $(tail -1 "$d/slurmd-$n.err")" >&2; return 1; }
	done
	for i in $(seq 60); do # every node idle: registered and schedulable
		[ "$(sinfo -h -N -o '%t' 2>/dev/null | grep -c '^idle')" -eq $# ] && return 0
		sleep 0.5
	done
	echo "the nodes did not come up: $(sinfo -h -N -o '%N %t' 2>&1 | tr '\n' ' ') $(tail -2 "$d/slurmctld.log")" >&2
	return 1
}

slurm_stop() { # DIR
	local d=$1 p
	for p in "$d"/slurmd-*.pid "$d/slurmctld.pid" "$d/munge/pid"; do
		[ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null
	done
	sleep 0.5
	for p in "$d"/slurmd-*.pid "$d/slurmctld.pid" "$d/munge/pid"; do
		[ -s "$p" ] && kill -9 "$(cat "$p")" 2>/dev/null
	done
	return 0
}
