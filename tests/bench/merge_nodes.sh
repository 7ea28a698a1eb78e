#!/bin/bash
# merge_nodes.sh — `pmucheck merge` of 1000 results directories in well under a minute, with memory that
# grows with the nodes (a few figures each), never with the rows of their files. The directories are one
# synthetic default-sized run (tests/tools/rawgen, analysed once; raw.csv hard-linked into every copy)
# with each node's host and figures jittered by up to 5 %. A speed on a shared machine: a benchmark.
. "$(dirname "$0")/../lib.sh"
RAWGEN=$TOP/${BUILD:-build}/tests/tools/rawgen
LIMIT_S=30
LIMIT_MIB=64

if [ ! -x "$RAWGEN" ]; then
	skip "merge of 1000 directories" "$RAWGEN not built (make bench builds it)"
	exit 0
fi
B=$TMP/base
mkdir -p "$B"
"$RAWGEN" "$B" >/dev/null && "$PMUCHECK" analyze --quiet "$B" || { notok "a synthetic run is analysed"; exit 0; }
make_nodes() { # N: directories n0001.. under $TMP/nodes-N
	local d=$TMP/nodes-$1 i
	mkdir -p "$d"
	for i in $(seq -w 1 "$1"); do
		mkdir "$d/n$i"
		ln "$B/raw.csv" "$d/n$i/raw.csv"
		cp "$B/events.json" "$d/n$i/"
		sed "s/\"host\": \"[^\"]*\"/\"host\": \"n$i\"/" "$B/machine.json" >"$d/n$i/machine.json"
	done
	# one awk for all nodes: each node's figures times its own factor in [0.95, 1.05]
	awk -F, -v OFS=, -v dir="$d" -v n="$1" 'BEGIN { srand(1)
		while ((getline l < ARGV[1]) > 0) rows[++nr] = l
		for (i = 1; i <= n; i++) { f = 0.95 + 0.1 * rand(); out = sprintf("%s/n%0*d/peaks.csv", dir, length(n), i)
			print rows[1] > out
			for (r = 2; r <= nr; r++) { k = split(rows[r], c, ","); c[3] = c[3] == "" ? "" : c[3] * f
				c[6] = c[6] == "" ? "" : c[6] / f; s = c[1]; for (j = 2; j <= k; j++) s = s OFS c[j]; print s > out }
			close(out) } exit }' "$B/peaks.csv"
}
measure() { # N: prints "seconds max_rss_kib"
	python3 - "$PMUCHECK" "$TMP/out-$1" "$TMP/nodes-$1" <<'PY'
import glob, resource, subprocess, sys, time
dirs = sorted(glob.glob(sys.argv[3] + "/n*"))
t = time.monotonic()
r = subprocess.run([sys.argv[1], "merge", "--quiet", "-o", sys.argv[2]] + dirs)
dt = time.monotonic() - t
print(f"{dt:.2f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} {r.returncode}")
PY
}
for n in 100 1000; do
	make_nodes $n
	read -r s kib rc < <(measure $n)
	rows=$(($(wc -l <"$B/raw.csv") - 1))
	echo "# $n directories ($rows raw rows and $(grep -c '"event":' "$B/events.json") events each): merged in $s s, peak RSS $((kib / 1024)) MiB, exit $rc"
	eval "s_$n=$s kib_$n=$kib rc_$n=$rc"
done
echo "# memory per added node: $(((kib_1000 - kib_100) / 900)) KiB"
name="1000 directories merged in under $LIMIT_S s and $LIMIT_MIB MiB"
if [ "$rc_1000" -eq 0 ] && awk -v s="$s_1000" -v l=$LIMIT_S 'BEGIN { exit !(s < l) }' &&
	[ "$kib_1000" -lt $((LIMIT_MIB * 1024)) ]; then
	ok "$name"
else
	notok "$name" "exit $rc_1000, $s_1000 s, $((kib_1000 / 1024)) MiB"
fi
