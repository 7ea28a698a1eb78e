#!/bin/bash
# avx512_disasm.sh — the AVX-512 variants, which valgrind cannot run, checked by disassembly: the
# unrolled loop body of each kernel must hold exactly the instructions, 64-byte zmm loads and zmm
# stores that the descriptor adds per block (its volumes for 2 blocks minus those for 1 block), and
# no other memory access.
. "$(dirname "$0")/../lib.sh"
BUILD=${BUILD:-build}
DRIVE=$TOP/$BUILD/tests/kern_drive

command -v objdump >/dev/null || { skip "avx512 disassembly" "objdump (binutils) is not installed"; exit 0; }
[ -x "$DRIVE" ] || make -s -C "$TOP" "$BUILD/tests/kern_drive" >/dev/null || {
	notok "build the kernel driver" "make $BUILD/tests/kern_drive failed"
	exit 1
}

vol() { "$DRIVE" -n "$1" "$2" 1 0 | sed -n "s/^$3=//p"; }

# Instructions, zmm loads, zmm stores and other memory accesses of the loop body of symbol $1: from
# the target of the first backward conditional jump to that jump. AT&T order: a memory operand
# that comes last is a store's destination, one before the last a load's source.
body_counts() {
	objdump -d --no-show-raw-insn "--disassemble=$1" "$DRIVE" | awk '
		/^ *[0-9a-f]+:\t/ { addr = $1; sub(":", "", addr); line[++n] = $0; at[n] = addr }
		END {
			for (i = 1; i <= n; i++) {
				if (line[i] !~ /\tj(ne|nz)  *[0-9a-f]+ /) continue
				split(line[i], f, /[ \t]+/)
				for (j = 1; j <= i; j++) if (at[j] == f[4]) break
				if (j > i) continue
				for (k = j; k <= i; k++) {
					insn++
					if (line[k] !~ /\(/) continue
					if (line[k] !~ /%zmm/) other++
					else if (line[k] ~ /\)$/) st++
					else ld++
				}
				printf "%d %d %d %d\n", insn, ld, st, other
				exit
			}
		}'
}

found=0
while read -r v isa granule _argmax; do
	[ $((isa & 8)) -ne 0 ] || continue
	found=1
	fn=$("$DRIVE" -n "$v" "$granule" 1 0 | sed -n 's/^fn=//p')
	sym=$(nm "$DRIVE" | awk -v a="$(printf '%016x' "$fn")" '$1 == a && $2 ~ /^[tT]$/ { print $3 }')
	want=""
	for q in instructions loads stores; do
		want="$want $(($(vol "$v" $((2 * granule)) $q) - $(vol "$v" "$granule" $q)))"
	done
	want="${want# } 0"
	got=$(body_counts "$sym")
	bytes=$(($(vol "$v" $((2 * granule)) bytes_loaded) - $(vol "$v" "$granule" bytes_loaded) +
		$(vol "$v" $((2 * granule)) bytes_stored) - $(vol "$v" "$granule" bytes_stored)))
	read -r _ ld st _ <<<"$got"
	if [ "$got" != "$want" ]; then
		notok "$v loop body" "instructions, zmm loads, zmm stores, other accesses = $got; descriptor per block: $want"
	elif [ "$bytes" -ne $((64 * (ld + st))) ]; then
		notok "$v loop body" "descriptor's bytes per block $bytes are not 64 per zmm access ($ld + $st)"
	else
		ok "$v loop body: $got (instructions, zmm loads, zmm stores, other accesses), $bytes bytes"
	fi
done < <("$DRIVE" --list)
[ "$found" = 1 ] || notok "AVX-512 variants" "the registry lists none"
