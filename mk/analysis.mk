# analysis.mk — the synthetic results generator the analysis tests use (tests/tools/rawgen).
# It borrows only the volume names from raw_read.o (and err.o, kern_names.o, noisy_why.o, raw_scan.o, level.o
# and plain_file.o, which that object needs).
RAWGEN := $(BUILD)/tests/tools/rawgen
RAWGEN_OBJ := $(BUILD)/analysis/raw_read.c.o $(BUILD)/common/err.c.o $(BUILD)/kernels/kern_names.c.o \
	$(BUILD)/common/noisy_why.c.o $(BUILD)/common/raw_scan.c.o $(BUILD)/common/level.c.o \
	$(BUILD)/common/plain_file.c.o

$(RAWGEN): tests/tools/rawgen.c tests/tools/rawgen.h tests/tools/events.h $(RAWGEN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_analysis) -Itests/tools $(LDFLAGS) -o $@ $< $(RAWGEN_OBJ) -lm

unit-tests: $(RAWGEN)
