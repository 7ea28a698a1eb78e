# configs.mk — the config event-name checker (tests/tools/cfg_evcheck), built with the unit tests
# because tests/integration/configs.sh runs it. It needs libpfm4's tables (libpfm4-dev).
CFG_EVCHECK := $(BUILD)/tests/tools/cfg_evcheck

$(CFG_EVCHECK): tests/tools/cfg_evcheck.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lpfm

unit-tests: $(CFG_EVCHECK)
