# unit_wrap.mk — unit tests that stand in for calls this machine cannot answer as a machine with a PMU
# would, with the linker's --wrap: a call from the objects under test to F goes to the test's __wrap_F,
# which may call the library's as __real_F (ld(1)). test_ctr_papi_domain: PAPI refuses every domain here.
# test_ctr_spec_intel: an Intel CPU's fixed counters, on any CPU.
$(BUILD)/tests/unit/test_ctr_papi_domain: override LDLIBS += -Wl,--wrap=ctr_hardware_available \
	-Wl,--wrap=PAPI_set_opt -Wl,--wrap=PAPI_add_event -Wl,--wrap=PAPI_create_eventset
$(BUILD)/tests/unit/test_ctr_spec_intel: override LDLIBS += -Wl,--wrap=ctr_on_fixed_counter
