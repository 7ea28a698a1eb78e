#!/bin/bash
# cpu_limit.sh — a run in a cgroup whose CPU quota (0.05 CPU) is below its threads, as a container's or a
# batch job's limit would be: it warns before measuring, says afterwards how often the kernel stopped its
# threads, machine.json records the quota, the throttling and the CPU pressure, and the report and `info`
# say so. Without the quota none of that is said. Needs root and a writable cgroup hierarchy with the cpu
# controller (v1, or v2 with cpu enabled for the root's children); skipped otherwise, with the reason.
. "$(dirname "$0")/../lib.sh"

# says NAME FILE REGEX
says() {
	grep -qE -- "$3" "$2" && ok "$1" || notok "$1" "no /$3/ in: $(head -c 600 "$2")"
}

# The cpu controller's hierarchy: "VERSION MOUNTPOINT" (v1 first, as pmucheck takes it).
read -r ver mnt < <(awk '{ for (i = 1; $i != "-"; i++); fs = $(i + 1); opts = "," $(i + 3) ","
	if (fs == "cgroup" && opts ~ /,cpu,/ && !v1) v1 = $5
	if (fs == "cgroup2" && !v2) v2 = $5 }
	END { if (v1) print 1, v1; else if (v2) print 2, v2 }' /proc/self/mountinfo)
G=${mnt:-/nonexistent}/pmucheck-test.$$
why=
if [ "$(id -u)" -ne 0 ]; then
	why="not root: cannot make a cgroup"
elif [ -z "$mnt" ]; then
	why="no cgroup hierarchy with the cpu controller is mounted"
elif [ "$ver" = 2 ] && ! grep -qw cpu "$mnt/cgroup.subtree_control" 2>/dev/null; then
	why="cgroup v2 at $mnt does not enable the cpu controller for its children"
elif ! mkdir "$G" 2>/dev/null; then
	why="cannot make $G (a read-only cgroup mount: a container)"
fi
if [ -n "$why" ]; then
	for t in "warns before measuring" "says how often it was stopped" "machine.json records it" \
		"raw.csv names it where a point it stopped stayed noisy" "info says it" "the report says it" \
		"no quota, no warning" "a looser parent shared with a busy sibling is named where it stopped the run"; do
		skip "a run under a CPU quota: $t" "$why"
	done
	exit 0
fi
# the loop waited for before the cgroups go: rmdir refuses a cgroup that still holds a process
trap 'main_shell && { [ -n "$busy" ] && kill "$busy" && wait "$busy" 2>/dev/null; rmdir "$G/run" "$G/sib" "$G" 2>/dev/null; rm -rf "$TMP"; }' EXIT

# quota CPU_US|max [DIR]: the quota per 100 ms of the cgroup DIR ($G)
quota() {
	local d=${2:-$G}
	if [ "$ver" = 1 ]; then
		echo 100000 >"$d/cpu.cfs_period_us" && echo "${1/max/-1}" >"$d/cpu.cfs_quota_us"
	else
		echo "$1 100000" >"$d/cpu.max"
	fi
}
# in_cg CMD...: CMD in the cgroup ($CG, or $G)
in_cg() { sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "${CG:-$G}" "$@"; }
name="[^ ]*/pmucheck-test\.$$"

quota 5000
# 0.05 CPU: a quota the run reaches even on a machine so busy that its thread gets a seventh of a CPU (load
# 14 on 2 CPUs, as under a parallel make test); with 0.3 it got less than its quota there and was never
# stopped. One thread over 1 MiB keeps the CPU busy for 10 ms calls (--min-time 10, not the default 2, for
# a margin): its warm-up and two repetitions take well over 5 ms, so a stop by the quota falls within the
# point. Two repetitions cannot confirm it (budget.h's BUDGET_MIN_REPS is 3), so it is flagged noisy, and
# raw.csv names the quota beside that reason.
in_cg "$PMUCHECK" run --kernels load.sse --sizes 1048576 --threads 1 --reps 2 --min-time 10 \
	--reported-levels --no-progress "${ONE_STATE[@]}" --out "$TMP/r" >"$TMP/out" 2>"$TMP/err" || notok "the run under a quota" "$(cat "$TMP/err")"
says "a run under a CPU quota: warns before measuring" "$TMP/err" \
	"the cgroup $name may use 0.05 CPUs' worth of time \((cpu.cfs_quota_us|cpu.max)\), less than the 1 CPU its 1-thread points keep busy"
says "a run under a CPU quota: says how often it was stopped" "$TMP/out" \
	"^CPU limit: the cgroup $name may use 0.05 CPUs' worth of time; the kernel stopped the run's threads in [1-9][0-9]* of [1-9][0-9]* periods"
python3 - "$TMP/r/machine.json" "$$" >"$TMP/py" 2>&1 <<'PY' && ok "a run under a CPU quota: machine.json records it" || notok "a run under a CPU quota: machine.json records it" "$(cat "$TMP/py")"
import json, os, sys
d = json.load(open(sys.argv[1]))["disturbance"]
c = d["cpu_limit"]
assert c["cgroup"].endswith("/pmucheck-test." + sys.argv[2]), c
assert abs(c["cpus"] - 0.05) < 1e-9 and c["period_us"] == 100000, c
assert 0 < c["throttled_periods"] <= c["periods"] and c["throttled_seconds"] > 0, c
p = d["cpu_pressure_percent"]
if os.access("/proc/pressure/cpu", os.R_OK):
    assert 0 <= p <= 100.5, p
PY
python3 -c 'import csv, sys
print(*sorted({r["noisy_why"] for r in csv.DictReader(open(sys.argv[1]))}))' "$TMP/r/raw.csv" >"$TMP/why" 2>&1
says "a run under a CPU quota: raw.csv names it where a point it stopped stayed noisy" "$TMP/why" \
	"(^|[ ;])cpu-quota($|[ ;])"
in_cg "$PMUCHECK" info >"$TMP/info" 2>&1
says "a run under a CPU quota: info says it" "$TMP/info" \
	"^cpu limit       0.05 CPUs' worth of time per 100 ms \(cgroup $name, (cpu.cfs_quota_us|cpu.max)\): once a run's threads used it, the kernel stops them for the rest of the period$"
"$PMUCHECK" analyze "$TMP/r" >/dev/null 2>&1 && "$PMUCHECK" report "$TMP/r" >/dev/null 2>&1
says "a run under a CPU quota: the report says it" "$TMP/r/report.md" \
	"^- \*\*CPU limit\*\*: the run's cgroup \($name\) may use 0.05 CPUs' worth of time per 100 ms; the kernel stopped its threads in [1-9][0-9]* of [1-9][0-9]* periods"

# The same cgroup without its quota: nothing said of a limit that is not there.
quota max
in_cg "$PMUCHECK" run --dry-run --kernels load.sse --sizes 1048576 --threads 1 >"$TMP/dry" 2>&1
in_cg "$PMUCHECK" info --json >"$TMP/info.json" 2>&1
if grep -q "may use" "$TMP/dry"; then
	notok "a run under a CPU quota: no quota, no warning" "$(grep "may use" "$TMP/dry")"
else
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["cpu_limit"]
# the cgroup is ours no longer limited; a limit above it (a container) is the one named
assert c["cpus"] is None or not c["cgroup"].endswith("/pmucheck-test." + sys.argv[2]), c' \
		"$TMP/info.json" "$$" >"$TMP/py" 2>&1 && ok "a run under a CPU quota: no quota, no warning" ||
		notok "a run under a CPU quota: no quota, no warning" "$(cat "$TMP/py")"
fi

# A looser parent shared with another job: $G at 0.1 CPU holds the run's cgroup at 0.09 and a sibling that
# keeps a CPU busy, so the parent's quota is spent every period whoever spends it; the run is stopped there
# whatever its own cgroup's cpu.stat says. machine.json's limits give the parent's stops, and the run names
# it; the top-level figures stay the run's own (the tightest). Before limits, nothing said the parent
# stopped the run. (v2 needs cpu enabled for $G's children too.)
if [ "$ver" = 2 ] && ! echo +cpu >"$G/cgroup.subtree_control" 2>/dev/null; then
	skip "a looser parent shared with a busy sibling is named where it stopped the run" \
		"cannot enable the cpu controller for the children of $G"
	exit 0
fi
mkdir "$G/run" "$G/sib"
quota 10000
quota 9000 "$G/run"
# sh itself goes into the cgroup and becomes the loop, so $! is the loop's pid (a function run with & would
# leave its child behind, holding our stdout open)
sh -c 'echo $$ >"$0/cgroup.procs" && exec sh -c "while :; do :; done"' "$G/sib" >/dev/null 2>&1 &
busy=$!
CG=$G/run in_cg "$PMUCHECK" run --kernels load.sse --sizes 1048576 --threads 1 --reps 2 --min-time 10 \
	--reported-levels --no-progress "${ONE_STATE[@]}" --out "$TMP/p" >"$TMP/pout" 2>"$TMP/perr" ||
	notok "the run under a shared parent" "$(cat "$TMP/perr")"
kill "$busy" && wait "$busy" 2>/dev/null
busy=
python3 - "$TMP/p/machine.json" "$$" >"$TMP/py" 2>&1 <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["disturbance"]["cpu_limit"]
me = "/pmucheck-test." + sys.argv[2]
assert c["cgroup"].endswith(me + "/run") and abs(c["cpus"] - 0.09) < 1e-9, c
run, parent = c["limits"]
assert {k: run[k] for k in run} == {k: c[k] for k in run}, c  # the top level is the tightest's
assert parent["cgroup"].endswith(me) and abs(parent["cpus"] - 0.1) < 1e-9, c
assert 0 < parent["throttled_periods"] <= parent["periods"] and parent["throttled_seconds"] > 0, c
assert parent["throttled_periods"] > run["throttled_periods"], c
PY
[ $? = 0 ] && grep -qE "; the quota of $name \(0.1 CPUs' worth, spent by whatever runs under it\) in [1-9][0-9]* of [1-9][0-9]* periods" "$TMP/pout" &&
	ok "a looser parent shared with a busy sibling is named where it stopped the run" ||
	notok "a looser parent shared with a busy sibling is named where it stopped the run" \
		"$(cat "$TMP/py" "$TMP/pout" "$TMP/perr")"
