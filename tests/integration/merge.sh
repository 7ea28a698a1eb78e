#!/bin/bash
# merge.sh — `pmucheck merge` without Slurm: four nodes made from one real --quick run of this machine
# (copied, host renamed), one with its figures perturbed, one with other microcode, one whose event
# verdict differs, a node of another CPU model; and every kind of directory merge must refuse by name
# (malformed, foreign, another format, not analysed, interrupted) while it merges the rest.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/merge_fake.sh"

R=$TMP/run
"$PMUCHECK" run --quick -k load.sse,chase.plain --time-budget 5 --sizes 16k,256k --threads 1 \
	--reported-levels --no-progress "${ONE_STATE[@]}" -o "$R" >"$TMP/run.out" 2>&1 && "$PMUCHECK" analyze --quiet "$R"
check "a short run of this machine is analysed" test -s "$R/peaks.csv" -a -s "$R/events.json"
# The outlier rule is judged on figures set below; a noisy one (a busy machine's) would be left out of it.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 { $c["quality"] = "ok" } 1' \
	"$R/peaks.csv" >"$TMP/p" && mv "$TMP/p" "$R/peaks.csv"

for n in a b c d e; do node $n; done
# c: a tenth of the bandwidth, ten times the latency (a node with a broken DIMM, say)
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ if ($c["gbps_1_core"] != "") $c["gbps_1_core"] /= 10
	  if ($c["latency_ns"] != "") $c["latency_ns"] *= 10; print }' "$R/peaks.csv" >"$TMP/c/peaks.csv"
sed -i 's/"microcode": "[^"]*"/"microcode": "0xdead"/' "$TMP/d/machine.json"
set_class d page-faults approximate
sed -i 's/"model_name": "[^"]*"/"model_name": "Other CPU"/' "$TMP/e/machine.json"

# what must be refused, each for its own reason
mkdir -p "$TMP/bad/foreign" "$TMP/bad/empty"
echo '{ "results": [] }' >"$TMP/bad/foreign/machine.json"
cp -r "$R" "$TMP/bad/malformed" && echo '{ "format": 1, "events": [' >"$TMP/bad/malformed/events.json"
# a key given twice: which of the two a reader takes is jansson's choice, not the file's
cp -r "$R" "$TMP/bad/twice" && sed -i '0,/{/s/{/{ "format": 1,/' "$TMP/bad/twice/events.json"
cp -r "$R" "$TMP/bad/future" && sed -i 's/"format": 1/"format": 9/' "$TMP/bad/future/machine.json"
cp -r "$R" "$TMP/bad/unanalysed" && rm "$TMP/bad/unanalysed/peaks.csv"
cp -r "$R" "$TMP/bad/partial" && touch "$TMP/bad/partial/PARTIAL"
cp -r "$R" "$TMP/bad/oldpeaks" && sed -i '1s/latency_ns/lat/' "$TMP/bad/oldpeaks/peaks.csv"
# a newer pmucheck's verdict class, an events.json without its list, a machine.json without its host, a
# peaks.csv without the columns a figure is keyed by or without any line: each refused, naming the file
cp -r "$R" "$TMP/bad/newclass" && set_class bad/newclass page-faults "exact since 9"
cp -r "$R" "$TMP/bad/noevents" && echo '{ "format": 1 }' >"$TMP/bad/noevents/events.json"
# an event listed twice (the analysis lists each once): the node's verdict was the later entry's, unsaid
cp -r "$R" "$TMP/bad/evtwice" && python3 - "$TMP/bad/evtwice/events.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["events"].append(dict(j["events"][0], **{"class": "exact"}))
json.dump(j, open(sys.argv[1], "w"))
PY
cp -r "$R" "$TMP/bad/nohost" && sed -i 's/"host": "[^"]*"/"host": ""/' "$TMP/bad/nohost/machine.json"
cp -r "$R" "$TMP/bad/nolevel" && sed -i '1s/level/lvl/' "$TMP/bad/nolevel/peaks.csv"
cp -r "$R" "$TMP/bad/nopeaks" && : >"$TMP/bad/nopeaks/peaks.csv"
# a figure no analysis writes (an overflow, C's hex): a bare inf went into merge.json, which is then no JSON
for f in inf:1e400 hex:0x10; do
	cp -r "$R" "$TMP/bad/${f%%:*}peaks" && awk -F, -v OFS=, -v v="${f#*:}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["latency_ns"] != "" && !done { $c["latency_ns"] = v; done = 1 } 1' \
		"$R/peaks.csv" >"$TMP/bad/${f%%:*}peaks/peaks.csv"
done
# rows no analysis writes, each refused by its line: a row cut short (its quality was read as clean), a quote
# never closed (the row vanished), a file cut within its last line, a NUL byte, no such level, a row twice
cp -r "$R" "$TMP/bad/cutpeaks" && sed -i '2s/^\(\([^,]*,\)\{4\}\).*/\1/' "$TMP/bad/cutpeaks/peaks.csv"
cp -r "$R" "$TMP/bad/quotepeaks" && sed -i '3s/^/"/' "$TMP/bad/quotepeaks/peaks.csv"
cp -r "$R" "$TMP/bad/eolpeaks" && head -c -1 "$R/peaks.csv" >"$TMP/bad/eolpeaks/peaks.csv"
cp -r "$R" "$TMP/bad/nulpeaks" && sed -i '2s/^\([^,]*\),/\1\x00,/' "$TMP/bad/nulpeaks/peaks.csv"
cp -r "$R" "$TMP/bad/levelpeaks" && sed -i '2s/^[^,]*,/L7,/' "$TMP/bad/levelpeaks/peaks.csv"
cp -r "$R" "$TMP/bad/twicepeaks" && sed -n 2p "$R/peaks.csv" >>"$TMP/bad/twicepeaks/peaks.csv"
# raw.csv grown since its analysis (a run resumed after it was analysed): the verdicts are not of its points
cp -r "$R" "$TMP/bad/resumed" && echo "0,0" >>"$TMP/bad/resumed/raw.csv"
# a plain file, read after unanalysed/ (whose refusal left errno ENOENT): not a directory, not a missing one
: >"$TMP/bad/zfile"

O=$TMP/out
expect_status "merge of good and bad directories succeeds" 0 "$PMUCHECK" merge -o "$O" "$TMP"/[abcde] "$TMP"/bad/*
cp "$TMP/check.out" "$TMP/merge.out"
check "... merging the five good ones" grep -q "merged 5 nodes (24 refused) of 2 node types" "$TMP/merge.out"
for b in foreign:"no \"format\"" empty:"no machine.json" \
	malformed:"events.json:[0-9]+:[0-9]+: ']' expected near end of file" \
	twice:"events.json:[0-9]+:[0-9]+: duplicate object key" \
	future:"format 9, this pmucheck reads format 1" unanalysed:"not analysed" partial:"interrupted run" \
	oldpeaks:"no column latency_ns" zfile:"not a directory" \
	newclass:"events.json: malformed: event [0-9]+ has no event name or no known class" \
	noevents:"events.json: malformed: no \"events\" list" \
	evtwice:"events.json: malformed: event [0-9]+, [^ ]+, again \(event 1\)" nohost:"machine.json: no pmucheck, host or cpu" \
	nolevel:"peaks.csv: malformed: no level and access columns" nopeaks:"peaks.csv: malformed: no header" \
	infpeaks:"peaks.csv: the L[0-9] latency row, column latency_ns: '1e400' is no figure" \
	hexpeaks:"peaks.csv: the L[0-9] latency row, column latency_ns: '0x10' is no figure" \
	cutpeaks:"peaks.csv line 2: 5 fields, the header has [0-9]+" \
	quotepeaks:"peaks.csv line 3: a quoted field never closed" \
	eolpeaks:"peaks.csv line [0-9]+: no line end \(the file was cut\)" \
	nulpeaks:"peaks.csv line 2: a NUL byte in the line" levelpeaks:"peaks.csv line 2: no level 'L7'" \
	twicepeaks:"peaks.csv line [0-9]+: the [^ ]+ [^ ]+ row again \(line 2\)" \
	resumed:"raw.csv: changed since it was analysed \([0-9]+ bytes then, [0-9]+ now"; do
	d=${b%%:*} why=${b#*:}
	check "refuses $d by name: $why" grep -Eq "refused $TMP/bad/$d[/:].*$why" "$TMP/merge.out"
	check "... and merge.md lists it" grep -q "\`$TMP/bad/$d\`" "$O/merge.md"
done
for f in merge.md report.html nodes.csv outliers.csv events.csv merge.json plots/type-1.png; do
	check "writes $f" test -s "$O/$f"
done
check "merge.json is JSON" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$O/merge.json"
# types[].nodes[].values is keyed by figure (data); every other member is a field the doc names.
check "docs/results-format.md names every member of merge.json" python3 "$TOP/tests/tools/doc_fields.py" \
	"$O/merge.json" "$TOP/docs/results-format.md" 'Merged results (`pmucheck merge -o OUT DIR...`)' 'types[].nodes[].values'
check "report.html inlines the figure" grep -q 'src="data:image/png;base64,' "$O/report.html"
check "the perturbed node c is an outlier, 90 % below its type's median" \
	grep -Eq '^1,c,.*GB/s 1 core [0-9.e+-]+, 90 % below' "$O/outliers.csv"
check "... and ten times above it in latency" grep -Eq '^1,c,.*latency ns [0-9.e+-]+, 900 % above' "$O/outliers.csv"
check "node d is an outlier by its microcode" grep -q '^1,d,.*microcode 0xdead' "$O/outliers.csv"
check "no other node of type 1 is an outlier" test -z "$(grep -E '^1,(a|b),' "$O/outliers.csv")"
check "the other CPU model is a type of its own" grep -q '^2,e,' "$O/nodes.csv"
check "page-faults: the verdict of 4 of 5 nodes (one architecture), d disagrees" \
	grep -q ',page-faults,[a-z ]*,4,5,d=approximate$' "$O/events.csv"
check "merge.md says which node disagrees" grep -q '| `page-faults` | [a-z ]* | 4 of 5 | d: approximate |' "$O/merge.md"

expect_status "merge of nothing readable is a usage error" 2 "$PMUCHECK" merge -o "$TMP/none" "$TMP"/bad/*
check "... and writes nothing" test ! -e "$TMP/none"
expect_status "merge without directories is a usage error" 2 "$PMUCHECK" merge -o "$TMP/none"

# merge writes a new directory, as run --out does: an existing -o (here an analysed results directory,
# whose events.csv merge's own would replace) is refused before anything is read or written.
cp "$TMP/a/events.csv" "$TMP/a-events.csv"
expect_status "merge into an existing directory is refused" 2 "$PMUCHECK" merge -o "$TMP/a" "$TMP"/[bcd]
cp "$TMP/check.out" "$TMP/exists.out"
check "... naming -o/--out" grep -qF -- "-o/--out $TMP/a: exists" "$TMP/exists.out"
check "... and leaves that directory's events.csv alone" cmp -s "$TMP/a/events.csv" "$TMP/a-events.csv"
expect_status "merge into a directory that cannot be made is a usage error" 2 \
	"$PMUCHECK" merge -o "$TMP/nowhere/out" "$TMP"/[bcd]
cp "$TMP/check.out" "$TMP/nowhere.out"
check "... naming -o" grep -qF -- "-o $TMP/nowhere/out: cannot create it: No such file or directory" \
	"$TMP/nowhere.out"
# Without -o: merge-<UTC time>, or -2, -3, ... when a merge of the same second made it. The seconds the merge
# is likely to start in are taken beforehand, so it must find a free name and leave the others empty; which
# name is decided by its own second, not by when it was expected to start: -2 where merge-<its second> was
# taken, merge-<its second> where it started past them (one that started 6 s late on a loaded machine finds
# its own second free, and a check that wanted -2 failed it).
mkdir "$TMP/cwd"
# One reading of the clock: a date call per second could step over a second between two of them and leave
# it free.
now=$(date +%s)
for s in 0 1 2 3 4 5; do mkdir -p "$TMP/cwd/merge-$(date -u -d "@$((now + s))" +%Y%m%dT%H%M%SZ)"; done
taken=$(ls "$TMP/cwd")
expect_status "merge without -o when merge-<UTC time> exists succeeds" 0 \
	bash -c 'cd "$1" && "$2" merge --quiet "${@:3}"' _ "$TMP/cwd" "$PMUCHECK" "$TMP"/[bcd]
check "... into a new directory: merge-<UTC time>-2 where merge-<UTC time> was taken, else merge-<UTC time>" \
	python3 - "$TMP/cwd" $taken <<'PY'
import os, re, sys
cwd, taken = sys.argv[1], set(sys.argv[2:])
new = sorted(set(os.listdir(cwd)) - taken)
assert len(new) == 1, "new directories: %s" % new
m = re.fullmatch(r"(merge-\d{8}T\d{6}Z)(-2)?", new[0])
assert m, "not merge-<UTC time> or merge-<UTC time>-2: %s" % new[0]
assert (m.group(1) in taken) == bool(m.group(2)), "%s, with %s taken" % (new[0], sorted(taken))
assert os.path.getsize(os.path.join(cwd, new[0], "merge.json")) > 0, new[0]
print("# into %s" % new[0])
PY
check "... leaving the existing ones empty" bash -c 'cd "$1" && shift && test -z "$(find "$@" -mindepth 1)"' _ \
	"$TMP/cwd" $taken
# The default name is claimed by making it: four merges started together each get one of their own (checked
# first and made at the end, one of two failed with "-o merge-...: File exists"); one with nothing to merge
# leaves none behind.
mkdir "$TMP/cwd4"
for i in 1 2 3 4; do (cd "$TMP/cwd4" && "$PMUCHECK" merge --quiet "$TMP/b" >"$TMP/par$i.out" 2>&1; echo $? >>"$TMP/par$i.out") & done
wait
check "four merges started together without -o all succeed" test "$(tail -qn1 "$TMP"/par[1-4].out | tr -d '\n')" = 0000
check "... each into a directory of its own" test "$(ls -d "$TMP"/cwd4/merge-*/merge.json | wc -l)" = 4
mkdir "$TMP/cwd0"
expect_status "a merge without -o of nothing mergeable is refused" 2 \
	bash -c 'cd "$1" && "$2" merge --quiet "$1/nosuch"' _ "$TMP/cwd0" "$PMUCHECK"
check "... leaving no merge directory" test -z "$(ls "$TMP/cwd0")"
# The same directory twice (DIR and DIR/) would count its node twice: refused by name, nothing written.
expect_status "a directory given twice is refused" 2 "$PMUCHECK" merge -o "$TMP/twice" "$TMP/a" "$TMP/b" "$TMP/a/"
cp "$TMP/check.out" "$TMP/twice.out"
check "... naming both" grep -qF "$TMP/a and $TMP/a/ are the same directory" "$TMP/twice.out"
check "... writing nothing" test ! -e "$TMP/twice"

# A node's machine.json and events.json are read in blocks: jansson's json_loadfd read them a byte per
# read(2), 54,000 system calls for this quick run's node, and 400 such nodes took 22 s to merge (README says
# 1000 take about 2 s). Counted with strace where it can trace.
bytes=$(cat "$TMP/a/machine.json" "$TMP/a/events.json" | wc -c)
if ! command -v strace >/dev/null; then
	skip "merge reads a node's JSON files in blocks" "strace not installed"
elif ! strace -f -qq -e trace=read -o "$TMP/strace.out" "$PMUCHECK" merge --quiet -o "$TMP/traced" "$TMP/a" \
	>/dev/null 2>&1; then
	skip "merge reads a node's JSON files in blocks" "strace cannot trace here (ptrace not permitted?)"
else
	reads=$(grep -c 'read(' "$TMP/strace.out")
	check "merge reads a node's JSON files in blocks (fewer read calls in all than 1 per 64 bytes)" \
		bash -c 'echo "# $1 read calls for $2 bytes of JSON"; test "$1" -lt $(($2 / 64))' _ "$reads" "$bytes"
fi

# Three runs of one host whose directories end alike (x/run, y/run, z/run): each node its own name, so no
# two rows of nodes.csv are one node.
for d in x y z; do mkdir -p "$TMP/same/$d" && cp -r "$TMP/a" "$TMP/same/$d/run"; done
expect_status "three runs of one host in directories that end alike merge" 0 \
	"$PMUCHECK" merge --quiet -o "$TMP/same.out" "$TMP"/same/[xyz]/run
check "... as three nodes of distinct names" python3 -c '
import csv, sys
names = sorted({r["node"] for r in csv.DictReader(open(sys.argv[1]))})  # a row per node and figure
print("# nodes: %s" % names)
sys.exit(0 if len(names) == 3 else 1)' "$TMP/same.out/nodes.csv"
# The same with names longer than a node's name holds (127 characters): x/LONG-2 was cut to x/LONG again, taken,
# and merge looked for a free name for ever.
long=$(printf 'r%.0s' {1..130})
for d in x y z; do mkdir -p "$TMP/long/$d" && cp -r "$TMP/a" "$TMP/long/$d/$long"; done
expect_status "three runs of one host in directories of 130-character names merge" 0 \
	timeout 60 "$PMUCHECK" merge --quiet -o "$TMP/long.out" "$TMP"/long/[xyz]/"$long"
check "... as three nodes of distinct names, each cut to 127 characters" python3 -c '
import csv, sys
names = sorted({r["node"] for r in csv.DictReader(open(sys.argv[1]))})
print("# nodes: %s" % [n[-8:] for n in names])
sys.exit(0 if len(names) == 3 and all(len(n) <= 127 for n in names) else 1)' "$TMP/long.out/nodes.csv"

# Two nodes of one type on two microcode versions: neither is the type's, so neither is the odd one out
# by the order given; both are listed, and merge.json has no common value.
expect_status "two nodes on two microcode versions merge" 0 "$PMUCHECK" merge --quiet -o "$TMP/split" "$TMP/d" "$TMP/a"
check "... both listed as the type split on microcode" test "$(grep -c "microcode [^;]*; its type.s nodes are split" "$TMP/split/outliers.csv")" -eq 2
check "... merge.json: no most common microcode" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["types"][0]
sys.exit(0 if t["facts"]["microcode"] is None else 1)' "$TMP/split/merge.json"

# A node built otherwise than its peers of the same CPU (16 GiB of memory gone with a DIMM; SMT switched on,
# twice the CPUs) is a node type of its own, of one node, where neither figures nor facts are compared: it
# was no outlier ("0 outlier nodes"). Each is now one by how its type differs from the type of more nodes of
# its CPU; a node of another CPU is a type of its own and no outlier for it.
# Its peers are a type of 3 nodes at least (of two nodes neither is the odd one), and a GiB of memory apart
# is rounding (MemTotal on both sides of a half GiB: kernels reserving a few MiB more), no DIMM gone.
node dimm && node smton && node f && node rounded
python3 - "$TMP/dimm/machine.json" "$TMP/smton/machine.json" "$TMP/rounded/machine.json" <<'PY'
import json, sys
for p, edit in zip(sys.argv[1:], ("memory", "smt", "rounding")):
    m = json.load(open(p))
    if edit == "memory":
        m["os"]["mem_total_kib"] -= 16 * 1024 * 1024
    elif edit == "rounding":
        m["os"]["mem_total_kib"] -= 1024 * 1024
    else:
        m["os"]["smt"], m["topology"]["pus"] = "on", 2 * m["topology"]["pus"]
    json.dump(m, open(p, "w"))
PY
expect_status "three nodes, one without a DIMM, one with SMT on, one a GiB short and one of another CPU merge" 0 \
	"$PMUCHECK" merge --quiet -o "$TMP/shape" "$TMP"/[abef] "$TMP/dimm" "$TMP/smton" "$TMP/rounded"
gib=$(python3 -c 'import json, sys; print((json.load(open(sys.argv[1]))["os"]["mem_total_kib"] + 512 * 1024) // 1024**2)' "$TMP/a/machine.json")
pus=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["topology"]["pus"])' "$TMP/a/machine.json")
check "... the node without a DIMM is an outlier, saying its memory and its peers'" grep -q \
	"^[0-9]*,dimm,.*,node type [0-9]* has $((gib - 16)) GiB of memory where type 1 (3 nodes of the same CPU) has $gib GiB of memory$" \
	"$TMP/shape/outliers.csv"
check "... the node with SMT on is one by its CPUs" grep -q \
	"^[0-9]*,smton,.*,node type [0-9]* has $((2 * pus)) CPUs where type 1 (3 nodes of the same CPU) has $pus CPUs$" \
	"$TMP/shape/outliers.csv"
check "... no other node is an outlier (another CPU's type is not built otherwise, a GiB short is rounding)" \
	test "$(tail -n +2 "$TMP/shape/outliers.csv" | cut -d, -f2 | sort | tr '\n' ' ')" = "dimm smton "

# Prefetcher MSRs compared over every CPU: three nodes of 128 CPUs whose prefetch.before lists all of them
# (a run with MSR access), one with CPU 100's prefetchers off. machine.json keeps them as 1.3 KiB of text,
# which was cut at 256 bytes, about CPU 30: the odd node compared equal.
for n in p1 p2 p3; do
	node $n
	python3 - "$TMP/$n/machine.json" "$n" <<'PY'
import json, sys
p, name = sys.argv[1:3]
m = json.load(open(p))
vals = ["0x0"] * 128
if name == "p3":
    vals[100] = "0xf"
m["prefetch"] = {"control": True, "before": ";".join("%d=%s" % (c, v) for c, v in enumerate(vals))}
json.dump(m, open(p, "w"))
PY
done
expect_status "three nodes with prefetcher MSRs on 128 CPUs merge" 0 "$PMUCHECK" merge --quiet -o "$TMP/pf" "$TMP"/p[123]
check "... the node with CPU 100's prefetchers off is an outlier by them" \
	grep -q '^1,p3,.*prefetcher MSRs 0x0 on 127 CPUs, 0xf on 1 CPU' "$TMP/pf/outliers.csv"
check "... and no other node" test -z "$(grep -E '^1,p[12],' "$TMP/pf/outliers.csv")"

# DRAM of a placement neither local nor remote has rows of its own, "DRAM node:1" (analysis/peak.h
# peak_group_name): merged as any level's, where "no such level" refused the node.
for n in q1 q2; do
	node $n
	sed -n 2p "$R/peaks.csv" | sed 's/^[^,]*,/DRAM node:1,/' >>"$TMP/$n/peaks.csv"
done
expect_status "two nodes with a DRAM node:1 row merge" 0 "$PMUCHECK" merge --quiet -o "$TMP/nodes" "$TMP"/q[12]
check "... its figures named by the placement" grep -q ',DRAM node:1 ' "$TMP/nodes/nodes.csv"

# A peaks.csv from before each placement's DRAM had rows of its own holds an "other DRAM" row: still merged.
for n in old1 old2; do
	cp -r "$R" "$TMP/$n" && sed -n '2s/^[^,]*,/other DRAM,/p' "$R/peaks.csv" >>"$TMP/$n/peaks.csv"
done
expect_status "merge of results with an older peaks.csv's 'other DRAM' row succeeds" 0 "$PMUCHECK" merge \
	-o "$TMP/oldout" "$TMP/old1" "$TMP/old2"
cp "$TMP/check.out" "$TMP/old.out"
check "... merging both" grep -q "merged 2 nodes" "$TMP/old.out"
