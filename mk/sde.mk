# sde.mk — the SDE test library (tests/sde/) and the unit tests that link it.
#
# PAPI's SDE component is enabled only in a process that has libsde loaded: it looks the sde_ti_*
# symbols up in the running executable ("libsde API not found. No SDEs exist in this executable"
# otherwise). Linking test_ctr_sde against this library, which needs libsde, is what enables it; the
# pmucheck binary itself has no SDEs and keeps the component disabled.
SDE_LIB := $(BUILD)/tests/sde/libpmucheck_sdetest.so
# Found beside the test programs wherever the tree is and whatever the working directory (a path of its own
# broke on a space in it): by its soname, which without one the programs recorded as the relative path
# they were linked with.
SDE_RPATH := -Wl,-rpath,'$$ORIGIN/../sde'

$(SDE_LIB): tests/sde/sdetest.c tests/sde/sdetest.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -shared -Wl,-soname,$(notdir $@) -o $@ $< -lsde

$(BUILD)/tests/unit/test_ctr_sde: $(SDE_LIB)
$(BUILD)/tests/unit/test_ctr_sde: override LDLIBS += $(SDE_LIB) $(SDE_RPATH)

# The discover command end to end, SDE events standing in for hardware ones.
$(BUILD)/tests/unit/test_discover_sde: $(SDE_LIB)
$(BUILD)/tests/unit/test_discover_sde: override LDLIBS += $(SDE_LIB) $(SDE_RPATH)
