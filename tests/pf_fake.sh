# pf_fake.sh — fake MSR files for tests/integration/prefetch_*.sh (sourced after tests/lib.sh).
# make_fake DIR CPUID MSR N [HEX]: N CPUs whose MSR starts from a random 64-bit value (or from
# HEX, 16 hex digits, with the CPU number xor'ed into the top byte), kept in DIR.orig.
SESSION=${SESSION:-$TOP/${BUILD:-build}/tests/pf_session}
# Fake CPUs enough for a run pinned to lib.sh's FIRST_CPU, and for CPUs 0 and 1 that tests read.
FAKE_NCPU=$((FIRST_CPU < 1 ? 2 : FIRST_CPU + 1))

make_fake() {
	local dir=$1 cpuid=$2 msr=$3 n=$4 hex=${5:-} c
	mkdir -p "$dir"
	export PMUCHECK_MSR_DIR=$dir PMUCHECK_FAKE_CPUID=$cpuid FAKE_MSR=$msr
	unset PMUCHECK_STATE_DIR
	for ((c = 0; c < n; c++)); do
		mkdir -p "$dir/$c"
		if [ -n "$hex" ]; then perl -e 'print pack "Q<", hex($ARGV[0]) ^ $ARGV[1] << 56' "$hex" $c
		else head -c 8 /dev/urandom; fi | dd of="$dir/$c/msr" bs=1 seek=$((msr)) status=none
		chmod 600 "$dir/$c/msr" # as /dev/cpu/N/msr
	done
	msr_values >"$dir.orig"
}

# The MSR value of every fake CPU, one "cpu value" line each (the value as od -t x8 prints it). One
# perl for all CPUs: the signal tests compare every CPU after each of their few hundred kills, and four
# processes per CPU each time were most of their run time (prefetch_signals.sh: 33 s, 13.5 s with this).
msr_values() {
	perl -e 'for my $f (@ARGV) {
		open(my $h, "<", $f) or die "$f: $!";
		sysseek($h, hex($ENV{FAKE_MSR}), 0);
		sysread($h, my $v, 8) == 8 or die "$f: short";
		printf "%s %016x\n", $f =~ m{([^/]+)/msr$}, unpack("Q<", $v);
	}' "$PMUCHECK_MSR_DIR"/*/msr
}

# Value of one CPU as a shell number, now and at the start.
msr_of() { local v; v=$(od -A n -t x8 -j $((FAKE_MSR)) -N 8 "$PMUCHECK_MSR_DIR/$1/msr"); echo $((0x${v// /})); }
orig_of() { echo $((0x$(awk -v cpu="$1" '$1 == cpu { print $2 }' "$PMUCHECK_MSR_DIR.orig"))); }

at_original() { msr_values | cmp -s - "$PMUCHECK_MSR_DIR.orig"; }
