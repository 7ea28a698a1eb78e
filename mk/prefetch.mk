# The prefetcher session program the signal and lock tests kill (tests/integration/prefetch_*.sh).
PF_SESSION := $(BUILD)/tests/pf_session

$(PF_SESSION): tests/pf_session.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

unit-tests: $(PF_SESSION)
