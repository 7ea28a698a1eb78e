# fuzz.mk — libFuzzer targets (clang -fsanitize=fuzzer,address,undefined), each with a seed corpus and
# a dictionary in tests/fuzz/:
#   cfg    the config loader (cfg_load_stream; with the prefetcher layouts it names, pf_table.c, and the
#          kernel names' rules, kernels/kern_names.c)
#                                                     seeds: configs/, tests/fuzz/seeds/
#   spec   the event-spec parser (ctr_perf_parse against a fake sysfs tree, ctr_resolve)
#                                                     seeds: the specs of configs/*.ini, tests/fuzz/seeds-spec/
#   raw    the results readers (raw_read, machine_read) seeds: tests/fuzz/seeds-raw/
#          (with the kernels' name tables and limits, kernels/kern_names.c, kern_limits.c)
#
#   make fuzz                  every target for FUZZ_TIME seconds each (default 600)
#   make fuzz-spec FUZZ_TIME=60
# A crashing or leaking input is saved as build/fuzz/crash-<sha1> or leak-<sha1> (rerun:
# LSAN_OPTIONS=suppressions=tests/lsan.supp build/fuzz/fuzz_<target> FILE).
# New inputs that libFuzzer finds are kept in FUZZ_CORPUS/corpus-<target> (default build/fuzz). The test
# suite runs every target the same way for FUZZ_SECONDS (default 20) each: tests/integration/fuzz.sh.
# Leaks of other libraries (PAPI's) are suppressed by tests/lsan.supp; pmucheck's own still stop a run.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 600
FUZZ_DIR   := build/fuzz
FUZZ_CORPUS ?= $(FUZZ_DIR)
# the path in double quotes: the sanitizers' option parser ends a value at a space
FUZZ_LSAN  := suppressions="$(abspath tests/lsan.supp)":print_suppressions=0
FUZZ_FLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(INC_ALL)

FUZZ_CFG     := $(FUZZ_DIR)/fuzz_cfg
FUZZ_CFG_SRC := tests/fuzz/fuzz_cfg.c $(wildcard harness/config/*.c) harness/counters/ctr_syntax.c \
	harness/prefetch/pf_table.c harness/machine/cpu_id.c kernels/kern_names.c $(wildcard common/*.c)
FUZZ_SPEC     := $(FUZZ_DIR)/fuzz_spec
FUZZ_SPEC_SRC := tests/fuzz/fuzz_spec.c $(wildcard harness/counters/ctr*.c) harness/counters/boxes.c \
	$(wildcard common/*.c)
FUZZ_RAW     := $(FUZZ_DIR)/fuzz_raw
FUZZ_RAW_SRC := tests/fuzz/fuzz_raw.c $(wildcard analysis/*.c) $(wildcard common/*.c) kernels/kern_names.c \
	kernels/kern_limits.c
# The real specs, one per file as libFuzzer wants them (no line end: that would be part of the spec).
FUZZ_SPEC_CFG_SEEDS := $(FUZZ_DIR)/seeds-spec-configs

# How each target is run: binary, then its options and corpus directories (the first one collects).
FUZZ_RUN_cfg  = $(FUZZ_CFG) -dict=tests/fuzz/cfg.dict -max_len=16384 \
	$(FUZZ_CORPUS)/corpus-cfg tests/fuzz/seeds configs
FUZZ_RUN_spec = $(FUZZ_SPEC) -dict=tests/fuzz/spec.dict -max_len=600 \
	$(FUZZ_CORPUS)/corpus-spec tests/fuzz/seeds-spec $(FUZZ_SPEC_CFG_SEEDS)
FUZZ_RUN_raw  = $(FUZZ_RAW) -dict=tests/fuzz/raw.dict -max_len=16384 \
	$(FUZZ_CORPUS)/corpus-raw tests/fuzz/seeds-raw

.PHONY: fuzz fuzz-bins fuzz-cfg fuzz-spec fuzz-raw fuzz-cfg-bin
fuzz-bins: $(FUZZ_CFG) $(FUZZ_SPEC) $(FUZZ_RAW) $(FUZZ_SPEC_CFG_SEEDS)
fuzz-cfg-bin: $(FUZZ_CFG)

# Each target compiles its sources in one command, without .d files: it depends on every header they may
# include (a header listed by hand was soon one short).
FUZZ_HEADERS := $(wildcard common/*.h kernels/*.h harness/*/*.h analysis/*.h)

$(FUZZ_CFG): $(FUZZ_CFG_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_CFG_SRC) -linih -ljansson -lm

$(FUZZ_SPEC): $(FUZZ_SPEC_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_SPEC_SRC) -lpapi -lpfm -ljansson -lm

$(FUZZ_RAW): $(FUZZ_RAW_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_RAW_SRC) -ljansson -lm

$(FUZZ_SPEC_CFG_SEEDS): $(wildcard configs/*.ini)
	@rm -rf $@ && mkdir -p $@
	@sed -n 's/^spec *= *//p' $^ | sort -u | \
		awk -v d=$@ '{ f = sprintf("%s/cfg%03d", d, NR); printf "%s", $$0 > f; close(f) }'

fuzz: fuzz-cfg fuzz-spec fuzz-raw

fuzz-cfg fuzz-spec fuzz-raw: fuzz-%: fuzz-bins
	@mkdir -p $(FUZZ_CORPUS)/corpus-$*
	LSAN_OPTIONS='$(FUZZ_LSAN)' $(FUZZ_RUN_$*) -max_total_time=$(FUZZ_TIME) -artifact_prefix=$(FUZZ_DIR)/
