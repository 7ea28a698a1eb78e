#!/bin/bash
# configs_encodings.sh — the encodings in configs/ that tests/vendor_encodings.txt pins to a vendor's
# published value (Intel perfmon, the kernel's pmu-events JSON) are still those values: each listed event
# must be a perf spec whose terms equal the expected ones (any order, numbers by value).
. "$(dirname "$0")/../lib.sh"
LIST=$TOP/tests/vendor_encodings.txt

# "event=0xbb,umask=0x01" -> "event=187\numask=1" sorted: one canonical line per term
canon() {
	tr ',' '\n' <<<"$1" | while IFS='=' read -r k v; do
		[ -n "$k" ] && printf '%s=%d\n' "$k" "$((v))"
	done | sort
}

trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$1"; }

n=0
while IFS='|' read -r file event want source; do
	file=$(trim "$file") event=$(trim "$event") want=$(trim "$want") source=$(trim "$source")
	case $file in '' | '#'*) continue ;; esac
	n=$((n + 1))
	spec=$(awk -v ev="[event $event]" '$0 == ev {in_ev = 1; next} /^\[/ {in_ev = 0}
		in_ev && $1 == "spec" {sub(/^spec *= */, ""); print; exit}' "$TOP/configs/$file")
	terms=$(sed -n 's|^[a-z_0-9*]*/\(.*\)/[a-zA-Z]*$|\1|p' <<<"$spec")
	if [ -z "$spec" ]; then
		notok "$file $event: vendor encoding" "no such event"
	elif [ -z "$terms" ]; then
		notok "$file $event: vendor encoding" "spec '$spec' is not in perf syntax; expected $want ($source)"
	elif [ "$(canon "$terms")" = "$(canon "$want")" ]; then
		ok "$file $event: $want ($source)"
	else
		notok "$file $event: vendor encoding" "spec '$spec', expected $want ($source)"
	fi
done <"$LIST"
[ "$n" -ge 2 ] && ok "$n vendor encodings listed" || notok "vendor encodings listed" "only $n"
