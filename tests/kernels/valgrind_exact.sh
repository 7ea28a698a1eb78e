#!/bin/bash
# valgrind_exact.sh — every kernel variant up to 256 bits, for several sizes, repetition counts and
# arguments, run once under valgrind: what valgrind counts inside the kernel function must equal the
# descriptor's volumes exactly. The cases come from the registry (kern_drive --cases derives them from
# each descriptor: several block counts, one and several passes, the largest, the --quick and no
# argument), so a registered variant is never left out.
#   cachegrind: Ir, Dr, Dw of the kernel's symbol = instructions, loads, stores
#   lackey:     bytes of the data reads / writes issued by instructions inside the kernel's address
#               range = bytes_loaded, bytes_stored (and no read-modify-write access at all); the
#               distinct 64-byte lines of the arrays its loads touch (both lines of a split load),
#               times the passes = lines_demand_read (every pass reads the same lines). lines_read
#               and lines_written are not checked here: the write-allocate reads are the cache's
#               doing, which no instruction trace shows (tests/unit/test_kern_volumes.c pins
#               lines_read = lines_demand_read + one write-allocate read per line normal stores write).
# AVX-512 variants are skipped: valgrind cannot execute them (tests/kernels/avx512_disasm.sh checks
# them by disassembly). Runs with --vex-guest-chase=no: with chasing on, valgrind 3.19 over-counts
# Ir for loops whose conditional back edge it chases (seen: +6 on a 4-block load loop). And with
# --vex-iropt-level=0: VEX's optimiser drops a load whose register is overwritten before any use, so the
# load kernels' plain moves counted 8 loads per 64-load block (Dr 49 where 385 were executed).
. "$(dirname "$0")/../lib.sh"
BUILD=${BUILD:-build}
DRIVE=$TOP/$BUILD/tests/kern_drive

if ! command -v valgrind >/dev/null; then
	skip "valgrind exactness" "valgrind is not installed"
	exit 0
fi
[ -x "$DRIVE" ] || make -s -C "$TOP" "$BUILD/tests/kern_drive" >/dev/null || {
	notok "build the kernel driver" "make $BUILD/tests/kern_drive failed"
	exit 1
}

# Sums cachegrind's Ir Dr Dw over every line attributed to function $2 in file $1.
cg_sum() {
	awk -v fn="$2" '/^fn=/ { cur = substr($0, 4) }
		/^[0-9]/ && cur == fn { ir += $2; dr += $5; dw += $8 }
		END { printf "%d %d %d\n", ir, dr, dw }' "$1"
}

# From a lackey trace $1: instructions and bytes read / written / modified by the instructions at
# addresses [$2, $3) (8-digit lower-case hex, as lackey prints them), and the distinct 64-byte lines
# of [$4, $4 + $5) (decimal) that their loads touch.
lk_sum() {
	awk -v lo="$2" -v hi="$3" -v blo="$4" -v bhi="$(($4 + $5))" '
		function hex(s, i, v) { v = 0; s = tolower(s)	# mawk has no strtonum; < 2^53 is exact
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		/^I/ {	# concatenation forces string comparison ("00403e63" would compare as a number)
			split($2, a, ","); x = a[1] ""
			in_fn = length(x) == 8 && x >= lo "" && x < hi ""; n += in_fn; next }
		!in_fn { next }
		{ split($2, a, ","); b[$1] += a[2] }
		$1 == "L" { at = hex(a[1]); if (at >= blo && at < bhi) {
			line[int(at / 64)] = 1; line[int((at + a[2] - 1) / 64)] = 1 } }
		END { for (l in line) lines++
			printf "%d %d %d %d %d\n", n, b["L"], b["S"], b["M"], lines }' "$1"
}

vol() { sed -n "s/^$1=//p" "$2"; }

# One case: variant, bytes, reps, arg, 1 to check bytes with lackey too (once per variant: the widths
# do not change with the sizes, and each valgrind start costs a quarter second), and the buffer's bytes
# where the call covers a part of it (empty: all of it).
run_case() {
	local v=$1 bytes=$2 reps=$3 arg=$4 with_bytes=$5 buffer=$6 name="$1 bytes=$2 reps=$3 arg=$4${6:+ of a $6-byte buffer}"
	local out=$TMP/$v.$bytes.$reps.$arg.$6 fn sym size lo hi cg lk want_cg want_lk
	if ! valgrind -q --tool=cachegrind --cache-sim=yes --vex-guest-chase=no --vex-iropt-level=0 \
		--cachegrind-out-file="$out.cg" "$DRIVE" "$v" "$bytes" "$reps" "$arg" $buffer >"$out.vol" 2>"$out.err"; then
		notok "$name" "cachegrind run failed: $(head -3 "$out.err")"
		return
	fi
	fn=$(vol fn "$out.vol")
	read -r sym size < <(awk -v a="$(printf '%016x' "$fn")" '$1 == a && $3 ~ /^[tT]$/ { print $4, $2 }' "$TMP/nm")
	if [ -z "$sym" ]; then
		notok "$name" "no symbol at $fn"
		return
	fi
	lo=$(printf '%08x' "$fn")
	hi=$(printf '%08x' $((fn + 0x$size)))
	cg=$(cg_sum "$out.cg" "$sym")
	want_cg="$(vol instructions "$out.vol") $(vol loads "$out.vol") $(vol stores "$out.vol")"
	if [ "$cg" != "$want_cg" ]; then
		notok "$name" "cachegrind Ir Dr Dw = $cg, descriptor says $want_cg"
		return
	fi
	if [ "$with_bytes" != 1 ]; then
		ok "$name: Ir Dr Dw $cg"
		return
	fi
	if ! valgrind -q --tool=lackey --trace-mem=yes --vex-guest-chase=no --vex-iropt-level=0 --log-file="$out.lk" \
		"$DRIVE" "$v" "$bytes" "$reps" "$arg" $buffer >"$out.lkvol" 2>"$out.err"; then
		notok "$name" "lackey run failed: $(head -3 "$out.err")"
		return
	fi
	lk=$(lk_sum "$out.lk" "$lo" "$hi" "$(vol buf "$out.lkvol")" "$(vol span "$out.lkvol")")
	read -r _ _ _ _ lines <<<"$lk"
	lk="${lk% *} $((lines * reps))"
	want_lk="$(vol instructions "$out.vol") $(vol bytes_loaded "$out.vol") $(vol bytes_stored "$out.vol") 0"
	want_lk="$want_lk $(vol lines_demand_read "$out.vol")"
	if [ "$lk" != "$want_lk" ]; then
		notok "$name" "lackey instructions, bytes read/written/modified, demand lines = $lk, descriptor says $want_lk"
	else
		ok "$name: Ir Dr Dw $cg, bytes read/written ${want_lk#* } (last: demand lines)"
	fi
}

nm -S "$DRIVE" | awk 'NF == 4' >"$TMP/nm"
"$DRIVE" --cases >"$TMP/cases" && [ -s "$TMP/cases" ] || {
	notok "kern_drive --cases" "it listed no case"
	exit 1
}
# One job per CPU; each case writes its TAP line to its own file, printed in order at the end.
jobs_max=$(nproc)
n=0
prev=""
while read -r v isa bytes reps arg buffer; do
	first=0
	if [ "$v" != "$prev" ]; then
		first=1 # the first case of each variant also has its bytes checked
		prev=$v
		why=""
		[ $((isa & 8)) -ne 0 ] && why="AVX-512: valgrind cannot run it (checked by avx512_disasm.sh)"
		[ $((isa & 4)) -ne 0 ] && ! grep -qw avx2 /proc/cpuinfo && why="this CPU lacks AVX2"
		[ $((isa & 2)) -ne 0 ] && ! grep -qw avx /proc/cpuinfo && why="this CPU lacks AVX"
		if [ -n "$why" ]; then
			skip "$v" "$why" >"$TMP/tap.$n"
			n=$((n + 1))
		fi
	fi
	[ -n "$why" ] && continue
	[ "$(jobs -rp | wc -l)" -ge "$jobs_max" ] && wait -n
	# a call over a part of its buffer: lackey shows that its loads met that part's lines only
	[ -n "$buffer" ] && first=1
	run_case "$v" "$bytes" "$reps" "$arg" "$first" "$buffer" >"$TMP/tap.$n" &
	n=$((n + 1))
done <"$TMP/cases"
wait
for ((i = 0; i < n; i++)); do cat "$TMP/tap.$i"; done
