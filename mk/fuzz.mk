# fuzz.mk — libFuzzer target for the config loader (clang -fsanitize=fuzzer).
#   make fuzz-cfg              fuzz for FUZZ_TIME seconds (default 600), corpus kept in build/fuzz/corpus-cfg
#   make fuzz-cfg FUZZ_TIME=60
# The test suite runs the same binary for ~20 s (tests/integration/configs_fuzz.sh).
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 600
FUZZ_CFG   := build/fuzz/fuzz_cfg
FUZZ_CFG_SRC := tests/fuzz/fuzz_cfg.c $(wildcard harness/cfg*.c) harness/err.c harness/cli.c

.PHONY: fuzz-cfg fuzz-cfg-bin
fuzz-cfg-bin: $(FUZZ_CFG)

$(FUZZ_CFG): $(FUZZ_CFG_SRC) $(wildcard harness/cfg*.h) harness/err.h harness/cli.h kernels/kern.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-Iharness -Ikernels -o $@ $(FUZZ_CFG_SRC) -linih

fuzz-cfg: $(FUZZ_CFG)
	@mkdir -p build/fuzz/corpus-cfg
	$(FUZZ_CFG) -max_total_time=$(FUZZ_TIME) -dict=tests/fuzz/cfg.dict -max_len=16384 \
		build/fuzz/corpus-cfg tests/fuzz/seeds configs
