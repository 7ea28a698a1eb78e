# bench.mk — benchmarks: what a shared machine can fail without a bug (speed, latency, clocks), kept out
# of `make test`. Each tests/bench/*.sh and each cmocka program built from tests/bench/*.c runs through
# tests/run.sh, which prints every figure and verdict and ends with "N passed, N failed, N skipped".
BENCH_BIN := $(patsubst tests/bench/%.c,$(BUILD)/tests/bench/%,$(wildcard tests/bench/*.c))
# The memory read loop that shares no code with pmucheck (tests/bench/memory_drift.sh).
MEM_DRIFT := $(BUILD)/tests/tools/mem_drift

$(MEM_DRIFT): tests/tools/mem_drift.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

# make bench: every benchmark; make bench BENCH=PATTERN: those whose path contains PATTERN.
bench: pmucheck $(BENCH_BIN) $(RAWGEN) $(MEM_DRIFT)
	SUITES=bench VERBOSE=1 tests/run.sh $(BENCH)

# make repeatability: two consecutive --quick runs, their peak tables compared, and a third with the second's
# level sizes (one of the benchmarks).
repeatability: pmucheck
	SUITES=bench VERBOSE=1 tests/run.sh bench/repeatability.sh

# make bench-compare: pmucheck's kernels against likwid-bench's, same CPUs, threads and sizes.
bench-compare: pmucheck
	@dpkg-query -W -f='$${Status}' likwid 2>/dev/null | grep -q "install ok installed" || \
		{ [ "$$(id -u)" -eq 0 ] && apt-get install -y -qq likwid >&2 || \
		  { echo "run as root: apt-get install -y likwid" >&2; exit 1; }; }
	scripts/bench-compare.sh $(KERNELS)
