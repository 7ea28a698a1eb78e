# pmucheck — build, test and run. `make run` and `make test` install missing Debian packages first.
ifeq ($(origin CC),default)
CC      := gcc
endif
BUILD   ?= build
CFLAGS  ?= -O2 -g
# What the sources need whatever CFLAGS, LDFLAGS or LDLIBS a user gives (`make CFLAGS=-O0`, which a plain
# += would lose: the OpenMP pragmas then compile to nothing): override appends to the user's value.
# -Wno-format-truncation is gcc's (clang warned on every file that it knows no such option)
CC_IS_CLANG := $(findstring clang,$(shell $(CC) --version 2>/dev/null))
override CFLAGS  += -std=gnu11 -Wall -Wextra -Wshadow -fopenmp $(if $(CC_IS_CLANG),,-Wno-format-truncation)
override ASFLAGS += -g -Ikernels

# The layers (docs/architecture.md): commands -> {harness, analysis} -> {kernels, common}. Each layer's
# sources see only the headers of the layers below it, so an upward or sideways include does not compile.
HARNESS_DIRS := $(patsubst %/,%,$(sort $(dir $(wildcard harness/*/*.c))))
INC_kernels  := -Ikernels
INC_common   := -Icommon
INC_harness  := $(INC_common) $(INC_kernels) $(HARNESS_DIRS:%=-I%)
INC_analysis := $(INC_common) $(INC_kernels) -Ianalysis
INC_commands := $(INC_harness) -Ianalysis -Icommands
INC_ALL      := $(INC_commands)
NPROC   := $(shell nproc 2>/dev/null || echo 1)
override LDLIBS  += -lpapi -lpfm -lnuma -lhwloc -linih -ljansson -lm
override LDFLAGS += -fopenmp

# Sanitizer build for the test suite: make SAN=1 (objects go to build-san/).
ifeq ($(SAN),1)
BUILD   := build-san
override CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
endif

SRC_C   := $(wildcard kernels/*.c common/*.c harness/*/*.c analysis/*.c commands/*.c)
SRC_S   := $(wildcard kernels/*.S)
# A family is kernels/<name>.S plus kernels/<name>.c: objects keep the source suffix so they do not collide.
OBJ     := $(SRC_C:%.c=$(BUILD)/%.c.o) $(SRC_S:%.S=$(BUILD)/%.S.o)
# Everything but main: the unit tests link these objects directly (not an archive: the kernel and
# command registries live in linker sections that an archive would drop).
LIB_OBJ := $(filter-out $(BUILD)/commands/main.c.o,$(OBJ))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)

.PHONY: all deps deps-test run test clean bench bench-compare unit-tests repeatability
all: pmucheck

# ./pmucheck is the plain build's: another (SAN=1, BUILD=DIR) stays in its own directory.
ifeq ($(BUILD),build)
pmucheck: $(BUILD)/pmucheck
	cp $< $@
else
pmucheck: $(BUILD)/pmucheck
endif

$(BUILD)/pmucheck: $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INC_$(firstword $(subst /, ,$<))) -MMD -MP -c -o $@ $<

$(BUILD)/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ASFLAGS) -MMD -MP -c -o $@ $<

# cmocka programs, one source file each: the unit tests, and the C benchmarks of tests/bench/ (mk/bench.mk),
# which share the unit tests' helper headers and those of tests/tools/; each has its .d as the objects do.
$(BUILD)/tests/%: tests/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INC_ALL) -Itests $(LDFLAGS) -MMD -MP -MF $@.d -o $@ $< $(LIB_OBJ) $(LDLIBS) -lcmocka

unit-tests: $(UNIT_BIN)

deps:
	@scripts/deps.sh run

deps-test:
	@scripts/deps.sh test

# The default validation of this machine: run + analyze + report, then say where the report is. Its 5
# minutes (issue 14) count from the build on, the build included (the packages come before it: a download
# takes the network's time): the run gets what the build left of them, less RUN_AFTER_S for the analysis
# and report after it (3 s for a default run on the Zen 3 guest), and never under 60 s, --quick's budget
# (a build past 3 min 50 s, as on no machine measured, then goes past the 5 minutes). A run given all
# 300 s after a 30-40 s build made `make run` about 5.5 minutes on a slow day there (2026-12-01: the plan
# took 215 s, the revisits 58 s).
RUN_PROMISE_S = 300
RUN_AFTER_S = 10
# The clock is kept in a file, not the shell, so that the build stays a line of its own (make -n runs a
# line that holds $(MAKE), and would run the validation with it).
run: deps
	@mkdir -p $(BUILD) && date +%s >$(BUILD)/run-began
	$(MAKE) pmucheck
	@left=$$(($(RUN_PROMISE_S) - $(RUN_AFTER_S) - ($$(date +%s) - $$(cat $(BUILD)/run-began)))); \
	[ "$$left" -ge 60 ] || left=60; \
	echo "$(BUILD)/pmucheck --time-budget $$left"; \
	$(BUILD)/pmucheck --time-budget "$$left"

test: deps-test
	$(MAKE) -j$(NPROC) pmucheck unit-tests
	tests/run.sh

# A BUILD=DIR of the user's is theirs to remove: an rm -rf of the variable removes whatever it names
# (BUILD=. or a typo'd path).
clean:
	rm -rf build build-san pmucheck

# Further rules (fuzz targets, test helper libraries, benchmarks) live in mk/*.mk.
-include $(wildcard mk/*.mk)
-include $(OBJ:.o=.d)
-include $(wildcard $(BUILD)/tests/*/*.d)
