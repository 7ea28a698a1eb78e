#!/bin/bash
# bench-compare.sh — pmucheck's kernels against likwid-bench's on the same CPUs, threads and sizes.
# Prints, per level and thread count, both bandwidths (GB/s, 10^9 B/s, instruction-level bytes as
# likwid counts them: no write-allocate) and the ratio pmucheck / likwid. pmucheck's figure is the point's
# own, min(2R call) - min(R call) over its repetitions or min(R call) where shorter, or a noisy point's bound,
# as its analysis and summary take it, with the repetitions and calls a run has by default (it had 5 of 10
# ms until the default run's calls became 2 ms long, README). Each side is measured ROUNDS times (default
# 3), interleaved, and its best round kept: DRAM bandwidth in a VM wanders by several percent from one
# second to the next, and the best of a few rounds is what each tool can achieve. A round gives both sides
# the same measuring time: one likwid-bench run (its Time line, about 1-2 s), then pmucheck runs until
# their timed calls add up to as much, the best of them kept. A pmucheck point measures tens to hundreds of
# milliseconds, and a guest's two threads run in one of two modes for seconds at a time, by where the host
# puts the vCPUs (the non-temporal triads with 2 threads on a Zen 3 guest: about 60 or 80-120 GB/s): one
# run a round met the slow mode through all rounds where likwid-bench's longer run met part of the fast
# one (0.747-0.975 in four such cells with 6 rounds a side; README). The last two columns give each side's
# slowest and best round: where they overlap, a ratio below 1.00 is within what the machine moved between
# rounds (on the 2-vCPU development VM one tool's DRAM triad read 23.8 to 35.6 GB/s over six rounds).
# Usage: [ROUNDS=N] [LEVELS="L3:4000000 ..."] scripts/bench-compare.sh [KERNELS]   (default:
# every pair and level below)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PMUCHECK=${PMUCHECK:-$TOP/pmucheck}
command -v likwid-bench >/dev/null || { echo "likwid-bench is missing: apt-get install likwid" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# pmucheck variant : likwid-bench kernel (stream = a = b + s*c, the same 3-stream triad). likwid's `load`
# reads 8 bytes into xmm registers (movsd), as load.sd does, and its `store` writes them from xmm registers
# (movsd), as store.sd does; load.gpr and store.gpr (8 bytes to or from GPRs) are shown beside them (on Zen 3
# store.gpr writes L1 twice as fast: two stores a cycle from GPRs, one from xmm; store.S).
pairs="load.sd:load load.gpr:load load.sse:load_sse load.avx:load_avx load.avx512:load_avx512
store.sd:store store.gpr:store store.sse:store_sse store.avx:store_avx store.avx512:store_avx512
store.sse.nt:store_mem_sse store.avx.nt:store_mem_avx store.avx512.nt:store_mem_avx512
triad.sse:stream_sse triad.avx:stream_avx triad.avx512:stream_avx512
triad.sse.nt:stream_mem_sse triad.avx.nt:stream_mem_avx triad.avx512.nt:stream_mem_avx512"
want=${1:-}
# Working set per thread in bytes (decimal, as likwid's kB): inside L1, L2, L3 (the guest's usable part), DRAM.
levels=${LEVELS:-"L1:32000 L2:512000 L3:4000000 DRAM:256000000"}
threads="1 $(nproc)"
rounds=${ROUNDS:-3}

# One pmucheck run of kernel $1 at $2 bytes a thread with $3 threads; prints its point's GB/s and the
# seconds of its timed calls.
pm_once() {
	local rc
	"$PMUCHECK" run --kernels "$1" --sizes "$2" --threads "$3" --cpus "0-$(($3 - 1))" --reported-levels \
		--out "$tmp/r" --no-progress >/dev/null 2>&1 || { echo "pmucheck run failed" >&2; return 1; }
	python3 - "$tmp/r/raw.csv" <<'PY'
import csv, sys
# the point's own figure, as pmucheck's analysis takes it (analysis/agg.c settle_time, common/stats.h): min(2R
# call) - min(R call), or min(R call) where shorter; a point the run flagged noisy takes the bound of its
# shortest call, min(min(R call), min(2R call) / 2), which no disturbance shortens. The difference alone,
# where an R call was stretched and a 2R call was not, read 3738.8 GB/s for load.avx in L1 with 2 threads on
# the Zen 3 guest (at most 2 x 64 B per cycle at 3.24 GHz: 415 GB/s); the run flags such a point (too-fast).
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["group"] == "0"]
sec_per_tick = next(float(r["seconds"]) / int(r["tsc"]) for r in rows if int(r["tsc"]) != 0)
lo, hi = min(int(r["tsc_lo"]) for r in rows), min(int(r["tsc_hi"]) for r in rows)
t = min(lo, hi / 2) if rows[0]["flag"] else min(hi - lo, lo) if rows[0]["diff"] == "reps" else hi - lo
t *= sec_per_tick
r = rows[0]
calls = {x["rep"]: int(x["tsc_lo"]) + int(x["tsc_hi"]) for x in rows}
print("%.2f %.6f" % ((int(r["v_bytes_loaded"]) + int(r["v_bytes_stored"])) / t / 1e9 if t > 0 else 0,
                     sum(calls.values()) * sec_per_tick))
PY
	rc=$?
	rm -rf "$tmp/r"
	return $rc
}

printf '%-16s %-18s %-5s %3s %10s %10s %7s %15s %15s\n' pmucheck likwid level thr pmucheck likwid ratio \
	"pmucheck-rounds" "likwid-rounds"
for pair in $pairs; do
	ours=${pair%%:*} theirs=${pair##*:}
	[ -n "$want" ] && [[ ",$want," != *",$ours,"* ]] && continue
	# a variant whose instructions this CPU lacks (AVX-512 on Zen 3) is left out, and said so
	if ! why=$("$PMUCHECK" run --dry-run --kernels "$ours" --sizes 32000 --threads 1 --reported-levels 2>&1 \
		>/dev/null); then
		printf '# %s: not compared: %s\n' "$ours" "$(printf '%s\n' "$why" | grep -m1 'pmucheck run:' |
			sed 's/^pmucheck run: //')"
		continue
	fi
	for lv in $levels; do
		level=${lv%%:*} size=${lv##*:}
		for t in $threads; do
			lk=0 pm=0 lk_lo='' pm_lo=''
			for _ in $(seq "$rounds"); do
				# the same measuring time a side: pmucheck runs until its timed calls took as long as
				# likwid-bench's measurement (its Time line), its best run kept
				read -r l lt < <(likwid-bench -t "$theirs" -w "S0:$((size * t / 1000))kB:$t" 2>/dev/null |
					awk '/^MByte\/s:/ {b = $2 / 1000} /^Time:/ {s = $2 + 0} END {printf "%.2f %f\n", b, s}')
				p=0 spent=0
				while :; do
					q=$(pm_once "$ours" "$size" "$t") || exit 1
					p=$(awk -v a="$p" -v b="${q% *}" 'BEGIN { print (b > a) ? b : a }')
					spent=$(awk -v a="$spent" -v b="${q#* }" 'BEGIN { print a + b }')
					awk -v a="$spent" -v b="$lt" 'BEGIN { exit !(a >= b) }' && break
				done
				lk=$(awk -v a="$lk" -v b="${l:-0}" 'BEGIN { print (b > a) ? b : a }')
				pm=$(awk -v a="$pm" -v b="$p" 'BEGIN { print (b > a) ? b : a }')
				lk_lo=$(awk -v a="${lk_lo:-${l:-0}}" -v b="${l:-0}" 'BEGIN { print (b < a) ? b : a }')
				pm_lo=$(awk -v a="${pm_lo:-$p}" -v b="$p" 'BEGIN { print (b < a) ? b : a }')
			done
			ratio=$(awk -v a="$pm" -v b="${lk:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }')
			printf '%-16s %-18s %-5s %3d %10s %10s %7s %15s %15s\n' "$ours" "$theirs" "$level" "$t" "$pm" \
				"${lk:-n/a}" "$ratio" "$pm_lo-$pm" "$lk_lo-$lk"
		done
	done
done
