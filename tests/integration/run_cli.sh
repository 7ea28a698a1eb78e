#!/bin/bash
# run_cli.sh — `pmucheck run` refuses bad input with exit 2, a message naming what is wrong, and no
# results directory; and a small real run writes a complete, well-formed results directory.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1

# name | expected message fragment | arguments. The absurd size and thread count are past any machine's (4 TiB
# per thread; --threads' own limit, 1024): 64G and 64 were accepted where a socket has that many cores.
bad_cases() {
	cat <<'CASES'
unknown kernel|unknown kernel 'nosuch'|--kernels nosuch
unknown variant|unknown kernel 'load.avx1024'|--kernels load.avx1024
width the CPU lacks|lacks the instructions of 'load.avx512'|--kernels load.avx512 ISA=avx512f
size zero|a size of 0 bytes|--sizes 0
absurd size|exceeds half of this machine|--sizes 4096G
size with bad unit|unknown unit|--sizes 12parsecs
size in megabits|--sizes: '1Mb' has an unknown unit (k, M, G or KiB, MiB, GiB: binary; kB, MB, GB: decimal)|--sizes 1Mb
size below one block|smaller than one block|--kernels load.sse --sizes 64
sizes of one working set|--sizes: two of them give load.sse the same working set, 16384 bytes per array|--kernels load.sse --sizes 16k,16400
CPU not in the machine|CPU 4095 is not in this machine|--cpus 4095
malformed CPU list|is not a CPU list|--cpus 0..1
NUMA node that does not exist|NUMA node '77' does not exist|--placement node:77
NUMA node past an int|NUMA node '4294967296' does not exist|--placement node:4294967296
unknown placement|is not a placement|--placement far
more threads than CPUs|threads asked for|--threads 1024
zero repetitions|out of range|--reps 0
argument out of range|out of range for nopread|--kernels nopread --args 99999999
unknown option|unknown option '--frobnicate'|--frobnicate
option without value|needs a value|--sizes
stray argument|unexpected argument 'extra'|extra
unwritable results directory|cannot create results directory|--out /proc/pmucheck-cannot-be-here
results root a file|--results: cannot create results directory '/proc/version': Not a directory|--results /proc/version
--keep-going without --events|--keep-going: only with --events|--keep-going
empty --levels-from|--levels-from: an empty path|--levels-from=
CASES
}

# rejects LABEL MSG ISA ARGS...: `run ARGS` (ISA: instruction sets to disable) exits 2, says MSG and writes
# no results directory.
rejects() {
	local label=$1 msg=$2 isa=$3 rc
	shift 3
	PMUCHECK_ISA_DISABLE=$isa "$PMUCHECK" run --results "$TMP/res" "$@" >"$TMP/out" 2>&1
	rc=$?
	if [ "$rc" -ne 2 ]; then notok "$label" "exit $rc, expected 2"
	elif ! grep -qF -- "$msg" "$TMP/out"; then notok "$label" "message lacks '$msg'"
	elif [ -e "$TMP/res" ]; then notok "$label" "wrote $TMP/res"; rm -rf "$TMP/res"; return
	else ok "$label (exit 2, message, nothing written)"; return; fi
	sed 's/^/#   /' "$TMP/out"
}

while IFS='|' read -r name msg args; do
	isa=""
	case "$args" in *ISA=*) isa=${args##*ISA=}; args=${args% ISA=*} ;; esac
	# shellcheck disable=SC2086
	rejects "run rejects $name" "$msg" "$isa" $args
done < <(bad_cases)

expect_status "run --help exits 0" 0 "$PMUCHECK" run --help
check "run --help says which size units are decimal" sh -c "'$PMUCHECK' run --help | grep -q 'kB, MB, GB decimal'"
# --help reads no machine: a topology that cannot be loaded (here one of more sockets than pmucheck handles,
# harness/machine/topo.h TOPO_MAX_SOCKETS, which stops a dry run) must not stop the help, which says what to
# give instead.
many_sockets="pack:33 core:1 pu:1"
expect_status "a topology pmucheck refuses stops run --dry-run" 1 env HWLOC_SYNTHETIC="$many_sockets" \
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k
expect_status "... and not run --help" 0 env HWLOC_SYNTHETIC="$many_sockets" "$PMUCHECK" run --help
cp "$TMP/check.out" "$TMP/help.out"
check "... which prints the help" grep -q "^usage: pmucheck run" "$TMP/help.out"
expect_status "... nor all --help" 0 env HWLOC_SYNTHETIC="$many_sockets" "$PMUCHECK" all --help
cp "$TMP/check.out" "$TMP/help.out"
check "... which prints all's help" grep -q "^usage: pmucheck \[all\]" "$TMP/help.out"
# likwid-bench's kB is 1000 bytes: 128kB plans 128000-byte points, 128KiB 131072-byte ones.
"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 128kB,128KiB --threads 1 --prefetch on >"$TMP/dec" 2>&1
check "--sizes 128kB plans 128000 bytes, 128KiB 131072" sh -c "grep -q ' 128000 B/array' '$TMP/dec' && grep -q ' 131072 B/array' '$TMP/dec'"
# A dry run refuses an --out the run would refuse (it exists), creating nothing either way.
mkdir -p "$TMP/exists"
expect_status "run --dry-run --out an existing directory exits 2, as the run does" 2 "$PMUCHECK" run --dry-run \
	--kernels load.gpr --sizes 16k --threads 1 --out "$TMP/exists"
cp "$TMP/check.out" "$TMP/exists.out"
check "... with the run's message" grep -q -- "--out: cannot create results directory $TMP/exists: File exists" \
	"$TMP/exists.out"
# ... and an --out or --results the run could not create: empty, in a directory that does not exist, or a
# --results that is a file
for bad in "--out|--out: an empty path" "--out $TMP/none/x|--out: cannot create results directory $TMP/none/x: No such file or directory" \
	"--results $TMP/none/x|--results: cannot create results directory '$TMP/none/x': No such file or directory" \
	"--results $TMP/dec|--results: cannot create results directory '$TMP/dec': Not a directory"; do
	IFS='|' read -r opt want <<<"$bad"
	# shellcheck disable=SC2086
	if [ "$opt" = --out ]; then set -- --out ""; else set -- $opt; fi
	"$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 --prefetch on "$@" >"$TMP/dry-bad" 2>&1
	rc=$?
	check "run --dry-run $opt exits 2 with the run's message (exit $rc)" \
		bash -c '[ "$1" -eq 2 ] && grep -qF -- "$2" "$3" && [ ! -e "$4" ]' _ "$rc" "$want" "$TMP/dry-bad" "$TMP/none"
done
# ... but a path ending in '/' is made as without it (its parent is what lies before that)
expect_status "run --dry-run --out NEW/ and --results NEW/ pass, as mkdir takes them" 0 bash -c '
	"$1" run --dry-run --kernels load.gpr --sizes 16k --threads 1 --prefetch on --out "$2/new-out/" &&
		"$1" run --dry-run --kernels load.gpr --sizes 16k --threads 1 --prefetch on --results "$2/new-res/"' \
	_ "$PMUCHECK" "$TMP"
# A dry run of plain `pmucheck` (the `all` command) plans and stops: there is nothing to analyze.
"$PMUCHECK" --dry-run --kernels load.gpr --sizes 16k --threads 1 --reported-levels >"$TMP/all_dry" 2>&1
rc=$?
check "pmucheck --dry-run (all) exits 0 after its plan, analyzing nothing (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'B/array' '$TMP/all_dry' && ! grep -q 'analyze' '$TMP/all_dry'"
# The most repetitions: 80 ms of calls, raised in proportion by a --time-budget longer than the default (a
# shorter one leaves them: the budget's shares stop the points), never past 256; --reps wins, its last
# value where it is given twice (README: an option of one value given twice takes the last).
most_reps() { "$PMUCHECK" run --dry-run --kernels load.gpr --sizes 16k --threads 1 --reported-levels "$@" 2>&1 |
	sed -n 's/.*, at most \([0-9]*\) repetitions each$/\1/p'; }
for c in "40 --quick" "80 --quick --time-budget 120" "40 --quick --time-budget 10" "40" "120 --time-budget 900" \
	"8 --min-time 10" "4 --min-time 20" "256 --quick --time-budget 3600" "5 --quick --time-budget 120 --reps 5" \
	"7 --reps 5 --reps 7" "5 --reps 7 --reps 5"; do
	set -- $c
	want=$1
	shift
	check "run $* plans at most $want repetitions a point" test "$(most_reps "$@")" = "$want"
done
expect_status "unknown command exits 2" 2 "$PMUCHECK" frobnicate

# A small real run: two kernels, two sizes, one thread, one prefetcher state (ONE_STATE).
if "$PMUCHECK" run --kernels load.gpr,chase.plain --sizes 16k,64k --threads 1 --reps 3 --min-time 1 \
	--events page-faults --reported-levels "${ONE_STATE[@]}" --out "$TMP/small" >"$TMP/out" 2>&1; then
	ok "small run succeeds"
else
	notok "small run succeeds" "$(tail -3 "$TMP/out")"
fi
check "small run writes machine.json that parses" python3 -c "import json,sys; json.load(open('$TMP/small/machine.json'))"
check "small run leaves no PARTIAL marker" test ! -e "$TMP/small/PARTIAL"
# info --json's clock is machine.json's, by the same names and in the same form (docs/results-format.md):
# the methods and whether APERF/MPERF is used are facts of the machine, the same for both; the figures are
# measured again, and core_clock_note is there only where every sample was rejected.
"$PMUCHECK" info --json >"$TMP/info.json" 2>/dev/null
check "info --json's clock has machine.json's members, and the same methods and aperf_mperf" \
	python3 - "$TMP/info.json" "$TMP/small/machine.json" <<'PY2'
import json, sys
i, m = (json.load(open(f))["clock"] for f in sys.argv[1:])
same = ("core_clock_method", "repetition_clock_method", "aperf_mperf", "bounds")
# tsc_hz_end: the run calibrates the TSC again as its measurements end; info measures nothing
assert set(i) - {"core_clock_note"} == set(m) - {"core_clock_note", "tsc_hz_end"}, (sorted(i), sorted(m))
assert "tsc_hz_end" in m and "tsc_hz_end" not in i
assert all(i.get(k) == m.get(k) for k in same), [(k, i.get(k), m.get(k)) for k in same if i.get(k) != m.get(k)]
PY2
# Where neither cpufreq nor CPUID leaf 0x16 gives this CPU's maximum (a KVM guest), its architecture
# config's max_ghz bounds the clock, named with its file; with none of the three, 7 GHz.
check "machine.json's clock bound is cpufreq's, CPUID's, else its config's max_ghz, else 7 GHz" \
	python3 - "$TMP/small/machine.json" <<'PY3'
import json, os, re, sys
m = json.load(open(sys.argv[1]))
b, path = m["clock"]["bounds"], m["config"]["path"]
text = open(path).read() if os.path.isfile(path) else ""
given = re.search(r"^max_ghz = ([0-9.]+)$", text, re.M)
print("# %s" % b)
if not b["max_source"].startswith(("cpuinfo_max_freq", "CPUID leaf 0x16")):
    if given:
        assert b["max_ghz"] == float(given.group(1)), (b, path)
        assert b["max_source"].startswith(os.path.basename(path) + " max_ghz"), (b, path)
    else:
        assert b["max_ghz"] == 7.0, (b, path)
PY3
# machine.json's config.ports are its config's [arch] L1 ports, each only where the file gives it ({} for a
# file without them, generic.ini), so that the analysis judges a point too fast by what the run did.
check "machine.json's config.ports are its config's L1 ports, each where given" \
	python3 - "$TMP/small/machine.json" <<'PY4'
import json, os, re, sys
m = json.load(open(sys.argv[1]))
path, ports = m["config"]["path"], m["config"]["ports"]
text = open(path).read() if os.path.isfile(path) else ""
keys = "load_bytes_per_cycle|store_bytes_per_cycle|loads_per_cycle|stores_per_cycle"
given = {k: float(v) for k, v in re.findall(r"^(%s) = ([0-9.]+)$" % keys, text, re.M)}
print("# %s: %s" % (os.path.basename(path), ports))
assert ports == given, (ports, given)
PY4
# ... and `info` says them as the config gives them (this machine's config; generic.ini gives none).
"$PMUCHECK" info >"$TMP/info.txt" 2>&1
check "info says the config's L1 ports" python3 - "$TMP/small/machine.json" "$TMP/info.txt" <<'PY5'
import json, re, sys
ports = json.load(open(sys.argv[1]))["config"]["ports"]
line = next(l for l in open(sys.argv[2]) if l.startswith("L1 ports"))
print("# " + line.strip())
if not ports:
    assert "not given" in line, line
for key, words in (("load_bytes_per_cycle", "bytes? loaded"), ("store_bytes_per_cycle", "bytes? stored"),
                   ("loads_per_cycle", "loads?"), ("stores_per_cycle", "stores?")):
    if key in ports:
        assert re.search(r"\b%g %s\b" % (ports[key], words), line), (key, line)
PY5
# A run records its config's ports, and its analysis judges the points' clocks by them: with a core said to
# load half a byte a cycle, this machine's L1 load point is past them even at its bound, so it keeps its time
# and counts, clean, without a figure in cycles; its store point, whose ports the file leaves out, keeps its
# clock. The run itself flags nothing for them (raw.csv: no too-fast).
sed 's/^prefetch = listed$/&\nload_bytes_per_cycle = 0.5/' "$TOP/configs/generic.ini" >"$TMP/half.ini"
"$PMUCHECK" run --config "$TMP/half.ini" --kernels load.gpr,store.gpr --sizes 16k --threads 1 \
	--reported-levels --min-time 1 --reps 3 --events page-faults "${ONE_STATE[@]}" --no-progress \
	--out "$TMP/half" >/dev/null 2>&1
"$PMUCHECK" analyze -q "$TMP/half" >/dev/null 2>&1
check "machine.json's config.ports are the config's" python3 -c 'import json, sys
ports = json.load(open(sys.argv[1]))["config"]["ports"]
assert ports == {"load_bytes_per_cycle": 0.5}, ports' "$TMP/half/machine.json"
check "raw.csv flags no point too-fast for the ports" \
	bash -c '! grep -q "too-fast" "$1"' _ "$TMP/half/raw.csv"
# without any clock (every add-chain sample rejected, on a machine too busy for one) nothing is judged
if ! python3 -c 'import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1] + "/raw.csv")) if r["kernel"] == "load"]
sys.exit(0 if any(r["core_ghz"] for r in rows) or json.load(open(sys.argv[1] + "/machine.json"))["clock"][
    "core_ghz"] else 1)' "$TMP/half"; then
	skip "the analysis leaves out the L1 read's bytes per cycle past the config's ports" \
		"no core clock measured"
else
	check "the analysis leaves out the L1 read's bytes per cycle past the config's ports, not L1 write's" \
		python3 - "$TMP/half/peaks.csv" <<'PY6'
import csv, sys
rows = {r["access"]: r for r in csv.DictReader(open(sys.argv[1])) if r["level"] == "L1"}
print("# read: %s | write: %s" % (rows["read"]["quality"], rows["write"]["bytes_per_cycle_1_core"]))
assert rows["read"]["gbps_1_core"] and not rows["read"]["bytes_per_cycle_1_core"], rows["read"]
assert "past the core's L1 ports at their clock" in rows["read"]["quality"], rows["read"]["quality"]
assert rows["write"]["bytes_per_cycle_1_core"], rows["write"]
PY6
fi
# 2 kernels x 2 sizes x 3 repetitions x 1 event: 12 rows plus the header.
check "raw.csv has one row per kernel x size x repetition x event" test "$(wc -l <"$TMP/small/raw.csv")" -eq 13
check "raw.csv rows have as many fields as the header" python3 - "$TMP/small" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1] + "/raw.csv")))
assert all(len(r) == len(rows[0]) for r in rows), "ragged rows"
h = rows[0]
tsc_hz = json.load(open(sys.argv[1] + "/machine.json"))["clock"]["tsc_hz"]
for r in rows[1:]:
    d = dict(zip(h, r))
    # both calls took time, and the row's time is their difference: true however busy the machine
    # (the difference itself may come out negative on a busy one, and is flagged noisy then)
    lo, hi = int(d["tsc_lo"]), int(d["tsc_hi"])
    assert lo > 0 and hi > 0 and int(d["tsc"]) == hi - lo, d
    assert abs(float(d["seconds"]) * tsc_hz - (hi - lo)) <= 1e-6 * max(hi, lo), d
    # the differenced call's loads are the descriptor's: bytes/width loads per pass
    if d["variant"] == "load.gpr":
        assert int(d["v_loads"]) == int(d["bytes"]) // 8 * int(d["reps"]), d
    if d["variant"] == "chase.plain":
        # a pass over 16 or 64 KiB lasts far less than 1 ms: each call covers the whole buffer
        assert int(d["span"]) == int(d["bytes"]), d
        assert int(d["v_chase_accesses"]) == int(d["bytes"]) // 64 * int(d["reps"]), d
PY
check "run prints a summary with a latency" grep -q "latency" "$TMP/out"

# A chase whose pass outlasts --min-time (a million dependent loads take 1 ms or more anywhere): each call
# covers a part of the buffer, whole granules, going on where the last stopped, and its volumes are the
# part's; the analysis reads it.
if "$PMUCHECK" run --kernels chase.plain --sizes 64M --threads 1 --reps 3 --min-time 1 --reported-levels \
	--no-progress "${ONE_STATE[@]}" --out "$TMP/part" >"$TMP/out" 2>&1 && "$PMUCHECK" analyze -q "$TMP/part" >>"$TMP/out" 2>&1; then
	check "a chase whose pass outlasts --min-time calls over a part of its buffer, with that part's volumes" \
		python3 - "$TMP/part/raw.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows
for d in rows:
    span, size, reps = int(d["span"]), int(d["bytes"]), int(d["reps"])
    assert size == 64 << 20 and 0 < span < size and span % 1024 == 0, d
    assert int(d["v_chase_accesses"]) == span // 64 * reps == int(d["v_lines_read"]), d
PY
	# the writers' members, each named in docs/results-format.md (a config's hypotheses are keyed by event)
	check "docs/results-format.md names every member of machine.json" python3 "$TOP/tests/tools/doc_fields.py" \
		"$TMP/part/machine.json" "$TOP/docs/results-format.md" machine.json "counters.experiments[].hypotheses"
	check "docs/results-format.md names every member of events.json" python3 "$TOP/tests/tools/doc_fields.py" \
		"$TMP/part/events.json" "$TOP/docs/results-format.md" events.json
else
	notok "a chase over 64 MiB runs and is analysed" "$(tail -3 "$TMP/out")"
fi

# --levels-from: the level sizes another run of this machine had (here the small run's, given the end of its
# last level a probe could have measured: 8, 4 or 2 x the reported size of the level below), so two runs plan
# the same points; refused, with nothing written, for a directory that holds no run, another machine's run, a
# level longer than reported (no probe measures one), or beside --reported-levels. The reported sizes are
# hwloc's of this machine (a run from another is refused), so the level is the last one over twice the one
# below (Zen 3: the L3, 4 MiB of 32; Alder Lake-N: L2 2 MiB, L3 6 MiB; a machine without an L3: the L2).
cp -r "$TMP/small" "$TMP/first"
read -r lvl lsize < <(python3 - "$TMP/first/machine.json" "$TMP/other.json" "$TMP/longer.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
rep = m["levels"]["reported"]
pick = None
for n in range(len(rep), 1, -1):
    below, here = rep.get("L%d" % (n - 1), 0), rep.get("L%d" % n, 0)
    pick = next(("L%d %d" % (n, k * below) for k in (8, 4, 2) if 0 < k * below < here), None)
    if pick:
        break
m["levels"]["reported"]["L1"] += 1024
json.dump(m, open(sys.argv[2], "w"))
m["levels"]["reported"]["L1"] -= 1024
m["levels"]["measured"] = {"L2": 2 * m["levels"]["reported"]["L2"]}
json.dump(m, open(sys.argv[3], "w"))
if pick:
    m["levels"]["measured"] = {pick.split()[0]: int(pick.split()[1])}
    json.dump(m, open(sys.argv[1], "w"))
print(pick or "- reported levels with none over twice the one below: %s" % json.dumps(rep))
PY
)
mkdir "$TMP/other" "$TMP/longer" && cp "$TMP/other.json" "$TMP/other/machine.json" &&
	cp "$TMP/longer.json" "$TMP/longer/machine.json"
rejects "run --levels-from refuses a directory without a run" "--levels-from: $TMP/nosuch/machine.json" "" \
	--kernels load.gpr --levels-from "$TMP/nosuch"
rejects "run --levels-from refuses another machine's run" "its level sizes are not this machine's" "" \
	--kernels load.gpr --levels-from "$TMP/other"
rejects "run --levels-from refuses a level measured longer than reported" "more than the" "" \
	--kernels load.gpr --levels-from "$TMP/longer"
rejects "run --levels-from refuses it beside --reported-levels" "both set the level sizes" "" \
	--kernels load.gpr --levels-from "$TMP/first" --reported-levels
"$PMUCHECK" run --quick --dry-run --kernels load.gpr --threads 1 --levels-from "$TMP/first" >"$TMP/plan" 2>&1
if [ "$lvl" = - ]; then
	skip "--levels-from plans a level's point inside the size that run had" "$lsize"
else
	check "--levels-from plans the $lvl point inside the $lvl that run had (--quick: at half of it)" \
		grep -q " $((lsize / 2)) B/array  $lvl " "$TMP/plan"
fi
# A stream of --sizes that the plan calls DRAM below the sweep's smallest DRAM point (4x an LLC of 32 MiB
# at least, and of the reported one up to 128 MiB: 128 MiB or more) is said, with one of them; above it, or
# a chase, whose DRAM the level probe found with its own loads, is not.
"$PMUCHECK" run --dry-run --kernels load.gpr,chase.plain --threads 1 --sizes 64M,1G --levels-from "$TMP/first" \
	>/dev/null 2>"$TMP/short.err"
check "run --sizes: a stream's DRAM point below the sweep's smallest is said, its chase and 1G are not" \
	grep -q "^pmucheck run: 1 point of --sizes that the plan calls DRAM lies below the smallest DRAM point the sweep would give its kernel (load.gpr at 64 MiB a thread with 1 thread: from [0-9]* MiB" "$TMP/short.err"
"$PMUCHECK" run --dry-run --kernels load.gpr --threads 1 --sizes 1G --levels-from "$TMP/first" >/dev/null \
	2>"$TMP/long.err"
check "run --sizes 1G: nothing said" bash -c "! grep -q 'calls DRAM' '$TMP/long.err'"
if [ "$lvl" = - ]; then
	skip "a run --levels-from records those sizes and whose they were, and says so" "$lsize"
elif "$PMUCHECK" run --levels-from "$TMP/first" --kernels load.gpr --sizes 16k --threads 1 --reps 3 --no-progress \
	"${ONE_STATE[@]}" --out "$TMP/second" >"$TMP/out" 2>&1; then
	check "a run --levels-from records those sizes and whose they were, and says so" python3 - "$TMP" "$lvl" \
		"$lsize" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/second/machine.json"))["levels"]
assert m["measured"] == {sys.argv[2]: int(sys.argv[3])}, m["measured"]
assert m["from"] == sys.argv[1] + "/first", m.get("from")
assert "levels as the run in %s/first had them" % sys.argv[1] in open(sys.argv[1] + "/out").read()
PY
else
	notok "a run --levels-from runs" "$(tail -3 "$TMP/out")"
fi

# A budget too small for the plan: every planned point is still written, each with at least one repetition
# and its mark ('' settled, 'noisy' stopped by its share); the run is never cut short.
if "$PMUCHECK" run --kernels load.sse --sizes 16k,4M --reported-levels --time-budget 1 --no-progress \
	"${ONE_STATE[@]}" --out "$TMP/tiny" >"$TMP/out" 2>&1; then
	check "a run over its time budget writes every planned point, each with a repetition and a mark" \
		python3 - "$TMP/tiny/raw.csv" <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
reps, cells = collections.defaultdict(set), collections.defaultdict(set)
for r in rows:
    assert r["flag"] in ("", "noisy"), r["flag"]
    reps[r["point"]].add(r["rep"])
    cells[r["prefetch"]].add((r["point"], r["bytes"], r["threads"]))
# both sizes at 1 and at all threads (one count on a 1-CPU machine), in every prefetch state it allowed
n = 2 * len({r["threads"] for r in rows})
assert all(len({c[1:] for c in v}) == len(v) == n for v in cells.values()), cells
assert sorted(map(int, reps)) == list(range(len(reps))), sorted(reps)
assert all(len(v) >= 1 for v in reps.values()), reps
PY
else
	notok "a run over its time budget" "exit $?"; sed 's/^/#   /' "$TMP/out"
fi

# The analysis takes a point's time as the run does: min(tsc_hi) - min(tsc_lo) over its repetitions, or
# min(tsc_lo) where shorter (common/stats.h), a noisy point's the bound min(min(tsc_lo), min(tsc_hi) / 2), so
# peaks.csv's best one-thread L1 read is recomputed here from raw.csv (at least 3 repetitions per point, where
# a median of the differences would give another figure). A point is noisy where raw.csv flags it, or where
# the speed probe read below 0.8 of what the run judged against once it ended (machine.json speed_probe:
# point_gbps, judged_against_gbps), as the analysis judges it.
if "$PMUCHECK" run --kernels load.sse --sizes 16k --threads 1 --reported-levels --no-progress \
	"${ONE_STATE[@]}" --out "$TMP/est" >"$TMP/out" 2>&1 && "$PMUCHECK" analyze --quiet "$TMP/est" >>"$TMP/out" 2>&1; then
	check "peaks.csv L1 read (1 core) is min(2R) - min(R), or min(R), of raw.csv's calls, a noisy point's bound" \
		python3 - "$TMP/est/raw.csv" "$TMP/est/peaks.csv" "$TMP/est/machine.json" <<'PY'
import csv, json, sys, collections
speed = json.load(open(sys.argv[3]))["disturbance"]["speed_probe"]
def slow(point):
    g = speed["point_gbps"][int(point)]
    return g is not None and g < 0.8 * speed["judged_against_gbps"]
pts = collections.defaultdict(lambda: {"lo": [], "hi": []})
for r in csv.DictReader(open(sys.argv[1])):
    if r["group"] != "0" or r["threads"] != "1" or r["level"] != "L1":
        continue
    p = pts[r["point"]]
    p["lo"].append(int(r["tsc_lo"])); p["hi"].append(int(r["tsc_hi"]))
    p["sec_per_tick"] = float(r["seconds"]) / int(r["tsc"])
    p["bytes"] = int(r["v_bytes_loaded"]) + int(r["v_bytes_stored"])
    p["noisy"] = r["flag"] == "noisy" or slow(r["point"])
def gbps(p):
    lo, hi = min(p["lo"]), min(p["hi"])
    ticks = min(lo, hi / 2) if p["noisy"] else min(hi - lo, lo)  # by repetitions (load.sse), not touch
    return p["bytes"] / (ticks * p["sec_per_tick"]) / 1e9
best = max(gbps(p) for p in pts.values())
peak = [r for r in csv.DictReader(open(sys.argv[2])) if r["level"] == "L1" and r["access"] == "read"][0]
assert all(len(p["lo"]) >= 3 for p in pts.values()), pts
assert abs(float(peak["gbps_1_core"]) / best - 1) < 1e-3, (peak["gbps_1_core"], best)
PY
else
	notok "run and analyze of load.sse 16k" "$(cat "$TMP/out")"
fi

# A touch point's time stays the difference of its 2N and N calls (common/stats.h, by_size): twice the fresh
# memory can take more than twice the page faults' time, which is no stretched call, so the N call does not
# stand in. The page-fault rate the analysis gives is the median count over min(2N) - min(N).
if "$PMUCHECK" run --kernels touch --sizes 1m,2m,4m --threads 1 --reported-levels --reps 3 --events page-faults \
	--no-progress "${ONE_STATE[@]}" --out "$TMP/touch" >"$TMP/out" 2>&1 &&
	"$PMUCHECK" analyze --quiet "$TMP/touch" >>"$TMP/out" 2>&1; then
	check "events.csv's page-fault rate of touch is over min(2N call) - min(N call) of raw.csv" \
		python3 - "$TMP/touch/raw.csv" "$TMP/touch/events.csv" <<'PY'
import csv, statistics, sys, collections
pts = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    if r["event"] == "page-faults" and r["group"] == "0":
        pts[r["point"]].append(r)
def rate(rows):
    assert all(r["diff"] == "size" for r in rows), rows[0]["diff"]
    lo, hi = min(int(r["tsc_lo"]) for r in rows), min(int(r["tsc_hi"]) for r in rows)
    sec_per_tick = float(rows[0]["seconds"]) / int(rows[0]["tsc"])
    return statistics.median(int(r["count"]) for r in rows) / ((hi - lo) * sec_per_tick)
want = max(rate(rows) for rows in pts.values())
ev = next(r for r in csv.DictReader(open(sys.argv[2])) if r["event"] == "page-faults")
assert len(pts) == 3 and abs(float(ev["max_events_per_s"]) / want - 1) < 1e-3, (ev["max_events_per_s"], want)
PY
else
	notok "run and analyze of touch 1m,2m,4m" "$(cat "$TMP/out")"
fi

# A run stays on the CPUs it was started on (taskset, numactl, a batch system's binding): started on the last
# CPU alone, its threads all run there, and a --cpus outside that affinity is refused naming it.
last=$(($(nproc --all) - 1))
if [ "$last" -lt 1 ]; then
	skip "a run stays within the CPU affinity it was started with" "one CPU: no affinity leaves one out"
elif ! taskset -c "$last" true 2>/dev/null; then
	skip "a run stays within the CPU affinity it was started with" "CPU $last is not ours to pin to (taskset failed)"
else
	if taskset -c "$last" "$PMUCHECK" run --kernels load.gpr --sizes 16k --reps 3 --reported-levels \
		--no-progress "${ONE_STATE[@]}" --out "$TMP/bound" >"$TMP/out" 2>&1; then
		check "started on CPU $last alone, every row ran on it and machine.json says the affinity left the others out" \
			python3 -c '
import csv, json, sys
last, d = sys.argv[1], sys.argv[2]
cpus = {r["cpus"] for r in csv.DictReader(open(d + "/raw.csv"))}
assert cpus == {last}, "rows ran on %s" % cpus
t = json.load(open(d + "/machine.json"))["topology"]
assert t["usable_cpus"] == last and t["affinity_bound"] is True, t
' "$last" "$TMP/bound"
	else
		notok "a run started on CPU $last alone" "$(tail -3 "$TMP/out")"
	fi
	taskset -c "$last" "$PMUCHECK" run --kernels load.gpr --sizes 16k --cpus 0 --out "$TMP/outside" >"$TMP/out" 2>&1
	rc=$?
	check "started on CPU $last alone, --cpus 0 is refused (exit 2), naming the affinity, nothing written" \
		bash -c "[ $rc -eq 2 ] && grep -q -- '--cpus: CPU 0 is outside the CPU affinity pmucheck was started with (usable CPUs: $last;' '$TMP/out' && [ ! -e '$TMP/outside' ]"
	# OMP_PROC_BIND has libgomp bind the initial thread to its first place before main: the run still has
	# every CPU it was started on (this suite's own, which make test under taskset narrows too)
	check "with OMP_PROC_BIND=true, all the CPUs started with are usable (libgomp's binding of the first thread is not the launcher's)" \
		python3 -c '
import json, os, subprocess, sys
pm, last = sys.argv[1], sys.argv[2]
def cpus(hwloc_list):
    out = set()
    for item in hwloc_list.split(","):
        lo, _, hi = item.partition("-")
        out |= set(range(int(lo), int(hi or lo) + 1))
    return out
def usable(*pre):
    out = subprocess.run([*pre, pm, "info", "--json"], capture_output=True, text=True,
                         env=dict(os.environ, OMP_PROC_BIND="true")).stdout
    t = json.loads(out)["topology"]
    return cpus(t["usable_cpus"]), t["affinity_bound"]
ours = os.sched_getaffinity(0)
whole = usable()
bound = usable("taskset", "-c", last)
print("# started on %s with OMP_PROC_BIND=true: usable %s; under taskset -c %s: %s" % (sorted(ours), whole, last, bound))
assert whole[0] == ours and (len(ours) < os.cpu_count() or whole[1] is False), whole
assert bound == ({int(last)}, True), bound
' "$PMUCHECK" "$last"
	# prefetch pins nothing: it reads and writes CPU 0's MSR file from CPU $last (here a fake one)
	(
		. "$(dirname "$0")/../pf_fake.sh"
		make_fake "$TMP/msr" AuthenticAMD:0x1a:0x02 0xc0000108 $((last + 1))
		check "started on CPU $last alone, prefetch status --cpus 0 reads CPU 0's MSR" \
			bash -c "taskset -c $last '$PMUCHECK' prefetch status --cpus 0 | grep -q '^0 '"
	)
fi

# pmucheck without a command (all): run, analyze and report the new directory, and a summary whose figures
# are those of the files it wrote.
A=$TMP/all
if "$PMUCHECK" --quick --kernels touch --threads 1 --sizes 64k --reported-levels --time-budget 2 --no-progress \
	"${ONE_STATE[@]}" -o "$A" >"$TMP/all.out" 2>&1; then
	ok "pmucheck without a command runs, analyzes and reports"
	for f in raw.csv machine.json events.md peaks.md report.html report.md; do
		check "... writing $f" test -s "$A/$f"
	done
	check "... its summary counts the events of events.csv and the rows of raw.csv" grep -qx \
		"events: $(($(wc -l <"$A/events.csv") - 1)) in $(($(wc -l <"$A/raw.csv") - 1)) raw rows over 1 points: .*" \
		"$TMP/all.out"
	check "... and the figures in plots/ (each a PNG, an SVG and its gnuplot script)" grep -q \
		"report\.html (report\.md, $(find "$A/plots" -name '*.png' | wc -l) figures in plots/)" "$TMP/all.out"
else
	notok "pmucheck without a command runs, analyzes and reports" "$(tail -5 "$TMP/all.out")"
fi
expect_status "pmucheck all --resume: refused" 2 "$PMUCHECK" all --resume "$A"
cp "$TMP/check.out" "$TMP/all-resume.out"
check "... pointing to run --resume" grep -q "use 'pmucheck run --resume DIR'" "$TMP/all-resume.out"
expect_status "pmucheck all --help exits 0" 0 "$PMUCHECK" all --help

# A team smaller than asked (OMP_THREAD_LIMIT) is no run of its threads (the missing thread's readings were
# zeroed, status ok and a count of 0): a limit below the widest point's threads is refused before anything
# is written, where the run failed at that point, half a --quick run in, and its --resume could never end.
if [ "$(two_threads)" = 1,2 ]; then
	expect_status "a two-thread point under OMP_THREAD_LIMIT=1 is refused" 2 env OMP_THREAD_LIMIT=1 "$PMUCHECK" run \
		--kernels load.sse --sizes 16k --threads 1,2 --reported-levels --no-progress "${ONE_STATE[@]}" --out "$TMP/omp1"
	cp "$TMP/check.out" "$TMP/omp1.out"
	check "... saying OpenMP's limit is below the widest point's threads, writing nothing" bash -c \
		'grep -q "OpenMP may run 1 threads (OMP_THREAD_LIMIT), and the widest point has 2" "$1" && [ ! -e "$2" ]' \
		_ "$TMP/omp1.out" "$TMP/omp1"
else
	skip "a two-thread point under OMP_THREAD_LIMIT=1 is refused" "this machine plans one thread"
fi
